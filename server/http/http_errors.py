"""Django's error views, answered in JSON under ``/api/``: an API client never parses an HTML page.

A URL that matches no pattern (an unknown path, or an id too large for any row, see
server/http/converters.py) is a 404 like the views' own: ``{"detail", "code": "not_found"}``.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": f"no such resource: {request.path[:200]}", "code": "not_found"}, status=404)
    return defaults.page_not_found(request, exception)

"""Refuse a URL whose path or query carries a NUL character, before any view sees it.

PostgreSQL text cannot hold NUL (``DataError``: a 500), SQLite compares it like any
other character, and no name, id or filter of ours contains one: a request with one
is hostile or broken.  One check here covers every path and query parameter, including
free text (player names, history filters) that no converter or serializer constrains.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

NUL = "\x00"
DETAIL = "a URL may not contain a NUL character (%00)"


class RefuseNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if NUL in request.path or any(NUL in k or NUL in v for k, values in request.GET.lists() for v in values):
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": DETAIL, "code": "bad_request"}, status=400)
            return HttpResponseBadRequest(DETAIL, content_type="text/plain; charset=utf-8")
        return self.get_response(request)

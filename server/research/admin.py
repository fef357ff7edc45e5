"""Admin: export the matches selected in the match list (the Match admin offers this action)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, StreamingHttpResponse

from server.matches.models import Match
from server.research.filters import ExportFilters
from server.research.permissions import user_is_researcher
from server.research.streaming import export_response


@admin.action(description="Export selected matches as JSONL (research export)")
def export_selected_matches(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Match]) -> StreamingHttpResponse:
    """The selected matches, whatever their status, as the ``games.jsonl`` export streams them."""
    if not user_is_researcher(request.user):
        raise PermissionDenied("research exports need the researcher permission")
    return export_response(request, ExportFilters(statuses=(), within=queryset), "jsonl")

"""A finished match's analysis: the strongest bot's view of every position, ply by ply."""

from __future__ import annotations

from django.db import models

from server.matches.models import Match
from server.players.models import Player


class Analysis(models.Model):
    """One per match: asking again returns this one (running or done), never a second job."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveIntegerField(default=0)  # positions searched so far
    total = models.PositiveIntegerField(default=0)  # positions to search: one per move by a seat
    # The search that judges: ``{"profile": the strongest profile's slug, "config": its
    # `ai.SearchConfig` fields}``.  Stored in the column its former name gave it.
    search = models.JSONField(default=dict, db_column="engine")
    # One search result per position, in order (best move, value for the mover, depth, nodes).
    positions = models.JSONField(default=list)
    # The finished analysis, one entry per move: see `server.analysis.positions.ply_results`.
    plies = models.JSONField(default=list)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)  # its last step or restart: a stalled job is found by it
    restarts = models.PositiveSmallIntegerField(default=0)  # times it was queued again after stalling
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "analyses"

    def __str__(self) -> str:
        return f"analysis of match {self.match_id} ({self.status} {self.progress}/{self.total})"

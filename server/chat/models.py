"""Chat in the match room: the players' room and the spectators' room, and who may not post."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone

from server.matches.models import Match
from server.players.models import Player


class ChatMessage(models.Model):
    """One line said in a match's room.  Authors are people: bots never chat.

    Staff hide a message (`deleted`) rather than erase it, so a report can still be judged.
    """

    class Room(models.TextChoices):
        PLAYERS = "players"  # the seated people, between themselves
        SPECTATORS = "spectators"  # everyone else watching; the players never see it

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat_messages")
    room = models.CharField(max_length=10, choices=Room.choices)
    author = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="chat_messages")
    text = models.CharField(max_length=500)  # the rule is settings.CHAT_MAX_CHARS; the column has room
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    deleted = models.BooleanField(default=False)

    class Meta:
        ordering = ["match", "id"]
        indexes = [
            models.Index(fields=["match", "room", "id"], name="chat_room_lines"),
            models.Index(fields=["author", "created_at"], name="chat_author_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.author} in match {self.match_id} ({self.room}): {self.text[:40]}"


class ChatMute(models.Model):
    """Staff silenced a person in every room, until `until` (for good when it is empty)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="chat_mutes")
    until = models.DateTimeField(null=True, blank=True, help_text="empty: muted until a member of staff lifts it")
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.player} muted until {self.until or 'lifted'}"

    def in_force(self, now: datetime | None = None) -> bool:
        """Whether this mute holds at `now`: for good, or until a time still ahead."""
        return self.until is None or self.until > (now or timezone.now())

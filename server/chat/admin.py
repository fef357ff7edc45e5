"""Staff tools for the chat: hide a message (it disappears from every page at once), mute a person."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from server.chat.models import ChatMessage, ChatMute
from server.chat.services import chat_hide, chat_mute, chat_mutes_changed


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin[ChatMessage]):
    """Messages are read here and hidden, never edited nor erased (a report can still be judged)."""

    list_display = ["id", "created_at", "match", "room", "author", "text", "deleted"]
    list_filter = ["room", "deleted"]
    search_fields = ["text", "author__name"]
    date_hierarchy = "created_at"
    readonly_fields = ["match", "room", "author", "text", "created_at", "deleted"]
    actions = ["hide_messages", "mute_authors_for_a_day"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ChatMessage | None = None) -> bool:
        return False

    @admin.action(description="Delete (hide) the selected messages everywhere")
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        hidden = chat_hide(queryset.values_list("pk", flat=True))
        self.message_user(request, f"{hidden} message(s) hidden.", messages.SUCCESS)

    @admin.action(description="Mute the selected messages' authors for 24 hours")
    def mute_authors_for_a_day(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        until = timezone.now() + timedelta(days=1)
        authors = queryset.values_list("author_id", flat=True)
        muted = chat_mute(authors, until, "muted from the chat messages", request.user)
        self.message_user(request, f"{muted} player(s) muted until {until:%Y-%m-%d %H:%M} UTC.")


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin[ChatMute]):
    list_display = ["player", "until", "reason", "created_at", "created_by"]
    search_fields = ["player__name"]
    raw_id_fields = ["player"]
    readonly_fields = ["created_at", "created_by"]

    # Each way staff add, change or lift a mute tells the person's open match rooms at once.

    def save_model(self, request: HttpRequest, obj: ChatMute, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]  # only staff reach the admin: a User
        super().save_model(request, obj, form, change)
        before = form.initial.get("player")  # a mute moved to another person lifts it for the first
        chat_mutes_changed({obj.player_id} | ({before} if change and before else set()))

    def delete_model(self, request: HttpRequest, obj: ChatMute) -> None:
        super().delete_model(request, obj)
        chat_mutes_changed({obj.player_id})

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[ChatMute]) -> None:
        people = set(queryset.values_list("player_id", flat=True))
        super().delete_queryset(request, queryset)
        chat_mutes_changed(people)

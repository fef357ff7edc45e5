"""The export filters, shared by the API and ``manage.py export_games``: parsed, checked, explained.

Every filter is a query parameter (or a command option of the same name).  Lists are
comma-separated and match any of their values.  A bad value, or an unknown parameter,
is refused with a message per field rather than silently exporting something else.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from typing import Any

from django.db.models import QuerySet
from django.utils.dateparse import parse_date, parse_datetime
from rest_framework import serializers

from games import registry
from server.bots.models import BotProfile
from server.matches.models import Match
from server.players.consent import PURPOSES, Purpose

PAIRINGS = ("human-vs-bot", "bot-vs-bot", "human-vs-human")
RESULTS = ("win", "draw", "human-win", "bot-win")
STATUSES = (*Match.Status.values, "any")
DEFAULT_STATUS = ("finished",)
_SLUG = re.compile(r"[-a-zA-Z0-9_]+")


@dataclass(frozen=True)
class ExportFilters:
    """What to export; empty tuples mean "no restriction"."""

    games: tuple[str, ...] = ()
    since: datetime | None = None  # created_at >= since
    until: datetime | None = None  # created_at < until
    bots: tuple[str, ...] = ()  # bot profile slugs: a match with any of them seated
    pairings: tuple[str, ...] = ()
    results: tuple[str, ...] = ()
    statuses: tuple[str, ...] = DEFAULT_STATUS  # ("any",) for every status
    sources: tuple[str, ...] = ()
    min_plies: int = 0
    max: int | None = None  # at most this many matches
    # What the data is for: a match goes in only when every person seated in it agreed to this use.
    purpose: Purpose = "research"
    within: QuerySet[Match] | None = field(default=None, repr=False)  # e.g. the admin's selection


class CommaListField(serializers.Field[tuple[str, ...], str, str, Any]):
    """``a,b,c`` → ``("a", "b", "c")``, each checked against `choices` (a callable) or as a slug."""

    def __init__(self, choices: Callable[[], Iterable[str]] | Iterable[str] | None = None, **kwargs: Any) -> None:
        self.choices = choices
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> tuple[str, ...]:
        if not isinstance(data, str):
            raise serializers.ValidationError("a comma-separated list")
        values = tuple(dict.fromkeys(v.strip() for v in data.split(",") if v.strip()))
        if not values:
            raise serializers.ValidationError("give at least one value, or leave the filter out")
        known = self.choices() if callable(self.choices) else self.choices
        for value in values:
            if known is not None and value not in known:
                raise serializers.ValidationError(f"unknown value {value!r}; one of {', '.join(known)}")
            if known is None and not _SLUG.fullmatch(value):
                raise serializers.ValidationError(f"{value!r} is not a slug (letters, digits, - and _)")
        return values

    def to_representation(self, value: Any) -> str:
        return ",".join(value)


class MomentField(serializers.Field[datetime, str, str, Any]):
    """An ISO 8601 date (``2026-01-31``, midnight UTC) or date-time (naive means UTC).

    The moment is returned in UTC, and must have a UTC date in years 1 to 9999: the database
    compares in UTC, and ``0001-01-01T00:00+14:00`` (a day before year 1 there) would raise
    inside the streamed export, after its 200 was sent, instead of being refused here.
    """

    def to_internal_value(self, data: Any) -> datetime:
        if isinstance(data, str):
            try:
                moment = parse_datetime(data)
                day = None if moment else parse_date(data)
            except ValueError as exc:
                raise serializers.ValidationError(f"not a valid date: {exc}") from None
            if moment is None and day is not None:
                moment = datetime.combine(day, time.min)
            if moment is not None:
                try:
                    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
                except OverflowError:
                    raise serializers.ValidationError(
                        f"{data} is outside years 1 to 9999 in UTC; give a moment within them"
                    ) from None
        raise serializers.ValidationError("an ISO 8601 date or date-time, e.g. 2026-01-31 or 2026-01-31T12:00:00Z")

    def to_representation(self, value: datetime) -> str:
        return value.isoformat()


class ExportFilterSerializer(serializers.Serializer[Any]):
    game = CommaListField(required=False, choices=lambda: [g.id for g in registry.all()], help_text="game ids")
    since = MomentField(required=False, help_text="matches created at or after this date or date-time (UTC)")
    until = MomentField(required=False, help_text="matches created before this date or date-time (UTC)")
    bot = CommaListField(required=False, help_text="bot profile slugs: matches where one of them has a seat")
    pairing = CommaListField(required=False, choices=PAIRINGS, help_text=", ".join(PAIRINGS))
    result = CommaListField(
        required=False,
        choices=RESULTS,
        help_text="win (a single winner), draw (none), human-win, bot-win (who the winner was)",
    )
    status = CommaListField(
        required=False, choices=STATUSES, help_text="finished (the default), aborted, active, waiting or any"
    )
    source = CommaListField(required=False, help_text="play (games on the site), selfplay, or a dataset's name")  # type: ignore[assignment]  # a field: the metaclass takes it out of the class
    min_plies = serializers.IntegerField(required=False, min_value=0, help_text="at least this many plies")
    max = serializers.IntegerField(required=False, min_value=1, help_text="at most this many matches")
    purpose = serializers.ChoiceField(
        required=False,
        choices=PURPOSES,
        help_text="research (the default) or training (data our bots learn from): only matches whose people "
        "all agreed to that use",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError(
                {name: [f"unknown filter; known: {', '.join(self.fields)}"] for name in unknown}
            )
        if data.get("since") and data.get("until") and data["since"] >= data["until"]:
            raise serializers.ValidationError({"until": ["must be later than since"]})
        if slugs := data.get("bot"):
            found = set(BotProfile.objects.filter(slug__in=slugs).values_list("slug", flat=True))
            if missing := [s for s in slugs if s not in found]:
                raise serializers.ValidationError({"bot": [f"no bot profile {s!r}" for s in missing]})
        return data

    def filters(self) -> ExportFilters:
        data = self.validated_data
        statuses = data.get("status", DEFAULT_STATUS)
        return ExportFilters(
            games=data.get("game", ()),
            since=data.get("since"),
            until=data.get("until"),
            bots=data.get("bot", ()),
            pairings=data.get("pairing", ()),
            results=data.get("result", ()),
            statuses=() if "any" in statuses else statuses,
            sources=data.get("source", ()),
            min_plies=data.get("min_plies", 0),
            max=data.get("max"),
            purpose=data.get("purpose", "research"),
        )


def parse_filters(params: Mapping[str, Any]) -> ExportFilters:
    """Filters from query parameters; `rest_framework.exceptions.ValidationError` (400) when bad."""
    # A repeated parameter (?bot=a&bot=b) means the same as a list (?bot=a,b).
    getlist = getattr(params, "getlist", None)
    flat = {key: ",".join(getlist(key)) if getlist else params[key] for key in params}
    body = ExportFilterSerializer(data=flat)
    body.is_valid(raise_exception=True)
    return body.filters()

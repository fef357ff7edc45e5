"""The shapes the analysis and hint API answers with, for ``/api/schema/``.

They describe `selectors.analysis_json`, `positions.ply_results` and `services.hint_request`;
a change to one changes its serializer here in the same commit.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from server.analysis import positions
from server.analysis.models import Analysis
from server.matches.serializers import ResultSerializer

CLASSES = [name for name, _ in positions.THRESHOLDS]


class AnalysisSearchSerializer(serializers.Serializer[Any]):
    profile = serializers.CharField(allow_null=True, help_text="the bot profile whose search judged the moves")
    is_ai = serializers.BooleanField(help_text="always true")
    algorithm = serializers.CharField(allow_null=True)
    time_budget_ms = serializers.IntegerField(allow_null=True)


class ThresholdsSerializer(serializers.Serializer[Any]):
    blunder = serializers.FloatField()
    mistake = serializers.FloatField()
    inaccuracy = serializers.FloatField()


class AnalysedPlySerializer(serializers.Serializer[Any]):
    """One move by a seat (chance events have none; the roll a move was played with is ``roll``)."""

    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = serializers.CharField()
    roll = serializers.CharField(allow_null=True)
    value = serializers.FloatField(allow_null=True, help_text="the position's value for the mover, before the move")
    seat_values = serializers.ListField(child=serializers.FloatField(allow_null=True))
    best_move = serializers.CharField()
    best_value = serializers.FloatField(allow_null=True)
    played_value = serializers.FloatField(allow_null=True)
    loss = serializers.FloatField(allow_null=True)
    # "class" is a Python keyword: the field is declared under another name and renamed below.
    klass = serializers.ChoiceField(choices=CLASSES, allow_null=True)
    forced = serializers.BooleanField()
    depth = serializers.IntegerField()
    nodes = serializers.IntegerField()
    exact = serializers.BooleanField()


AnalysedPlySerializer._declared_fields["class"] = AnalysedPlySerializer._declared_fields.pop("klass")


class AnalysisSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=Analysis.Status.choices)
    progress = serializers.IntegerField(help_text="positions searched so far")
    total = serializers.IntegerField(help_text="positions to search")
    queue_position = serializers.IntegerField(
        allow_null=True,
        help_text="while queued: analyses asked earlier that still wait to start (0: this one is next); else null",
    )
    search = AnalysisSearchSerializer(help_text="the search that judged the moves")
    engine = AnalysisSearchSerializer(help_text="deprecated: the former name of `search`, the same object")
    max_utility = serializers.FloatField()
    thresholds = ThresholdsSerializer(help_text="the share of max_utility a move loses to be classed so")
    result = ResultSerializer(allow_null=True)
    plies = AnalysedPlySerializer(many=True, help_text="empty until the analysis is done")
    error = serializers.CharField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class HintSerializer(serializers.Serializer[Any]):
    type = serializers.ChoiceField(choices=["hint"])
    seat = serializers.IntegerField()
    ply = serializers.IntegerField()
    move = serializers.CharField(help_text="the best move found")
    value = serializers.FloatField(help_text="its value for the seat to move")
    depth = serializers.IntegerField()
    nodes = serializers.IntegerField()
    profile = serializers.CharField(allow_null=True, help_text="the bot profile whose search found it")
    engine = serializers.CharField(allow_null=True, help_text="deprecated: the former name of `profile`, the same slug")
    is_ai = serializers.BooleanField(help_text="always true: the hint comes from a search")
    v = serializers.IntegerField(help_text="the match's event version after the hint was logged")

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


class ChancesSerializer(serializers.Serializer[Any]):
    shown_as = serializers.ChoiceField(choices=["pawns", "chances", "equity"])
    unit = serializers.FloatField(allow_null=True, help_text="the value of one pawn (chess), else null")
    slope = serializers.FloatField(help_text="expected score = 1 / (1 + exp(-slope * value))")


class ThresholdsSerializer(serializers.Serializer[Any]):
    blunder = serializers.FloatField()
    mistake = serializers.FloatField()
    inaccuracy = serializers.FloatField()


class AnalysedPlySerializer(serializers.Serializer[Any]):
    """One move by a seat (chance events have none; the roll a move was played with is ``roll``)."""

    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = serializers.CharField()
    notation = serializers.CharField(help_text="the move as players write it (SAN in chess)")
    roll = serializers.CharField(allow_null=True)
    value = serializers.FloatField(allow_null=True, help_text="the position's value for the mover, before the move")
    seat_values = serializers.ListField(child=serializers.FloatField(allow_null=True))
    best_move = serializers.CharField()
    best_notation = serializers.CharField(help_text="the best move as players write it")
    best_line = serializers.ListField(
        child=serializers.CharField(), help_text="the best line from this position, in the game's notation"
    )
    best_value = serializers.FloatField(allow_null=True)
    played_value = serializers.FloatField(allow_null=True)
    loss = serializers.FloatField(allow_null=True, help_text="best_value - played_value, on the game's scale")
    chances = serializers.FloatField(allow_null=True, help_text="the mover's expected score before the move, 0..1")
    best_chances = serializers.FloatField(allow_null=True, help_text="the mover's expected score with the best move")
    played_chances = serializers.FloatField(allow_null=True, help_text="the mover's expected score after the move")
    drop = serializers.FloatField(allow_null=True, help_text="best_chances - played_chances: what the class judges")
    seat_chances = serializers.ListField(child=serializers.FloatField(allow_null=True))
    value_text = serializers.CharField(allow_null=True, help_text="value as players read it: +1.50, #3, 62%, +0.423")
    played_text = serializers.CharField(allow_null=True, help_text="played_value as players read it")
    # "class" is a Python keyword: the field is declared under another name and renamed below.
    klass = serializers.ChoiceField(choices=CLASSES, allow_null=True)
    forced = serializers.BooleanField()
    depth = serializers.IntegerField()
    nodes = serializers.IntegerField()
    exact = serializers.BooleanField()
    cube = serializers.BooleanField(
        help_text="a doubling-cube decision (double/roll, take/drop): values are the decider's money equities, "
        "per unit of the present cube"
    )
    not_analysed = serializers.CharField(
        required=False, help_text="why this decision has no values (a cube decision in match play)"
    )


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
    max_utility = serializers.FloatField()
    thresholds = ThresholdsSerializer(help_text="the drop in expected score (0..1) a move gives away to be classed so")
    chances = ChancesSerializer(help_text="how the game's values read as winning chances (games/chances.py)")
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
    is_ai = serializers.BooleanField(help_text="always true: the hint comes from a search")
    v = serializers.IntegerField(help_text="the match's event version after the hint was logged")

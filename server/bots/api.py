from __future__ import annotations

from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from server.bots.models import BotProfile


class BotProfileSerializer(serializers.ModelSerializer):
    is_ai = serializers.SerializerMethodField()

    class Meta:
        model = BotProfile
        fields = ["slug", "game", "name", "level", "algorithm", "time_budget_ms", "max_depth", "style",
                  "rating", "description", "is_ai"]  # fmt: skip

    def get_is_ai(self, obj: BotProfile) -> bool:
        return True


class BotListView(APIView):
    """``GET /api/bots/?game=connect4``: the listed bot profiles, weakest first."""

    authentication_classes: list = []

    def get(self, request):
        bots = BotProfile.objects.filter(listed=True).order_by("game", "level")
        if game := request.query_params.get("game"):
            bots = bots.filter(game=game)
        return Response(BotProfileSerializer(bots, many=True).data)

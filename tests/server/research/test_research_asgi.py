"""Under ASGI (daphne) the export is an async stream, pulled chunk by chunk: never buffered whole."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient

from server.players.models import ApiToken, Player
from server.research import formats

# The view's queries run in another thread than the test's: the data must be committed.
pytestmark = pytest.mark.django_db(transaction=True)


async def test_under_asgi_an_export_is_pulled_chunk_by_chunk(dataset, researcher, monkeypatch):
    monkeypatch.setattr(formats, "LINES_PER_CHUNK", 1)
    token = await sync_to_async(ApiToken.issue)(await Player.objects.aget(name="Rita"))
    response = await AsyncClient().get("/api/exports/games.jsonl", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.content
    assert response.streaming and response.is_async
    chunks = [chunk async for chunk in response.streaming_content]
    assert len(chunks) == 4  # the four finished matches, one chunk each
    assert all(json.loads(chunk)["schema_version"] == 2 for chunk in chunks)
    refused = await AsyncClient().get("/api/exports/moves.csv")
    assert refused.status_code == 403
    await sync_to_async(connections.close_all)()  # the views' thread: the test client leaves it open

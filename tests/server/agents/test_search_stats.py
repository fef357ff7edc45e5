"""A bot's search statistics: sent with its moves, stored, exported with its runs; research opt-in."""

from __future__ import annotations

import csv
import io
import json

import pytest
from channels.db import database_sync_to_async

from server.agents import measuring
from server.agents.models import Measurement
from server.bots.models import BotProfile
from server.bots.seed import seed_profiles
from server.matches import presence
from server.matches.models import Match, Move
from server.matches.move_stats import MAX_BYTES
from server.matches.services import match_resign, submit_move, submit_player_move
from server.players.models import ApiToken
from server.players.services import player_create_guest_with_token
from server.research.filters import ExportFilters
from server.research.formats import csv_chunks, game_records
from server.research.selectors import MOVE_ROW_COLUMNS, match_rows, matches_query
from tests.server.agents.conftest import api_as
from tests.server.agents.test_event_stream import a_bot_with_token, challenge, next_of, open_socket
from tests.server.research.helpers import bot_stats

STEP = "connect4-shallow"
HOUSE_STATS = bot_stats("4")  # as a house bot's search stores them
STATS = {"nodes": 120000, "depth": 9, "time_ms": 850, "value": 0.12, "pv": ["4", "3", "4"]}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("channel_layer")
async def test_a_bots_move_carries_its_stats_and_refused_stats_play_nothing():
    bot, token = await a_bot_with_token()
    events = await open_socket("/ws/agents/", token)
    challenge_id, person_token = await challenge(bot, seat=1)
    await events.send_json_to({"type": "accept", "challenge": challenge_id})
    match_id = (await next_of(events, "game_start"))["match"]
    game = await open_socket(f"/ws/matches/{match_id}/", token)
    await next_of(game, "state")
    refused = [
        [1, 2],  # not an object
        {"pv": "x" * MAX_BYTES},  # too large
        {"a": {"b": {"c": [1]}}},  # too deep
    ]
    for stats in refused:
        await game.send_json_to({"type": "move", "move": "4", "ply": 0, "stats": stats})
        error = await next_of(game, "error")
        assert error["code"] == "stats_refused", error
    await game.send_json_to({"type": "move", "move": "4", "ply": 0, "stats": STATS})
    moved = await next_of(game, "move")
    assert moved["ply"] == 0 and moved["stats"] == STATS
    stored = await database_sync_to_async(lambda: Move.objects.get(match_id=match_id, ply=0).stats)()
    assert stored == STATS
    person = await open_socket(f"/ws/matches/{match_id}/", person_token)  # people send none
    await next_of(person, "state")
    await person.send_json_to({"type": "move", "move": "3", "ply": 1, "stats": {"nodes": 1}})
    assert (await next_of(person, "error"))["code"] == "stats_refused"
    for comm in (person, game, events):
        await comm.disconnect()
    await presence.settled()


@pytest.fixture
def run(db, owner, bot, django_capture_on_commit_callbacks) -> Measurement:
    """A finished run of two Connect Four games from openings: the bot's moves with stats, the house bot's too."""
    seed_profiles(BotProfile)
    with django_capture_on_commit_callbacks(execute=True):
        measurement = measuring.measurement_create(
            bot, measuring.MeasurementRequest("connect4", 2, (STEP,), openings="standard")
        )
    for _ in range(2):
        game = measurement.games.select_related("match").order_by("-pk").first()
        match = game.match
        for _ in range(2):
            match.refresh_from_db()
            if match.to_move == game.agent_seat:
                submit_player_move(match.pk, bot.pk, "4", match.ply, stats=STATS)
            else:
                submit_move(match.pk, match.to_move, "4", match.ply, stats=HOUSE_STATS)
        with django_capture_on_commit_callbacks(execute=True):
            match_resign(match.pk, game.agent_seat)
    measurement.refresh_from_db()
    assert measurement.status == Measurement.Status.DONE
    return measurement


def test_the_owner_exports_a_runs_games_with_every_move_and_both_sides_stats(run, owner, bot):
    body = api_as(owner).get(f"/api/agents/measurements/{run.pk}/export/jsonl/")
    assert body.status_code == 200 and body["Content-Type"].startswith("application/x-ndjson")
    games = [json.loads(line) for line in body.content.decode().splitlines()]
    assert [g["match"] for g in games] == [g.match_id for g in run.games.order_by("pk")]
    first = games[0]
    assert first["opening"] == {"set": "standard", "index": 0} and first["step"] == STEP
    plies = Match.objects.get(pk=first["match"]).opening_plies
    assert plies == 10 and all(m["opening"] for m in first["moves"][:plies])
    assert not any(m["opening"] for m in first["moves"][plies:])
    own = [m for m in first["moves"][plies:] if m["by"] == "agent"]
    house = [m for m in first["moves"][plies:] if m["by"] == "bot"]
    assert own and all(m["stats"] == STATS for m in own)
    assert house and all(m["stats"] == HOUSE_STATS for m in house)
    rows = list(
        csv.DictReader(io.StringIO(api_as(bot).get(f"/api/agents/measurements/{run.pk}/export/csv/").content.decode()))
    )
    assert len(rows) == sum(len(g["moves"]) for g in games)
    agent_rows = [r for r in rows if r["by"] == "agent" and r["in_opening"] == "false"]
    assert agent_rows and json.loads(agent_rows[0]["stats"]) == STATS


def test_an_export_is_its_owners_and_pgn_is_for_chess(run, owner):
    stranger, _ = player_create_guest_with_token("Mallory")
    assert api_as(stranger).get(f"/api/agents/measurements/{run.pk}/export/jsonl/").status_code == 404
    pgn = api_as(owner).get(f"/api/agents/measurements/{run.pk}/export/pgn/")
    assert pgn.status_code == 400 and pgn.json()["code"] == "no_record"
    assert api_as(owner).get(f"/api/agents/measurements/{run.pk}/export/xml/").json()["code"] == "no_record"


def test_a_chess_run_exports_pgn(db, owner, bot, django_capture_on_commit_callbacks):
    seed_profiles(BotProfile)
    step = measuring.ladder("chess")[0].slug
    with django_capture_on_commit_callbacks(execute=True):
        measurement = measuring.measurement_create(
            bot, measuring.MeasurementRequest("chess", 2, (step,), openings="standard")
        )
    text = api_as(owner).get(f"/api/agents/measurements/{measurement.pk}/export/pgn/").content.decode()
    assert '[Event "' in text and "1. e4 " in text and "2... Nc6 " in text  # the opening, in SAN


def test_a_bots_games_enter_research_exports_only_once_its_owner_opts_in(run, owner, bot):
    matches = set(run.games.values_list("match_id", flat=True))
    assert not matches & set(matches_query(ExportFilters(sources=("measurement",))).values_list("pk", flat=True))
    client = api_as(owner)
    assert client.get("/api/agents/Quokka/consent/").json() == {"research": False, "training": False, "answered": False}
    chosen = client.put("/api/agents/Quokka/consent/", {"research": True, "training": False}, format="json")
    assert chosen.status_code == 200 and chosen.json()["research"] is True
    assert matches <= set(matches_query(ExportFilters(sources=("measurement",))).values_list("pk", flat=True))
    assert (
        api_as(bot)
        .put("/api/agents/Quokka/consent/", {"research": False, "training": False}, format="json")
        .status_code
        == 403
    )
    assert ApiToken.objects.filter(player=bot).exists()


def test_an_opted_in_bots_games_are_exported_disclosed_as_ai_under_a_pseudonym(run, owner, bot):
    import jsonschema

    from tests.server.research.helpers import SCHEMA

    api_as(owner).put("/api/agents/Quokka/consent/", {"research": True, "training": False}, format="json")
    filters = ExportFilters(sources=("measurement",))
    lines = list(game_records(filters))
    assert len(lines) == 2
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for line in lines:
        validator.validate(line)
        agent = next(s for s in line["seats"] if s["kind"] == "agent")
        assert agent["is_ai"] is True and agent["player"].startswith("p-") and line["pairing"] == "bot-vs-bot"
        assert "Quokka" not in json.dumps(line) and "Margot" not in json.dumps(line)
        # The opening started no clock: the first move after it is each side's first, free as always.
        first_own = line["moves"][10 : 10 + 2]
        assert [m["remaining_ms"] for m in first_own] == [[180_000, 180_000]] * 2, line["moves"][8:12]
        own = [m for m in line["moves"] if m["by"] == "agent" and m["stats"]]
        assert own and own[0]["stats"] == STATS

    def paired(pairing: str) -> int:
        return matches_query(ExportFilters(sources=("measurement",), pairings=(pairing,))).count()

    assert (paired("bot-vs-bot"), paired("human-vs-bot")) == (2, 0)  # the filter counts it as the line does
    rows = list(csv.DictReader(io.StringIO(b"".join(csv_chunks(match_rows(filters, MOVE_ROW_COLUMNS))).decode())))
    agent_rows = [r for r in rows if r["by"] == "agent"]
    assert agent_rows and all(r["player"].startswith("p-") for r in agent_rows)
    assert any(r["depth"] == "9" and r["nodes"] == "120000" for r in agent_rows)

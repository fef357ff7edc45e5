"""Research exports (docs/exports.md): permission, formats against the schema, every filter, privacy, streaming."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import jsonschema
import pytest
from django.contrib.auth.models import Group, User
from django.http import StreamingHttpResponse
from django.test import Client
from rest_framework.test import APIClient

from games import registry
from server.matches.models import Move
from server.players.models import Player
from server.players.services import player_create_guest_with_token
from server.research.filters import ExportFilters
from server.research.formats import CSV_COLUMNS, game_records
from server.research.notation import has_positions, positions_before, standard_notation
from server.research.permissions import RESEARCHER_GROUP
from server.research.pseudonyms import Pseudonyms
from server.research.selectors import match_rows
from tests.server.research.helpers import (
    ROOT,
    SCHEMA,
    SECRET_EMAIL,
    SECRET_NAME,
    SECRET_USERNAME,
    bot_stats,
    client_for,
    csv_text,
    jsonl,
)

pytestmark = pytest.mark.django_db

GAMES = "/api/exports/games.jsonl"
MOVES = "/api/exports/moves.csv"
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker())


def export(client, query: str = "", url: str = GAMES):
    response = client.get(f"{url}?{query}" if query else url)
    assert response.status_code == 200, getattr(response, "data", response)
    return response


def exported_ids(client, dataset, query: str) -> set[str]:
    """The dataset keys of the matches an export holds."""
    names = Pseudonyms()
    by_pseudonym = {names.match(m.pk): key for key, m in dataset.matches.items()}
    return {by_pseudonym[line["match"]] for line in jsonl(export(client, query))}


# --- permission --------------------------------------------------------------------


def test_only_researchers_may_export(dataset, researcher):
    for url in (GAMES, MOVES):
        assert APIClient().get(url).status_code == 403  # anonymous
        assert client_for(player_create_guest_with_token()[0]).get(url).status_code == 403  # a guest
        assert client_for(dataset.people["zeb"]).get(url).status_code == 403  # an account, not a researcher
        assert researcher.get(url).status_code == 200
    assert "researcher" in APIClient().get(GAMES).json()["detail"]


def test_staff_and_group_members_by_session_may_export(dataset):
    User.objects.create_user("staffer", password="pw", is_staff=True)
    member = User.objects.create_user("member", password="pw")
    member.groups.add(Group.objects.get_or_create(name=RESEARCHER_GROUP)[0])
    for username in ("staffer", "member"):
        browser = Client()
        browser.login(username=username, password="pw")
        assert browser.get(GAMES).status_code == 200
    plain = Client()
    plain.login(username=SECRET_USERNAME, password="pw")
    assert plain.get(GAMES).status_code == 403


def test_a_bad_token_is_refused(dataset):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer nope")
    assert client.get(GAMES).status_code in (401, 403)


# --- formats -----------------------------------------------------------------------


def test_every_line_matches_the_json_schema(dataset, researcher):
    lines = jsonl(export(researcher, "status=any"))
    assert len(lines) == len(dataset.matches)
    for line in lines:
        errors = sorted(VALIDATOR.iter_errors(line), key=str)
        assert not errors, (line["game"], [e.message for e in errors])
        assert line["schema_version"] == 2 and line["plies"] == len(line["moves"])
        assert [m["ply"] for m in line["moves"]] == list(range(line["plies"]))


def test_a_game_line_carries_seats_moves_and_search_figures(dataset, researcher):
    names = Pseudonyms()
    match = dataset.matches["hb_bot_wins"]
    (line,) = [g for g in jsonl(export(researcher)) if g["match"] == names.match(match.pk)]
    human, bot = line["seats"]
    assert human == {"index": 0, "name": "blue (dot)", "kind": "human", "is_ai": False,
                     "player": names.player(dataset.people["zeb"].pk), "bot": None, "rating_change": None}  # fmt: skip
    assert bot["kind"] == "bot" and bot["is_ai"] is True and bot["player"] is None
    assert bot["bot"]["slug"] == "connect4-shallow" and bot["bot"]["max_depth"] == 2
    assert line["pairing"] == "human-vs-bot" and line["result"]["winner"] == 1
    first, reply = line["moves"][:2]
    assert first["by"] == "human" and first["stats"] is None and first["think_ms"] == 100
    assert reply["by"] == "bot" and reply["stats"]["nodes"] == 812 and reply["stats"]["pv"] == ["3", "4"]
    assert {"depth", "budget_ms", "deadline_slack_ms", "search_version", "value"} <= set(reply["stats"])
    assert "seed" not in reply["stats"]  # derived from the public match id: never exported
    assert line["notation"] == {"format": "connect4-solver", "moves": "13132353"}
    # A day, then milliseconds from the match's creation (the helper stores a move every 2 s).
    assert line["created_on"] == "2026-03-01" and line["started_ms"] == 0 and line["finished_ms"] == 300_000
    assert [m["at_ms"] for m in line["moves"]] == [2000 * (ply + 1) for ply in range(line["plies"])]


def test_chance_events_are_entries_of_their_own(dataset, researcher):
    names = Pseudonyms()
    (line,) = [g for g in jsonl(export(researcher, "status=active")) if g["game"] == "backgammon"]
    assert line["match"] == names.match(dataset.matches["dice"].pk)
    assert [(m["seat"], m["by"]) for m in line["moves"]] == [(-1, "chance"), (0, "human"), (-1, "chance"),
                                                              (1, "human")]  # fmt: skip
    assert line["moves"][0]["move"] == "3-1" and line["notation"] is None
    assert [m["position"] for m in line["moves"]] == [None] * 4  # backgammon writes no positions down


def test_the_csv_has_the_documented_header_and_a_row_per_move(dataset, researcher):
    text = csv_text(export(researcher, "status=any", url=MOVES))
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS == tuple(SCHEMA["x-csv-columns"])
    docs = (ROOT / "docs" / "exports.md").read_text()
    assert all(f"`{column}`" in docs for column in CSV_COLUMNS)
    records = list(csv.DictReader(io.StringIO(text)))
    assert len(records) == sum(m.ply for m in dataset.matches.values())
    bot_moves = [r for r in records if r["by"] == "bot"]
    assert bot_moves and all(r["algorithm"] == "alphabeta" and r["nodes"] == "812" for r in bot_moves)
    assert all(json.loads(r["pv"]) == [r["move"], "4"] and r["fallback"] == "false" for r in bot_moves)
    assert all(r["bot_profile"] and r["bot_level"] and r["value"] == "0.25" for r in bot_moves)
    human = next(r for r in records if r["by"] == "human")
    assert human["player"].startswith("p-") and human["algorithm"] == "" and human["other_stats"] == ""
    assert {r["by"] for r in records} == {"human", "bot", "chance"}
    assert {r["position"] for r in records} == {""}  # no game of the dataset writes positions down


def test_mcts_visits_fallbacks_and_other_figures_reach_the_csv(dataset, researcher):
    match = dataset.matches["bb_draw"]
    mcts = bot_stats("1", algorithm="mcts", visits={"1": 90, "4": 10}, tt_hits=7)
    Move.objects.filter(match=match, ply=0).update(stats=mcts, queue_wait_ms=1234)
    # A fallback move carries no search figures: the move's own field says why.
    reason = "the search was lost twice: no worker answered"
    Move.objects.filter(match=match, ply=1).update(stats=None, fallback=reason, queue_wait_ms=9000)
    rows = list(csv.DictReader(io.StringIO(csv_text(export(researcher, "source=selfplay", url=MOVES)))))
    assert json.loads(rows[0]["visits"]) == {"1": 90, "4": 10} and rows[0]["algorithm"] == "mcts"
    assert json.loads(rows[0]["other_stats"]) == {"tt_hits": 7} and rows[0]["fallback"] == "false"
    assert rows[0]["queue_wait_ms"] == "1234" and rows[0]["fallback_reason"] == ""
    assert rows[1]["fallback"] == "true" and rows[1]["fallback_reason"] == reason and rows[1]["queue_wait_ms"] == "9000"
    assert rows[1]["by"] == "bot" and rows[1]["algorithm"] == "" and rows[1]["depth"] == ""
    assert rows[2]["other_stats"] == ""
    (line,) = jsonl(export(researcher, "source=selfplay"))
    assert line["moves"][0]["stats"] == {k: v for k, v in mcts.items() if k != "seed"}
    assert line["moves"][0]["fallback"] is None
    assert line["moves"][0]["queue_wait_ms"] == 1234
    assert line["moves"][1]["stats"] is None and line["moves"][1]["fallback"] == reason
    assert line["moves"][1]["queue_wait_ms"] == 9000
    assert not list(VALIDATOR.iter_errors(line))


def test_the_docs_describe_every_field_of_the_schema():
    docs = (ROOT / "docs" / "exports.md").read_text()
    for name in [*SCHEMA["properties"], *SCHEMA["$defs"]["move"]["properties"], *SCHEMA["$defs"]["seat"]["properties"]]:
        assert f"`{name}`" in docs, name


# --- filters -----------------------------------------------------------------------


FILTER_CASES = [
    ("", {"hh", "hb_bot_wins", "bb_draw", "ttt_human_wins"}),  # finished only, by default
    ("status=any", {"hh", "hb_bot_wins", "bb_draw", "ttt_human_wins", "dice", "aborted"}),
    ("status=aborted,active", {"dice", "aborted"}),
    ("game=tictactoe", {"ttt_human_wins"}),
    ("game=tictactoe,connect4&status=aborted", {"aborted"}),
    ("since=2026-03-02", {"bb_draw", "ttt_human_wins"}),
    ("until=2026-03-03T00:00:00Z", {"hh", "hb_bot_wins"}),
    ("since=2026-03-02&until=2026-03-04", {"bb_draw"}),
    ("bot=connect4-medium", {"bb_draw"}),
    ("bot=connect4-shallow,tictactoe-shallow", {"hb_bot_wins", "bb_draw", "ttt_human_wins"}),
    ("bot=connect4-shallow&bot=tictactoe-shallow", {"hb_bot_wins", "bb_draw", "ttt_human_wins"}),
    ("pairing=human-vs-bot", {"hb_bot_wins", "ttt_human_wins"}),
    ("pairing=bot-vs-bot", {"bb_draw"}),
    ("pairing=human-vs-human", {"hh"}),
    ("pairing=human-vs-human&status=any", {"hh", "dice", "aborted"}),
    ("result=win", {"hh", "hb_bot_wins", "ttt_human_wins"}),
    ("result=draw", {"bb_draw"}),
    ("result=bot-win", {"hb_bot_wins"}),
    ("result=human-win", {"hh", "ttt_human_wins"}),
    ("result=human-win&pairing=human-vs-bot", {"ttt_human_wins"}),
    ("result=draw,bot-win", {"bb_draw", "hb_bot_wins"}),
    ("source=selfplay", {"bb_draw"}),
    ("source=play", {"hh", "hb_bot_wins", "ttt_human_wins"}),
    ("min_plies=8", {"hb_bot_wins", "bb_draw"}),
    ("min_plies=8&status=any&max=1", {"hb_bot_wins"}),  # in match order
]


def test_every_filter_selects_what_it_says(dataset, researcher):
    # One dataset for every case (building it per case would be most of the suite's time).
    for query, expected in FILTER_CASES:
        assert exported_ids(researcher, dataset, query) == expected, query


def test_max_caps_the_number_of_matches(dataset, researcher):
    assert len(jsonl(export(researcher, "max=3"))) == 3
    rows = list(csv.DictReader(io.StringIO(csv_text(export(researcher, "max=1", url=MOVES)))))
    assert {r["match"] for r in rows} == {Pseudonyms().match(dataset.matches["hh"].pk)} and len(rows) == 7


def test_a_chunk_holds_only_the_moves_of_its_selected_matches(dataset, researcher):
    # hh, dice and aborted are the 1st, 5th and 6th matches made: their id range holds three more.
    rows = list(csv.DictReader(io.StringIO(csv_text(export(researcher, "pairing=human-vs-human&status=any", MOVES)))))
    names = Pseudonyms()
    selected = [dataset.matches[key] for key in ("hh", "dice", "aborted")]
    assert {r["match"] for r in rows} == {names.match(m.pk) for m in selected if m.ply}
    assert len(rows) == sum(m.ply for m in selected)


BAD_FILTER_CASES = [
    ("game=chesss", "game"),
    ("game=", "game"),
    ("since=yesterday", "since"),
    ("until=2026-02-30", "until"),
    ("since=2026-03-05&until=2026-03-01", "until"),
    ("bot=no-such-bot", "bot"),
    ("bot=bad slug!", "bot"),
    ("pairing=robot-vs-robot", "pairing"),
    ("result=lost", "result"),
    ("status=done", "status"),
    ("source=a b", "source"),
    ("min_plies=-1", "min_plies"),
    ("min_plies=many", "min_plies"),
    ("max=0", "max"),
    ("gmae=connect4", "gmae"),
]


def test_bad_filters_are_refused_with_field_errors(dataset, researcher):
    for query, field in BAD_FILTER_CASES:
        for url in (GAMES, MOVES):
            response = researcher.get(f"{url}?{query}")
            assert response.status_code == 400, query
            assert list(response.json()) == [field], (query, response.json())


# --- privacy -----------------------------------------------------------------------


def test_no_export_carries_names_accounts_or_addresses(dataset, researcher):
    dataset.people["zeb"].tokens.all()  # the person has an account with a username and an e-mail
    body = csv_text(export(researcher, "status=any", url=MOVES)) + csv_text(export(researcher, "status=any"))
    for secret in (SECRET_NAME, SECRET_USERNAME, SECRET_EMAIL, "Annika", "Vogelsang", "Rita", "rita@", "127.0.0.1"):
        assert secret not in body
    assert not re.search(r"[\w.+-]+@[\w-]+\.[\w.]+", body)  # no e-mail address at all
    # A match id would lead to its public page, which names the players: matches are pseudonymous too.
    for match in dataset.matches.values():
        assert f'"match":{match.pk},' not in body and f'"id":{match.pk}' not in body


def test_pseudonyms_are_stable_and_opaque(dataset, researcher):
    first = jsonl(export(researcher, "status=any"))
    assert jsonl(export(researcher, "status=any")) == first  # the same in every export
    zeb = dataset.people["zeb"]
    seen = {s["player"] for line in first for s in line["seats"] if s["kind"] == "human" and s["player"]}
    assert Pseudonyms().player(zeb.pk) in seen and len(seen) == 2  # the same person in several matches: one id
    for pseudonym in seen:
        assert re.fullmatch(r"p-[0-9a-f]{16}", pseudonym)
        assert str(zeb.pk) != pseudonym.removeprefix("p-")
    assert Pseudonyms().player(zeb.pk) != Pseudonyms().match(zeb.pk)
    # The secret that keys them: test_research_privacy.py.


# --- streaming and scale -----------------------------------------------------------


def test_exports_stream(dataset, researcher):
    for url in (GAMES, MOVES):
        response = export(researcher, url=url)
        assert isinstance(response, StreamingHttpResponse)
        assert "attachment" in response["Content-Disposition"] and response["X-Export-Schema-Version"] == "2"
    assert export(researcher)["Content-Type"].startswith("application/x-ndjson")
    assert export(researcher, url=MOVES)["Content-Type"].startswith("text/csv")


def test_matches_are_read_in_chunks_not_one_by_one(dataset, django_assert_num_queries):
    # 6 matches by 2: the ceiling, then per chunk matches + seats + moves + rating changes, then an
    # empty chunk; on SQLite first the size that decides whether to analyse.
    from django.db import connection

    with django_assert_num_queries((connection.vendor == "sqlite") + 1 + 3 * 4 + 1):
        records = list(match_rows(ExportFilters(statuses=()), chunk=2))
    assert len(records) == 6


def test_an_empty_export_is_a_valid_empty_file(db, researcher):
    assert jsonl(export(researcher)) == []
    assert csv_text(export(researcher, url=MOVES)) == ",".join(CSV_COLUMNS) + "\n"


def test_standard_notations():
    assert standard_notation("connect4", list("4453")) == {"format": "connect4-solver", "moves": "4453"}
    assert standard_notation("othello", ["f5", "d6", "c3", "pass", "d3"]) == {
        "format": "othello-transcript",
        "moves": "f5d6c3d3",
    }
    assert standard_notation("connect4", ["9"]) is None
    assert standard_notation("tictactoe", ["5"]) is None


def test_only_games_with_a_position_notation_are_replayed(monkeypatch):
    from games import registry

    assert has_positions("chess") and not has_positions("connect4") and not has_positions("backgammon")

    def no_replay(state, move):
        raise AssertionError("a game without positions was replayed")

    monkeypatch.setattr(registry.get("connect4"), "apply", no_replay)
    assert positions_before("connect4", [(0, "4"), (1, "4")]) is None


def test_positions_skip_chance_and_stop_at_a_move_that_does_not_replay():
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert positions_before("chess", [(0, "e2e4"), (1, "e7e5")]) == [start, after_e4]
    assert positions_before("chess", [(-1, "e2e4"), (1, "e7e5")]) == [None, after_e4]
    assert positions_before("chess", [(0, "zz"), (1, "e7e5"), (0, "g1f3")]) == [start, None, None]


def test_no_player_field_names_a_player(dataset):
    fields = {f.name for f in Player._meta.get_fields()}
    assert "name" in fields  # what must never be exported
    people = set(Player.objects.values_list("name", flat=True))
    for record in game_records(ExportFilters(statuses=())):
        seat_names = [seat.name for seat in registry.get(record["game"]).spec.seats]
        for seat in record["seats"]:
            assert set(seat) == {"index", "name", "kind", "is_ai", "player", "bot", "rating_change"}
            # A seat's name is the game's (white, blue (dot)), never the person's.
            assert seat["name"] == seat_names[seat["index"]] and seat["name"] not in people


def test_schema_file_is_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert Path(ROOT / "docs" / "exports.schema.json").exists()


def test_a_big_sqlite_database_is_analysed_once_before_an_export(dataset, monkeypatch):
    """Without planner statistics SQLite reads every chunk the slow way (docs/exports.md)."""
    from django.db import connection

    from server.research import selectors

    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's autovacuum keeps its statistics")

    def analysed() -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'")
            if not cursor.fetchone()[0]:
                return False
            cursor.execute("SELECT count(*) FROM sqlite_stat1 WHERE tbl = %s", [Move._meta.db_table])
            return cursor.fetchone()[0] > 0

    list(match_rows(ExportFilters()))
    assert not analysed()  # small: not worth it
    monkeypatch.setattr(selectors, "ANALYZE_FROM_MOVES", 1)
    list(match_rows(ExportFilters()))
    assert analysed()

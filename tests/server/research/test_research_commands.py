"""``manage.py export_games``, ``manage.py selfplay``, the admin's export action and the researcher group."""

from __future__ import annotations

import csv
import io
import json
from importlib import import_module

import jsonschema
import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from server.bots.models import BotProfile
from server.matches.models import Match
from server.research.formats import CSV_COLUMNS
from server.research.permissions import RESEARCHER_GROUP
from server.research.pseudonyms import Pseudonyms
from tests.server.research.helpers import SCHEMA, SECRET_NAME
from tests.server.staff import staff_client


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_export_games_to_stdout_with_a_progress_bar(dataset):
    out, err = run("export_games", "--pairing", "human-vs-bot")
    lines = [json.loads(line) for line in out.splitlines()]
    assert {line["pairing"] for line in lines} == {"human-vs-bot"} and len(lines) == 2
    assert "2/2 matches" in err and "[" in err
    assert SECRET_NAME not in out


@pytest.mark.django_db
def test_export_games_as_csv_to_a_file(dataset, tmp_path):
    target = tmp_path / "moves.csv"
    out, err = run("export_games", "--format", "csv", "--source", "selfplay", "--no-progress", "-o", str(target))
    rows = list(csv.reader(target.open()))
    assert tuple(rows[0]) == CSV_COLUMNS and len(rows) == 1 + dataset.matches["bb_draw"].ply
    assert out == "" and "exported 1 matches" in err and "[" not in err


@pytest.mark.django_db
def test_export_games_takes_every_filter_and_refuses_bad_ones(dataset):
    out, _ = run(
        "export_games", "--game", "connect4", "--since", "2026-03-01", "--until", "2026-03-10", "--bot",
        "connect4-shallow", "--result", "bot-win,draw", "--status", "finished", "--min-plies", "8", "--max", "5",
        "--no-progress",
    )  # fmt: skip
    names = Pseudonyms()
    expected = {names.match(dataset.matches[k].pk) for k in ("hb_bot_wins", "bb_draw")}
    assert {json.loads(line)["match"] for line in out.splitlines()} == expected
    with pytest.raises(CommandError, match="--min-plies"):
        run("export_games", "--min-plies", "-3")
    with pytest.raises(CommandError, match="pairing"):
        run("export_games", "--pairing", "people")


@pytest.mark.django_db
def test_the_admin_exports_the_selected_matches(dataset):
    admin = staff_client()
    chosen = [dataset.matches["dice"].pk, dataset.matches["hh"].pk]
    response = admin.post(
        "/admin/matches/match/", {"action": "export_selected_matches", "_selected_action": [str(pk) for pk in chosen]}
    )
    assert response.status_code == 200 and response.streaming
    lines = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    assert {line["match"] for line in lines} == {Pseudonyms().match(pk) for pk in chosen}  # an active one too
    for line in lines:
        jsonschema.validate(line, SCHEMA)


@pytest.mark.django_db
def test_a_migration_creates_the_researcher_group(db):
    Group.objects.filter(name=RESEARCHER_GROUP).delete()
    import_module("server.research.migrations.0001_researcher_group").create_group(apps, None)
    assert Group.objects.filter(name=RESEARCHER_GROUP).exists()


# --- selfplay: the bots play through the runner (inline in tests, after commit) ------


@pytest.fixture
def quick_bots(transactional_db):
    shallow = BotProfile.objects.get(slug="connect4-shallow")
    shallow.time_budget_ms = 60
    shallow.save()
    return "connect4-random", shallow.slug


@pytest.mark.django_db(transaction=True)
def test_selfplay_plays_tagged_bot_vs_bot_matches(quick_bots):
    out, err = run("selfplay", "--game", "connect4", "--profiles", ",".join(quick_bots), "--games", "3")
    matches = list(Match.objects.order_by("pk").prefetch_related("seats"))
    assert len(matches) == 3 and "3/3 finished" in err and "3 matches" in out
    for number, match in enumerate(matches):
        assert match.status == Match.Status.FINISHED and match.source == "selfplay"
        seats = [s.bot_snapshot["slug"] for s in match.seats.all()]
        assert all(s.kind == "bot" for s in match.seats.all())
        assert seats == (list(quick_bots) if number % 2 == 0 else list(reversed(quick_bots)))  # take turns first
        assert match.moves.filter(stats__isnull=False).count() == match.ply  # every move searched, figures kept
    exported, _ = run("export_games", "--source", "selfplay", "--pairing", "bot-vs-bot", "--no-progress")
    assert len(exported.splitlines()) == 3
    left_out, _ = run("export_games", "--source", "play", "--no-progress")
    assert left_out == ""


@pytest.mark.django_db(transaction=True)
def test_selfplay_refuses_unknown_or_foreign_profiles(quick_bots):
    with pytest.raises(CommandError, match="no bot profile"):
        run("selfplay", "--game", "connect4", "--profiles", "connect4-random,nobody", "--games", "1")
    with pytest.raises(CommandError, match="another game"):
        run("selfplay", "--game", "connect4", "--profiles", "connect4-random,tictactoe-random", "--games", "1")
    with pytest.raises(CommandError, match="unknown game"):
        run("selfplay", "--game", "chesss", "--profiles", "connect4-random", "--games", "1")
    assert not Match.objects.exists()

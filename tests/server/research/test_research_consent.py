"""Exports honour consent (docs/exports.md, "Consent"): a match goes in only when every person in it agreed
to the export's purpose, research or training, in every way of exporting."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command

from server.players.consent import consent_set
from server.players.models import Player
from server.research.pseudonyms import Pseudonyms
from tests.server.research.helpers import csv_text, jsonl
from tests.server.research.test_research_exports import GAMES, MOVES
from tests.server.staff import staff_client

pytestmark = pytest.mark.django_db
EVERY = "status=any"


def _keys(dataset, pseudonyms) -> set[str]:
    names = Pseudonyms()
    by_pseudonym = {names.match(m.pk): key for key, m in dataset.matches.items()}
    return {by_pseudonym[p] for p in pseudonyms}


def _api(researcher, dataset, query: str = EVERY) -> tuple[set[str], set[str]]:
    """The matches of games.jsonl and of moves.csv."""
    lines = jsonl(researcher.get(f"{GAMES}?{query}"))
    rows = csv.DictReader(io.StringIO(csv_text(researcher.get(f"{MOVES}?{query}"))))
    return _keys(dataset, {line["match"] for line in lines}), _keys(dataset, {row["match"] for row in rows})


ZEB = {"hh", "hb_bot_wins", "dice"}  # zeb's matches (ann sits in hh and dice too)
ANN = {"hh", "ttt_human_wins", "dice", "aborted"}
ALL = {"hh", "hb_bot_wins", "bb_draw", "ttt_human_wins", "dice", "aborted"}
WITH_MOVES = ALL - {"aborted"}  # the CSV has a row per move


def test_with_everyone_agreeing_every_match_is_exported(dataset, researcher):
    assert _api(researcher, dataset) == (ALL, WITH_MOVES)


def test_a_person_who_withdraws_takes_every_match_they_sat_in_out_of_both_formats(dataset, researcher):
    consent_set(dataset.people["zeb"], research=False, training=True)
    games, moves = _api(researcher, dataset)
    assert games == ALL - ZEB and moves == WITH_MOVES - ZEB  # hh and dice too: ann's opponent said no
    assert "bb_draw" in games  # bots need nobody's consent


def test_nobody_is_in_an_export_before_they_answer(dataset, researcher):
    Player.objects.update(consent_research=False, consent_training=False, consent_answered_at=None)
    assert _api(researcher, dataset) == ({"bb_draw"}, {"bb_draw"})


def test_training_data_takes_the_matches_of_people_who_agreed_to_training(dataset, researcher):
    assert _api(researcher, dataset, f"{EVERY}&purpose=training") == ({"bb_draw"}, {"bb_draw"})
    consent_set(dataset.people["ann"], research=False, training=True)
    games, _ = _api(researcher, dataset, f"{EVERY}&purpose=training")
    assert games == {"bb_draw", "ttt_human_wins", "aborted"}  # ann's games without zeb
    assert _api(researcher, dataset)[0] == ALL - ANN  # and research no longer has ann's


def test_the_estimate_the_command_and_the_admin_honour_consent_too(dataset, researcher):
    consent_set(dataset.people["zeb"], research=False, training=False)
    estimate = researcher.get(f"/api/exports/estimate/?{EVERY}").json()
    assert estimate["matches"] == len(ALL - ZEB)

    out = io.StringIO()
    call_command("export_games", "--no-progress", "--status", "any", stdout=out, stderr=io.StringIO())
    assert _keys(dataset, {json.loads(line)["match"] for line in out.getvalue().splitlines()}) == ALL - ZEB
    out = io.StringIO()
    call_command("export_games", "--no-progress", "--status", "any", "--purpose", "training", stdout=out)
    assert _keys(dataset, {json.loads(line)["match"] for line in out.getvalue().splitlines()}) == {"bb_draw"}

    chosen = [dataset.matches[key].pk for key in ("hh", "bb_draw", "ttt_human_wins")]
    response = staff_client().post(
        "/admin/matches/match/", {"action": "export_selected_matches", "_selected_action": [str(pk) for pk in chosen]}
    )
    lines = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    assert _keys(dataset, {line["match"] for line in lines}) == {"bb_draw", "ttt_human_wins"}


def test_an_unknown_purpose_is_refused(dataset, researcher):
    response = researcher.get(f"{GAMES}?purpose=marketing")
    assert response.status_code == 400 and "purpose" in response.json()

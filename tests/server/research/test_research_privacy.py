"""Exports cannot be joined to the public site, and their pseudonyms are keyed by a secret of their own.

The linkage attack (docs/exports.md, "Privacy"): people and bots play through the API and the move path;
a researcher downloads both exports; an attacker collects every value every public
endpoint and socket shows (the match lists, each match, its positions and analysis, the
bots, the lobby, the players' own pages, the match and lobby frames) and tries to join
the two on a timestamp (to the microsecond, the second or the minute), an id, or a
pseudonym, directly or through a trivial mapping (a hash of the id, the HMAC under the
committed SECRET_KEY, the search seed computed from the match id, the order of the lines).
What the export still shares with the site by design, the moves and their think times, is
written down in docs/exports.md ("What can be linked").
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import secrets
import stat
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from games import registry
from server.bots.models import BotProfile
from server.bots.services import turn_seed
from server.config.asgi import application
from server.matches import services
from server.matches.models import Match
from server.research.pseudonyms import Pseudonyms
from server.research.secret import pseudonym_secret, read_or_create_secret
from server.research.services import selfplay_match_create
from tests.server.research.helpers import ROOT, csv_text, jsonl

STATUS_LISTS = ("", "open", "waiting", "active", "adjourned", "finished", "aborted")
PEOPLE = ("Xanthe Moorcroft", "Yusuf Brightwater", "Wilhelmina Stoat")


# --- the site: people and bots playing through the API and the move path ------------


def _guest(name: str) -> APIClient:
    response = APIClient().post("/api/players/guest/", {"name": name}, format="json")
    assert response.status_code == 201, response.content
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {response.json()['token']}")
    client.token = response.json()["token"]
    client.player_id = response.json()["player"]["id"]
    consent = client.put("/api/players/me/consent/", {"research": True, "training": False}, format="json")
    assert consent.status_code == 200  # exports hold only the games of people who agreed
    return client


def _create(client: APIClient, game: str, *opponents: str) -> int:
    seats = [{"kind": "human"}] + [
        {"kind": "human"} if who == "human" else {"kind": "bot", "profile": who} for who in opponents
    ]
    response = client.post("/api/matches/", {"game": game, "seats": seats}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def _play(match_id: int, moves: int | None = None) -> None:
    """People's moves through the move path (bots answer on their own), the first legal move each time."""
    played = 0
    while moves is None or played < moves:
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.ACTIVE:
            return
        seat = match.seats.get(index=match.to_move)
        assert seat.kind == "human", "a bot's turn was not played"
        game = registry.get(match.game)
        legal = game.legal_moves(game.from_json(match.state))
        services.submit_move(match_id, match.to_move, legal[len(legal) // 2], match.ply)
        played += 1


@pytest.fixture
def site(transactional_db, settings):
    """Ten matches of three named guests and the bots, in every status, made the way the site makes them."""
    for slug in ("connect4-shallow", "tictactoe-shallow", "tictactoe-perfect"):
        BotProfile.objects.filter(slug=slug).update(time_budget_ms=50)
    xan, yus, wil = (_guest(name) for name in PEOPLE)
    matches = []
    for client, game, bot in ((xan, "connect4", "connect4-shallow"), (yus, "tictactoe", "tictactoe-shallow")):
        matches.append(_create(client, game, bot))
        _play(matches[-1])  # to its end
    matches.append(_create(xan, "connect4", "connect4-shallow"))
    _play(matches[-1], 3)
    assert client_ok(xan.post(f"/api/matches/{matches[-1]}/resign/"))
    matches.append(_create(wil, "tictactoe", "human"))  # two people
    assert client_ok(yus.post(f"/api/matches/{matches[-1]}/join/"))
    _play(matches[-1])
    for _ in range(2):
        profiles = list(BotProfile.objects.filter(slug__in=["tictactoe-shallow", "tictactoe-perfect"]).order_by("slug"))
        matches.append(selfplay_match_create("tictactoe", profiles).pk)  # bots alone, played inline
    matches.append(_create(wil, "connect4", "connect4-shallow"))
    _play(matches[-1], 2)  # still going
    matches.append(_create(yus, "tictactoe", "tictactoe-perfect"))
    _play(matches[-1], 1)  # still going
    matches.append(_create(xan, "tictactoe", "human"))  # waiting for someone
    matches.append(_create(wil, "connect4", "human"))
    services.match_abort(matches[-1], "nobody joined")
    return {"people": (xan, yus, wil), "matches": matches}


def client_ok(response) -> bool:
    assert response.status_code < 300, response.content
    return True


# --- what the public sees ---------------------------------------------------------


def public_payloads(site: dict[str, Any]) -> list[Any]:
    """Every JSON document an anonymous visitor or one of the players can read, HTTP and sockets."""
    people = site["people"]
    visitors = [APIClient(), *people]
    top = Match.objects.order_by("-pk").values_list("pk", flat=True).first()
    payloads: list[Any] = []

    def read(client: APIClient, url: str) -> None:
        response = client.get(url)
        if response.status_code == 200 and response["Content-Type"].startswith("application/json"):
            payloads.append(response.json())

    for client in visitors:
        read(client, "/api/games/")
        read(client, "/api/bots/")
        for game in registry.all():
            read(client, f"/api/bots/?game={game.id}")
        for slug in BotProfile.objects.values_list("slug", flat=True):
            read(client, f"/api/bots/{slug}/")
        for status in STATUS_LISTS:
            read(client, f"/api/matches/?status={status}" if status else "/api/matches/")
            read(client, f"/api/matches/?player=me&status={status}" if status else "/api/matches/?player=me")
        read(client, "/api/players/me/")
        for match_id in range(1, top + 2):  # every id there is: they are small, growing numbers
            for page in ("", "positions/", "analysis/"):
                read(client, f"/api/matches/{match_id}/{page}")
    payloads += async_to_sync(socket_frames)(site["matches"], [p.token for p in people])
    return payloads


async def socket_frames(match_ids: list[int], tokens: list[str]) -> list[Any]:
    """The lobby's frames, and each match's frames from the start (`?v=0`) for a spectator and a player."""
    frames: list[Any] = []

    async def listen(path: str) -> None:
        socket = WebsocketCommunicator(application, path)
        connected, _ = await socket.connect()
        while connected and not await socket.receive_nothing(timeout=0.3):  # whatever it is sent
            frames.append(await socket.receive_json_from())
        await socket.disconnect()

    await listen("/ws/lobby/")
    for match_id in match_ids:
        await listen(f"/ws/matches/{match_id}/")
        await listen(f"/ws/matches/{match_id}/?v=0&token={tokens[0]}")
    return frames


def leaves(payload: Any, key: str = "") -> list[tuple[str, Any]]:
    """Every scalar in a JSON document, with the key it is under."""
    if isinstance(payload, dict):
        return [leaf for k, v in payload.items() for leaf in leaves(v, str(k))]
    if isinstance(payload, list):
        return [leaf for v in payload for leaf in leaves(v, key)]
    return [(key, payload)]


def as_time(value: Any) -> datetime | None:
    """`value` as a point in time, if it is one: ISO text with a time of day, or an epoch number."""
    if isinstance(value, str):
        if len(value) < 16 or not value[:4].isdigit():
            return None
        try:
            found = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return found if found.tzinfo else found.replace(tzinfo=UTC)
    if isinstance(value, int | float) and not isinstance(value, bool):
        for scale in (1, 1_000, 1_000_000):  # seconds, milliseconds, microseconds since 1970
            if 1.5e9 <= value / scale <= 2.5e9:
                return datetime.fromtimestamp(value / scale, tz=UTC)
    return None


def resolutions(at: datetime) -> set[datetime]:
    """A time as it is, and cut to the second and to the minute."""
    at = at.astimezone(UTC)
    return {at, at.replace(microsecond=0), at.replace(second=0, microsecond=0)}


def csv_value(text: str) -> Any:
    for parse in (int, float):
        try:
            return parse(text)
        except ValueError:
            pass
    return text


# --- the linkage attack -------------------------------------------------------------


def test_no_export_line_joins_the_public_site_on_a_time_an_id_or_a_pseudonym(site, researcher):
    games = jsonl(researcher.get("/api/exports/games.jsonl?status=any"))
    rows = list(csv.DictReader(io.StringIO(csv_text(researcher.get("/api/exports/moves.csv?status=any")))))
    assert len(games) == len(site["matches"]) and len(rows) == sum(line["plies"] for line in games)
    exported = [leaf for line in games for leaf in leaves(line)]
    exported += [(column, csv_value(text)) for row in rows for column, text in row.items() if text != ""]

    public = [leaf for payload in public_payloads(site) for leaf in leaves(payload)]
    public_times = {r for _, value in public if (at := as_time(value)) for r in resolutions(at)}
    assert len(public_times) > 3 * len(site["matches"])  # the attacker did see the matches' times
    public_strings = {value for _, value in public if isinstance(value, str)}
    match_ids = set(site["matches"])
    player_ids = {p.player_id for p in site["people"]}
    public_ids = {v for k, v in public if (k == "id" or k.endswith("_id")) and isinstance(v, int)}
    assert match_ids | player_ids <= public_ids

    # Times: nothing exported is a public time, at any resolution (a day alone is not a time).
    joined = [(key, value) for key, value in exported if (at := as_time(value)) and resolutions(at) & public_times]
    assert not joined, f"export times found on the public site: {joined[:5]}"

    # Ids: no id is exported, nor anything computed from one without the installation's secret.
    old_scheme = Pseudonyms(secret="plyground-development-key-change-me-in-production")  # the committed key
    derived: dict[Any, str] = {}
    for pk in public_ids:
        derived |= {pk: "the id", str(pk): "the id", hex(pk): "hex", f"{pk:x}": "hex"}
        for name, hashing in (("md5", hashlib.md5), ("sha1", hashlib.sha1), ("sha256", hashlib.sha256)):
            derived[hashing(str(pk).encode()).hexdigest()[:16]] = name
        derived |= {old_scheme.match(pk): "HMAC under SECRET_KEY", old_scheme.player(pk): "HMAC under SECRET_KEY"}
    for pk in match_ids:
        derived |= {turn_seed(pk, ply): "the search seed of a ply" for ply in range(50)}
    identifiers = [(k, v) for k, v in exported if k in ("match", "player") or k == "id" or k.endswith("_id")]
    for key, value in identifiers:
        assert value not in derived and str(value).split("-")[-1] not in derived, (key, value, derived.get(value))
    numbers = [(k, v) for k, v in exported if isinstance(v, int) and not isinstance(v, bool) and v > 1_000]
    assert not [(k, v, derived[v]) for k, v in numbers if v in derived]  # (small numbers: plies, seats...)

    # Pseudonyms: never shown by the site.
    pseudonyms = {v for k, v in identifiers if isinstance(v, str)}
    assert pseudonyms and not pseudonyms & public_strings

    # Order: a line's place says nothing of its match's id (ids grow with time, and the list shows them).
    names = Pseudonyms()
    by_pseudonym = {names.match(pk): pk for pk in match_ids}
    in_export = [by_pseudonym[line["match"]] for line in games]
    assert in_export != sorted(in_export) and in_export != sorted(in_export, reverse=True)
    in_csv = list(dict.fromkeys(by_pseudonym[row["match"]] for row in rows))
    assert in_csv == [pk for pk in in_export if Match.objects.get(pk=pk).ply]  # both formats, one order

    # What is left is the day and times within the match.
    assert {line["created_on"] for line in games} <= {str(at.date()) for at in public_times}
    assert all(0 <= move["at_ms"] < 600_000 for line in games for move in line["moves"])


def _ms_since(origin: datetime, at: datetime | None) -> int | None:
    return None if at is None else round((at - origin) / timedelta(milliseconds=1))


def test_times_within_a_match_count_from_its_creation(site, researcher):
    games = {line["match"]: line for line in jsonl(researcher.get("/api/exports/games.jsonl?status=any"))}
    names = Pseudonyms()
    for match in Match.objects.prefetch_related("moves"):
        line = games[names.match(match.pk)]
        assert line["created_on"] == match.created_at.astimezone(UTC).date().isoformat()
        origin = match.created_at
        assert line["started_ms"] == pytest.approx(_ms_since(origin, match.started_at), abs=1)
        assert line["finished_ms"] == pytest.approx(_ms_since(origin, match.finished_at), abs=1)
        stored = [_ms_since(origin, m.created_at) for m in match.moves.all()]
        assert [m["at_ms"] for m in line["moves"]] == pytest.approx(stored, abs=1)
        assert all("seed" not in (m["stats"] or {}) for m in line["moves"])
        assert all(not key.endswith("_at") for key in line)


# --- the secret -------------------------------------------------------------------


def test_a_development_install_generates_its_secret_once_and_keeps_it(settings, pseudonym_secret_file):
    assert not pseudonym_secret_file.exists()
    secret = pseudonym_secret()
    assert pseudonym_secret_file.exists() and len(secret) == 64 and int(secret, 16)
    assert stat.S_IMODE(pseudonym_secret_file.stat().st_mode) == 0o600  # nobody else reads it
    assert stat.S_IMODE(pseudonym_secret_file.parent.stat().st_mode) == 0o700
    assert pseudonym_secret() == secret and Pseudonyms().player(7) == Pseudonyms(secret=secret).player(7)
    assert [p.name for p in pseudonym_secret_file.parent.iterdir()] == [pseudonym_secret_file.name]  # no leftovers
    pseudonym_secret_file.unlink()  # a new installation: new pseudonyms
    assert pseudonym_secret() != secret


def test_the_generated_secret_is_never_committed():
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", ".secrets/research_pseudonym_secret"], cwd=ROOT, check=False
    ).returncode
    assert ignored == 0


def test_a_secret_file_that_others_can_read_or_an_empty_one_is_refused(pseudonym_secret_file):
    read_or_create_secret(pseudonym_secret_file)
    os.chmod(pseudonym_secret_file, 0o644)
    with pytest.raises(ImproperlyConfigured, match="chmod 600"):
        pseudonym_secret()
    pseudonym_secret_file.write_text("")
    os.chmod(pseudonym_secret_file, 0o600)
    with pytest.raises(ImproperlyConfigured, match="empty"):
        pseudonym_secret()


def test_an_existing_secret_wins_over_a_new_one(pseudonym_secret_file):
    """Two processes starting at once: the second finds the first one's file and uses it."""
    pseudonym_secret_file.parent.mkdir(mode=0o700)
    pseudonym_secret_file.write_text("f" * 64 + "\n")
    os.chmod(pseudonym_secret_file, 0o600)
    assert read_or_create_secret(pseudonym_secret_file) == "f" * 64


def test_pseudonyms_depend_on_their_own_secret_and_not_on_secret_key(settings):
    settings.RESEARCH_PSEUDONYM_SECRET = "a" * 64
    first = Pseudonyms().player(42), Pseudonyms().match(42)
    settings.SECRET_KEY = "a rotated key, nothing to do with exports"
    assert (Pseudonyms().player(42), Pseudonyms().match(42)) == first  # stable across a SECRET_KEY rotation
    settings.RESEARCH_PSEUDONYM_SECRET = "b" * 64
    assert Pseudonyms().player(42) != first[0] and Pseudonyms().match(42) != first[1]
    settings.RESEARCH_PSEUDONYM_SECRET = settings.SECRET_KEY = "c" * 64
    with pytest.raises(ImproperlyConfigured, match="must not be SECRET_KEY"):
        Pseudonyms()
    settings.RESEARCH_PSEUDONYM_SECRET = "short"
    with pytest.raises(ImproperlyConfigured, match="at least 32"):
        Pseudonyms()


def test_an_export_without_a_secret_stops_before_writing_anything(settings, tmp_path, dataset):
    settings.RESEARCH_PSEUDONYM_SECRET, settings.RESEARCH_PSEUDONYM_SECRET_FILE = "", None
    target = tmp_path / "games.jsonl"
    with pytest.raises(CommandError, match="RESEARCH_PSEUDONYM_SECRET"):
        call_command("export_games", "--no-progress", "-o", str(target), stdout=io.StringIO(), stderr=io.StringIO())
    assert not target.exists()


PROD_SECRET_KEY = secrets.token_urlsafe(50)


def _import_prod_settings(**env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("RESEARCH_PSEUDONYM")}
    environ |= {"SECRET_KEY": PROD_SECRET_KEY, "DJANGO_SETTINGS_MODULE": "server.config.settings.prod", **env}
    return subprocess.run(
        [sys.executable, "-c", "import server.config.settings.prod"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("secret", "refusal"),
    [
        (None, "RESEARCH_PSEUDONYM_SECRET is not set"),
        ("", "RESEARCH_PSEUDONYM_SECRET is not set"),
        ("too-short", "at least 32"),
        (PROD_SECRET_KEY, "must not be SECRET_KEY"),
    ],
    ids=["unset", "empty", "short", "secret-key"],  # not the random key: xdist's workers must name the same tests
)
def test_production_refuses_to_start_without_a_secret_of_its_own(secret, refusal):
    started = _import_prod_settings(**({} if secret is None else {"RESEARCH_PSEUDONYM_SECRET": secret}))
    assert started.returncode != 0 and "ImproperlyConfigured" in started.stderr and refusal in started.stderr


def test_production_starts_with_a_secret_of_its_own():
    started = _import_prod_settings(RESEARCH_PSEUDONYM_SECRET=hashlib.sha256(b"an operator's secret").hexdigest())
    assert started.returncode == 0, started.stderr

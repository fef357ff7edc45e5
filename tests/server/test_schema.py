"""``/api/schema/`` is complete and true: it generates without a warning, and what the API
really answers (bodies and status codes, errors included) conforms to what it declares.

The schema is OpenAPI 3.0; each response is checked with jsonschema after turning 3.0's
``nullable`` into JSON Schema's null type.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any

import jsonschema
import pytest
from rest_framework.test import APIClient

from server.matches import services
from server.matches.models import Match
from tests.support import ROOT

# Bot turns run inline after commit: real transactions.
pytestmark = pytest.mark.django_db(transaction=True)


def test_the_schema_generates_and_validates_without_a_warning(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "server.config.settings.test",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'schema.sqlite3'}",  # empty: no bot profiles to list
    }
    out = tmp_path / "schema.yaml"
    done = subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--validate", "--fail-on-warn", "--file", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stderr and out.stat().st_size > 0


# --- the served schema ---------------------------------------------------------------


@pytest.fixture
def schema() -> dict[str, Any]:
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def json_schema(node: Any) -> Any:
    """OpenAPI 3.0 → JSON Schema: ``nullable: true`` becomes a null alternative."""
    if isinstance(node, list):
        return [json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    node = {k: json_schema(v) for k, v in node.items()}
    if node.pop("nullable", False):
        if "enum" in node and None not in node["enum"]:
            node["enum"] = [*node["enum"], None]
        return {"anyOf": [node, {"type": "null"}]}
    return node


class Contract:
    """Checks a response against the operation the schema declares for its path and method."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.components = json_schema(schema["components"])
        self.seen: set[tuple[str, str, int]] = set()

    def check(self, response, path: str, method: str) -> Any:
        operation = self.schema["paths"][path][method]
        declared = operation["responses"]
        status = str(response.status_code)
        assert status in declared, f"{method.upper()} {path} answered {status}, declares {sorted(declared)}"
        self.seen.add((path, method, response.status_code))
        content = declared[status].get("content")
        if content is None:
            return None
        media = response["Content-Type"].split(";")[0]
        assert media in content, f"{method.upper()} {path} {status}: {media} not in {sorted(content)}"
        body = response.json()
        validator = jsonschema.Draft7Validator({**json_schema(content[media]["schema"]), "components": self.components})
        errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
        assert not errors, f"{method.upper()} {path} {status}: " + "; ".join(
            f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]
        )
        return body


@pytest.fixture
def contract(schema) -> Contract:
    return Contract(schema)


def test_every_operation_declares_its_responses_and_bodies(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            ok = [s for s in operation["responses"] if s.startswith("2")]
            assert ok, f"{method.upper()} {path} declares no success"
            described = [operation["responses"][s].get("content") for s in ok]
            assert all(described) or method == "delete", f"{method.upper()} {path}: a success without a body"
            for status, response in operation["responses"].items():
                if status.startswith("4"):
                    assert response.get("content"), f"{method.upper()} {path} {status}: no error body"
    schemes = schema["components"]["securitySchemes"]
    assert schemes["bearerAuth"] == {**schemes["bearerAuth"], "type": "http", "scheme": "bearer"}
    assert schemes["sessionAuth"]["in"] == "cookie"


def test_a_match_request_is_declared_per_game_with_its_seats_and_bots(schema):
    body = schema["paths"]["/api/matches/"]["post"]["requestBody"]
    assert list(body["content"]) == ["application/json"]  # the nested seats have no form encoding
    create = body["content"]["application/json"]["schema"]
    create = schema["components"]["schemas"][create["$ref"].rsplit("/", 1)[1]]
    variants = {v["title"]: v for v in create["anyOf"]}
    c4 = variants["connect4 with bots"]["properties"]["seats"]
    assert c4["minItems"] == c4["maxItems"] == 2
    bot = next(s for s in c4["items"]["anyOf"] if s["properties"]["kind"]["enum"] == ["bot"])
    assert "connect4-shallow" in bot["properties"]["profile"]["enum"]
    assert "tictactoe-random" not in bot["properties"]["profile"]["enum"]
    assert variants["chinese-checkers between people"]["properties"]["seats"]["maxItems"] == 3


def test_the_export_filters_are_declared_as_the_exports_take_them(schema):
    for path in ("/api/exports/games.jsonl", "/api/exports/moves.csv"):
        params = {p["name"]: p["schema"] for p in schema["paths"][path]["get"]["parameters"]}
        assert re.fullmatch(params["game"]["pattern"], "connect4,othello")
        assert not re.fullmatch(params["game"]["pattern"], "go")  # no such game
        assert re.fullmatch(params["bot"]["pattern"], "connect4-shallow,tictactoe-random")
        assert not re.fullmatch(params["bot"]["pattern"], "no-such-bot")  # the bots there are
        assert params["max"] == {"type": "integer", "minimum": 1}


def test_the_answers_of_the_match_api_are_what_the_schema_declares(contract, fast_bot):
    anon = APIClient()
    made = contract.check(
        anon.post("/api/players/guest/", {"name": "Zoe"}, format="json"), "/api/players/guest/", "post"
    )
    contract.check(anon.post("/api/players/guest/", {"name": "<b>"}, format="json"), "/api/players/guest/", "post")
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Bearer {made['token']}")
    contract.check(me.get("/api/players/me/"), "/api/players/me/", "get")
    contract.check(anon.get("/api/players/me/"), "/api/players/me/", "get")  # 401
    bogus = APIClient()
    bogus.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    contract.check(bogus.get("/api/matches/1/"), "/api/matches/{match_id}/", "get")  # 401

    contract.check(anon.get("/api/games/"), "/api/games/", "get")
    contract.check(anon.get("/api/bots/", {"game": "connect4"}), "/api/bots/", "get")
    contract.check(anon.get("/api/bots/connect4-shallow/"), "/api/bots/{slug}/", "get")
    contract.check(anon.get("/api/bots/nobody/"), "/api/bots/{slug}/", "get")  # 404

    # Against a bot: the bot replies inline, so the match has moves, stats and a thinking field.
    body = {"game": "connect4", "seats": [{"kind": "human"}, {"kind": "bot", "profile": fast_bot.slug}]}
    vs_bot = contract.check(me.post("/api/matches/", body, format="json"), "/api/matches/", "post")
    services.submit_move(vs_bot["id"], 0, "4", 0)
    contract.check(me.get(f"/api/matches/{vs_bot['id']}/"), "/api/matches/{match_id}/", "get")
    contract.check(me.get(f"/api/matches/{vs_bot['id']}/positions/"), "/api/matches/{match_id}/positions/", "get")
    contract.check(me.get("/api/matches/", {"player": "me"}), "/api/matches/", "get")
    contract.check(anon.get("/api/matches/", {"player": "me"}), "/api/matches/", "get")  # 401
    contract.check(anon.get("/api/matches/", {"status": "nonsense"}), "/api/matches/", "get")  # 400
    bad = {"game": "connect4", "seats": [{"kind": "bot"}]}
    contract.check(me.post("/api/matches/", bad, format="json"), "/api/matches/", "post")  # 400, per field
    contract.check(me.post("/api/matches/", "{", content_type="application/json"), "/api/matches/", "post")  # 400
    contract.check(anon.post("/api/matches/", body, format="json"), "/api/matches/", "post")  # 401
    contract.check(me.get("/api/matches/999999/"), "/api/matches/{match_id}/", "get")  # 404
    contract.check(me.get("/api/matches/999999/positions/"), "/api/matches/{match_id}/positions/", "get")

    # Between people, with clocks: join, a taken seat, resign, resume of a finished match.
    people = {
        "game": "tictactoe",
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "clock": {"minutes": 1, "increment": 0},
    }
    waiting = contract.check(me.post("/api/matches/", people, format="json"), "/api/matches/", "post")
    join = f"/api/matches/{waiting['id']}/join/"
    contract.check(me.post(join, {}, format="json"), "/api/matches/{match_id}/join/", "post")  # 409: seated already
    guest = APIClient()
    guest.credentials(HTTP_AUTHORIZATION=f"Bearer {guest_token(guest)}")
    contract.check(guest.post(join, {"seat": 9}, format="json"), "/api/matches/{match_id}/join/", "post")  # 400
    contract.check(guest.post(join, {}, format="json"), "/api/matches/{match_id}/join/", "post")
    contract.check(me.get("/api/matches/", {"status": "active"}), "/api/matches/", "get")
    spectator = APIClient()
    spectator.credentials(HTTP_AUTHORIZATION=f"Bearer {guest_token(spectator)}")
    resign = f"/api/matches/{waiting['id']}/resign/"
    contract.check(spectator.post(resign), "/api/matches/{match_id}/resign/", "post")  # 403: not seated
    contract.check(me.post(resign), "/api/matches/{match_id}/resign/", "post")
    contract.check(me.post(resign), "/api/matches/{match_id}/resign/", "post")  # 409: over
    resume = f"/api/matches/{waiting['id']}/resume/"
    contract.check(me.post(resume), "/api/matches/{match_id}/resume/", "post")  # 409: over
    contract.check(me.post("/api/matches/999999/resign/"), "/api/matches/{match_id}/resign/", "post")  # 404
    contract.check(me.get(f"/api/matches/{waiting['id']}/"), "/api/matches/{match_id}/", "get")  # a result


def guest_token(client: APIClient) -> str:
    return client.post("/api/players/guest/", {}, format="json").json()["token"]


def test_the_answers_of_analysis_hints_and_exports_are_what_the_schema_declares(contract, token_client, bob):
    match = services.match_create(
        "tictactoe",
        [services.SeatRequest("human", None), services.SeatRequest("human", None)],
        token_client.player,
    )
    analysis = f"/api/matches/{match.pk}/analysis/"
    contract.check(token_client.get(analysis), "/api/matches/{match_id}/analysis/", "get")  # 404
    contract.check(token_client.post(analysis), "/api/matches/{match_id}/analysis/", "post")  # 409: not finished
    hint = f"/api/matches/{match.pk}/hint/"
    contract.check(token_client.post(hint), "/api/matches/{match_id}/hint/", "post")  # 403 or 409
    services.match_join(match.pk, bob, None)
    for ply, move in enumerate(["1", "4", "2", "5", "3"]):
        services.submit_move(match.pk, ply % 2, move, ply)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    contract.check(token_client.post(analysis), "/api/matches/{match_id}/analysis/", "post")
    contract.check(token_client.get(analysis), "/api/matches/{match_id}/analysis/", "get")
    contract.check(APIClient().post(analysis), "/api/matches/{match_id}/analysis/", "post")  # 401

    for path in ("/api/exports/games.jsonl", "/api/exports/moves.csv"):
        contract.check(token_client.get(path), path, "get")  # 403: a guest is no researcher


def test_the_json_schema_conversion_keeps_null_where_declared():
    converted = json_schema({"type": "integer", "nullable": True})
    validator = jsonschema.Draft7Validator(converted)
    assert validator.is_valid(None) and validator.is_valid(3) and not validator.is_valid("3")
    enum = json_schema({"type": "string", "enum": ["a"], "nullable": True})
    assert jsonschema.Draft7Validator(enum).is_valid(None)

"""Schemathesis against ``/api/schema/``: every operation, requests generated from its schema.

The API is served in-process (Django's WSGI application: the same views and middleware as
daphne serves), so the run needs no server, talks to nothing but itself, and is bounded:
a few dozen derandomized examples per operation and generation mode, seconds in all.
Each response must pass schemathesis' default checks: no server error, and a status,
content type, headers and body that the schema declares.

One test per operation, taken from the URL patterns (the schema itself is read per test:
building it queries the database, which collection may not).  Schemathesis' own pytest
loader (``from_fixture``) does not run on pytest 9, hence the operations driven by hand.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core import signals
from django.core.cache import caches
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, assume, given, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from server.players.services import player_create_guest_with_token
from tests.server.test_fuzz import api_operations

pytestmark = pytest.mark.django_db

# Every default check, but for two that hold the API to more than its schema says:
# - positive_data_acceptance wants every request the schema allows to succeed, while the API
#   refuses some with a 400 by rules no schema states (a name that claims to be a bot, seats
#   that do not fit the game, a bot profile of another game);
# - negative_data_rejection wants every request the schema forbids refused, while DRF's
#   CharField takes a number for a string ({"name": 7} makes a guest named "7").
# Server errors, and statuses, content types, headers and bodies the schema does not declare,
# are failures in both modes.
EXCLUDED_CHECKS = {
    GenerationMode.POSITIVE: [positive_data_acceptance],
    GenerationMode.NEGATIVE: [negative_data_rejection],
}
# drf-spectacular's own view: an unknown ?format= is DRF's 404, which it does not declare.
NO_NEGATIVE = {("get", "/api/schema/")}
OTHER_ENDPOINTS = {"me", "guest"}  # names a profile path cannot take (`server.players.profiles_api`)
EXAMPLES = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture
def api_schema(db):
    # As Django's test client does: requests keep the test's connection (and its transaction).
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
        for cache in caches.all():  # the throttles' counts: not for the tests after
            cache.clear()


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=lambda m: m.value)
@pytest.mark.parametrize(("method", "path"), api_operations())
def test_the_api_keeps_to_its_schema(api_schema, method, path, mode):
    operation = api_schema[path][method.upper()]
    _, token = player_create_guest_with_token("Schemathesis")
    bearer = {"Authorization": f"Bearer {token}"}

    if mode is GenerationMode.NEGATIVE and ((method, path) in NO_NEGATIVE or not _has_inputs(operation)):
        return  # nothing to send wrong (no parameter, no body), or see NO_NEGATIVE

    @EXAMPLES
    @given(case=operation.as_strategy(generation_mode=mode))
    def check(case):
        # `/api/players/me/` and `/guest/` are other endpoints: the one path that names them as a profile.
        assume((case.path_parameters or {}).get("name") not in OTHER_ENDPOINTS)
        case.call_and_validate(headers=bearer, excluded_checks=EXCLUDED_CHECKS[mode])

    check()


def _has_inputs(operation) -> bool:
    return any(len(group) for group in (operation.path_parameters, operation.query, operation.body))

"""A person's plain move on PostgreSQL (`plain_moves`) writes and sends what the general path does.

Each test plays the same moves in two matches, one with the plain path and one without
(`PLAIN_MOVES`), and compares the rows, the frames sent and the turn signals.  Most run as
production does (`transaction=True`: autocommit, the transaction opened and closed by the
path itself); one inside a caller's transaction.  PostgreSQL only (the CI's second pass):
elsewhere every move takes the general path.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, connections
from django.db.models.signals import post_save, pre_save
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import registry
from server.bots.models import BotProfile
from server.db import rows
from server.matches import broadcast, services
from server.matches.errors import MatchError
from server.matches.models import Match, MatchEvent, Move
from server.matches.signals import turn_started
from server.players.services import player_create_guest
from tests.server.conftest import human_match

postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="the plain path is PostgreSQL's")

MOVE_COLUMNS = ("ply", "seat", "move", "notation", "stats", "fallback", "queue_wait_ms")
MATCH_COLUMNS = ("status", "state", "ply", "to_move", "v", "result", "offer", "clock_ms")


@pytest.fixture
def heard(monkeypatch):
    """What the two paths send after commit: frames by group, and the turns announced."""
    sent = {"frames": [], "turns": []}
    monkeypatch.setattr(broadcast, "send_to_group", lambda group, frame: sent["frames"].append((group, frame)))

    def on_turn(sender, match_id, ply, seat, bot, **kwargs):
        sent["turns"].append((match_id, ply, seat, bot))

    turn_started.connect(on_turn, dispatch_uid="test_plain_moves")
    yield sent
    turn_started.disconnect(dispatch_uid="test_plain_moves")


def play(settings, heard, plain: bool, match: Match, players, moves: list[str], before_move=None) -> dict:
    """Play `moves` (people's, in turn) through the socket's service; what was written and
    sent.  `before_move(ply)` runs before each (a clock moved on)."""
    settings.PLAIN_MOVES = plain
    heard["frames"].clear(), heard["turns"].clear()
    statements, texts = [], []
    for ply, move in enumerate(moves):
        if before_move is not None:
            before_move(ply)
        with CaptureQueriesContext(connection) as captured:
            services.submit_player_move(match.pk, players[ply % 2].pk, move, ply)
        statements.append(len(captured.captured_queries))
        texts.append([query["sql"] for query in captured.captured_queries])
    match.refresh_from_db()
    return {
        "match": {c: getattr(match, c) for c in MATCH_COLUMNS},
        "moves": [tuple(getattr(m, c) for c in MOVE_COLUMNS) for m in Move.objects.filter(match=match)],
        "events": [_without_times(e.as_frame()) for e in MatchEvent.objects.filter(match=match)],
        "frames": [
            _without_times(frame) for group, frame in heard["frames"] if group == broadcast.match_group(match.pk)
        ],
        "turns": [(ply, seat, bot) for match_id, ply, seat, bot in heard["turns"] if match_id == match.pk],
        "statements": statements,
        "texts": texts,
    }


def _without_times(frame: dict) -> dict:
    """A frame without the think time and the version numbers that differ between two matches."""
    return {k: v for k, v in frame.items() if k != "think_ms"}


def random_game(game_id: str, plies: int, seed: int) -> list[str]:
    """`plies` moves from the start, at random, the last one ending the game if it does."""
    game, rng = registry.get(game_id), random.Random(seed)
    state, moves = game.initial_state(), []
    while len(moves) < plies and not game.is_terminal(state):
        move = rng.choice(game.legal_moves(state))
        moves.append(move)
        state = game.play(state, move)
    return moves


def _two_matches(game_id: str):
    alice, bob = player_create_guest("Alice"), player_create_guest("Bob")
    return (alice, bob), human_match(game_id, alice, bob), human_match(game_id, alice, bob)


@postgresql_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game_id, seed", [("connect4", 1), ("connect4", 2), ("tictactoe", 3)])
@pytest.mark.parametrize("prepared", [True, False], ids=["prepared", "sent-whole"])
def test_a_game_to_its_end_writes_and_sends_the_same_either_way(settings, heard, game_id, seed, prepared):
    settings.DATABASE_PREPARED_STATEMENTS = prepared
    players, plain_match, general_match = _two_matches(game_id)
    moves = random_game(game_id, 200, seed)
    plain = play(settings, heard, True, plain_match, players, moves)
    general = play(settings, heard, False, general_match, players, moves)
    assert plain["match"]["status"] == general["match"]["status"] == Match.Status.FINISHED
    for part in ("match", "moves", "events", "frames", "turns"):
        assert plain[part] == general[part], part
    # Taken: two queries a move (the read with BEGIN, the writes with COMMIT; the first move
    # may prepare the statements first), but the last, which ends the game: the general
    # path's own, after the plain one declined.
    assert plain["statements"][1:-1] == [2] * (len(moves) - 2) and plain["statements"][0] in (2, 4)
    assert general["statements"][0] > 2 and plain["statements"][-1] > general["statements"][-1]
    read, write = plain["texts"][1]
    assert read.startswith("BEGIN;\nEXECUTE plyground_plain_move_read(" if prepared else "BEGIN;\nSELECT m.game")
    assert ("EXECUTE" in write) == prepared and write.endswith("COMMIT")


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_notation_and_the_trimmed_event_log_are_the_same(settings, heard):
    """Chess writes moves in SAN (the notation column); past 50 versions the log is trimmed."""
    settings.MATCH_EVENTS_KEPT = 20
    players, plain_match, general_match = _two_matches("chess")
    moves = random_game("chess", 60, 4)
    plain = play(settings, heard, True, plain_match, players, moves)
    general = play(settings, heard, False, general_match, players, moves)
    for part in ("match", "moves", "events", "frames", "turns"):
        assert plain[part] == general[part], part
    assert any(notation for _ply, _seat, _move, notation, *_ in plain["moves"])  # SAN where it differs
    assert min(e["v"] for e in plain["events"]) > 1  # trimmed


class FrozenTime:
    """`timezone.now()` for both paths: it moves only when the test moves it."""

    def __init__(self) -> None:
        self.at = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.at


@pytest.fixture
def frozen(monkeypatch) -> FrozenTime:
    time = FrozenTime()
    monkeypatch.setattr(timezone, "now", time.now)
    return time


def clocked_match(game_id: str, alice, bob, minutes: float, increment: int) -> Match:
    human = services.SeatRequest("human")
    match = services.match_create(game_id, [human, human], alice, clock=services.Clock(minutes, increment))
    services.match_join(match.pk, bob)
    match.refresh_from_db()
    return match


@postgresql_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game_id, seed", [("connect4", 5), ("chess", 6)])
def test_a_clocked_game_charges_and_sends_the_same_clocks_either_way(settings, heard, frozen, game_id, seed):
    """Each turn takes its own time (0-9 s, against a minute and 2 s a move): the clocks
    charged, the increment given, the frames' clocks, the same either way.  The first move of
    each seat is free (its clock does not run yet); a move while a seat's time is whole goes the
    general way."""
    alice, bob = player_create_guest("Alice"), player_create_guest("Bob")
    plain_match, general_match = (clocked_match(game_id, alice, bob, 1, 2) for _ in range(2))
    moves = random_game(game_id, 40, seed)
    think = [random.Random(seed + ply).uniform(0, 9) for ply in range(len(moves))]

    def thinking(ply: int) -> None:
        frozen.at += timedelta(seconds=think[ply])

    start = frozen.at
    plain = play(settings, heard, True, plain_match, (alice, bob), moves, thinking)
    frozen.at = start
    general = play(settings, heard, False, general_match, (alice, bob), moves, thinking)
    for part in ("match", "moves", "events", "frames", "turns"):
        assert plain[part] == general[part], part
    # The plain path, but while a seat's time is whole (each seat's first two moves: the second
    # asks whether the first was played) and the last.
    assert plain["statements"][4:-1] == [2] * (len(moves) - 5) and min(plain["statements"][:4]) > 2
    assert [plain["frames"][ply]["clock"]["remaining_ms"] for ply in (0, 1)] == [[60_000, 60_000]] * 2
    assert [plain["frames"][ply]["clock"]["running"] for ply in (0, 1)] == [None, 0]
    assert plain["frames"][2]["clock"]["remaining_ms"] == [60_000 - round(think[2] * 1000) + 2000, 60_000]
    assert plain["match"]["clock_ms"] != [60_000, 60_000]


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_move_after_the_time_and_the_grace_flags_the_clock_either_way(settings, heard, frozen):
    alice, bob = player_create_guest("Alice"), player_create_guest("Bob")
    ended = []
    for plain in (True, False):
        settings.PLAIN_MOVES = plain
        match = clocked_match("connect4", alice, bob, 1, 0)
        services.submit_player_move(match.pk, alice.pk, "4", 0)  # the first moves: free
        services.submit_player_move(match.pk, bob.pk, "4", 1)
        frozen.at += timedelta(milliseconds=60_000 + settings.CLOCK_FLAG_GRACE_MS + 1)
        with pytest.raises(MatchError) as refused:
            services.submit_player_move(match.pk, alice.pk, "3", 2)
        match.refresh_from_db()
        ended.append((refused.value.code, match.status, match.result, match.clock_ms, match.ply))
    assert ended[0] == ended[1] and ended[0][1] == Match.Status.FINISHED and ended[0][4] == 2


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_persons_move_against_a_bot_announces_the_bots_turn(settings, heard):
    alice = player_create_guest("Alice")
    profile = BotProfile.objects.filter(game="connect4").first()
    seats = [services.SeatRequest("human"), services.SeatRequest("bot", profile)]
    results = []
    for plain in (True, False):
        match = services.match_create("connect4", seats, alice)
        settings.PLAIN_MOVES = plain
        heard["turns"].clear()
        with CaptureQueriesContext(connection) as captured:
            services.submit_player_move(match.pk, alice.pk, "4", 0)
        turns = [(p, s, b) for m, p, s, b in heard["turns"] if m == match.pk]
        results.append((turns, any(query["sql"].startswith("BEGIN;") for query in captured.captured_queries)))
    # The bot's turn announced (here the bot plays at once, inside that signal: its own move's
    # announcement comes first to this receiver).
    assert results[0][0] == results[1][0] and (1, 1, True) in results[0][0]
    assert [taken for _, taken in results] == [True, False]  # the plain path, then the general one


REFUSALS = [
    # (who moves: 0 alice, 1 bob, 2 carol (no seat), the move, the ply), after "4" was played
    (1, "4", 0),  # a stale ply
    (0, "3", 1),  # not alice's turn
    (1, "9", 1),  # no such column
    (2, "3", 1),  # carol has no seat
    (1, "", 1),  # not a move
    (1, "3", -1),  # not a ply
    (1, "3", True),  # nor is this
]


@postgresql_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("mover, move, ply", REFUSALS)
def test_a_refusal_is_the_general_paths_and_writes_nothing(settings, mover, move, ply):
    alice, bob, carol = player_create_guest("Alice"), player_create_guest("Bob"), player_create_guest("Carol")
    errors = []
    for plain in (True, False):
        settings.PLAIN_MOVES = plain
        match = human_match("connect4", alice, bob)
        services.submit_player_move(match.pk, alice.pk, "4", 0)
        match.refresh_from_db()
        with pytest.raises(MatchError) as refused:
            services.submit_player_move(match.pk, [alice, bob, carol][mover].pk, move, ply)
        errors.append((refused.value.code, str(refused.value)))
        after = Match.objects.get(pk=match.pk)
        assert (after.v, after.ply, Move.objects.filter(match=match).count()) == (match.v, 1, 1)
    assert errors[0] == errors[1]


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_with_values_bound_on_the_server_every_move_takes_the_general_path(settings, monkeypatch):
    """A query text then carries one statement: the plain path's texts carry several."""
    settings.PLAIN_MOVES = True
    (alice, bob), match, _ = _two_matches("connect4")
    monkeypatch.setitem(connection.settings_dict, "OPTIONS", {"server_side_binding": True})
    with CaptureQueriesContext(connection) as captured:
        services.submit_player_move(match.pk, alice.pk, "4", 0)
    assert not captured.captured_queries[0]["sql"].startswith("BEGIN;")
    assert Match.objects.get(pk=match.pk).ply == 1


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_the_statements_are_prepared_once_a_connection(settings, heard):
    """A new connection: the session's prepared statements looked up, then prepared; after
    that, two queries a move.  A process that forgot them finds them in the session."""
    settings.PLAIN_MOVES = settings.DATABASE_PREPARED_STATEMENTS = True
    (alice, bob), match, _ = _two_matches("connect4")
    connection.close()
    counts = []
    for ply, (player, move) in enumerate([(alice, "4"), (bob, "4"), (alice, "3"), (bob, "3")]):
        if ply == 2:
            rows.forget_prepared(connections["default"])
        with CaptureQueriesContext(connection) as captured:
            services.submit_player_move(match.pk, player.pk, move, ply)
        counts.append([query["sql"].split(None, 1)[0] for query in captured.captured_queries])
    assert counts == [
        ["SELECT", "PREPARE", "BEGIN;", "EXECUTE"],
        ["BEGIN;", "EXECUTE"],
        ["SELECT", "BEGIN;", "EXECUTE"],
        ["BEGIN;", "EXECUTE"],
    ]
    assert [frame["ply"] for _, frame in heard["frames"] if frame["type"] == "move"] == [0, 1, 2, 3]


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_session_that_lost_its_statements_moves_the_general_way_then_prepares_again(settings, heard):
    """As behind a pooler that reset the session: the move is played all the same."""
    settings.PLAIN_MOVES = settings.DATABASE_PREPARED_STATEMENTS = True
    (alice, bob), match, _ = _two_matches("connect4")
    services.submit_player_move(match.pk, alice.pk, "4", 0)
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    with CaptureQueriesContext(connection) as lost:
        services.submit_player_move(match.pk, bob.pk, "4", 1)
    with CaptureQueriesContext(connection) as again:
        services.submit_player_move(match.pk, alice.pk, "3", 2)
    assert lost.captured_queries[0]["sql"].startswith("BEGIN;\nEXECUTE")  # tried, and failed
    assert len(lost.captured_queries) > 3  # then the general path's
    assert [query["sql"].split(None, 1)[0] for query in again.captured_queries] == [
        "SELECT", "PREPARE", "BEGIN;", "EXECUTE"
    ]  # fmt: skip
    assert connection.connection.info.transaction_status == 0  # idle
    assert [frame["ply"] for _, frame in heard["frames"] if frame["type"] == "move"] == [0, 1, 2]
    assert Match.objects.get(pk=match.pk).ply == 3


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_move_for_no_match_is_not_found(settings):
    settings.PLAIN_MOVES = True
    alice = player_create_guest("Alice")
    with pytest.raises(MatchError) as refused:
        services.submit_player_move(10**9, alice.pk, "4", 0)
    assert refused.value.code == "not_found"


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_failed_write_rolls_back_and_the_connection_goes_on(settings, heard):
    """A row for the ply already there (a race the lock prevents, forced here): stale_ply, the
    match as it was, nothing sent, and the next statement on the connection runs."""
    settings.PLAIN_MOVES = True
    (alice, bob), match, _ = _two_matches("connect4")
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO matches_move (match_id, ply, seat, move, notation, created_at, think_ms, fallback)"
            " VALUES (%s, 0, 0, '1', '', now(), 0, '')",
            [match.pk],
        )
    heard["frames"].clear()
    with pytest.raises(MatchError) as refused:
        services.submit_player_move(match.pk, alice.pk, "4", 0)
    assert refused.value.code == "stale_ply"
    assert connection.connection.info.transaction_status == 0  # idle: rolled back
    after = Match.objects.get(pk=match.pk)
    assert (after.ply, after.v) == (match.ply, match.v) and heard["frames"] == []


@postgresql_only
@pytest.mark.django_db
def test_inside_a_callers_transaction_the_frame_waits_for_its_commit(
    settings, heard, alice, bob, django_capture_on_commit_callbacks
):
    settings.PLAIN_MOVES = True
    match = human_match("connect4", alice, bob)
    with django_capture_on_commit_callbacks() as callbacks:
        services.submit_player_move(match.pk, alice.pk, "4", 0)
        assert heard["frames"] == []
    for callback in callbacks:
        callback()
    assert [frame["ply"] for _, frame in heard["frames"]] == [0]
    assert Match.objects.get(pk=match.pk).ply == 1


def test_nothing_else_listens_to_the_rows_a_plain_move_writes():
    """The plain path sends no save signals: were a new receiver added, it would miss the
    plain moves (the one there is acts only in matches with hints, which are not plain)."""
    for model in (Match, Move, MatchEvent):
        assert not pre_save.has_listeners(model)
    assert not post_save.has_listeners(Match) and not post_save.has_listeners(MatchEvent)
    sync_receivers, async_receivers = post_save._live_receivers(Move)
    assert [r.__name__ for r in [*sync_receivers, *async_receivers]] == ["record_hint_with_move"]

"""Chinese checkers rules: the star, steps and jump chains, triangles, the blocked-goal rule,
the turn limit and ranking, notation and JSON round trips."""

from __future__ import annotations

import json
import random

import pytest

from games import IllegalMove, registry
from games.chinese_checkers import (
    CHINESE_CHECKERS,
    CHINESE_CHECKERS_2,
    COORDS,
    INDEX,
    NAMES,
    ROWS,
    TRIANGLES,
    ChineseCheckers,
    ChineseCheckersState,
)

GAME = CHINESE_CHECKERS
GAME2 = CHINESE_CHECKERS_2


def at(q: int, r: int) -> str:
    """The name of the hole at axial (q, r); (0, 0) is the centre, r grows downwards."""
    return NAMES[INDEX[(q, r)]]


def cells(triangle: str) -> list[str]:
    return [NAMES[i] for i in range(121) if TRIANGLES[triangle] >> i & 1]


def arrange(game: ChineseCheckers, layout: dict[int, list[str]], ply: int = 0) -> ChineseCheckersState:
    """Seat -> its cells; seats not given keep their starting triangle."""
    start = game.initial_state()
    pieces = list(start.pieces)
    for seat, names in layout.items():
        assert len(names) == 10
        pieces[seat] = sum(1 << NAMES.index(n) for n in names)
    state = ChineseCheckersState(tuple(pieces), ply)
    return game.from_json(json.loads(json.dumps(game.to_json(state))))


def test_registered_for_three_and_two_players() -> None:
    assert registry.get("chinese-checkers") is GAME and GAME.num_players == 3
    assert registry.get("chinese-checkers-2") is GAME2 and GAME2.num_players == 2
    assert not GAME.has_chance


def test_the_star_has_121_holes_in_17_centred_rows() -> None:
    assert [len(r) for r in ROWS] == [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
    assert len(NAMES) == len(set(NAMES)) == 121
    assert at(0, 0) == "i5" and at(4, -8) == "a1" and at(-4, 8) == "q1"
    assert NAMES[ROWS[4][0]] == "e1" and NAMES[ROWS[4][-1]] == "e13"
    # Every row is centred: its holes' x = q + r/2 are symmetric about 0.
    for row in ROWS:
        xs = [COORDS[c][0] + COORDS[c][1] / 2 for c in row]
        assert xs == [-x for x in reversed(xs)]
    assert all(len(cells(t)) == 10 for t in TRIANGLES)
    assert sum(TRIANGLES.values()).bit_count() == 60


def test_three_players_start_in_alternate_triangles_facing_empty_targets() -> None:
    data = GAME.to_json(GAME.initial_state())
    assert sorted(data["homes"][0]) == sorted(cells("bottom"))
    assert sorted(data["homes"][1]) == sorted(cells("upper-right"))
    assert sorted(data["homes"][2]) == sorted(cells("upper-left"))
    assert sorted(data["targets"][0]) == sorted(cells("top"))
    assert sorted(data["targets"][1]) == sorted(cells("lower-left"))
    assert sorted(data["targets"][2]) == sorted(cells("lower-right"))
    board = {NAMES[c]: v for row, vals in zip(ROWS, data["board"], strict=True) for c, v in zip(row, vals, strict=True)}
    assert sum(v is not None for v in board.values()) == 30
    assert all(board[c] is None for t in data["targets"] for c in t)
    assert data["distances"][0] == data["distances"][1] == data["distances"][2] > 0
    assert data["to_move"] == 0 and data["players"] == 3


def test_two_players_go_bottom_to_top_and_back() -> None:
    data = GAME2.to_json(GAME2.initial_state())
    assert sorted(data["homes"][0]) == sorted(data["targets"][1]) == sorted(cells("bottom"))
    assert sorted(data["homes"][1]) == sorted(data["targets"][0]) == sorted(cells("top"))
    assert not GAME2.is_terminal(GAME2.initial_state())  # seat 0's target is full, but not of its pieces


def test_first_moves_are_steps_and_single_jumps() -> None:
    moves = GAME.legal_moves(GAME.initial_state())
    steps = [m for m in moves if m.count("-") == 1 and m[0] == "n"]
    assert steps == ["n1-m5", "n1-m6", "n2-m6", "n2-m7", "n3-m7", "n3-m8", "n4-m8", "n4-m9"]
    assert "o1-m5" in moves and "o1-m7" in moves  # over n1 and n2
    assert len(moves) == 14


def test_jumps_chain_and_every_landing_is_a_move() -> None:
    # Seat 0 on the centre; stones one and three holes up: i5 jumps to two holes up, then four.
    state = arrange(GAME, {0: [at(0, 0)] + cells("bottom")[1:], 1: [at(0, -1), at(0, -3)] + cells("upper-right")[:8]})
    moves = GAME.legal_moves(state)
    assert f"{at(0, 0)}-{at(0, -2)}" in moves
    assert f"{at(0, 0)}-{at(0, -2)}-{at(0, -4)}" in moves
    after = GAME.play(state, f"{at(0, 0)}-{at(0, -2)}-{at(0, -4)}")
    assert after.pieces[0] >> INDEX[(0, -4)] & 1 and not after.pieces[0] >> INDEX[(0, 0)] & 1
    assert GAME.to_move(after) == 1 and GAME.ply(after) == 1


def test_a_chain_never_lands_twice_and_paths_are_the_shortest() -> None:
    rng = random.Random(9)
    state = GAME.initial_state()
    for _ in range(60):
        for move in GAME.legal_moves(state):
            path = move.split("-")
            assert len(set(path)) == len(path)
        # One path per origin and destination.
        ends = [(m.split("-")[0], m.split("-")[-1]) for m in GAME.legal_moves(state)]
        assert len(ends) == len(set(ends))
        state = GAME.play(state, GAME.rollout_move(state, rng))


def test_jump_through_but_never_stop_in_a_foreign_triangle() -> None:
    # Two players: the upper-right triangle is nobody's.  From (3,-2), over (4,-2) into the
    # triangle at (5,-2), and out again over (4,-1) to (3,0).
    state = arrange(
        GAME2,
        {0: [at(3, -2)] + cells("bottom")[1:], 1: [at(4, -2), at(4, -1)] + cells("top")[2:]},
    )
    moves = GAME2.legal_moves(state)
    origin = at(3, -2)
    assert f"{origin}-{at(5, -2)}-{at(3, 0)}" in moves
    assert not any(m.startswith(origin) and m.endswith(at(5, -2)) for m in moves)
    with pytest.raises(IllegalMove, match="another player's triangle"):
        GAME2.play(state, f"{origin}-{at(5, -2)}")


def test_filling_the_target_wins_and_ranks_every_seat() -> None:
    top = cells("top")
    last = top[-1]  # a hole of the top triangle's lowest row
    below = next(NAMES[adj] for adj, _ in _neighbours(last) if adj >= 0 and not TRIANGLES["top"] >> adj & 1)
    state = arrange(GAME, {0: top[:-1] + [below]})
    assert not GAME.is_terminal(state)
    after = GAME.play(state, f"{below}-{last}")
    assert GAME.is_terminal(after) and GAME.legal_moves(after) == []
    outcome = GAME.outcome(after)
    assert outcome.winner == 0 and outcome.reason == "target triangle filled"
    assert outcome.ranking[0] == 0 and sorted(outcome.ranking) == [0, 1, 2]
    assert sum(outcome.returns) == pytest.approx(0) and outcome.returns[0] == 1.0
    assert GAME.to_json(after)["distances"][0] == 0
    with pytest.raises(IllegalMove, match="over"):
        GAME.play(after, "pass")


def _neighbours(name: str) -> tuple[tuple[int, int], ...]:
    from games.chinese_checkers import NEIGHBOURS

    return NEIGHBOURS[NAMES.index(name)]


def test_blocked_goal_an_opponent_left_in_the_target_cannot_stop_the_win() -> None:
    top = cells("top")
    squatter = "a1"  # seat 1 never leaves the tip of its home, seat 0's target
    free = [c for c in top if c != squatter]
    last = free[-1]
    below = next(NAMES[adj] for adj, _ in _neighbours(last) if adj >= 0 and not TRIANGLES["top"] >> adj & 1)
    elsewhere = [at(q, 0) for q in range(-4, 5)]  # seat 1's other nine pieces, on the middle row
    state = arrange(GAME2, {0: free[:-1] + [below] + cells("bottom")[:1], 1: [squatter] + elsewhere})
    after = GAME2.play(state, f"{below}-{last}")
    assert GAME2.is_terminal(after)
    assert GAME2.outcome(after).winner == 0
    assert GAME2.to_json(after)["distances"][0] > 0  # won with nine pieces home


def test_blocked_goal_completed_by_the_opponents_move_wins_for_its_owner() -> None:
    top = cells("top")
    hole = top[-1]
    below = next(NAMES[adj] for adj, _ in _neighbours(hole) if adj >= 0 and not TRIANGLES["top"] >> adj & 1)
    seat0 = [c for c in top if c != hole][:8] + cells("bottom")[:2]
    seat1 = [c for c in top if c != hole][8:] + [below] + [at(q, 0) for q in range(-4, 4)]
    state = arrange(GAME2, {0: seat0, 1: seat1}, ply=1)
    assert GAME2.to_move(state) == 1 and f"{below}-{hole}" in GAME2.legal_moves(state)
    after = GAME2.play(state, f"{below}-{hole}")
    assert GAME2.is_terminal(after) and GAME2.outcome(after).winner == 0


def test_a_boxed_in_player_passes() -> None:
    bottom = TRIANGLES["bottom"]
    ring = sorted({adj for c in range(121) if bottom >> c & 1 for adj, _ in _neighbours(NAMES[c])} - {-1})
    ring = [c for c in ring if not bottom >> c & 1]
    landings = sorted(
        {land for c in range(121) if bottom >> c & 1 for adj, land in _neighbours(NAMES[c]) if land >= 0} - set(ring)
    )
    landings = [c for c in landings if not bottom >> c & 1]
    blockers = [NAMES[c] for c in ring + landings]
    assert len(blockers) <= 20
    fill = [at(q, 0) for q in range(-4, 5)] + [at(q, 1) for q in range(-4, 4)] + [at(-4, -1), at(-3, -1), at(-2, -1)]
    others = (blockers + [c for c in fill if c not in blockers])[:20]
    state = arrange(GAME, {1: others[:10], 2: others[10:]})
    assert GAME.legal_moves(state) == ["pass"]
    after = GAME.play(state, "pass")
    assert after.pieces == state.pieces and GAME.to_move(after) == 1
    with pytest.raises(IllegalMove, match="only when none of your pieces can move"):
        GAME.play(GAME.initial_state(), "pass")


def test_turn_limit_ranks_by_distance_to_goal() -> None:
    game = ChineseCheckers(max_turns=2)
    state = game.initial_state()
    for move in ["n1-m5", None, None, "m5-l5", None, None]:
        state = game.play(state, move or game.legal_moves(state)[0])
    assert game.is_terminal(state) and game.legal_moves(state) == []
    outcome = game.outcome(state)
    assert outcome.reason.startswith("turn limit")
    distances = game.to_json(state)["distances"]
    assert [distances[s] for s in outcome.ranking] == sorted(distances)
    assert sum(outcome.returns) == pytest.approx(0)
    assert sorted(outcome.ranking) == [0, 1, 2]


def test_ties_at_the_turn_limit_share_their_returns() -> None:
    game = ChineseCheckers(max_turns=1)
    state = game.from_json({**game.to_json(game.initial_state()), "ply": 3, "to_move": 0})
    outcome = game.outcome(state)
    assert outcome.returns == (0.0, 0.0, 0.0) and outcome.winner is None
    assert outcome.ranking == (0, 1, 2)


def test_two_player_returns() -> None:
    game = type(GAME2)(max_turns=1)
    state = game.play(game.initial_state(), "o1-m5")
    state = game.play(state, game.order_moves(state, game.legal_moves(state))[-1])  # a one-hole step
    assert game.is_terminal(state)
    assert game.returns(state) == [1.0, -1.0]  # seat 0 jumped two rows, seat 1 stepped one
    assert game.outcome(state).winner == 0


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("zz-a1", "not a path of cells"),
        ("n1", "not a path of cells"),
        ("n1 m5", "not a path of cells"),
        ("a1-b1", "no piece of yours on a1"),
        ("m5-l5", "no piece of yours on m5"),
        ("o1-n1", "n1 is occupied"),
        ("n1-l5", "not a legal move"),
        ("pass", "only when none of your pieces can move"),
    ],
)
def test_illegal_moves_say_why_and_change_nothing(move: str, message: str) -> None:
    state = GAME.initial_state()
    with pytest.raises(IllegalMove, match=message):
        GAME.play(state, move)
    assert state == GAME.initial_state()


def test_a_longer_path_to_the_same_hole_names_the_canonical_one() -> None:
    state = arrange(GAME, {0: [at(0, 0)] + cells("bottom")[1:], 1: [at(0, -1), at(0, -3)] + cells("upper-right")[:8]})
    with pytest.raises(IllegalMove, match="written"):
        GAME.play(state, f"{at(0, 0)}-{at(0, -4)}")


def test_notation_and_json_round_trips() -> None:
    for name in NAMES:
        assert NAMES[INDEX[COORDS[NAMES.index(name)]]] == name
    for game in (GAME, GAME2):
        rng = random.Random(game.id)
        state = game.initial_state()
        while not game.is_terminal(state):
            assert game.from_json(json.loads(json.dumps(game.to_json(state)))) == state
            state = game.play(state, game.rollout_move(state, rng))
        assert game.from_json(json.loads(json.dumps(game.to_json(state)))) == state


START = GAME.to_json(GAME.initial_state())


@pytest.mark.parametrize(
    "data",
    [
        {},
        None,
        {**START, "board": START["board"][:16]},
        {**START, "board": [row[:-1] for row in START["board"]]},
        {**START, "board": [[3 if v is not None else None for v in row] for row in START["board"]]},
        {**START, "board": [[None for _ in row] for row in START["board"]]},  # pieces missing
        {**START, "ply": -1},
        {**START, "ply": 10_000},
        {**START, "to_move": 1},  # ply 0: seat 0 moves
    ],
)
def test_invalid_json_is_refused(data: object) -> None:
    with pytest.raises(ValueError):
        GAME.from_json(data)  # type: ignore[arg-type]


def test_evaluate_prefers_the_seat_nearer_its_goal() -> None:
    assert GAME.evaluate(GAME.initial_state(), 0) == pytest.approx(0)
    ahead = arrange(GAME, {0: cells("top")[:5] + cells("bottom")[:5]})
    assert GAME.evaluate(ahead, 0) > 0.3 and GAME.evaluate(ahead, 1) < 0
    assert GAME.order_moves(GAME.initial_state(), GAME.legal_moves(GAME.initial_state()))[0].startswith("o")

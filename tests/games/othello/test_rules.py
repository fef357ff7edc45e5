"""Othello rules: perft from the start, flips, passes, the end of the game, notation and JSON."""

from __future__ import annotations

import json
import random

import pytest

from games import IllegalMove, registry
from games.othello import (
    BIT_OF,
    OTHELLO,
    SQUARE_NAMES,
    OthelloState,
    flips,
    move_mask,
    perft,
    stable_discs,
)

GAME = OTHELLO
PERFT = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092, 8: 390216}


def board_state(rows: list[str], to_move: int = 0, ply: int = 30) -> OthelloState:
    """A position from 8 strings of "X" (black), "O" (white) and "." (empty), row 1 first."""
    board = [[{"X": 0, "O": 1, ".": None}[ch] for ch in row] for row in rows]
    return GAME.from_json({"board": board, "to_move": to_move, "ply": ply})


def bb(*names: str) -> int:
    return sum(BIT_OF[n] for n in names)


# --- a square-by-square referee, independent of the bitboards --------------------
STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def ref_flips(own: set[tuple[int, int]], opp: set[tuple[int, int]], r: int, c: int) -> set[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    for dr, dc in STEPS:
        run = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) in opp:
            run.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if run and 0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) in own:
            out.update(run)
    return out


def squares(b: int) -> set[tuple[int, int]]:
    return {(sq // 8, sq % 8) for sq in range(64) if b >> sq & 1}


def ref_moves(state: OthelloState) -> list[str]:
    own, opp = map(squares, state.own_opp())
    moves = [
        SQUARE_NAMES[r * 8 + c]
        for r in range(8)
        for c in range(8)
        if (r, c) not in own | opp and ref_flips(own, opp, r, c)
    ]
    if moves:
        return moves
    other = [1 for r in range(8) for c in range(8) if (r, c) not in own | opp and ref_flips(opp, own, r, c)]
    return ["pass"] if other else []


# --- tests ----------------------------------------------------------------------
def test_registered_under_its_stable_id() -> None:
    assert registry.get("othello") is GAME
    assert GAME.num_players == 2 and not GAME.has_chance


def test_standard_start_in_championship_notation() -> None:
    data = GAME.to_json(GAME.initial_state())
    assert data["board"][3][3:5] == [1, 0]  # d4 white, e4 black
    assert data["board"][4][3:5] == [0, 1]  # d5 black, e5 white
    assert data["discs"] == [2, 2] and data["to_move"] == 0 and data["ply"] == 0
    assert sorted(GAME.legal_moves(GAME.initial_state())) == ["c4", "d3", "e6", "f5"]
    assert data["legal"] == GAME.legal_moves(GAME.initial_state())


def test_a1_is_top_left_and_h8_bottom_right() -> None:
    assert SQUARE_NAMES[0] == "a1" and SQUARE_NAMES[7] == "h1" and SQUARE_NAMES[56] == "a8"
    state = GAME.play(GAME.initial_state(), "f5")  # the usual first move
    board = GAME.to_json(state)["board"]
    assert board[4][5] == 0 and board[4][4] == 0  # f5 placed, e5 flipped
    assert GAME.to_json(state)["discs"] == [4, 1]


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 6])
def test_perft(depth: int) -> None:
    assert perft(GAME.initial_state(), depth) == PERFT[depth]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [7, 8])
def test_perft_deep(depth: int) -> None:
    assert perft(GAME.initial_state(), depth) == PERFT[depth]


def test_perft_through_the_string_api() -> None:
    def count(state: OthelloState, depth: int) -> int:
        if depth == 0:
            return 1
        return sum(count(GAME.play(state, m), depth - 1) for m in GAME.legal_moves(state))

    assert [count(GAME.initial_state(), d) for d in (1, 2, 3, 4)] == [4, 12, 56, 244]


def test_moves_and_flips_agree_with_a_square_by_square_referee() -> None:
    rng = random.Random(8)
    for _ in range(40):
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            moves = GAME.legal_moves(state)
            assert moves == ref_moves(state)
            move = rng.choice(moves)
            if move != "pass":
                own, opp = state.own_opp()
                r, c = divmod(SQUARE_NAMES.index(move), 8)
                assert squares(flips(own, opp, BIT_OF[move])) == ref_flips(squares(own), squares(opp), r, c)
            state = GAME.play(state, move)
        assert ref_moves(state) == []


def test_one_disc_flips_lines_in_all_eight_directions_at_once() -> None:
    state = board_state(
        [
            "X.X.X...",
            ".OOO....",
            "XO.OX...",
            ".OOOX...",
            "X.XOX...",
            "........",
            "........",
            "........",
        ],
        to_move=0,
    )
    after = GAME.play(state, "c3")
    board = GAME.to_json(after)["board"]
    for name in ("b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4", "c3"):
        r, c = int(name[1]) - 1, "abcdefgh".index(name[0])
        assert board[r][c] == 0, name
    assert board[4][3] == 1  # d5 is on no line through c3: it stays white
    assert GAME.to_json(after)["discs"] == [state.black.bit_count() + 9, state.white.bit_count() - 8]


def test_lines_do_not_wrap_around_the_edge() -> None:
    # Black h4, white a5 (the bit after h4): a wrap would make b5 a move, and flip a5.
    own, opp = bb("h4"), bb("a5")
    assert move_mask(own, opp) == 0
    assert flips(own, opp, BIT_OF["b5"]) == 0
    # The same along a diagonal: black h3, white a5 (h3 + 9 bits = a5? no: h3 is bit 23, a5 is 32).
    own, opp = bb("h3"), bb("a4")  # h3 + 1 = a4 in bits
    assert move_mask(own, opp) == 0
    own, opp = bb("a3"), bb("h3")  # a3 - 1 = h2 in bits; h3 - 9 = g2
    assert move_mask(own, opp) == 0
    own, opp = bb("a4"), bb("h4")  # a4 west of a4 is off the board
    assert move_mask(own, opp) == 0


def test_a_line_must_end_in_an_own_disc() -> None:
    own, opp = bb("a1"), bb("b1", "c1")
    assert move_mask(own, opp) == bb("d1")
    assert flips(own, opp, BIT_OF["d1"]) == bb("b1", "c1")
    own, opp = bb("a1"), bb("b1", "c1", "d1", "e1", "f1", "g1", "h1")
    assert move_mask(own, opp) == 0  # the run reaches the edge


PASS_POSITION = [
    "XO......",
    "........",
    "........",
    "...XX...",
    "...XX...",
    "........",
    "........",
    "........",
]


def test_a_player_without_a_move_must_pass() -> None:
    state = board_state(PASS_POSITION, to_move=1)  # white's only disc b1 flanks nothing
    assert GAME.legal_moves(state) == ["pass"]
    assert not GAME.is_terminal(state)
    with pytest.raises(IllegalMove, match="no legal move and must pass"):
        GAME.play(state, "c1")
    after = GAME.play(state, "pass")
    assert GAME.to_move(after) == 0 and GAME.ply(after) == GAME.ply(state) + 1
    assert (after.black, after.white) == (state.black, state.white)
    assert GAME.legal_moves(after) == ["c1"]


def test_pass_is_refused_when_a_move_exists() -> None:
    with pytest.raises(IllegalMove, match="only when you have no legal move"):
        GAME.play(GAME.initial_state(), "pass")


def test_passes_occur_in_real_games_and_count_as_plies() -> None:
    rng = random.Random(3)
    for _ in range(400):
        state, transcript = GAME.initial_state(), ""
        saw_pass = False
        while not GAME.is_terminal(state):
            move = rng.choice(GAME.legal_moves(state))
            saw_pass |= move == "pass"
            state = GAME.play(state, move)
            transcript += move
        if saw_pass:
            assert GAME.from_moves(transcript) == state
            assert GAME.ply(state) == len(transcript.replace("pass", "xx")) // 2
            return
    raise AssertionError("no random game had a pass")


def test_wipe_out_ends_the_game_at_once() -> None:
    state = GAME.from_moves("d3c3b3d2e1d6d7e3f4")  # the shortest game: 9 moves
    assert GAME.is_terminal(state)
    assert GAME.legal_moves(state) == []
    outcome = GAME.outcome(state)
    assert outcome.winner == 0 and outcome.returns == (1.0, -1.0)
    assert outcome.reason == "black wins 64-0"  # the empty squares go to the winner
    with pytest.raises(IllegalMove, match="the game is over"):
        GAME.play(state, "pass")


def _blocked(white_rows: int) -> list[str]:
    """White fills the first rows except column h and the a1-h8 diagonal; black the rest; h8 empty.

    No line through h8 holds a white disc, so nobody can ever play there.
    """
    rows = []
    for r in range(8):
        rows.append("".join("X" if r >= white_rows or c == 7 or c == r else "O" for c in range(8)))
    rows[7] = rows[7][:7] + "."
    return rows


def test_blocked_game_with_empty_squares_ends_and_scores_them_to_the_winner() -> None:
    state = board_state(_blocked(3), to_move=1, ply=59)
    assert GAME.is_terminal(state) and GAME.legal_moves(state) == []
    assert GAME.to_json(state)["discs"] == [45, 18]
    assert GAME.score(state) == (46, 18)
    assert GAME.outcome(state).reason == "black wins 46-18"
    state = board_state(_blocked(6), to_move=0, ply=59)
    assert GAME.is_terminal(state)
    assert GAME.to_json(state)["discs"] == [27, 36]
    assert GAME.outcome(state).reason == "white wins 27-37"
    assert GAME.outcome(state).winner == 1 and GAME.returns(state) == [-1.0, 1.0]


def test_full_board_with_equal_discs_is_a_draw() -> None:
    state = board_state(["XXXXXXXX"] * 4 + ["OOOOOOOO"] * 4, ply=60)
    assert GAME.is_terminal(state)
    outcome = GAME.outcome(state)
    assert outcome.winner is None and outcome.returns == (0.0, 0.0)
    assert outcome.reason == "draw 32-32"


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("i1", "not a square"),
        ("a9", "not a square"),
        ("A1", "not a square"),
        ("d33", "not a square"),
        ("", "not a square"),
        ("d4", "d4 is already taken"),
        ("a1", "would flip nothing"),
        ("e3", "would flip nothing"),
    ],
)
def test_illegal_moves_say_why_and_change_nothing(move: str, message: str) -> None:
    state = GAME.initial_state()
    with pytest.raises(IllegalMove, match=message):
        GAME.play(state, move)
    assert state == GAME.initial_state()


def test_game_over_is_not_a_move() -> None:
    assert not GAME.is_terminal(GAME.initial_state())
    with pytest.raises(ValueError, match="not over"):
        GAME.outcome(GAME.initial_state())


def test_notation_round_trip() -> None:
    for name in SQUARE_NAMES:
        assert SQUARE_NAMES[BIT_OF[name].bit_length() - 1] == name
    rng = random.Random(5)
    state, transcript = GAME.initial_state(), ""
    while not GAME.is_terminal(state):
        move = rng.choice(GAME.legal_moves(state))
        state = GAME.play(state, move)
        transcript += move
    assert GAME.from_moves(transcript) == state


def test_json_round_trip_through_a_game() -> None:
    rng = random.Random(6)
    state = GAME.initial_state()
    while True:
        assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state
        if GAME.is_terminal(state):
            break
        state = GAME.play(state, rng.choice(GAME.legal_moves(state)))


START = GAME.to_json(GAME.initial_state())


@pytest.mark.parametrize(
    "data",
    [
        {},
        [],
        None,
        {**START, "board": START["board"][:7]},
        {**START, "board": [row[:7] for row in START["board"]]},
        {**START, "board": [[2] * 8] * 8},
        {**START, "board": [[None] * 8] * 8},  # the centre is never empty
        {**START, "to_move": 2},
        {**START, "to_move": True},
        {**START, "ply": -1},
        {**START, "ply": "0"},
        {**GAME.to_json(GAME.from_moves("f5d6")), "ply": 1},  # six discs after one move
    ],
)
def test_invalid_json_is_refused(data: object) -> None:
    with pytest.raises(ValueError):
        GAME.from_json(data)  # type: ignore[arg-type]


def test_key_ignores_the_move_count_but_not_the_side_to_move() -> None:
    a = GAME.from_moves("f5d6c3d3c4")
    b = OthelloState(a.black, a.white, a.seat, a.ply + 2)
    assert GAME.key(a) == GAME.key(b)
    assert GAME.key(a) != GAME.key(OthelloState(a.black, a.white, 1 - a.seat, a.ply))


def test_evaluate_is_antisymmetric_and_likes_corners() -> None:
    rng = random.Random(2)
    state = GAME.initial_state()
    while not GAME.is_terminal(state):
        assert GAME.evaluate(state, 0) == pytest.approx(-GAME.evaluate(state, 1))
        assert -1 < GAME.evaluate(state, 0) < 1
        state = GAME.play(state, rng.choice(GAME.legal_moves(state)))
    corner = board_state(
        ["X.......", ".O......", "..O.....", "...XO...", "...OX...", "........", "........", "........"],
        to_move=1,
    )
    assert GAME.evaluate(corner, 0) > 0


def test_stable_discs_grow_from_the_corners() -> None:
    own = bb("a1", "b1", "c1", "a2", "b2")
    opp = bb("d1", "d4", "e4", "d5", "e5")
    assert stable_discs(own, opp) == bb("a1", "b1", "c1", "a2", "b2")
    assert stable_discs(bb("b1", "c1"), opp) == 0  # no corner, no stability


def test_rollout_takes_corners_and_order_puts_them_first() -> None:
    state = board_state(
        ["........", ".O......", "..O.....", "...XO...", "...OX...", "........", "........", "........"],
        to_move=0,
    )
    assert "a1" in GAME.legal_moves(state)
    assert all(GAME.rollout_move(state, random.Random(s)) == "a1" for s in range(10))
    assert GAME.order_moves(state, GAME.legal_moves(state))[0] == "a1"

"""English draughts' rules: forced captures, multi-jumps, crowning that ends the move, the draws, the notation."""

from __future__ import annotations

import json
import random

import pytest

from ai.search import choose_move
from ai.types import SearchConfig
from games import IllegalMove, registry
from games.checkers import CHECKERS, CheckersState


def position(black: set[int], white: set[int], kings: set[int] = frozenset(), to_move: int = 0) -> CheckersState:  # type: ignore[assignment]
    """A position by standard square numbers (1-32)."""

    def mask(squares: set[int]) -> int:
        return sum(1 << (sq - 1) for sq in squares)

    return CheckersState(mask(black), mask(white), mask(kings), to_move)


def test_it_is_registered_with_black_first_and_seven_moves() -> None:
    game = registry.get("checkers")
    state = game.initial_state()
    assert game is CHECKERS and game.to_move(state) == 0
    assert game.legal_moves(state) == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]


def test_a_capture_is_compulsory_and_says_so() -> None:
    state = position(black={1, 15}, white={19})
    assert CHECKERS.legal_moves(state) == ["15x24"]
    with pytest.raises(IllegalMove, match="capture is compulsory"):
        CHECKERS.play(state, "1-5")


def test_a_multi_jump_goes_on_and_crowning_ends_it() -> None:
    # From 31 the new king could jump 26 on to 22, but a man crowned ends his move there.
    state = position(black={15}, white={19, 27, 26})
    assert CHECKERS.legal_moves(state) == ["15x24x31"]
    with pytest.raises(IllegalMove, match="goes on while it can jump"):
        CHECKERS.play(state, "15x24")
    after = CHECKERS.play(state, "15x24x31")
    assert CHECKERS.to_json(after)["board"][30] == "B"  # square 31: a black king
    assert CHECKERS.to_move(after) == 1 and CHECKERS.to_json(after)["board"][25] == "w"


def test_a_capture_may_be_named_by_its_ends() -> None:
    state = position(black={15}, white={19, 27})
    assert CHECKERS.canonical_move(state, "15x31") == "15x24x31"
    with pytest.raises(IllegalMove, match="squares 1-32"):
        CHECKERS.play(state, "e3-f4")


def test_kings_move_backwards_and_men_do_not() -> None:
    assert CHECKERS.legal_moves(position(black={15}, white={32}, kings={15})) == ["15-18", "15-19", "15-10", "15-11"]
    assert CHECKERS.legal_moves(position(black={15}, white={32})) == ["15-18", "15-19"]


def test_no_move_left_loses() -> None:
    state = position(black={4}, white={8, 11}, to_move=0)  # 4's only step, 8, is taken; 11 cannot be jumped
    assert CHECKERS.is_terminal(state)
    assert CHECKERS.outcome(state).winner == 1 and CHECKERS.outcome(state).reason == "no move left"


def test_threefold_repetition_draws() -> None:
    state = position(black={1}, white={32}, kings={1, 32})
    for move in ["1-5", "32-28", "5-1", "28-32"] * 2:
        assert not CHECKERS.is_terminal(state)
        state = CHECKERS.play(state, move)
    assert CHECKERS.is_terminal(state) and CHECKERS.outcome(state).reason == "threefold repetition"
    assert CHECKERS.outcome(state).returns == (0.0, 0.0)


def test_the_40_move_rule_draws_and_a_mans_move_resets_it() -> None:
    kings = position(black={1, 12}, white={32}, kings={1, 32})
    nearly = CheckersState(kings.black, kings.white, kings.kings, 0, ply=100, quiet=79)
    assert not CHECKERS.is_terminal(nearly)
    assert CHECKERS.outcome(CHECKERS.play(nearly, "1-6")).reason == "40-move rule"
    assert not CHECKERS.is_terminal(CHECKERS.play(nearly, "12-16"))  # a man moved: the count starts again


def test_the_state_round_trips_with_its_history() -> None:
    state = position(black={1}, white={32}, kings={1, 32})
    for move in ["1-5", "32-28", "5-1"]:
        state = CHECKERS.play(state, move)
    again = CHECKERS.from_json(json.loads(json.dumps(CHECKERS.to_json(state))))
    assert again == state and len(again.seen) == 3
    with pytest.raises(ValueError, match="32 characters"):
        CHECKERS.from_json({**CHECKERS.to_json(state), "board": "x" * 32})


def test_search_hooks_see_captures() -> None:
    state = position(black={10, 15}, white={14, 19, 27})
    assert not CHECKERS.is_quiet(state)
    assert CHECKERS.noisy_moves(state) == CHECKERS.legal_moves(state)
    assert CHECKERS.order_moves(state, ["10x17", "15x24x31"])[0] == "15x24x31"
    assert CHECKERS.is_quiet(CHECKERS.initial_state())
    assert -1 < CHECKERS.evaluate(state, 0) < 1 and CHECKERS.evaluate(state, 0) == -CHECKERS.evaluate(state, 1)


def test_alpha_beta_takes_the_double_jump() -> None:
    state = position(black={10, 15}, white={14, 19, 27})
    result = choose_move(CHECKERS, state, SearchConfig(max_depth=3, time_budget_ms=5000, seed=1))
    assert result.move == "15x24x31"


@pytest.mark.parametrize("seed", CHECKERS.spec.ladder, ids=lambda s: s.slug)
def test_every_seeded_bot_plays_a_legal_move(seed) -> None:
    state = CHECKERS.play(CHECKERS.initial_state(), "11-15")
    settings = {k: v for k, v in seed.settings.items() if k in ("max_depth", "slip_rate")}
    config = SearchConfig(algorithm=seed.algorithm, time_budget_ms=300, seed=3, **settings)
    assert choose_move(CHECKERS, state, config).move in CHECKERS.legal_moves(state)


def test_exports_write_pdn_and_each_position_before_a_move() -> None:
    from server.research.notation import positions_before, standard_notation

    assert standard_notation("checkers", ["11-15", "22-18", "15x22"]) == {
        "format": "pdn",
        "moves": '[GameType "21"]\n[Result "*"]\n\n1. 11-15 22-18 2. 15x22 *',
    }
    assert standard_notation("checkers", ["11-15", "15-19"]) is None  # not a game of checkers
    before = positions_before("checkers", [(0, "11-15"), (1, "22-18"), (0, "nonsense"), (1, "25x18")])
    assert before is not None
    assert before[1] == CHECKERS.position_notation(CHECKERS.play(CHECKERS.initial_state(), "11-15"))
    assert before[3] is None  # a damaged record: written as far as it replays


def test_a_finished_game_writes_its_result() -> None:
    state, moves = CHECKERS.initial_state(), []
    rng = random.Random(5)
    while not CHECKERS.is_terminal(state):
        moves.append(rng.choice(CHECKERS.legal_moves(state)))
        state = CHECKERS.play(state, moves[-1])
    winner = CHECKERS.outcome(state).winner
    result = "1/2-1/2" if winner is None else ("1-0" if winner == 0 else "0-1")
    written = CHECKERS.standard_notation(moves)
    assert written is not None and written[1].endswith(f" {result}") and f'[Result "{result}"]' in written[1]

"""Any correct wording of a play is read as its canonical string; anything else is refused saying why."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import CHANCE, IllegalMove
from games.backgammon import BACKGAMMON, BAR, OFF, legal_plays, sides
from games.backgammon.notation import UnreadablePlay
from games.backgammon.rules import _sequences

from .test_rules import position

GAME = BACKGAMMON
OPENING_63 = GAME.play(GAME.initial_state(), "open 6-3")  # seat 0 plays 6-3 from the start


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("13/7 13/10", "13/10 13/7"),
        ("13/10 13/7", "13/10 13/7"),
        ("24/18/15", "24/15"),
        ("24/21/15", "24/15"),
        ("24/18 18/15", "24/15"),
        ("13/7, 6/3", "13/7 6/3"),
        ("  8/5   8/2 ", "8/5 8/2"),
    ],
)
def test_wordings_of_6_3_from_the_start(text: str, canonical: str) -> None:
    assert GAME.canonical_move(OPENING_63, text) == canonical
    assert GAME.play(OPENING_63, text) == GAME.apply(OPENING_63, canonical)


def test_gnubg_repeat_with_a_hit() -> None:
    state = position({8: 3, 6: 5, 13: 7}, {2: 1, 20: 14}, dice=(3, 3))
    canonical = GAME.canonical_move(state, "8/2*(2)")
    assert canonical == "8/2 8/2*"  # ours marks the hit on the checker that made it
    for text in ("8/2(2)", "8/5/2*(2)", "8/5 5/2* 8/5 5/2", "8/2 8/2*", "8/5(2) 5/2(2)"):
        assert GAME.canonical_move(state, text) == canonical, text


def test_entering_and_bearing_off_wordings() -> None:
    state = position({6: 3, 13: 10}, {20: 15}, dice=(3, 1), bar=(2, 0))
    assert GAME.canonical_move(state, "Bar/22 BAR/24") == GAME.canonical_move(state, "bar/24 bar/22")
    home = position({6: 2, 3: 1}, {20: 15}, dice=(6, 3))
    assert GAME.canonical_move(home, "3/off 6/off") == GAME.canonical_move(home, "6/off 3/off")


@pytest.mark.parametrize(
    ("text", "unreadable", "why"),
    [
        ("hello", True, "not a play"),
        ("24-18 13/10", True, "not a play"),
        ("13/17 13/10", True, "towards home"),
        ("off/6 13/10", True, "not a route"),
        ("13/7 13/9", False, "4 pips"),
        ("24/18 13/7*", False, "no opposing blot on 7"),
        ("24/18 12/9", False, "no checker left to move from 12"),
        ("24/18", False, "every legal play moves more"),
        ("6/off 8/5", False, "bear off only when all fifteen"),
    ],
)
def test_refusals_say_whether_unreadable_or_illegal_and_why(text: str, unreadable: bool, why: str) -> None:
    with pytest.raises(IllegalMove, match=why) as refused:
        GAME.canonical_move(OPENING_63, text)
    assert isinstance(refused.value, UnreadablePlay) is unreadable
    assert ("not a legal play of 6-3" in str(refused.value)) is not unreadable


def test_a_blocked_point_is_named() -> None:
    state = position({24: 2, 13: 13}, {18: 2, 20: 13}, dice=(6, 3))
    with pytest.raises(IllegalMove, match="point 18 is held by 2"):
        GAME.canonical_move(state, "24/18/15")
    assert GAME.canonical_move(state, "24/21/15") == "24/15"


# --- every wording of every legal play, over random positions ---------------------------------


def _name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _stepwise(path, marks: bool, rng: random.Random) -> str:
    """One segment per die, shuffled, hits marked or not."""
    words = [f"{_name(a)}/{_name(b)}{'*' if hit and marks else ''}" for a, b, hit in path]
    rng.shuffle(words)
    return " ".join(words)


def _chained(path, marks: bool, rng: random.Random) -> str:
    """Each checker's steps joined into one route (every point named), shuffled."""
    chains: list[list[tuple[int, bool]]] = []
    for a, b, hit in path:
        chain = next((c for c in reversed(chains) if c[-1][0] == a and a != OFF), None)
        if chain is None:
            chains.append([(a, False), (b, hit)])
        else:
            chain.append((b, hit))
    words = ["/".join(_name(p) + ("*" if hit and marks else "") for p, hit in chain) for chain in chains]
    rng.shuffle(words)
    return " ".join(words)


def _canonical_reworded(move: str, rng: random.Random) -> str:
    """The canonical string with stars dropped, repeats written out, segments shuffled."""
    words = []
    for word in move.split():
        count = 1
        if word.endswith(")"):
            word, count = word[:-3], int(word[-2])
        words += [word.replace("*", "")] * count
    rng.shuffle(words)
    return " ".join(words)


def _random_position(seed: int):
    rng = random.Random(seed)
    state = GAME.initial_state()
    for _ in range(rng.randrange(1, 120)):
        if GAME.is_terminal(state):
            return None
        state = GAME.apply(state, GAME.rollout_move(state, rng))
    while not GAME.is_terminal(state) and GAME.to_move(state) == CHANCE:
        state = GAME.apply(state, GAME.rollout_move(state, rng))
    return None if GAME.is_terminal(state) else state


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_every_rewording_of_every_legal_play_reads_as_that_play(seed: int) -> None:
    state = _random_position(seed)
    if state is None:
        return
    plays = legal_plays(state)
    if "pass" in plays:
        return
    by_position = {GAME.key(after): move for move, after in plays.items()}
    me, op = sides(state, state.turn)
    dice = state.dice * 2 if state.dice[0] == state.dice[1] else state.dice
    longest = max(len(path) for path, *_ in _sequences(me, op, dice))
    rng = random.Random(seed)
    for move in plays:
        assert GAME.canonical_move(state, move) == move
        assert GAME.canonical_move(state, _canonical_reworded(move, rng)) == move
    for path, _, mine, theirs in _sequences(me, op, dice):
        if len(path) != longest:
            continue
        after = next((a for a in plays.values() if sides(a, state.turn) == (mine, theirs)), None)
        if after is None:  # the smaller die alone, where the larger one is playable
            continue
        move = by_position[GAME.key(after)]
        for marks in (True, False):
            for wording in (_stepwise(path, marks, rng), _chained(path, marks, rng)):
                assert GAME.canonical_move(state, wording) == move, (state, wording)

"""Reading a play as players and tools write it, and naming the one canonical string.

Players write the same play many ways: ``13/7 13/10`` or ``13/10 13/7`` for 6-3,
``24/18/15`` or ``24/15``, gnubg's ``8/2*(2)`` or ``8/5 5/2* 8/5 5/2``, hits marked
with ``*`` or not, ``bar/22`` or ``Bar/22``, ``6/off``.  `canonical_play` reads any of
them and returns the canonical string `rules.legal_plays` keys the play by (the one
stored and shown), or raises `IllegalMove` saying whether the text could not be read
or the play it describes is not legal, and why when that is cheap to tell.

How a wording names a play: each segment moves checkers from its first point to its
last, so the text fixes where the mover's checkers end; the legal plays ending there
are the candidates.  Hits tell them apart: a checker landing on an opposing blot at
a point the text names (marked or not) hits it; a point the text does not name is
not hit unless every candidate hits there (the canonical string always names a hit).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.backgammon.rules import BAR, OFF, BackgammonState, Point, Side, legal_plays, pip_count, sides
from games.base import IllegalMove, Move

HOP = re.compile(r"^(bar|off|\d{1,2})(\*?)$")
COUNT = re.compile(r"^(.*)\((\d)\)$")
EXAMPLES = "write from/to for each checker, as in '24/18 13/11', '24/18/15', 'bar/22', '6/off' or '8/2*(2)'"


class UnreadablePlay(IllegalMove):
    """The text is not a play in backgammon notation at all."""


@dataclass(frozen=True, slots=True)
class Segment:
    """One checker's (or `count` checkers') route: the points it touches, in order; `marked` its starred points."""

    route: tuple[Point, ...]
    marked: frozenset[Point]
    count: int


def read_segments(text: str) -> list[Segment]:
    """The segments of `text`, or `UnreadablePlay`."""
    words = text.replace(",", " ").lower().split()
    if not words:
        raise UnreadablePlay(f"{text!r} is not a play: {EXAMPLES}")
    return [_read_segment(text, word) for word in words]


def _read_segment(text: str, word: str) -> Segment:
    count = 1
    counted = COUNT.match(word)
    if counted:
        word, count = counted.group(1), int(counted.group(2))
    hops = [HOP.match(part) for part in word.split("/")]
    if len(hops) < 2 or not all(hops) or not 1 <= count <= 4:
        raise UnreadablePlay(f"{text!r} is not a play: {EXAMPLES}")
    route: list[Point] = []
    marked = set()
    for hop in hops:
        assert hop is not None  # checked above
        name, star = hop.groups()
        point = BAR if name == "bar" else OFF if name == "off" else int(name)
        if point == BAR and route or point == OFF and len(route) < len(hops) - 1 or not 0 <= point <= BAR:
            raise UnreadablePlay(f"{text!r} is not a play: {word!r} is not a route from a point to a lower one")
        route.append(point)
        if star:
            marked.add(point)
    if any(a <= b for a, b in zip(route, route[1:], strict=False)):
        raise UnreadablePlay(f"{text!r} is not a play: {word!r} does not move towards home (lower points)")
    return Segment(tuple(route), frozenset(marked), count)


def canonical_play(state: BackgammonState, text: str) -> Move:
    """The canonical string of the legal play `text` describes; `IllegalMove` saying why if none."""
    plays = legal_plays(state)
    if text in plays:
        return text
    segments = read_segments(text)
    me, op = sides(state, state.turn)
    _check_route(state, text, segments, me, op)
    ending = _ending(state, text, segments, me)
    named = {p for s in segments for p in s.route if OFF < p < BAR and op[p] == 1}
    candidates: dict[frozenset[Point], Move] = {}
    for move, after in plays.items():
        mine, theirs = sides(after, state.turn)
        if mine == ending:
            hits = frozenset(p for p in range(1, 25) if theirs[p] < op[p])
            if hits >= named:
                candidates[hits] = move
    if frozenset(named) in candidates:
        return candidates[frozenset(named)]
    if len(candidates) == 1:
        return next(iter(candidates.values()))
    if candidates:
        options = " or ".join(repr(m) for m in sorted(candidates.values()))
        raise _refuse(state, text, f"it could be {options}: name the point where the checker hits")
    raise _refuse(state, text, _why_not(state, segments, me, ending))


def _check_route(state: BackgammonState, text: str, segments: list[Segment], me: Side, op: Side) -> None:
    """Cheap reasons a route cannot be played: a blocked point, a hop no die makes, a star with no blot."""
    dice = state.dice
    doubles = dice[0] == dice[1]
    hops_allowed = {dice[0] * k for k in range(1, 5)} if doubles else {dice[0], dice[1], dice[0] + dice[1]}
    for segment in segments:
        for point in segment.route[1:]:
            if point != OFF and op[point] >= 2:
                raise _refuse(state, text, f"point {point} is held by {op[point]} opposing checkers")
        for point in segment.marked:
            if not OFF < point < BAR or op[point] != 1:
                raise _refuse(state, text, f"there is no opposing blot on {_name(point)} to hit")
        for a, b in zip(segment.route, segment.route[1:], strict=False):
            if b != OFF and a - b not in hops_allowed:
                raise _refuse(state, text, f"{_name(a)}/{_name(b)} is {a - b} pips, which no die or dice sum makes")
            if b == OFF and a - b > max(hops_allowed):
                raise _refuse(state, text, f"{_name(a)}/off is {a} pips, more than the dice move")


def _ending(state: BackgammonState, text: str, segments: list[Segment], me: Side) -> Side:
    """Where the mover's checkers stand after the segments; `IllegalMove` if a segment moves one it lacks."""
    after = list(me)
    for segment in segments:
        after[segment.route[0]] -= segment.count
        after[segment.route[-1]] += segment.count
    for point, count in enumerate(after):
        if count < 0:
            raise _refuse(state, text, f"you have no checker left to move from {_name(point)}")
    return tuple(after)


def _why_not(state: BackgammonState, segments: list[Segment], me: Side, ending: Side) -> str:
    """Why a readable play that ends nowhere legal is refused, as far as cheap checks tell."""
    moved = pip_count(me) - pip_count(ending)
    if all(moved < pip_count(me) - pip_count(sides(after, state.turn)[0]) for after in legal_plays(state).values()):
        return (
            f"it moves {moved} pips and every legal play moves more: both dice (all four on doubles)"
            " must be used when they can, the larger one when only one can be"
        )
    if me[BAR] and not any(s.route[0] == BAR for s in segments):
        return "a checker on the bar must enter before any other checker moves"
    if any(s.route[-1] == OFF for s in segments) and any(me[7:]):
        return "you can bear off only when all fifteen checkers are in your home board"
    return (
        "each checker moves the number on one die at a time, never onto a point held by two or more"
        " opposing checkers, and both dice (all four on doubles) must be used when they can, the larger"
        " one when only one can be"
    )


def _refuse(state: BackgammonState, text: str, why: str) -> IllegalMove:
    dice = "-".join(map(str, state.dice))
    return IllegalMove(f"{text!r} is not a legal play of {dice} here: {why}")


def _name(point: Point) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)

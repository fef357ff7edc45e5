"""Chinese checkers on the 121-hole star, for three players (or two).

Board: a six-pointed star of 121 holes in 17 rows of 1, 2, 3, 4, 13, 12, 11,
10, 9, 10, 11, 12, 13, 4, 3, 2, 1 holes.  Every row is centred on the star's
vertical axis, so a row of ``n`` holes can be drawn with hole ``k`` at
``x = k - (n - 1) / 2`` (in hole widths) and row ``r`` at ``y = r * sqrt(3) / 2``.

Cell notation: the row letter ``a``..``q`` from the top, then the hole's number
in its row from the left, ``1``..``13``: ``a1`` is the top point, ``i5`` the
centre, ``q1`` the bottom point, ``e1``/``e13`` the ends of the fifth row.

Moves: the path of cells a piece visits, joined by ``-``: ``"m5-l5"`` is a step
to an adjacent hole, ``"m4-k4-i4-g6"`` a chain of three jumps.  A step moves to
an empty neighbouring hole; a jump goes over one adjacent piece (anyone's) to
the empty hole straight beyond it, and jumps may be chained, never landing twice
on the same hole; steps and jumps are not mixed in one move.  Only where a
piece ends matters, so ``legal_moves`` lists one path per origin and
destination: the one with the fewest jumps (the first found, in a fixed
direction order, among equally short ones).  ``"pass"`` is the move of a player
whose pieces cannot move at all (it is the only move then, and rare).

Players and triangles (the six points are named by where they are drawn: top,
upper-right, lower-right, bottom, lower-left, upper-left):

- three players (``chinese-checkers``): seat 0 starts in the bottom triangle,
  seat 1 in the upper-right and seat 2 in the upper-left, ten pieces each; each
  seat's target is the opposite triangle (top, lower-left, lower-right), which
  starts empty.  Seats move in turn 0, 1, 2.
- two players (``chinese-checkers-2``, the class ``TwoPlayerChineseCheckers``):
  seat 0 from the bottom to the top, seat 1 from the top to the bottom.

Rules and edge cases (each tested in ``tests/games/chinese_checkers/test_rules.py``):

- A piece may jump through any triangle, but may end a move only outside the
  six triangles, in its own home triangle or in its own target triangle.
- Blocked-goal rule: a seat wins when every hole of its target triangle is
  occupied and at least one of them by its own pieces.  An opponent who never
  leaves (or parks in) that triangle therefore cannot stop the win; the winning
  seat is the one whose target is completed, even by someone else's move.
- Turn limit: a game that reaches ``max_turns`` turns per seat (100 by default,
  a constructor parameter) ends, and seats are ranked by distance to goal.
- Distance to goal: the sum over a seat's pieces of their distance (in steps)
  to the far tip of its target triangle, less 20 (the sum for a filled
  triangle), so 0 exactly when the ten pieces fill it.  ``evaluate`` uses it.
- Result: ``Outcome.ranking`` ranks every seat (the winner first, then by
  distance to goal; equal distances by seat order, sharing their returns).  Returns
  are spread evenly from +1 for first to -1 for last (three players: +1, 0, -1),
  averaged over tied places, so they always sum to 0.

JSON (``to_json``), for the browser and the database::

    {"board": [[null|seat, ...], ...],   # 17 rows top to bottom, holes left to right
     "to_move": 0,                        # seat to move (the next seat, when over)
     "ply": 12,                           # moves so far; the seat to move is ply % players
     "players": 3, "max_turns": 100,
     "homes": [["n1", ...], ...],         # each seat's starting triangle, cell names
     "targets": [["a1", ...], ...],       # each seat's target triangle
     "distances": [d0, d1, d2]}           # distance to goal per seat

``from_json`` reads ``board`` and ``ply`` (and checks ``to_move`` if given).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, TypeAlias

from games.base import Game, Move, Outcome, Seat
from games.chinese_checkers.spec import ID, ID_2, SPEC, SPEC_2
from games.spec import GameSpec

Cell: TypeAlias = int  # index 0..120, row by row from the top, left to right
Cells: TypeAlias = int  # a set of cells as a bitmask

PASS: Move = "pass"
PIECES = 10
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))  # axial (q, r)


def _star() -> list[tuple[int, int]]:
    """The 121 holes as axial (q, r), r = row - 8: the union of two big triangles."""
    cells = []
    for r in range(-8, 9):
        for q in range(-8, 9):
            s = -q - r
            if min(q, r, s) >= -4 or max(q, r, s) <= 4:
                cells.append((q, r))
    return sorted(cells, key=lambda c: (c[1], c[0]))


COORDS: tuple[tuple[int, int], ...] = tuple(_star())
INDEX: dict[tuple[int, int], Cell] = {c: i for i, c in enumerate(COORDS)}
ROWS: tuple[tuple[Cell, ...], ...] = tuple(
    tuple(i for i, (_, r) in enumerate(COORDS) if r == row) for row in range(-8, 9)
)
NAMES: tuple[str, ...] = tuple(
    f"{'abcdefghijklmnopq'[row]}{k + 1}" for row, cells in enumerate(ROWS) for k, _ in enumerate(cells)
)
CELL_OF: dict[str, Cell] = {name: i for i, name in enumerate(NAMES)}
NEIGHBOURS: tuple[tuple[tuple[Cell, Cell], ...], ...] = tuple(
    tuple(
        (INDEX.get((q + dq, r + dr), -1), INDEX.get((q + 2 * dq, r + 2 * dr), -1))  # (adjacent, jump landing)
        for dq, dr in DIRECTIONS
    )
    for q, r in COORDS
)


def _triangle(test: Any) -> Cells:
    return sum(1 << i for i, (q, r) in enumerate(COORDS) if test(q, r, -q - r))


TRIANGLES: dict[str, Cells] = {
    "top": _triangle(lambda q, r, s: r <= -5),
    "upper-right": _triangle(lambda q, r, s: q >= 5),
    "lower-right": _triangle(lambda q, r, s: s <= -5),
    "bottom": _triangle(lambda q, r, s: r >= 5),
    "lower-left": _triangle(lambda q, r, s: q <= -5),
    "upper-left": _triangle(lambda q, r, s: s >= 5),
}
ALL_TRIANGLES: Cells = sum(TRIANGLES.values())
# (home, target) triangle names per seat, by number of players.
SEATING: dict[int, tuple[tuple[str, str], ...]] = {
    2: (("bottom", "top"), ("top", "bottom")),
    3: (("bottom", "top"), ("upper-right", "lower-left"), ("upper-left", "lower-right")),
}


def _tip(triangle: Cells) -> Cell:
    """The triangle's far point: the one of its cells farthest from the centre."""
    return max(_members(triangle), key=lambda c: _distance(c, INDEX[(0, 0)]))


def _members(cells: Cells) -> list[Cell]:
    out = []
    while cells:
        low = cells & -cells
        out.append(low.bit_length() - 1)
        cells ^= low
    return out


def _distance(a: Cell, b: Cell) -> int:
    (q1, r1), (q2, r2) = COORDS[a], COORDS[b]
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# Steps between every two holes, computed once: the search hooks read it in their hot loops.
HOLES = range(len(COORDS))
DISTANCE: tuple[tuple[int, ...], ...] = tuple(tuple(_distance(a, b) for b in HOLES) for a in HOLES)
FILLED_DISTANCE = 20  # 0 + 1*2 + 2*3 + 3*4: a full triangle's distance to its own tip


@dataclass(frozen=True, slots=True)
class ChineseCheckersState:
    """`pieces`: one bitmask of cells per seat; `ply`: moves so far (seat to move = ply % players)."""

    pieces: tuple[Cells, ...]
    ply: int = 0

    @property
    def occupied(self) -> Cells:
        occupied = 0
        for p in self.pieces:
            occupied |= p
        return occupied


@lru_cache(maxsize=8192)
def _moves(state: ChineseCheckersState) -> dict[Move, tuple[Cell, Cell]]:
    """Every legal move of the seat to move: path text -> (origin, destination)."""
    n = len(state.pieces)
    seat = state.ply % n
    home, target = (TRIANGLES[t] for t in SEATING[n][seat])
    forbidden = ALL_TRIANGLES & ~home & ~target
    occupied = state.occupied
    out: dict[Move, tuple[Cell, Cell]] = {}
    for origin in _members(state.pieces[seat]):
        for adjacent, _ in NEIGHBOURS[origin]:
            if adjacent >= 0 and not occupied >> adjacent & 1 and not forbidden >> adjacent & 1:
                out[f"{NAMES[origin]}-{NAMES[adjacent]}"] = (origin, adjacent)
        # Jump chains, breadth first: the first path found to a hole is a shortest one.
        board = occupied & ~(1 << origin)
        seen = 1 << origin
        frontier = [(origin, NAMES[origin])]
        while frontier:
            nxt = []
            for cell, path in frontier:
                for over, land in NEIGHBOURS[cell]:
                    if land < 0 or not board >> over & 1 or board >> land & 1 or seen >> land & 1:
                        continue
                    seen |= 1 << land
                    text = f"{path}-{NAMES[land]}"
                    nxt.append((land, text))
                    if not forbidden >> land & 1:
                        out[text] = (origin, land)
            frontier = nxt
    return out


class ChineseCheckers(Game[ChineseCheckersState]):
    id: ClassVar[str] = ID
    spec: ClassVar[GameSpec] = SPEC
    num_players: ClassVar[int] = 3

    def __init__(self, max_turns: int = 100) -> None:
        if max_turns < 1:
            raise ValueError("max_turns must be at least 1")
        self.max_turns = max_turns
        self.homes: tuple[Cells, ...] = tuple(TRIANGLES[h] for h, _ in SEATING[self.num_players])
        self.targets: tuple[Cells, ...] = tuple(TRIANGLES[t] for _, t in SEATING[self.num_players])
        self.tips: tuple[Cell, ...] = tuple(_tip(t) for t in self.targets)

    def initial_state(self) -> ChineseCheckersState:
        return ChineseCheckersState(self.homes)

    def to_move(self, state: ChineseCheckersState) -> Seat:
        return state.ply % self.num_players

    def legal_moves(self, state: ChineseCheckersState) -> list[Move]:
        if self.is_terminal(state):
            return []
        return list(_moves(state)) or [PASS]

    def apply(self, state: ChineseCheckersState, move: Move) -> ChineseCheckersState:
        if move == PASS:
            return ChineseCheckersState(state.pieces, state.ply + 1)
        path = move.split("-")
        origin, dest = CELL_OF[path[0]], CELL_OF[path[-1]]
        seat = state.ply % self.num_players
        pieces = list(state.pieces)
        pieces[seat] = pieces[seat] & ~(1 << origin) | (1 << dest)
        return ChineseCheckersState(tuple(pieces), state.ply + 1)

    def why_illegal(self, state: ChineseCheckersState, move: Move) -> str:
        moves = _moves(state)
        if move == PASS:
            return "you can pass only when none of your pieces can move"
        path = move.split("-")
        unknown = [c for c in path if c not in CELL_OF]
        if len(path) < 2 or unknown:
            return (
                f"{move!r} is not a path of cells: write the cells visited joined by '-', as in 'm5-l5';"
                " rows a to q from the top, holes numbered from the left"
            )
        seat = state.ply % self.num_players
        cells = [CELL_OF[c] for c in path]
        if not state.pieces[seat] >> cells[0] & 1:
            return f"there is no piece of yours on {path[0]}"
        if state.occupied >> cells[-1] & 1:
            return f"{path[-1]} is occupied"
        ends = {(o, d) for o, d in moves.values()}
        if (cells[0], cells[-1]) in ends:
            canonical = next(m for m, od in moves.items() if od == (cells[0], cells[-1]))
            return f"that path is written {canonical!r} (the shortest chain to {path[-1]})"
        forbidden = ALL_TRIANGLES & ~self.homes[seat] & ~self.targets[seat]
        if forbidden >> cells[-1] & 1:
            return f"{path[-1]} is in another player's triangle: you may jump through it but not stop there"
        return (
            f"{move!r} is not a legal move: step to an adjacent empty hole, or jump over one adjacent piece"
            " to the empty hole straight beyond it, chaining jumps without landing twice on a hole"
        )

    def _winner(self, state: ChineseCheckersState) -> Seat | None:
        occupied = state.occupied
        for seat, target in enumerate(self.targets):
            if occupied & target == target and state.pieces[seat] & target:
                return seat
        return None

    def is_terminal(self, state: ChineseCheckersState) -> bool:
        return state.ply >= self.max_turns * self.num_players or self._winner(state) is not None

    def distance_to_goal(self, state: ChineseCheckersState, seat: Seat) -> int:
        """Steps still to go for `seat`; 0 exactly when its ten pieces fill its target."""
        to_tip = DISTANCE[self.tips[seat]]
        return sum(to_tip[c] for c in _members(state.pieces[seat])) - FILLED_DISTANCE

    def outcome(self, state: ChineseCheckersState) -> Outcome:
        if not self.is_terminal(state):
            raise ValueError("the game is not over")
        n = self.num_players
        winner = self._winner(state)
        distance = [self.distance_to_goal(state, s) for s in range(n)]
        ranking = sorted(range(n), key=lambda s: (s != winner, distance[s], s))
        values = [(n - 1 - 2 * i) / (n - 1) for i in range(n)]
        returns = [0.0] * n
        for seat in ranking:  # places tied on distance (never the winner) share their returns
            tied = [i for i, s in enumerate(ranking) if (s != winner, distance[s]) == (seat != winner, distance[seat])]
            returns[seat] = sum(values[i] for i in tied) / len(tied)
        if winner is not None:
            reason = "target triangle filled"
        else:
            reason = f"turn limit ({self.max_turns} turns each): ranked by distance to goal"
            best = [s for s in range(n) if returns[s] == max(returns)]
            winner = best[0] if len(best) == 1 else None
        return Outcome(tuple(returns), winner, reason, tuple(ranking))

    def ply(self, state: ChineseCheckersState) -> int:
        return state.ply

    def key(self, state: ChineseCheckersState) -> tuple[Cells | int, ...]:
        return (*state.pieces, state.ply % self.num_players)

    def to_json(self, state: ChineseCheckersState) -> dict[str, Any]:
        owner = {c: s for s, p in enumerate(state.pieces) for c in _members(p)}
        return {
            "board": [[owner.get(c) for c in row] for row in ROWS],
            "to_move": state.ply % self.num_players,
            "ply": state.ply,
            "players": self.num_players,
            "max_turns": self.max_turns,
            "homes": [[NAMES[c] for c in _members(h)] for h in self.homes],
            "targets": [[NAMES[c] for c in _members(t)] for t in self.targets],
            "distances": [self.distance_to_goal(state, s) for s in range(self.num_players)],
        }

    def from_json(self, data: dict[str, Any]) -> ChineseCheckersState:
        if not isinstance(data, dict):
            raise ValueError("a Chinese checkers state is a JSON object")
        board, ply = data.get("board"), data.get("ply")
        n = self.num_players
        if (
            not isinstance(board, list)
            or len(board) != len(ROWS)
            or any(not isinstance(row, list) or len(row) != len(cells) for row, cells in zip(board, ROWS, strict=False))
        ):
            raise ValueError(f"board must be 17 rows of {', '.join(str(len(r)) for r in ROWS)} holes")
        pieces = [0] * n
        for row, cells in zip(board, ROWS, strict=True):
            for value, cell in zip(row, cells, strict=True):
                if value is None:
                    continue
                if type(value) is not int or not 0 <= value < n:
                    raise ValueError(f"each hole is null or a seat from 0 to {n - 1}")
                pieces[value] |= 1 << cell
        if any(p.bit_count() != PIECES for p in pieces):
            raise ValueError(f"each seat has {PIECES} pieces")
        if type(ply) is not int or not 0 <= ply <= self.max_turns * n:
            raise ValueError(f"ply must be a whole number from 0 to {self.max_turns * n}")
        if "to_move" in data and data["to_move"] != ply % n:
            raise ValueError("to_move must be ply modulo the number of players")
        return ChineseCheckersState(tuple(pieces), ply)

    # --- search hooks ------------------------------------------------------
    def evaluate(self, state: ChineseCheckersState, seat: Seat) -> float:
        """Distance to goal against the others' (their mean), squashed into (-1, 1)."""
        n = self.num_players
        if self.is_terminal(state):
            returns = self.outcome(state).returns
            return 0.99 * returns[seat]
        distance = [self.distance_to_goal(state, s) for s in range(n)]
        others = (sum(distance) - distance[seat]) / (n - 1)
        return 0.95 * math.tanh((others - distance[seat]) / 30)

    def order_moves(self, state: ChineseCheckersState, moves: Sequence[Move]) -> list[Move]:
        """Longest advance towards the target first."""
        to_tip = DISTANCE[self.tips[state.ply % self.num_players]]
        table = _moves(state)

        def gain(move: Move) -> int:
            if move not in table:
                return 0
            origin, dest = table[move]
            return to_tip[origin] - to_tip[dest]

        return sorted(moves, key=gain, reverse=True)

    def rollout_move(self, state: ChineseCheckersState, rng: random.Random) -> Move:
        """Mostly the move that advances furthest towards the target; sometimes any forward move."""
        table = _moves(state)
        if not table:
            return PASS
        seat = state.ply % self.num_players
        to_tip, target = DISTANCE[self.tips[seat]], self.targets[seat]
        scored = []
        for move, (origin, dest) in table.items():
            gain = to_tip[origin] - to_tip[dest]
            if target >> origin & 1 and not target >> dest & 1:
                gain -= 4  # leaving the target undoes progress
            scored.append((gain, move))
        if rng.random() < 0.2:
            forward = [m for g, m in scored if g > 0]
            if forward:
                return rng.choice(forward)
        best = max(g for g, _ in scored)
        return rng.choice([m for g, m in scored if g == best])


class TwoPlayerChineseCheckers(ChineseCheckers):
    """The two-player option: bottom against top."""

    id: ClassVar[str] = ID_2
    spec: ClassVar[GameSpec] = SPEC_2
    num_players: ClassVar[int] = 2


CHINESE_CHECKERS = ChineseCheckers()
CHINESE_CHECKERS_2 = TwoPlayerChineseCheckers()

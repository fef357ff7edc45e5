"""Backgammon: a single game, or with the doubling cube a money game or a match; dice are chance moves.

Board and numbering: each seat numbers the points from its own side, 24 (where
its back checkers start) down to 1; its home board is points 1-6, it moves
towards 1 and bears off past it.  Seat 0's point ``p`` is seat 1's point
``25 - p``.  Each seat starts with two checkers on its 24-point, five on its
13, three on its 8 and five on its 6.

Moves (canonical text, always in the mover's own numbering):

- Dice are moves of the pseudo-seat ``CHANCE``.  ``"open 3-6"`` is the opening
  roll: seat 0 rolled 3 and seat 1 rolled 6, so seat 1 starts and plays 6-3.
  Ties are rolled again, which the chance outcomes express directly: the 30
  unequal pairs, each with probability 1/30.  Every later roll is ``"roll 6-3"``
  (larger die first, probability 2/36) or ``"roll 5-5"`` (doubles, 1/36).
- A play is the whole move for a roll, in standard notation: one segment
  ``from/to`` per checker, ``bar`` for the bar and ``off`` for bearing off;
  ``*`` marks a hit where it happens (``13/7*``, ``bar/22*/16``); a checker
  that moves on with the second die is written once (``24/13`` for 6-5 unless
  it hits on the way); identical segments are counted (``8/5(2) 6/3(2)``).
  Segments are listed from the highest starting point down (bar first).  Each
  resulting position has exactly one play string, the one with the fewest
  segments (ties: the alphabetically first), so the legal plays are
  deduplicated by resulting position.
- ``"pass"`` is the only move when the dice cannot be played at all.
- With the cube (options ``cube``, ``jacoby``, ``match_to``; `games.backgammon.cube` states
  the rules), a seat that may double moves before the dice: ``"double"`` or ``"roll"``; after a
  double the other seat is the one to move: ``"take"`` or ``"drop"`` (``"pass"`` is read as
  ``"drop"`` there).  Where the seat on roll may not double, the dice follow at once, as
  without the cube.  In a match, the finished game's position stays until the next game's
  opening roll, which starts it with the score updated.
- A resignation the opponent accepted is recorded as a move of the resigning seat,
  ``"seat 1 resigns a gammon"`` (``a single game``, ``a backgammon``; `games.backgammon.cube`):
  it ends the game, whoever was to move.  It is never among the legal moves: a seat offers it
  and the other accepts it outside the game (the server's resignation offers), and
  `Backgammon.resign_move` writes it.  A plain resignation needs no answer (it concedes the most the
  opponent could win) and is recorded the same way by `Backgammon.resign_match_move`: ``"seat 1
  resigns a backgammon"`` in a single or money game, ``"seat 1 resigns the match"`` in a match to N.
- Input may word a play any correct way (segments in any order, ``24/18/15``,
  ``8/2*(2)``, hits unmarked, ``Bar/22``): `Backgammon.canonical_move` reads it as the
  canonical string (`games.backgammon.notation`), which is what is stored and shown.

Rules implemented (each tested in ``tests/games/backgammon/test_rules.py``):

- a checker may land on an empty point, on its own checkers, or on a single
  opposing checker (a blot), which is hit and put on the bar; never on two or
  more opposing checkers;
- checkers on the bar must all enter (into the opponent's home board, points
  24-19 in the mover's numbering) before any other checker moves;
- bearing off only when all fifteen checkers are in the home board (none on the
  bar); a die may bear off a checker from the exactly matching point, or from a
  lower point when no checker is on a higher one;
- both dice must be used when possible; when only one can be, the larger if
  either can; doubles are played four times (as many as possible);
- the game ends when a seat has borne off all fifteen: a single game scores 1, a
  gammon 2 (the loser has borne off none), a backgammon 3 (the loser has borne
  off none and still has a checker on the bar or in the winner's home board).
  Returns are ±1, ±2 or ±3 (``max_utility = 3``).  With the cube the returns stay on that
  scale (the result in units of the cube, what checker play is worth: the cube multiplies it
  alike), a drop returning ±1, and the outcome's ``points`` carry what the game pays: the
  cube's value times 1, 2 or 3 (`games.backgammon.cube`).  A match ends when a seat has the
  points it was played to; its outcome is that of its last game.

JSON (``to_json``), for the browser and the database::

    {"points": [24 ints],   # index i is seat 0's point i+1 (seat 1's point 24-i):
                            # +n = n checkers of seat 0, -n = n of seat 1
     "bar": [n0, n1], "off": [n0, n1],
     "turn": 0|1|null,      # whose turn it is (null before the opening roll)
     "to_move": 0|1|-1|null, # -1: the dice are to be rolled (CHANCE); null: game over
     "dice": [6, 3],        # the roll being played, larger first; [] when a roll is due
     "ply": 17,             # moves so far, rolls included
     "pips": [p0, p1]}      # pip counts

With the cube, also::

     "cube": {"value": 2, "owner": 0|1|null,   # null: centred
              "action": null|"roll"|"double"|"drop"},  # this turn's cube action so far
     "match_to": 7,         # 0 for a money game
     "score": [3, 1],       # the match score before this game
     "crawford": null|"game"|"after",  # this is the Crawford game, or it has been played
     "result": null | {"winner": 0, "points": 4, "reason": "gammon"}  # the game just finished

After an accepted resignation, also ``"resigned": {"seat": 1, "level": "gammon"}`` (``"match"``: a
match to N resigned whole).

``from_json`` reads every field except ``to_move``, ``pips`` and ``result``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, TypeAlias

from games.backgammon.bearoff import database
from games.backgammon.cube import (
    AFTER_CRAWFORD,
    BACKGAMMON_MULTIPLIER,
    BEFORE_CRAWFORD,
    CENTRED,
    CRAWFORD_GAME,
    CUBE_MOVES,
    DOUBLE,
    DROP,
    MAX_CUBE,
    NO_CUBE,
    RESIGN_LEVELS,
    RESIGNED,
    ROLL,
    TAKE,
    WHOLE_MATCH,
    CubeRules,
    game_points,
    next_crawford,
    resigned_points,
)
from games.backgammon.evaluation import HEURISTIC_LIMIT, Probabilities, equity, race_started, side_probabilities
from games.backgammon.met import match_equity
from games.backgammon.spec import ID, SPEC
from games.base import CHANCE, CubeInputs, Game, IllegalMove, MatchEquities, Move, Outcome, PartsNode, Seat

Point: TypeAlias = int  # 1..24 in the mover's numbering; BAR = 25, OFF = 0
Side: TypeAlias = tuple[int, ...]  # 26 counts: [0] borne off, [1..24] points, [25] bar

CHECKERS = 15
BAR: Point = 25
OFF: Point = 0
PASS: Move = "pass"
NO_TURN = -1  # before the opening roll

START: tuple[int, ...] = tuple(
    {24: 2, 13: 5, 8: 3, 6: 5}.get(p, 0) - {1: 2, 12: 5, 17: 3, 19: 5}.get(p, 0) for p in range(1, 25)
)
OPENING_ROLLS: tuple[tuple[Move, float], ...] = tuple(
    (f"open {a}-{b}", 1 / 30) for a in range(1, 7) for b in range(1, 7) if a != b
)
ROLLS: tuple[tuple[Move, float], ...] = tuple(
    (f"roll {a}-{b}", (1 if a == b else 2) / 36) for a in range(6, 0, -1) for b in range(a, 0, -1)
)
ROLL_DICE: dict[Move, tuple[int, int]] = {m: (int(m[5]), int(m[7])) for m, _ in ROLLS}
OPENING_DICE: dict[Move, tuple[int, int]] = {m: (int(m[5]), int(m[7])) for m, _ in OPENING_ROLLS}
RESIGNATION = re.compile(r"^seat ([01]) resigns (a single game|a gammon|a backgammon|the match)$")
MATCH_LEVEL = "match"  # the resigned level of a match to N resigned whole (`WHOLE_MATCH`)
RESIGNED_LEVELS = {**RESIGN_LEVELS, MATCH_LEVEL: WHOLE_MATCH}  # every level a state may record
LEVEL_OF_RESIGNED = {RESIGNED[multiplier]: level for level, multiplier in RESIGNED_LEVELS.items()}
SEGMENT = re.compile(r"^(bar|\d{1,2})(\*?)(?:/(\d{1,2})\*?)*/(off|\d{1,2})(\*?)(?:\(([1-4])\))?$")


@dataclass(frozen=True, slots=True)
class BackgammonState:
    """`points`: 24 counts from seat 0's view (+ seat 0, - seat 1); `turn`: seat playing or
    about to roll (`NO_TURN` before the opening roll); `dice`: the roll to play, () when due.

    The cube (`games.backgammon.cube`; constant in a game without it): its `cube` value and
    `owner` (`CENTRED` or a seat), `cube_action` this turn so far ("", ``"roll"``, ``"double"``
    pending an answer, ``"drop"`` ending the game), the match `score` before this game and its
    `crawford` stage.  `resigned`: (the seat that resigned, 1, 2 or 3; `WHOLE_MATCH` for the match)
    after a resignation."""

    points: tuple[int, ...] = START
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    turn: int = NO_TURN
    dice: tuple[int, ...] = ()
    ply: int = 0
    cube: int = 1
    owner: Seat = CENTRED
    cube_action: Move = ""
    score: tuple[int, int] = (0, 0)
    crawford: int = BEFORE_CRAWFORD
    resigned: tuple[int, ...] = ()


def sides(state: BackgammonState, seat: Seat) -> tuple[Side, Side]:
    """(`seat`'s checkers, the opponent's checkers), both indexed in `seat`'s numbering."""
    other = 1 - seat
    if seat == 0:
        me = [max(n, 0) for n in state.points]
        op = [max(-n, 0) for n in state.points]
    else:
        me = [max(-n, 0) for n in reversed(state.points)]
        op = [max(n, 0) for n in reversed(state.points)]
    return (
        (state.off[seat], *me, state.bar[seat]),
        (state.off[other], *op, state.bar[other]),
    )


def pip_count(side: Side) -> int:
    return sum(p * side[p] for p in range(1, 26))


def _steps(me: Side, op: Side, die: int) -> list[tuple[Point, Point, bool]]:
    """Single-checker moves (from, to, hit) that one die allows."""
    if me[BAR]:
        to = BAR - die
        return [(BAR, to, op[to] == 1)] if op[to] < 2 else []
    out = []
    home = not any(me[7:25])
    highest = max((p for p in range(24, 0, -1) if me[p]), default=0)
    for p in range(highest, 0, -1):
        if not me[p]:
            continue
        to = p - die
        if to >= 1:
            if op[to] < 2:
                out.append((p, to, op[to] == 1))
        elif home and (to == 0 or p == highest):
            out.append((p, OFF, False))
    return out


def _step(me: Side, op: Side, frm: Point, to: Point, hit: bool) -> tuple[Side, Side]:
    m = list(me)
    m[frm] -= 1
    m[to] += 1  # to == OFF counts a checker borne off
    if not hit:
        return tuple(m), op
    o = list(op)
    o[to] -= 1
    o[BAR] += 1
    return tuple(m), tuple(o)


Step: TypeAlias = tuple[Point, Point, bool]


StepSequence: TypeAlias = tuple[tuple[Step, ...], tuple[int, ...], Side, Side]


def _sequences(me: Side, op: Side, dice: tuple[int, ...]) -> list[StepSequence]:
    """Every maximal way to play `dice`: (steps, dice used, my side after, their side after)."""
    out: list[StepSequence] = []
    if len(dice) == 4:
        _walk(out, me, op, dice, (), (), BAR, True)
    else:
        a, b = dice
        _walk(out, me, op, (a, b), (), (), BAR, False)
        _walk(out, me, op, (b, a), (), (), BAR, False)
    return out


def _walk(
    out: list[StepSequence],
    me: Side,
    op: Side,
    left: tuple[int, ...],
    path: tuple[Step, ...],
    used: tuple[int, ...],
    top: int,
    doubles: bool,
) -> None:
    """Extend `path` by each step the next die allows.

    A module-level function, not a closure: a recursive closure is a reference cycle, and
    searches hold the garbage collector off, so every move generation would stay in memory.
    """
    if not left:
        out.append((path, used, me, op))
        return
    moved = False
    for frm, to, hit in _steps(me, op, left[0]):
        if frm > top:  # doubles: sources never increase, so each play is found once per order
            continue
        moved = True
        m2, o2 = _step(me, op, frm, to, hit)
        _walk(out, m2, o2, left[1:], path + ((frm, to, hit),), used + (left[0],), frm if doubles else BAR, doubles)
    if not moved:
        out.append((path, used, me, op))


def _name(point: Point) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def render(path: tuple[Step, ...]) -> str:
    """Standard notation for a sequence of single-die steps."""
    chains: list[list[tuple[Point, bool]]] = []  # each: [(start, False), (landing, hit), ...]
    for frm, to, hit in path:
        chain = next((c for c in reversed(chains) if c[-1][0] == frm and frm != OFF), None)
        if chain is None:
            chains.append([(frm, False), (to, hit)])
        else:
            chain.append((to, hit))
    texts = []
    for chain in chains:
        parts = [_name(chain[0][0])]
        for i, (p, hit) in enumerate(chain[1:], 1):
            if hit or i == len(chain) - 1:
                parts.append(_name(p) + ("*" if hit else ""))
        texts.append((chain[0][0], chain[-1][0], "/".join(parts)))
    counts = Counter(texts)
    ordered = sorted(counts, key=lambda t: (-t[0], -t[1], t[2]))
    return " ".join(t[2] + (f"({counts[t]})" if counts[t] > 1 else "") for t in ordered)


def _rebuild(state: BackgammonState, me: Side, op: Side) -> BackgammonState:
    seat = state.turn
    sign, order = (1, range(1, 25)) if seat == 0 else (-1, range(24, 0, -1))
    points = tuple(sign * (me[p] - op[p]) for p in order)
    bar = (me[BAR], op[BAR]) if seat == 0 else (op[BAR], me[BAR])
    off = (me[OFF], op[OFF]) if seat == 0 else (op[OFF], me[OFF])
    return _next_turn(state, points, bar, off)


def _next_turn(
    state: BackgammonState, points: tuple[int, ...], bar: tuple[int, int], off: tuple[int, int]
) -> BackgammonState:
    """The position after the play of `state`'s roll: the other seat's turn, the cube as it was."""
    return BackgammonState(
        points, bar, off, 1 - state.turn, (), state.ply + 1, state.cube, state.owner, "", state.score, state.crawford
    )


@lru_cache(maxsize=4096)
def legal_plays(state: BackgammonState) -> dict[Move, BackgammonState]:
    """Each legal play for the dice of `state`, with the position it leads to (cached)."""
    me, op = sides(state, state.turn)
    dice = state.dice * 2 if state.dice[0] == state.dice[1] else state.dice
    seqs = _sequences(me, op, dice)
    longest = max(len(s[0]) for s in seqs)
    if longest == 0:
        return {PASS: _next_turn(state, state.points, state.bar, state.off)}
    seqs = [s for s in seqs if len(s[0]) == longest]
    if longest == 1 and len(dice) == 2:
        larger = [s for s in seqs if s[1][0] == max(dice)]
        seqs = larger or seqs
    best: dict[tuple[Side, Side], str] = {}
    for path, _, m, o in seqs:
        text = render(path)
        key = (m, o)
        if key not in best or (text.count(" "), text) < (best[key].count(" "), best[key]):
            best[key] = text
    plays = {text: _rebuild(state, m, o) for (m, o), text in best.items()}
    return dict(sorted(plays.items()))


def _won(state: BackgammonState) -> Seat | None:
    for seat in (0, 1):
        if state.off[seat] == CHECKERS:
            return seat
    return None


def finished(state: BackgammonState) -> bool:
    """The game on the board is over: a seat has borne off all its checkers, a double was dropped, or
    a resignation accepted."""
    return state.cube_action == DROP or bool(state.resigned) or _won(state) is not None


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a finished game ended: its winner, 1, 2 or 3 (single, gammon, backgammon; Jacoby applied)
    and the points it pays (that times the cube)."""

    winner: Seat
    multiplier: int
    points: int
    reason: str


def game_result(state: BackgammonState, rules: CubeRules = NO_CUBE) -> GameResult:
    """The result of the finished game in `state` under `rules`."""
    if state.cube_action == DROP:
        return GameResult(state.turn, 1, state.cube, "double dropped")
    if state.resigned:
        seat, multiplier = state.resigned
        needed = rules.match_to - state.score[1 - seat] if rules.match_to else 0
        counted, points, reason = resigned_points(rules, multiplier, state.cube, state.owner, needed)
        return GameResult(1 - seat, counted, points, reason)
    winner = _won(state)
    if winner is None:
        raise ValueError("the game is not over")
    loser_side, _ = sides(state, 1 - winner)
    multiplier, reason = 1, "single game"
    if loser_side[OFF] == 0:
        multiplier, reason = 2, "gammon"
        # The winner's home board is the loser's points 19-24.
        if loser_side[BAR] or any(loser_side[19:25]):
            multiplier, reason = 3, "backgammon"
    points = game_points(rules, multiplier, state.cube, state.owner)
    if points < multiplier * state.cube:
        reason += ", counted single (Jacoby rule)"
    return GameResult(winner, points // state.cube, points, reason)


class Backgammon(Game[BackgammonState]):
    id = ID
    spec = SPEC
    num_players = 2
    has_chance = True
    max_utility = 3.0
    resignation_levels = tuple(RESIGN_LEVELS)

    def __init__(self, rules: CubeRules = NO_CUBE) -> None:
        self.rules = rules

    # --- options -------------------------------------------------------------
    @property
    def options(self) -> dict[str, bool | int]:
        return {"cube": self.rules.cube, "jacoby": self.rules.jacoby, "match_to": self.rules.match_to}

    def configured(self, values: dict[str, bool | int]) -> Backgammon:
        match_to = int(values["match_to"])
        return Backgammon(CubeRules(bool(values["cube"]) or match_to > 0, bool(values["jacoby"]), match_to))

    # --- the formal model -----------------------------------------------------
    def initial_state(self) -> BackgammonState:
        return BackgammonState()

    def to_move(self, state: BackgammonState) -> Seat:
        if state.dice:
            return state.turn
        if not self.rules.cube:
            return CHANCE
        if state.cube_action == DOUBLE:
            return 1 - state.turn
        return state.turn if self.may_double(state) else CHANCE

    def may_double(self, state: BackgammonState) -> bool:
        """The seat on roll may double now: before rolling, with the cube its own or centred, outside
        the Crawford game, below `MAX_CUBE`."""
        return (
            self.rules.cube
            and state.turn != NO_TURN
            and not state.dice
            and state.cube_action == ""
            and state.owner in (CENTRED, state.turn)
            and state.cube < MAX_CUBE
            and state.crawford != CRAWFORD_GAME
            and not finished(state)
        )

    def _rolls(self, state: BackgammonState) -> tuple[tuple[Move, float], ...]:
        """The dice due in `state`: an opening roll before a game (a match's next one too), else a roll."""
        return OPENING_ROLLS if state.turn == NO_TURN or finished(state) else ROLLS

    def chance_outcomes(self, state: BackgammonState) -> list[tuple[Move, float]]:
        if state.dice or self.is_terminal(state) or self.to_move(state) != CHANCE:
            raise ValueError("no dice to roll here")
        return list(self._rolls(state))

    def move_parts(self, state: BackgammonState) -> list[PartsNode] | None:
        """A play die by die: the single-die steps of every legal play (`games.backgammon.parts`)."""
        from games.backgammon.parts import play_parts  # parts builds on this module

        return play_parts(state) if state.dice and not self.is_terminal(state) else None

    def legal_moves(self, state: BackgammonState) -> list[Move]:
        if self.is_terminal(state):
            return []
        if state.dice:
            return list(legal_plays(state))
        if self.to_move(state) != CHANCE:
            return [TAKE, DROP] if state.cube_action == DOUBLE else [DOUBLE, ROLL]
        return [m for m, _ in self._rolls(state)]

    def apply(self, state: BackgammonState, move: Move) -> BackgammonState:
        if state.dice:
            play = legal_plays(state).get(move)
            return play if play is not None else _resigned(state, move, self.rules)
        if move in CUBE_MOVES:
            return _cube_move(state, move)
        if move.startswith("seat "):
            return _resigned(state, move, self.rules)
        if state.turn == NO_TURN:
            a, b = OPENING_DICE[move]
            return replace(state, turn=0 if a > b else 1, dice=(max(a, b), min(a, b)), ply=1)
        if finished(state):
            return self._next_game(state, move)
        return BackgammonState(
            state.points, state.bar, state.off, state.turn, ROLL_DICE[move], state.ply + 1,
            state.cube, state.owner, "", state.score, state.crawford,
        )  # fmt: skip

    def _next_game(self, state: BackgammonState, opening: Move) -> BackgammonState:
        """A match's next game, started by `opening`, with the finished game's points scored."""
        result = game_result(state, self.rules)
        score = list(state.score)
        score[result.winner] += result.points
        a, b = OPENING_DICE[opening]
        return BackgammonState(
            turn=0 if a > b else 1, dice=(max(a, b), min(a, b)), ply=state.ply + 1, score=(score[0], score[1]),
            crawford=next_crawford(state.crawford, (score[0], score[1]), self.rules.match_to),
        )  # fmt: skip

    def canonical_move(self, state: BackgammonState, move: Move) -> Move:
        """Any correct wording of a play, as its canonical string (see `games.backgammon.notation`)."""
        if move in CUBE_MOVES:
            return move
        if move == PASS and state.cube_action == DOUBLE:
            return DROP  # gnubg's and many players' word for dropping
        if not state.dice or _won(state) is not None or move in legal_plays(state):
            return move
        if move.startswith(("roll", "open")) or move == PASS or PASS in legal_plays(state):
            raise IllegalMove(self.why_illegal(state, move))
        from games.backgammon.notation import canonical_play  # notation reads these rules: imported late

        return canonical_play(state, move)

    def why_illegal(self, state: BackgammonState, move: Move) -> str:
        refusal = self._cube_refusal(state, move)
        if refusal:
            return refusal
        if not state.dice:
            example = "open 3-6" if state.turn == NO_TURN else "roll 6-3"
            return f"the dice are to be rolled first: {move!r} is not a roll (rolls look like {example!r})"
        if move.startswith(("roll", "open")):
            return "the dice have been rolled: play them"
        dice = "-".join(map(str, state.dice))
        if move == PASS:
            return f"{dice} can be played, so it must be"
        if PASS in legal_plays(state):
            return f"no checker can move with {dice}: the only move is 'pass'"
        try:
            canonical = self.canonical_move(state, move)
        except IllegalMove as refused:
            return str(refused)
        return f"{move!r} is written {canonical!r} here"

    def _cube_refusal(self, state: BackgammonState, move: Move) -> str | None:
        """Why a cube move, or a move made while a cube decision is due, is not legal here; None otherwise."""
        if move == "beaver":
            return "beavers are not played here: answer a double with 'take' or 'drop'"
        if move not in CUBE_MOVES and not (self.rules.cube and not state.dice and self.to_move(state) != CHANCE):
            return None
        if not self.rules.cube:
            return None if move == ROLL else "this game is played without the doubling cube"
        if state.cube_action == DOUBLE:
            return "a double is offered: answer 'take' or 'drop'"
        if self.may_double(state):
            return "before rolling, 'double' or 'roll'"
        if move in (TAKE, DROP):
            return "no double has been offered"
        return _why_no_double(state)

    def is_terminal(self, state: BackgammonState) -> bool:
        if not finished(state):
            return False
        if not self.rules.match_to:
            return True
        result = game_result(state, self.rules)
        return state.score[result.winner] + result.points >= self.rules.match_to

    def move_notation(self, state: BackgammonState, move: Move) -> str:
        """A play as it is written; an accepted resignation as players say it (``resigns a gammon``)."""
        if move.startswith("seat "):
            found = RESIGNATION.match(move)
            return f"resigns {found[2]}" if found else move
        return move

    # --- resignations ----------------------------------------------------------
    def resign_levels(self, state: BackgammonState) -> tuple[str, ...]:
        """A single game, a gammon or a backgammon, at any time during a game (`games.backgammon.cube`)."""
        if state.turn == NO_TURN or finished(state):
            return ()
        return self.resignation_levels

    def resign_move(self, state: BackgammonState, seat: Seat, level: str) -> Move:
        if level not in self.resign_levels(state) or seat not in (0, 1):
            raise ValueError(f"no resignation of {level!r} by seat {seat} here")
        return f"seat {seat} resigns {RESIGNED[RESIGN_LEVELS[level]]}"

    def resign_match_move(self, state: BackgammonState, seat: Seat) -> Move | None:
        """A plain resignation concedes the most the opponent could win (`games.backgammon.cube`): a
        backgammon times the cube in a single or money game, the whole match in a match to N."""
        if state.turn == NO_TURN or finished(state) or seat not in (0, 1):
            return None
        return f"seat {seat} resigns {RESIGNED[WHOLE_MATCH if self.rules.match_to else BACKGAMMON_MULTIPLIER]}"

    def resignation_terms(self, state: BackgammonState, seat: Seat, level: str) -> tuple[int, str]:
        result = game_result(self.apply(state, self.resign_move(state, seat, level)), self.rules)
        return result.points, result.reason

    def outcome(self, state: BackgammonState) -> Outcome:
        if not self.is_terminal(state):
            raise ValueError("the game is not over")
        result = game_result(state, self.rules)
        loser = 1 - result.winner
        returns = [0.0, 0.0]
        returns[result.winner], returns[loser] = float(result.multiplier), -float(result.multiplier)
        if not self.rules.cube:
            return Outcome(tuple(returns), result.winner, result.reason, (result.winner, loser))
        points = [0, 0]
        points[result.winner], points[loser] = result.points, -result.points
        reason = result.reason
        if not state.resigned and reason != "double dropped":
            reason = f"{result.reason} at cube {state.cube}"
        if self.rules.match_to:
            score = list(state.score)
            score[result.winner] += result.points
            reason += f": match won {score[result.winner]}-{score[loser]}"
        return Outcome(tuple(returns), result.winner, reason, (result.winner, loser), tuple(points))

    def ply(self, state: BackgammonState) -> int:
        return state.ply

    def key(self, state: BackgammonState) -> tuple[Any, ...]:
        board = (state.points, state.bar, state.off, state.turn, state.dice, *state.resigned)
        if not self.rules.cube:
            return board
        return (*board, state.cube, state.owner, state.cube_action, state.score, state.crawford)

    def to_json(self, state: BackgammonState) -> dict[str, Any]:
        to_move = None if self.is_terminal(state) else self.to_move(state)
        data: dict[str, Any] = {
            "points": list(state.points),
            "bar": list(state.bar),
            "off": list(state.off),
            "turn": None if state.turn == NO_TURN else state.turn,
            "to_move": to_move,
            "dice": list(state.dice),
            "ply": state.ply,
            "pips": [pip_count(sides(state, s)[0]) for s in (0, 1)],
        }
        if self.rules.cube:
            data.update(cube_json(state, self.rules))
        if state.resigned:
            data["resigned"] = {"seat": state.resigned[0], "level": LEVEL_NAMES[state.resigned[1]]}
        return data

    def from_json(self, data: dict[str, Any]) -> BackgammonState:
        if not isinstance(data, dict):
            raise ValueError("a backgammon state is a JSON object")
        points, bar, off = data.get("points"), data.get("bar"), data.get("off")
        turn, dice, ply = data.get("turn"), data.get("dice"), data.get("ply")
        if not isinstance(points, list) or len(points) != 24 or not all(_is_count(n, -CHECKERS) for n in points):
            raise ValueError("points must be 24 whole numbers: +n checkers of seat 0, -n of seat 1")
        for name, pair in (("bar", bar), ("off", off)):
            if not isinstance(pair, list) or len(pair) != 2 or not all(_is_count(n, 0) for n in pair):
                raise ValueError(f"{name} must be two counts, seat 0's then seat 1's")
        if turn is not None and turn not in (0, 1) or isinstance(turn, bool):
            raise ValueError("turn must be 0, 1 or null (before the opening roll)")
        if (
            not isinstance(dice, list)
            or len(dice) not in (0, 2)
            or not all(type(d) is int and 1 <= d <= 6 for d in dice)
            or dice[:1] < dice[1:]
        ):
            raise ValueError("dice must be [] or two dice from 1 to 6, the larger first")
        if type(ply) is not int or ply < 0:
            raise ValueError("ply must be a whole number of moves")
        assert isinstance(bar, list) and isinstance(off, list)  # checked above; said again for the type checker
        if turn is None and (dice or ply or points != list(START) or bar != [0, 0] or off != [0, 0]):
            raise ValueError("turn is null only before the opening roll")
        for seat, sign in ((0, 1), (1, -1)):
            total = sum(n * sign for n in points if n * sign > 0) + bar[seat] + off[seat]
            if total != CHECKERS:
                raise ValueError(f"seat {seat} must have {CHECKERS} checkers, not {total}")
        state = BackgammonState(
            tuple(points), (bar[0], bar[1]), (off[0], off[1]), NO_TURN if turn is None else turn, tuple(dice), ply
        )
        if "resigned" in data:
            state = replace(state, resigned=_resigned_from_json(data["resigned"], self.rules), dice=())
        return cube_from_json(state, data, self.rules) if self.rules.cube else state

    # --- search hooks ------------------------------------------------------
    def evaluate(self, state: BackgammonState, seat: Seat) -> float:
        """The equity `seat` can expect, in points (`games.backgammon.evaluation`): gammons count double,
        backgammons triple (with the cube: in units of the cube, gammons single under the Jacoby rule
        while the cube is centred); clipped to ±`HEURISTIC_LIMIT`, short of a proven result."""
        return _evaluate(state, seat, self.rules)

    def cube_inputs(
        self, state: BackgammonState, look_ahead: bool = True, stop: Callable[[], bool] | None = None
    ) -> CubeInputs | None:
        """The cubeless probabilities of the seat on roll, where a seat decides whether to double or to
        take: one roll ahead (`probabilities_before_roll`), or without `look_ahead` (or once `stop()`
        says the move's time is up) from the evaluation of the position itself
        (`probabilities_at_roll`: one evaluation instead of some 400)."""
        if not self.rules.cube or state.dice or self.is_terminal(state) or self.to_move(state) == CHANCE:
            return None
        offer = state.cube_action != DOUBLE
        p = probabilities_before_roll(state, stop) if look_ahead else None
        looked_ahead = p is not None
        if p is None:
            p = probabilities_at_roll(state)
        return CubeInputs(
            offer, DOUBLE if offer else TAKE, ROLL if offer else DROP,
            p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon,
            centred=state.owner == CENTRED, gammons_count=not (self.rules.jacoby and state.owner == CENTRED),
            forced=self._match_forced(state, offer), match_play=self.rules.match_to > 0,
            match=self._match_equities(state) if self.rules.match_to else None, looked_ahead=looked_ahead,
        )  # fmt: skip

    def stake_value(self, state: BackgammonState, seat: Seat) -> float:
        """In a match, `seat`'s chance of winning it: each result of this game (single, gammon,
        backgammon, at the cube's value, the cube dead) weighed by the evaluation's probabilities
        and valued by the score it leaves (`games.backgammon.met`); a finished game by its result.
        Elsewhere the evaluation (points)."""
        if not self.rules.match_to:
            return self.evaluate(state, seat)
        if finished(state):
            result = game_result(state, self.rules)
            return self._match_chance_after(state, seat, result.points if result.winner == seat else -result.points)
        me, theirs = sides(state, seat)
        op = _own_numbering(theirs)
        if state.turn == NO_TURN:  # before the opening roll either side may start
            chances = [side_probabilities(me, op, True), side_probabilities(me, op, False)]
        else:
            chances = [side_probabilities(me, op, state.turn == seat)]
        return sum(self._match_chance_played_on(state, seat, p) for p in chances) / len(chances)

    def _match_chance_played_on(self, state: BackgammonState, seat: Seat, p: Probabilities) -> float:
        """`seat`'s match-winning chance over the results `p` gives this game, at the cube's value."""
        exactly = (
            (p.win - p.win_gammon, 1), (p.win_gammon - p.win_backgammon, 2), (p.win_backgammon, 3),
            (1 - p.win - p.lose_gammon, -1), (p.lose_gammon - p.lose_backgammon, -2), (p.lose_backgammon, -3),
        )  # fmt: skip
        return sum(chance * self._match_chance_after(state, seat, m * state.cube) for chance, m in exactly)

    def _match_chance_after(self, state: BackgammonState, seat: Seat, points: int) -> float:
        """`seat`'s match-winning chance once this game has paid it `points` (negative: lost them)."""
        score = list(state.score)
        score[seat if points > 0 else 1 - seat] += abs(points)
        match_to = self.rules.match_to
        played = next_crawford(state.crawford, (score[0], score[1]), match_to) == AFTER_CRAWFORD
        return match_equity(match_to - score[seat], match_to - score[1 - seat], played)

    def _match_equities(self, state: BackgammonState) -> MatchEquities:
        """The seat on roll's match-winning chances after each result of this game (`games.backgammon.met`),
        the Crawford rule applied to the score it leaves."""

        def results(cube: int) -> tuple[float, float, float, float, float, float]:
            won = [self._match_chance_after(state, state.turn, m * cube) for m in (1, 2, 3)]
            lost = [self._match_chance_after(state, state.turn, -m * cube) for m in (1, 2, 3)]
            return won[0], won[1], won[2], lost[0], lost[1], lost[2]

        return MatchEquities(results(state.cube), results(2 * state.cube))

    def _match_forced(self, state: BackgammonState, offer: bool) -> Move | None:
        """A cube decision the match score settles: no double when a single win at the cube's value
        already wins the match (and no drop against it: that loses the match), a double at once when
        the opponent's single win would win it anyway (after the Crawford game: doubling costs nothing)."""
        if not self.rules.match_to:
            return None
        roller_needs = self.rules.match_to - state.score[state.turn]
        other_needs = self.rules.match_to - state.score[1 - state.turn]
        if roller_needs <= state.cube:
            return ROLL if offer else TAKE
        if offer and other_needs <= state.cube:
            return DOUBLE
        return None

    def order_moves(self, state: BackgammonState, moves: Sequence[Move]) -> list[Move]:
        """Plays best first by the evaluation; among plays it values alike (a race decided either way),
        the bear-off that leaves the fewest rolls expected (`bear_off_rolls`): a search keeps the first
        of equal values."""
        if not state.dice:
            return list(moves)
        plays = legal_plays(state)
        me, theirs = sides(state, state.turn)
        if not race_started(me, _own_numbering(theirs)):
            return sorted(moves, key=lambda m: -self.evaluate(plays[m], state.turn))
        return sorted(moves, key=lambda m: (-self.evaluate(plays[m], state.turn), bear_off_rolls(plays[m], state.turn)))

    def rollout_move(self, state: BackgammonState, rng: random.Random) -> Move:
        """Dice by their odds; plays greedily by the evaluation, with some randomness; never doubles,
        always takes (playouts judge checker play, and the cube multiplies it alike)."""
        if not state.dice:
            if self.to_move(state) != CHANCE:
                return TAKE if state.cube_action == DOUBLE else ROLL
            outcomes = self._rolls(state)
            return rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        plays = legal_plays(state)
        if len(plays) == 1 or rng.random() < 0.1:
            return rng.choice(list(plays))
        return max(plays, key=lambda m: _quick(plays[m], state.turn) + rng.random() * 0.05)


def probabilities_before_roll(state: BackgammonState, stop: Callable[[], bool] | None = None) -> Probabilities | None:
    """The seat on roll's cubeless outcome probabilities, looking one roll ahead: for each of the 21
    rolls, those of the position its best play (by the evaluation's equity) leaves, weighted by the
    roll's odds.  Cube decisions judged this way agree with gnubg 2-ply's more often than on the
    evaluation of the position itself (benchmarks/README.md, "The doubling cube").  None when
    `stop()` becomes true before every roll is looked at: the look-ahead takes ~0.4 s (up to ~3 s
    in positions with many plays), more than a move's budget may hold."""
    key = (state.points, state.bar, state.off, state.turn)
    if key in _LOOKED_AHEAD:
        return _LOOKED_AHEAD[key]
    total = [0.0] * 5
    for roll, weight in ROLLS:
        rolled = BackgammonState(state.points, state.bar, state.off, state.turn, ROLL_DICE[roll])
        best: Probabilities | None = None
        for child in legal_plays(rolled).values():
            if stop is not None and stop():
                return None
            after = _after_play(child, state.turn)
            if best is None or equity(after) > equity(best):
                best = after
        assert best is not None  # every roll has a play, if only the empty one
        for i, value in enumerate((best.win, best.win_gammon, best.win_backgammon, best.lose_gammon,
                                   best.lose_backgammon)):  # fmt: skip
            total[i] += weight * value
    if len(_LOOKED_AHEAD) >= _LOOKED_AHEAD_MAX:  # a double and its answer ask for the same position
        _LOOKED_AHEAD.clear()
    _LOOKED_AHEAD[key] = result = Probabilities(*total)
    return result


# Finished look-aheads only (one cut short by its deadline is not kept): key -> probabilities.
_LOOKED_AHEAD: dict[tuple[tuple[int, ...], tuple[int, int], tuple[int, int], Seat], Probabilities] = {}
_LOOKED_AHEAD_MAX = 1024


def probabilities_at_roll(state: BackgammonState) -> Probabilities:
    """The seat on roll's cubeless outcome probabilities by the evaluation of the position itself
    (0-ply): what a bot whose budget cannot afford the look-ahead decides the cube by."""
    me, theirs = sides(state, state.turn)
    return side_probabilities(me, _own_numbering(theirs), True)


def _after_play(child: BackgammonState, seat: Seat) -> Probabilities:
    """`seat`'s cubeless probabilities in `child`, the position its play left (the other seat to roll)."""
    if _won(child) is not None:
        multiplier = game_result(child).multiplier
        return Probabilities(1.0, float(multiplier >= 2), float(multiplier == 3), 0.0, 0.0)
    me, theirs = sides(child, seat)
    return side_probabilities(me, _own_numbering(theirs), False)


LEVEL_NAMES = {multiplier: level for level, multiplier in RESIGNED_LEVELS.items()}


def _resigned(state: BackgammonState, move: Move, rules: CubeRules) -> BackgammonState:
    """`state` after the resignation `move` (``"seat 1 resigns a gammon"``): the game over, dice and a
    pending double cleared, so that a match's next game follows with the opening roll.  The match is
    resigned whole only in a match to N."""
    found = RESIGNATION.match(move)
    if found is None or state.turn == NO_TURN or finished(state):
        raise KeyError(move)
    seat, multiplier = int(found[1]), RESIGNED_LEVELS[LEVEL_OF_RESIGNED[found[2]]]
    if multiplier == WHOLE_MATCH and not rules.match_to:
        raise KeyError(move)
    return replace(state, dice=(), cube_action="", ply=state.ply + 1, resigned=(seat, multiplier))


def _resigned_from_json(data: object, rules: CubeRules) -> tuple[int, int]:
    levels = RESIGNED_LEVELS if rules.match_to else RESIGN_LEVELS
    if not isinstance(data, dict) or data.get("seat") not in (0, 1) or data.get("level") not in levels:
        raise ValueError(f'resigned is {{"seat": 0 or 1, "level": one of {", ".join(levels)}}}')
    return (int(data["seat"]), levels[data["level"]])


def _cube_move(state: BackgammonState, move: Move) -> BackgammonState:
    """`state` after the cube action `move` (checked legal by the caller)."""
    if move == TAKE:
        return replace(state, cube=2 * state.cube, owner=1 - state.turn, cube_action=ROLL, ply=state.ply + 1)
    return replace(state, cube_action=move, ply=state.ply + 1)


def _why_no_double(state: BackgammonState) -> str:
    if state.dice:
        return "the cube is turned only before rolling"
    if state.turn == NO_TURN or finished(state):
        return "the opening roll comes first"
    if state.crawford == CRAWFORD_GAME:
        return "no doubling in the Crawford game"
    if state.owner not in (CENTRED, state.turn):
        return "the cube is your opponent's: only its owner may double"
    if state.cube >= MAX_CUBE:
        return f"the cube stops at {MAX_CUBE}"
    return "the cube has been decided this turn: the dice are next"


CRAWFORD_NAMES: dict[int, str | None] = {BEFORE_CRAWFORD: None, CRAWFORD_GAME: "game", AFTER_CRAWFORD: "after"}


def cube_json(state: BackgammonState, rules: CubeRules) -> dict[str, Any]:
    """The cube's fields of a state's JSON (see the module's docstring)."""
    result = None
    if finished(state):
        done = game_result(state, rules)
        result = {"winner": done.winner, "points": done.points, "reason": done.reason}
    return {
        "cube": {
            "value": state.cube,
            "owner": None if state.owner == CENTRED else state.owner,
            "action": state.cube_action or None,
        },
        "match_to": rules.match_to,
        "score": list(state.score),
        "crawford": CRAWFORD_NAMES[state.crawford],
        "result": result,
    }


def cube_from_json(state: BackgammonState, data: dict[str, Any], rules: CubeRules) -> BackgammonState:
    """`state` with the cube's fields read from `data`, each checked."""
    cube, score, crawford = data.get("cube"), data.get("score"), data.get("crawford")
    if not isinstance(cube, dict):
        raise ValueError('cube must be {"value": 1, "owner": null, "action": null}')
    value, owner, action = cube.get("value"), cube.get("owner"), cube.get("action")
    if type(value) is not int or value < 1 or value > MAX_CUBE or value & (value - 1):
        raise ValueError(f"cube value must be a power of two from 1 to {MAX_CUBE}")
    if owner is not None and owner not in (0, 1) or isinstance(owner, bool) or (owner is None) != (value == 1):
        raise ValueError("cube owner is null while the cube is at 1 (centred), else the seat that took it")
    if action not in (None, ROLL, DOUBLE, DROP) or (action is not None and (state.dice or state.turn == NO_TURN)):
        raise ValueError("cube action is null, 'roll', 'double' or 'drop', and only before the dice are rolled")
    match_to = rules.match_to
    if not isinstance(score, list) or len(score) != 2 or not all(type(n) is int and n >= 0 for n in score):
        raise ValueError("score must be two whole numbers, seat 0's then seat 1's")
    if (match_to and max(score) >= match_to) or (not match_to and score != [0, 0]):
        raise ValueError("score is below the match's length (and [0, 0] in a money game)")
    stages = {name: stage for stage, name in CRAWFORD_NAMES.items()}
    if crawford not in stages or (crawford is not None and not match_to):
        raise ValueError('crawford is null, "game" or "after" (in a match)')
    return replace(
        state, cube=value, owner=CENTRED if owner is None else owner, cube_action=action or "",
        score=(score[0], score[1]), crawford=stages[crawford],
    )  # fmt: skip


def _own_numbering(side: Side) -> Side:
    """A side given in the other seat's numbering, in its own."""
    return (side[OFF], *side[24:0:-1], side[BAR])


@lru_cache(maxsize=65536)
def _evaluate(state: BackgammonState, seat: Seat, rules: CubeRules) -> float:
    """`Backgammon.evaluate`, cached: a search asks for a position's value again when it orders moves."""
    return position_value(state, seat, side_probabilities, rules)


def position_value(
    state: BackgammonState,
    seat: Seat,
    probabilities: Callable[[Side, Side, bool], Probabilities],
    rules: CubeRules = NO_CUBE,
) -> float:
    """The equity `seat` can expect from the outcome `probabilities` (`side_probabilities` or another
    model's), a finished game's result when it is over; in units of the cube, gammons single where
    the Jacoby rule holds; clipped to ±`HEURISTIC_LIMIT`."""
    if finished(state):
        result = game_result(state, rules)
        return float(result.multiplier if result.winner == seat else -result.multiplier)
    me, theirs = sides(state, seat)
    op = _own_numbering(theirs)
    value_of = equity if not (rules.jacoby and state.owner == CENTRED) else _single_game_equity
    if state.turn == NO_TURN:  # before the opening roll either side may start
        value = (value_of(probabilities(me, op, True)) + value_of(probabilities(me, op, False))) / 2
    else:
        value = value_of(probabilities(me, op, state.turn == seat))
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, value))


def _single_game_equity(p: Probabilities) -> float:
    """The equity when gammons count single (the Jacoby rule)."""
    return 2 * p.win - 1


def _quick(state: BackgammonState, seat: Seat) -> float:
    """A cheap score of a position for the seat that just played: hits, points, blots."""
    me, op = sides(state, seat)
    blots = sum(1 for p in range(1, 25) if me[p] == 1)
    made = sum(1 for p in range(1, 25) if me[p] >= 2)
    return 0.5 * op[BAR] + 0.2 * made - 0.15 * blots + 0.3 * me[OFF] - pip_count(me) / 200


def bear_off_rolls(state: BackgammonState, seat: Seat) -> float:
    """The rolls `seat` expects to need to bear off (`games.backgammon.bearoff`) when racing with every
    checker home; 0 otherwise."""
    me, theirs = sides(state, seat)
    if any(me[7:]) or not race_started(me, _own_numbering(theirs)):
        return 0.0
    return database().expected_rolls(me[1:7])


def _is_count(value: object, low: int) -> bool:
    return type(value) is int and low <= value <= CHECKERS


BACKGAMMON = Backgammon()

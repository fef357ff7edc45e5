"""GNU Backgammon as a Plyground bot account, driven through its embedded Python.

    PYTHONPATH=clients python -m plyground_bot.bridges.gnubg --token <bot token> [--plies 0] [--noise 0.0]

The bridge starts ``gnubg -t -q -p <script>`` once; the script answers one request per line
(``move``: gnubg's play for the board and the dice; ``cube``: its cubeful equities for a cube
decision), so gnubg needs nothing but the position: the server rolls the dice and says whose
turn it is.  Positions cross as gnubg's board (the opponent's 25 counts, then the side on
roll's, each in its own numbering, index 24 the bar).  gnubg answers a play as (from, to)
steps in the mover's numbering (25 the bar, 0 off); the bridge sends the one legal move of
the site's that ends with the same checkers in the same places and the same blots hit, so
gnubg's wording and the site's canonical one (``24/18*/15 13/11``) never have to agree.

Cube decisions (matches with the cube, money or to N points): before rolling, ``double`` when
gnubg's double/take and double/drop equities both beat not doubling, else ``roll``; facing a
double, ``take`` when taking leaves the doubler no more than dropping would, else ``drop``.

Resignation offers (``resign_offer``, a single game, a gammon or a backgammon): accepted when the
offer, in units of the cube, is at least the position's cubeful equity for the bridge's side by
gnubg (the side on roll's best of not doubling and doubling, as for a cube decision; before its
roll, even where the dice are out).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import tempfile
from collections.abc import Sequence
from typing import Any

from plyground_bot.bridges.engine import EngineError, EngineProcess, arguments, engine_command, serve
from plyground_bot.client import Turn

GAME = "backgammon"
BAR, OFF = 25, 0
Side = tuple[int, ...]  # checkers by point in the side's own numbering: [0] off, [1..24], [25] the bar
CUBE_ANSWERS = {"double", "roll", "take", "drop"}

SCRIPT = r"""
import sys
import gnubg

for command in ("set player 0 human", "set player 1 human", "new game"):
    gnubg.command(command)


def context(plies, noise, cubeful):
    return {"cubeful": cubeful, "plies": plies, "deterministic": 1, "prune": 0, "noise": noise}


def board(text):
    flat = [int(n) for n in text.split(",")]
    return (tuple(flat[:25]), tuple(flat[25:]))


def cube(words):  # VALUE OWNER MATCH_TO SCORE_ROLLER SCORE_OTHER CRAWFORD JACOBY (owner -1 centred, 0 the roller)
    value, owner, match_to, mine, theirs, crawford, jacoby = (int(w) for w in words)
    gnubg.command("set jacoby " + ("on" if jacoby else "off"))
    return gnubg.cubeinfo(value, owner, 0, match_to, (mine, theirs), crawford, 0)


sys.stdout.write("READY\n")
sys.stdout.flush()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        break
    try:
        if words[0] == "move":  # move BOARD D1 D2 PLIES NOISE CUBE...
            best = gnubg.findbestmove(board(words[1]), cube(words[6:13]), context(int(words[4]), float(words[5]), 0),
                                      (int(words[2]), int(words[3])))
            answer = " ".join(map(str, best))
        elif words[0] == "cube":  # cube BOARD PLIES CUBE...
            decision = gnubg.cfevaluate(board(words[1]), cube(words[3:10]), context(int(words[2]), 0.0, 1))
            answer = " ".join("%.6f" % e for e in decision[1:4])
        else:
            answer = "ERROR unknown request " + words[0]
    except Exception as error:
        answer = "ERROR " + str(error).replace("\n", " ")
    sys.stdout.write("ANSWER " + answer + "\n")
    sys.stdout.flush()
"""


def sides(state: dict[str, Any], seat: int) -> tuple[Side, Side]:
    """(`seat`'s checkers, the opponent's), both in `seat`'s numbering, from the state's JSON.

    The JSON's ``points[i]`` is seat 0's point i + 1, +n checkers of seat 0 and -n of seat 1;
    seat 0's point p is seat 1's point 25 - p.
    """
    points = [int(n) for n in state["points"]]
    if seat == 1:
        points = [-n for n in reversed(points)]
    mine = (state["off"][seat], *(max(n, 0) for n in points), state["bar"][seat])
    theirs = (state["off"][1 - seat], *(max(-n, 0) for n in points), state["bar"][1 - seat])
    return mine, theirs


def gnubg_board(mine: Side, theirs: Side) -> list[int]:
    """gnubg's board, flattened: the opponent's 25 counts in its own numbering, then the mover's."""
    return [theirs[25 - q] for q in range(1, 25)] + [theirs[BAR]] + [mine[p] for p in range(1, 25)] + [mine[BAR]]


def play_after_steps(mine: Side, theirs: Side, steps: Sequence[tuple[int, int]]) -> tuple[Side, frozenset[int]]:
    """Where the mover's checkers end, and the points where it hits, after gnubg's (from, to) steps."""
    me, op = list(mine), list(theirs)
    hits = set()
    for frm, to in steps:
        if me[frm] < 1:
            raise EngineError(f"gnubg moves a checker from {frm}, where there is none ({steps})")
        me[frm] -= 1
        me[to] += 1
        if OFF < to < BAR and op[to] == 1:
            op[to] = 0
            hits.add(to)
    return tuple(me), frozenset(hits)


SEGMENT = re.compile(r"^([^()]+)(?:\((\d)\))?$")


def play_after_text(mine: Side, text: str) -> tuple[Side, frozenset[int]]:
    """Where the mover's checkers end, and the points it hits, after a play in the site's notation.

    The site's canonical plays mark every hit with ``*`` (``bar/22*/16``, ``8/2*(2) 6/4``).
    """
    me = list(mine)
    hits = set()
    for word in text.split():
        match = SEGMENT.match(word)
        if match is None:
            raise ValueError(f"{text!r} is not a backgammon play")
        route = [_point(hop.rstrip("*")) for hop in match.group(1).split("/")]
        hits |= {_point(hop[:-1]) for hop in match.group(1).split("/") if hop.endswith("*")}
        count = int(match.group(2) or 1)
        me[route[0]] -= count
        me[route[-1]] += count
    return tuple(me), frozenset(hits)


def _point(name: str) -> int:
    if name == "bar":
        return BAR
    if name == "off":
        return OFF
    if name.isdigit() and 1 <= int(name) <= 24:
        return int(name)
    raise ValueError(f"{name!r} is not a point (1-24, bar or off)")


def site_play(state: dict[str, Any], seat: int, steps: Sequence[tuple[int, int]], legal: Sequence[str]) -> str:
    """The one legal play of the site's that reaches the position gnubg's `steps` reach."""
    mine, theirs = sides(state, seat)
    target = play_after_steps(mine, theirs, steps)
    found = [move for move in legal if move not in CUBE_ANSWERS and play_after_text(mine, move) == target]
    if len(found) != 1:
        raise EngineError(f"gnubg's play {steps} matches {len(found)} of the legal plays {list(legal)}")
    return found[0]


def steps_of(words: Sequence[str]) -> list[tuple[int, int]]:
    """gnubg's answer ``24 18 18 13`` as steps [(24, 18), (18, 13)]."""
    numbers = [int(w) for w in words]
    if len(numbers) % 2 or not all(OFF <= n <= BAR for n in numbers):
        raise EngineError(f"gnubg answered {' '.join(words)!r}, not a play")
    return list(zip(numbers[::2], numbers[1::2], strict=True))


def cube_words(state: dict[str, Any], roller: int, jacoby: bool) -> str:
    """The cube as the script reads it, for `roller` on roll: value, owner, match length, score, Crawford, Jacoby."""
    cube = state.get("cube") or {"value": 1, "owner": None}
    owner = -1 if cube["owner"] is None else 0 if cube["owner"] == roller else 1
    score = state.get("score") or [0, 0]
    crawford = int(state.get("crawford") == "game")
    match_to = int(state.get("match_to") or 0)
    return f"{cube['value']} {owner} {match_to} {score[roller]} {score[1 - roller]} {crawford} {int(jacoby)}"


def cube_answer(legal: Sequence[str], no_double: float, double_take: float, double_drop: float) -> str:
    """The cube move for gnubg's equities (the doubler's): double or roll, or, facing a double, take or drop."""
    if "double" in legal:
        return "double" if min(double_take, double_drop) > no_double else "roll"
    return "take" if double_take <= double_drop else "drop"


def position_equity(no_double: float, double_take: float, double_drop: float) -> float:
    """The side on roll's cubeful equity from gnubg's cube equities: it doubles when that is better."""
    return max(no_double, min(double_take, double_drop))


def accepts_resignation(offer: dict[str, Any], state: dict[str, Any], seat: int, roller_equity: float) -> bool:
    """Whether `seat`, offered `offer` (its ``points`` for the whole cube), should accept: the offer per
    unit of the cube at least what the position is worth to it (`roller_equity` is the side on roll's)."""
    cube = int((state.get("cube") or {"value": 1})["value"])
    worth = roller_equity if state["turn"] == seat else -roller_equity
    return float(offer["points"]) / cube >= worth


class GnubgEngine:
    """gnubg with the request script loaded: ``move`` and ``cube`` requests, one line each."""

    def __init__(self, command: Sequence[str], plies: int = 0, noise: float = 0.0) -> None:
        with tempfile.NamedTemporaryFile("w", suffix=".py", prefix="plyground-gnubg-", delete=False) as script:
            script.write(SCRIPT)
        self.script = script.name
        self.process = EngineProcess([*command, "-t", "-q", "-p", self.script])
        self.plies, self.noise = plies, noise
        self.name = "GNU Backgammon"

    @property
    def alive(self) -> bool:
        return self.process.alive

    async def start(self) -> None:
        await self.process.start()
        await self.process.read_until(lambda line: line.startswith("READY"), 60)  # gnubg loads its networks first

    async def ask(self, request: str, within_s: float) -> list[str]:
        await self.process.send(request)
        line = (await self.process.read_until(lambda line: line.startswith("ANSWER"), within_s))[-1]
        words = line.split()[1:]
        if words[:1] == ["ERROR"]:
            raise EngineError(f"gnubg: {' '.join(words[1:])} (asked {request[:60]!r}...)")
        return words

    async def choose(self, turn: Turn, limit_s: float) -> str:
        state, legal, jacoby = turn.state, turn.legal_moves, bool(turn.options.get("jacoby"))
        if len(legal) == 1:
            return legal[0]  # forced (one play, or pass): nothing to ask
        if set(legal) <= CUBE_ANSWERS:
            roller = state["turn"]  # facing a double, the doubler is still the side on roll
            board = ",".join(map(str, gnubg_board(*sides(state, roller))))
            words = await self.ask(f"cube {board} {self.plies} {cube_words(state, roller, jacoby)}", limit_s)
            no_double, double_take, double_drop = (float(w) for w in words)
            return cube_answer(legal, no_double, double_take, double_drop)
        mine, theirs = sides(state, turn.seat)
        board = ",".join(map(str, gnubg_board(mine, theirs)))
        high, low = state["dice"]
        cube = cube_words(state, turn.seat, jacoby)
        words = await self.ask(f"move {board} {high} {low} {self.plies} {self.noise} {cube}", limit_s)
        return site_play(state, turn.seat, steps_of(words), legal)

    async def answer_resignation(self, offer: dict[str, Any], state: dict[str, Any], limit_s: float) -> bool:
        """Whether the bridge's side (the one the offer waits for) accepts the resignation `offer`."""
        seat, roller = 1 - int(offer["seat"]), int(state["turn"])
        board = ",".join(map(str, gnubg_board(*sides(state, roller))))
        words = await self.ask(f"cube {board} {self.plies} {cube_words(state, roller, False)}", limit_s)
        no_double, double_take, double_drop = (float(w) for w in words)
        return accepts_resignation(offer, state, seat, position_equity(no_double, double_take, double_drop))

    async def stop(self) -> None:
        if self.process.alive:
            with contextlib.suppress(EngineError):
                await self.process.send("quit")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), 2.0)
        await self.process.stop()

    def __del__(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.script)


def main(argv: Sequence[str] | None = None) -> None:
    parser = arguments(__doc__.splitlines()[0], "gnubg")
    parser.add_argument("--plies", type=int, default=0, choices=range(0, 5), help="gnubg's look-ahead (0-4)")
    parser.add_argument("--noise", type=float, default=0.0, help="gnubg's evaluation noise (0: its best)")
    args = parser.parse_args(argv)
    try:
        command = engine_command(args.engine)
    except ValueError as exc:
        parser.error(str(exc))
    asyncio.run(serve(args, GnubgEngine(command, args.plies, args.noise), GAME))


if __name__ == "__main__":
    main()

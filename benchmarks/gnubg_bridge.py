"""GNU Backgammon as a player and as a judge, driven through its embedded Python.

`Gnubg` starts ``gnubg -t -q -p <server script>``; the script answers one request per
line on stdin (``move``: gnubg's chosen play for a roll; ``eval``: its five cubeless
outputs; ``cube``: its money-game cube decision) so a whole match costs one process.
Positions cross as gnubg's own board (two 25-lists: the opponent's checkers, then the player on roll's, each in its own
numbering, index 24 the bar); a play comes back as the legal play of ours with the same
resulting position, so the two notations never have to agree.

Needs Debian's gnubg (``apt-get install -y gnubg``, 1.07); not in the normal suite.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Final

from games.backgammon import BAR, CENTRED, BackgammonState, legal_plays, sides
from games.base import Move

GNUBG: Final = shutil.which("gnubg") or "/usr/games/gnubg"

# gnubg's predefined chequer-play settings (eval.c, aecSettings): all 0-ply with deterministic
# noise, read from the 1.07 binary itself: beginner 0.060, casual 0.050, intermediate 0.040,
# advanced 0.015, expert none.  Played cubeless here (no cube in our game).
PRESETS: Final[dict[str, dict[str, float]]] = {
    "beginner": {"plies": 0, "noise": 0.060},
    "casual": {"plies": 0, "noise": 0.050},
    "intermediate": {"plies": 0, "noise": 0.040},
    "advanced": {"plies": 0, "noise": 0.015},
    "expert": {"plies": 0, "noise": 0.0},
}

SERVER: Final = r"""
import sys
import gnubg

for command in ("set player 0 human", "set player 1 human", "set jacoby off", "new game"):
    gnubg.command(command)
CUBE = gnubg.cubeinfo()


def context(plies, noise, cubeful=0):
    return {"cubeful": cubeful, "plies": plies, "deterministic": 1, "prune": 0, "noise": noise}


def board(text):
    flat = [int(n) for n in text.split(",")]
    return (tuple(flat[:25]), tuple(flat[25:]))


sys.stdout.write("READY\n")
sys.stdout.flush()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        break
    try:
        if words[0] == "move":  # move BOARD D1 D2 PLIES NOISE
            best = gnubg.findbestmove(board(words[1]), CUBE, context(int(words[4]), float(words[5])),
                                      (int(words[2]), int(words[3])))
            answer = " ".join(map(str, best))
        elif words[0] == "cube":  # cube BOARD VALUE OWNER PLIES (owner -1: centred, 0: the player on roll)
            info = gnubg.cubeinfo(int(words[2]), int(words[3]), 0, 0, (0, 0), 0, 0)
            decision = gnubg.cfevaluate(board(words[1]), info, context(int(words[4]), 0.0, 1))
            answer = " ".join("%.6f" % e for e in decision[1:4])
        else:  # eval BOARD PLIES
            answer = " ".join("%.6f" % p for p in gnubg.evaluate(board(words[1]), CUBE, context(int(words[2]), 0.0)))
    except Exception as error:  # noqa: BLE001 - reported to the caller, which raises
        answer = "ERROR " + str(error).replace("\n", " ")
    sys.stdout.write("ANSWER " + answer + "\n")
    sys.stdout.flush()
"""


def gnubg_board(state: BackgammonState, on_roll: int) -> list[int]:
    """gnubg's board for `state` with `on_roll` to play, flattened: the opponent's 25, then the roller's."""
    me, op = sides(state, on_roll)
    mine = [me[p] for p in range(1, 25)] + [me[BAR]]
    # The opponent's own point q is the roller's point 25 - q.
    theirs = [op[25 - q] for q in range(1, 25)] + [op[BAR]]
    return theirs + mine


@dataclass(frozen=True)
class Outputs:
    """gnubg's cubeless outputs for one side: P(win), P(win gammon), P(win backgammon),
    P(lose gammon), P(lose backgammon), and the equity they make."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    equity: float

    def flipped(self) -> Outputs:
        """The same outputs for the other side."""
        return Outputs(
            1 - self.win, self.lose_gammon, self.lose_backgammon, self.win_gammon, self.win_backgammon, -self.equity
        )


@dataclass(frozen=True)
class CubeEquities:
    """gnubg's cubeful equities of a cube decision for the side on roll: no double, double/take,
    double/drop; it doubles when both answers beat not doubling, and a take is right when the
    double/take equity is at most the double/drop one."""

    no_double: float
    double_take: float
    double_drop: float

    @property
    def double(self) -> bool:
        return min(self.double_take, self.double_drop) > self.no_double

    @property
    def take(self) -> bool:
        return self.double_take <= self.double_drop


class Gnubg:
    """One gnubg process answering `move` and `evaluate` requests."""

    def __init__(self) -> None:
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
            script.write(SERVER)
        self._script_path = script.name
        self._process = subprocess.Popen(
            ["nice", "-n", "19", GNUBG, "-t", "-q", "-p", self._script_path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        while self._readline() != "READY":
            pass

    def _readline(self) -> str:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError("gnubg exited")
        return line.strip()

    def _ask(self, request: str) -> list[str]:
        assert self._process.stdin is not None
        self._process.stdin.write(request + "\n")
        self._process.stdin.flush()
        while not (line := self._readline()).startswith("ANSWER"):
            pass  # gnubg's own chatter ("The dice have been set ...")
        words = line.split()[1:]
        if words[:1] == ["ERROR"]:
            raise RuntimeError(f"gnubg: {' '.join(words[1:])} (request {request!r})")
        return words

    def move(self, state: BackgammonState, plies: int = 0, noise: float = 0.0) -> Move:
        """gnubg's play for the roll in `state`, as our canonical play."""
        plays = legal_plays(state)
        if len(plays) == 1:
            return next(iter(plays))
        board = ",".join(map(str, gnubg_board(state, state.turn)))
        steps = [int(w) for w in self._ask(f"move {board} {state.dice[0]} {state.dice[1]} {plies} {noise}")]
        return play_reaching(state, list(zip(steps[::2], steps[1::2], strict=True)))

    def evaluate(self, state: BackgammonState, plies: int = 0) -> Outputs:
        """gnubg's outputs for the side to roll in `state` (its turn, dice not yet thrown)."""
        board = ",".join(map(str, gnubg_board(state, state.turn)))
        return Outputs(*(float(w) for w in self._ask(f"eval {board} {plies}")))

    def cube(self, state: BackgammonState, plies: int = 2) -> CubeEquities:
        """gnubg's cubeful money equities for the side to roll, per unit of the present cube (Jacoby off)."""
        board = ",".join(map(str, gnubg_board(state, state.turn)))
        owner = -1 if state.owner == CENTRED else 0 if state.owner == state.turn else 1
        return CubeEquities(*(float(w) for w in self._ask(f"cube {board} {state.cube} {owner} {plies}")))

    def close(self) -> None:
        if self._process.poll() is None:
            assert self._process.stdin is not None
            self._process.stdin.write("quit\n")
            self._process.stdin.flush()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
        os.unlink(self._script_path)

    def __enter__(self) -> Gnubg:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def play_reaching(state: BackgammonState, steps: list[tuple[int, int]]) -> Move:
    """Our legal play whose resulting position is the one gnubg's (from, to) steps reach.

    gnubg numbers points as we do (1-24 in the mover's numbering, 25 the bar, 0 off);
    unused steps come back as (0, 0).
    """
    me, op = (list(side) for side in sides(state, state.turn))
    for frm, to in steps:
        if frm == 0 and to == 0:
            continue
        me[frm] -= 1
        me[max(to, 0)] += 1
        if to > 0 and op[to] == 1:
            op[to], op[BAR] = 0, op[BAR] + 1
    target = (tuple(me), tuple(op))
    for move, child in legal_plays(state).items():
        mine, theirs = sides(child, state.turn)
        if (mine, theirs) == target:
            return move
    raise RuntimeError(f"gnubg's play {steps} reaches no legal play of ours from {state}")

"""An Othello engine speaking GTP (GRhino's ``gtp-rhino``, ...) as a Plyground bot account.

    PYTHONPATH=clients python -m plyground_bot.bridges.gtp --token <bot token> --engine "gtp-rhino --level 2"

Each turn the engine hears ``clear_board`` and every move of the match (``play black D3``;
passes are implied by the colours), then ``genmove`` for the bot's colour, so a restarted engine, a takeback
or a reconnect never leaves it with another position than the server's.  Black is seat 0
and moves first, from the standard start (white d4 e5, black d5 e4).

Notation: the site writes squares ``a1``..``h8``, columns a-h from the left and rows 1-8 from
the top, and ``pass``; GRhino's GTP vertices are the same squares (it draws its board with
rows from the top too, and starts from the same four discs), written in capitals.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Sequence

from plyground_bot.bridges.engine import EngineError, EngineProcess, arguments, engine_command, serve
from plyground_bot.client import Turn

GAME = "othello"
COLOURS = ("black", "white")  # seat 0, seat 1
SQUARE = re.compile(r"^[a-h][1-8]$")
PASS = "pass"


def to_vertex(move: str) -> str:
    """The GTP vertex of a site move: ``d3`` -> ``D3``, ``pass`` -> ``PASS``.

    >>> to_vertex("d3"), to_vertex("pass")
    ('D3', 'PASS')
    """
    if move == PASS:
        return "PASS"
    if not SQUARE.match(move):
        raise ValueError(f"{move!r} is not an Othello move (a1..h8 or pass)")
    return move.upper()


def from_vertex(vertex: str) -> str:
    """The site move of a GTP vertex: ``C4`` -> ``c4``, ``pass`` (any case) -> ``pass``.

    >>> from_vertex("C4"), from_vertex("PASS")
    ('c4', 'pass')
    """
    move = vertex.strip().lower()
    if move == PASS or SQUARE.match(move):
        return move
    if move == "resign":
        raise EngineError("the engine resigns")
    raise EngineError(f"the engine answered {vertex!r}, not a square a1..h8 or pass")


def replay(moves: Sequence[str]) -> list[str]:
    """The ``play`` commands that bring a cleared board to the position after `moves` (black first).

    Passes are left out: GRhino refuses ``play <colour> pass`` and sees a pass in the colour
    of the next ``play``.

    >>> replay(["f5", "d6", "c3", "pass", "f3"])
    ['play black F5', 'play white D6', 'play black C3', 'play black F3']
    """
    return [f"play {COLOURS[ply % 2]} {to_vertex(move)}" for ply, move in enumerate(moves) if move != PASS]


def answer(lines: Sequence[str], command: str) -> str:
    """The text of a GTP success response (``= text``); EngineError for a failure (``? text``)."""
    first = next((line for line in lines if line), "")
    if first.startswith("="):
        return first[1:].strip()
    raise EngineError(f"the engine refused {command!r}: {first[1:].strip() or 'no answer'}")


class GtpEngine:
    """A GTP engine playing Othello on an 8x8 board."""

    def __init__(self, command: Sequence[str]) -> None:
        self.process = EngineProcess(command)
        self.name = command[0]

    @property
    def alive(self) -> bool:
        return self.process.alive

    async def ask(self, command: str, within_s: float = 10.0) -> str:
        """Send one command; its response's text (a GTP response ends with an empty line)."""
        await self.process.send(command)
        lines = await self.process.read_until(lambda line: line == "", within_s)
        while len(lines) == 1:  # the empty line was left over from an earlier response
            lines = await self.process.read_until(lambda line: line == "", within_s)
        return answer(lines, command)

    async def start(self) -> None:
        await self.process.start()
        name, version = await self.ask("name", 30), await self.ask("version")
        self.name = f"{name} {version}".strip()
        await self.ask("boardsize 8")

    async def choose(self, turn: Turn, limit_s: float) -> str:
        if len(turn.moves) != turn.ply:
            raise EngineError(f"the match's moves are not all known ({len(turn.moves)} of {turn.ply})")
        if turn.seat != turn.ply % 2:
            raise EngineError(f"seat {turn.seat} to move at ply {turn.ply}: not Othello's alternation")
        if turn.legal_moves == [PASS]:
            return PASS  # forced: nothing to ask
        await self.ask("clear_board")
        for command in replay(turn.moves):
            await self.ask(command)
        return from_vertex(await self.ask(f"genmove {COLOURS[turn.seat]}", limit_s))

    async def stop(self) -> None:
        if self.process.alive:
            with contextlib.suppress(EngineError):
                await self.process.send("quit")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), 1.0)
        await self.process.stop()


def main(argv: Sequence[str] | None = None) -> None:
    parser = arguments(__doc__.splitlines()[0], "gtp-rhino")
    args = parser.parse_args(argv)
    try:
        command = engine_command(args.engine)
    except ValueError as exc:
        parser.error(str(exc))
    asyncio.run(serve(args, GtpEngine(command), GAME))


if __name__ == "__main__":
    main()

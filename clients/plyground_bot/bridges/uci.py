"""A UCI chess engine (Stockfish, ...) as a Plyground bot account.

    PYTHONPATH=clients python -m plyground_bot.bridges.uci --token <bot token> --engine stockfish \\
        --movetime-ms 200 --option UCI_LimitStrength=true --option UCI_Elo=1500

The site writes chess moves as UCI does (``e2e4``, ``e7e8q``, castling as the king's move
``e1g1``), so the engine's ``bestmove`` is sent as it is, once checked against the legal moves.
Each turn the engine hears ``position startpos moves ...`` (every move of the match, so it
sees repetitions) and ``go`` with the match's clock (``wtime btime winc binc``), or a fixed
``movetime`` / ``depth`` when given.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence

from plyground_bot.bridges.engine import EngineError, EngineProcess, arguments, engine_command, serve
from plyground_bot.client import Turn

GAME = "chess"
MOVETIME_GRACE_S = 5.0  # a fixed move time overrun this much: the engine is stopped
STOP_GRACE_S = 1.0  # after `stop`, how long the engine has to name its move
UNCLOCKED_MOVETIME_MS = 1000  # neither a clock nor --movetime-ms/--depth: a second a move


def position_command(turn: Turn) -> str:
    """The ``position`` command for `turn`: the moves from the start, or the FEN when they are not all known."""
    if turn.moves and len(turn.moves) == turn.ply:
        return "position startpos moves " + " ".join(turn.moves)
    if turn.ply == 0:
        return "position startpos"
    return f"position fen {turn.state['fen']}"


def go_command(turn: Turn, movetime_ms: int | None, depth: int | None) -> str:
    """The ``go`` command: a fixed depth or move time when asked for, else the match's clock."""
    if depth is not None:
        return f"go depth {depth}"
    clock = turn.clock
    if movetime_ms is None and clock:
        white, black = clock["remaining_ms"]
        if clock.get("running") is not None:
            elapsed = clock.get("elapsed_ms") or 0
            white, black = (white - elapsed, black) if clock["running"] == 0 else (white, black - elapsed)
        inc = clock.get("increment_ms") or 0
        return f"go wtime {max(white, 1)} btime {max(black, 1)} winc {inc} binc {inc}"
    return f"go movetime {movetime_ms or UNCLOCKED_MOVETIME_MS}"


def best_move(line: str) -> str:
    """The move of a ``bestmove`` line (``bestmove e2e4 ponder e7e5``)."""
    words = line.split()
    if len(words) < 2 or words[0] != "bestmove" or words[1] in ("(none)", "0000"):
        raise EngineError(f"the engine answered {line!r}, not a move")
    return words[1]


class UciEngine:
    """A UCI engine: set up once (``uci``, the options, ``isready``), then asked for a move per turn."""

    def __init__(
        self,
        command: Sequence[str],
        options: Sequence[tuple[str, str]] = (),
        movetime_ms: int | None = None,
        depth: int | None = None,
    ) -> None:
        self.process = EngineProcess(command)
        self.options, self.movetime_ms, self.depth = list(options), movetime_ms, depth
        self.name = command[0]

    @property
    def alive(self) -> bool:
        return self.process.alive

    async def start(self) -> None:
        await self.process.start()
        await self.process.send("uci")
        lines = await self.process.read_until(lambda line: line == "uciok", 30)
        self.name = next((line[len("id name ") :] for line in lines if line.startswith("id name ")), self.name)
        for name, value in self.options:
            await self.process.send(f"setoption name {name} value {value}")
        await self.process.send("isready")
        await self.process.read_until(lambda line: line == "readyok", 30)

    async def choose(self, turn: Turn, limit_s: float) -> str:
        await self.process.send(position_command(turn))
        await self.process.send(go_command(turn, self.movetime_ms, self.depth))
        wait_s = limit_s  # on the clock, the engine shares out its own time
        if self.movetime_ms is not None and self.depth is None:
            wait_s = min(limit_s, self.movetime_ms / 1000 + MOVETIME_GRACE_S)
        try:
            lines = await self.process.read_until(lambda line: line.startswith("bestmove"), wait_s)
        except EngineError:
            if not self.process.alive:
                raise
            await self.process.send("stop")  # past its time: a UCI engine names its best move so far
            lines = await self.process.read_until(lambda line: line.startswith("bestmove"), STOP_GRACE_S)
        return best_move(lines[-1])

    async def stop(self) -> None:
        if self.process.alive:
            await self.process.send("quit")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), 1.0)
        await self.process.stop()


def option(text: str) -> tuple[str, str]:
    """``--option Name=value`` as (name, value)."""
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise ValueError(f"--option takes Name=value, not {text!r}")
    return name.strip(), value.strip()


def main(argv: Sequence[str] | None = None) -> None:
    parser = arguments(__doc__.splitlines()[0], "stockfish")
    parser.add_argument("--movetime-ms", type=int, default=None, help="think this long a move (else: the clock)")
    parser.add_argument("--depth", type=int, default=None, help="search to this depth a move (else: the clock)")
    parser.add_argument("--option", action="append", default=[], help="a UCI option, Name=value (repeatable)")
    args = parser.parse_args(argv)
    try:
        options = [option(text) for text in args.option]
        command = engine_command(args.engine)
    except ValueError as exc:
        parser.error(str(exc))
    for name, value in (("--movetime-ms", args.movetime_ms), ("--depth", args.depth)):
        if value is not None and value < 1:
            parser.error(f"{name} must be at least 1")
    engine = UciEngine(command, options, args.movetime_ms, args.depth)
    asyncio.run(serve(args, engine, GAME))


if __name__ == "__main__":
    main()

"""What every bridge shares: one engine process spoken to in lines, the agent around it, the command line.

A bridge starts its engine once and keeps it for every match (one request at a time: engines
of these protocols play one position at a time).  An engine found dead before a turn is started
again; one that dies, stays silent past its time or answers a move the server would refuse
during a turn makes the bridge resign that match, with the reason logged: a bot that hangs
would lose on time anyway, and one that sends illegal moves is blocked (docs/bots.md, limits).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import shlex
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from plyground_bot.client import BotClient, Challenge, GameResult, Resign, Turn

log = logging.getLogger("plyground_bot.bridges")

# Debian installs its game engines (stockfish, gnubg, gtp-rhino) in /usr/games, which is not
# always on PATH.
ENGINE_DIRS = ("/usr/games", "/usr/local/games")
SAFETY_MS = 500  # kept back from the clock for the answer's trip to the server
UNTIMED_LIMIT_S = 60.0  # the longest a turn may take in a match without a clock
START_LIMIT_S = 30.0  # the longest an engine may take to start and say it is ready


class EngineError(Exception):
    """The engine died, stayed silent past its time, or answered what cannot be played."""


def engine_command(text: str) -> list[str]:
    """The engine's command line: `text` split as a shell would, its program found on PATH or in /usr/games."""
    words = shlex.split(text)
    if not words:
        raise ValueError("--engine names the engine's program")
    program = shutil.which(words[0]) or next(
        (str(Path(d, words[0])) for d in ENGINE_DIRS if Path(d, words[0]).is_file()), None
    )
    if program is None:
        raise ValueError(f"engine {words[0]!r} not found on PATH nor in {', '.join(ENGINE_DIRS)}")
    return [program, *words[1:]]


class EngineProcess:
    """An engine program answering lines on stdin with lines on stdout."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)
        self._process: asyncio.subprocess.Process | None = None

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.returncode is None

    async def start(self) -> None:
        self._process = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
        )

    async def send(self, line: str) -> None:
        process = self._running()
        assert process.stdin is not None
        log.debug("engine <- %s", line)
        try:
            process.stdin.write(line.encode() + b"\n")
            await process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            code = await process.wait()
            raise EngineError(f"{self.command[0]} exited (code {code}) before reading {line!r}") from exc

    async def read_until(self, last: Callable[[str], bool], within_s: float) -> list[str]:
        """The lines the engine writes up to and including the first for which `last` holds."""
        process = self._running()
        assert process.stdout is not None
        deadline = time.monotonic() + within_s
        lines: list[str] = []
        while True:
            left = deadline - time.monotonic()
            try:
                raw = await asyncio.wait_for(process.stdout.readline(), max(left, 0.0))
            except TimeoutError:
                raise EngineError(f"{self.command[0]} gave no answer within {within_s:.1f} s") from None
            if not raw:
                code = await process.wait()
                raise EngineError(f"{self.command[0]} exited (code {code}) without answering")
            line = raw.decode(errors="replace").strip()
            log.debug("engine -> %s", line)
            lines.append(line)
            if last(line):
                return lines

    async def wait(self) -> int:
        """The engine's exit code, once it has exited."""
        return await self._process.wait() if self._process is not None else 0

    async def stop(self) -> None:
        """End the engine: it is asked nothing more, and killed if it does not leave at once."""
        process, self._process = self._process, None
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()

    def _running(self) -> asyncio.subprocess.Process:
        if self._process is None:
            raise EngineError(f"{self.command[0]} is not started")
        if self._process.returncode is not None:
            raise EngineError(f"{self.command[0]} exited (code {self._process.returncode})")
        return self._process


class Engine(Protocol):
    """What a bridge's engine gives the agent: a ready process, and a site move for a turn."""

    name: str  # as the engine names itself, once started

    @property
    def alive(self) -> bool: ...

    async def start(self) -> None: ...

    async def choose(self, turn: Turn, limit_s: float) -> str: ...

    async def stop(self) -> None: ...


def turn_limit_s(turn: Turn) -> float:
    """How long the engine may think about `turn`: the seat's clock, less a margin; a minute untimed."""
    clock = turn.clock
    if not clock:
        return UNTIMED_LIMIT_S
    left_ms = int(clock["remaining_ms"][turn.seat])
    if clock.get("running") == turn.seat:
        left_ms -= int(clock.get("elapsed_ms") or 0)
    return max(left_ms - SAFETY_MS, 50) / 1000


class BridgeAgent:
    """The client's agent for one engine: accepts challenges to its game, asks the engine each turn."""

    def __init__(self, engine: Engine, game: str) -> None:
        self.engine, self.game = engine, game
        self._lock = asyncio.Lock()  # one position at a time for the engine
        self._started = False

    async def on_challenge(self, challenge: Challenge) -> bool | str:
        return True if challenge.game == self.game else "game"

    async def on_offer(self, offer: dict[str, Any], state: dict[str, Any]) -> bool:
        """An offer to this bot: a resignation the engine weighs where it can (`answer_resignation`);
        draws and takebacks are declined."""
        answer = getattr(self.engine, "answer_resignation", None)
        if offer.get("kind") != "resign" or answer is None:
            return False
        async with self._lock:
            try:
                await self._ready()
                return bool(await answer(offer, state, UNTIMED_LIMIT_S))
            except (EngineError, ValueError, KeyError, TypeError) as exc:
                log.error("an offer the engine could not weigh (%s): declined", exc)
                return False

    async def on_turn(self, turn: Turn) -> str:
        if turn.game != self.game:
            raise Resign(f"this bridge plays {self.game}, not {turn.game}")
        asked_at = time.monotonic()
        async with self._lock:
            # The clock ran while the engine thought about other matches.
            limit_s = max(turn_limit_s(turn) - (time.monotonic() - asked_at), 0.05)
            try:
                await self._ready()
                move = await self.engine.choose(turn, limit_s)
            except EngineError as exc:
                log.error("match %s, ply %s: %s: resigning", turn.match, turn.ply, exc)
                await self.engine.stop()  # started afresh before the next turn
                self._started = False
                raise Resign(str(exc)) from exc
            except (ValueError, KeyError, TypeError, IndexError) as exc:  # a frame the bridge cannot read
                log.exception("match %s, ply %s: no position to give the engine: resigning", turn.match, turn.ply)
                raise Resign(f"unreadable position: {exc}") from exc
        if move not in turn.legal_moves:
            log.error("match %s, ply %s: the engine's move %r is not legal here: resigning", turn.match, turn.ply, move)
            raise Resign(f"illegal move {move!r}")
        return move

    async def _ready(self) -> None:
        if self._started and not self.engine.alive:
            log.warning("%s died between turns: starting it again", self.engine.name or "the engine")
            await self.engine.stop()
            self._started = False
        if not self._started:
            await self.engine.start()
            self._started = True
            log.info("engine ready: %s", self.engine.name)


def arguments(description: str, default_engine: str) -> argparse.ArgumentParser:
    """The command line every bridge takes; each adds its engine's own options."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site (default %(default)s)")
    parser.add_argument("--token", required=True, help="the bot account's token (POST /api/agents/{name}/tokens/)")
    parser.add_argument("--engine", default=default_engine, help="the engine's command line (default %(default)s)")
    parser.add_argument("--games", type=int, default=0, help="stop after this many games have ended (0: never)")
    parser.add_argument("--verbose", action="store_true", help="log every line to and from the engine")
    return parser


async def serve(args: argparse.Namespace, engine: Engine, game: str) -> None:
    """Play as the bot account of `args.token` with `engine` until `args.games` games have ended (or forever)."""
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(asctime)s %(message)s")
    agent = BridgeAgent(engine, game)
    ended = 0
    client: BotClient | None = None

    async def game_over(result: GameResult) -> None:
        nonlocal ended
        ended += 1
        log.info("match %s ended (%s): %s", result.match, result.status, result.result)
        if args.games and ended >= args.games and client is not None:
            await client.stop()

    client = BotClient(args.url, args.token, agent, on_game_over=game_over)
    try:
        await client.run()
    finally:
        await engine.stop()

"""The Bot API's client: the event stream, one task per match, reconnecting without losing a move.

The server is the referee: it checks every move, rolls the dice, keeps the clocks.  The
client only relays: a `challenge` frame asks the agent whether to play (`on_challenge`); a
`game_start` frame opens the match socket, and each time the state says the bot's seat is to
move, the agent's `on_turn` gives the move.  A move waits, kept, until the server's `move`
frame for its ply acknowledges it; after a reconnect the client asks for the state and sends
the same move again only if the match is still at that ply with its seat to move (a second
move for a ply is refused with `stale_ply`, never played twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

log = logging.getLogger("plyground_bot")

JSON = dict[str, Any]
# Close codes the server means for good (docs/bots.md): a bad or revoked token, not a bot's
# token, a bot blocked for its conduct, a match that does not exist.
FINAL_CLOSE_CODES = {
    4401: "token unknown, expired or revoked",
    4403: "not a bot account's token",
    4404: "no such match",
}
CLOSE_BLOCKED = 4429
OVER = ("finished", "aborted")
# Refusals of the move itself: the agent is asked again.  Others (stale_ply, not_your_turn) say
# the move came late; the state that follows says whether it still has to be sent.
AGENTS_FAULT = ("illegal_move", "bad_message")
NO_ANSWER_S = 4.0  # a move unacknowledged this long: ask for the state again


@dataclass(frozen=True)
class Move:
    """A move with the agent's search statistics, which the site keeps with it (docs/bots.md):
    any small JSON object, ``{"nodes": ..., "depth": ..., "time_ms": ..., "value": ..., "pv": [...]}``."""

    move: str
    stats: JSON | None = None


class Resign(Exception):
    """Raised by an agent's `on_turn` to resign the match instead of moving (the reason is logged)."""


class ClosedForGood(Exception):
    """The server closed a socket with a code that says: do not come back (as it is)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"closed with {code}: {reason}")
        self.code, self.reason = code, reason


@dataclass(frozen=True)
class Challenge:
    """A challenge waiting for the bot's answer (the event stream's `challenge` frame)."""

    id: int
    game: str
    challenger: JSON
    challenger_seat: int
    clock: JSON | None
    raw: JSON
    options: JSON = field(default_factory=dict)  # the game's options (backgammon's cube...), each with its value

    @classmethod
    def from_json(cls, data: JSON) -> Challenge:
        challenger, seat, clock = data["challenger"], data["challenger_seat"], data.get("clock")
        return cls(data["id"], data["game"], challenger, seat, clock, data, data.get("options") or {})


@dataclass(frozen=True)
class Turn:
    """The bot's seat is to move: the position as the server sends it, and the moves it accepts."""

    match: int
    game: str
    seat: int
    ply: int
    state: JSON
    legal_moves: list[str]
    clock: JSON | None
    seats: list[JSON]
    moves: tuple[str, ...] = ()  # every move played so far, in ply order (dice included)
    options: JSON = field(default_factory=dict)  # the game's options the match plays (backgammon's cube...)


@dataclass(frozen=True)
class GameResult:
    match: int
    game: str
    seat: int
    status: str  # finished or aborted
    result: JSON | None


class Agent(Protocol):
    """What a bot program gives the client: a move for each turn.

    `on_challenge` (optional, default: accept every game) returns True to accept, or a decline
    reason (`"generic"`, `"later"`, `"game"`, `"clock"`).
    """

    async def on_turn(self, turn: Turn) -> str | Move: ...


@dataclass
class _Match:
    """What the client knows of one match, from its frames."""

    id: int
    game: str
    seat: int
    status: str = "active"
    ply: int = 0
    to_move: int | None = None
    state: JSON = field(default_factory=dict)
    legal_moves: list[str] = field(default_factory=list)
    clock: JSON | None = None
    seats: list[JSON] = field(default_factory=list)
    result: JSON | None = None
    pending: tuple[int, Move] | None = None  # (ply, move) sent and not yet acknowledged
    moves: list[str] = field(default_factory=list)  # the moves played, in ply order
    syncing: bool = False  # a `sync` sent for a missed move, its state not here yet: one is enough
    options: JSON = field(default_factory=dict)

    def take_state(self, match: JSON) -> None:
        self.status, self.ply, self.to_move = match["status"], match["ply"], match["to_move"]
        self.state, self.legal_moves = match["state"], match.get("legal_moves") or []
        self.clock, self.seats, self.result = match.get("clock"), match.get("seats") or [], match.get("result")
        self.moves = [move["move"] for move in match.get("moves") or []]
        self.options = match.get("options") or {}

    def take_move(self, frame: JSON) -> None:
        if frame["ply"] == len(self.moves):
            self.moves.append(frame["move"])  # (an earlier ply's frame, seen again, adds nothing)
        self.ply, self.to_move, self.state = frame["ply"] + 1, frame["to_move"], frame["state"]
        self.legal_moves, self.clock = frame.get("legal_moves") or [], frame.get("clock")
        if self.pending is not None and self.pending[0] <= frame["ply"]:
            self.pending = None  # acknowledged (ours), or overtaken

    @property
    def my_turn(self) -> bool:
        return self.status == "active" and self.to_move == self.seat and bool(self.legal_moves)


def _ws_base(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(("wss" if parts.scheme == "https" else "ws", parts.netloc, "", "", ""))


class BotClient:
    """One bot account's connection: its event stream, and a task for each of its matches."""

    def __init__(
        self,
        url: str,
        token: str,
        agent: Agent,
        *,
        reconnect_delay_s: float = 0.5,
        on_game_over: Callable[[GameResult], Awaitable[None]] | None = None,
    ) -> None:
        self.url, self.token, self.agent = url.rstrip("/"), token, agent
        self.reconnect_delay_s = reconnect_delay_s
        self.on_game_over = on_game_over
        self.me: JSON | None = None  # the bot account, from the `hello` frame
        self.limits: JSON = {}
        self.results: dict[int, GameResult] = {}
        self.ready = asyncio.Event()  # set on the first `hello`
        self._games: dict[int, asyncio.Task[GameResult]] = {}
        self.sockets: dict[int, ClientConnection] = {}  # each match's socket while it is open
        self._events: ClientConnection | None = None
        self._stopped = False

    # --- the event stream -----------------------------------------------------------------

    async def run(self) -> None:
        """Hold the event stream open (reconnecting) until `stop()`; ClosedForGood ends it."""
        while not self._stopped:
            try:
                async with ws_connect(f"{_ws_base(self.url)}/ws/agents/?token={self.token}") as socket:
                    self._events = socket
                    async for text in socket:
                        await self._event(json.loads(text))
            except ConnectionClosed as exc:
                _raise_if_final(exc)
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                log.info("event stream: %s; reconnecting", exc)
            finally:
                self._events = None
            if not self._stopped:
                await asyncio.sleep(self.reconnect_delay_s)

    async def stop(self) -> None:
        self._stopped = True
        if self._events is not None:
            await self._events.close()
        for task in self._games.values():
            task.cancel()

    async def _event(self, frame: JSON) -> None:
        kind = frame.get("type")
        if kind == "hello":
            self.me, self.limits = frame["bot"], frame["limits"]
            self.ready.set()
        elif kind == "challenge":
            asyncio.ensure_future(self._answer(Challenge.from_json(frame["challenge"])))
        elif kind == "game_start":
            match_id = frame["match"]
            if match_id not in self._games and match_id not in self.results:
                self._games[match_id] = asyncio.ensure_future(self.play(match_id, frame["game"], frame["seat"]))
        elif kind == "error":
            log.warning("event stream refused a frame: %s %s", frame.get("code"), frame.get("message"))

    async def _answer(self, challenge: Challenge) -> None:
        decide = getattr(self.agent, "on_challenge", None)
        answer: bool | str = True if decide is None else await decide(challenge)
        if answer is True:
            await self._send_event({"type": "accept", "challenge": challenge.id})
        else:
            reason = answer if isinstance(answer, str) else "generic"
            await self._send_event({"type": "decline", "challenge": challenge.id, "reason": reason})

    async def _send_event(self, frame: JSON) -> None:
        if self._events is not None:
            with contextlib.suppress(ConnectionClosed):
                await self._events.send(json.dumps(frame))

    # --- a match --------------------------------------------------------------------------

    async def play(self, match_id: int, game: str, seat: int) -> GameResult:
        """Play match `match_id` from `seat` to its end, reconnecting as often as needed."""
        match = _Match(match_id, game, seat)
        while True:
            try:
                async with ws_connect(f"{_ws_base(self.url)}/ws/matches/{match_id}/?token={self.token}") as socket:
                    self.sockets[match_id] = socket
                    await self._play_on(socket, match)
            except ConnectionClosed as exc:
                _raise_if_final(exc)
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                log.info("match %s: %s; reconnecting", match_id, exc)
            finally:
                self.sockets.pop(match_id, None)
            if match.status in OVER:
                result = GameResult(match_id, game, seat, match.status, match.result)
                self.results[match_id] = result
                self._games.pop(match_id, None)
                if self.on_game_over is not None:
                    await self.on_game_over(result)
                return result
            await asyncio.sleep(self.reconnect_delay_s)

    async def _play_on(self, socket: ClientConnection, match: _Match) -> None:
        """Read the match's frames, moving whenever it is the bot's turn, until it is over.

        A move is sent once per socket, and again only after a `state` frame (on connect, or
        the answer to a `sync`) says the match still waits for it.
        """
        sent_at: int | None = None
        while match.status not in OVER:
            try:
                text = await asyncio.wait_for(socket.recv(), NO_ANSWER_S if match.pending else None)
            except TimeoutError:
                await socket.send(json.dumps({"type": "sync"}))  # the move's answer is late: where are we?
                continue
            frame = json.loads(text)
            kind = frame.get("type")
            if kind == "state":
                match.take_state(frame["match"])
                match.syncing, sent_at = False, None
            elif kind == "move":
                if frame["ply"] > len(match.moves):  # a move missed: the state brings the whole match again
                    if not match.syncing:  # once: the frames until it comes are older than it
                        match.syncing = True
                        await socket.send(json.dumps({"type": "sync"}))
                    continue
                match.take_move(frame)
            elif kind == "takeback":
                match.ply, match.to_move, match.state = frame["ply"], frame["to_move"], frame["state"]
                match.legal_moves, match.pending = frame.get("legal_moves") or [], None
                del match.moves[frame["ply"] :]
            elif kind == "game_over":
                match.status, match.result = frame["status"], frame["result"]
            elif kind == "offer":
                await self._answer_offer(socket, match, frame["offer"])
            elif kind == "error":
                log.warning("match %s refused a frame: %s %s", match.id, frame.get("code"), frame.get("message"))
                if frame.get("code") in AGENTS_FAULT:
                    match.pending = None  # the agent is asked again; a move merely late stays kept
                if frame.get("code") == "rate_limited":
                    # Asked again at once, the sync would be refused too, a strike each: wait out the window.
                    await asyncio.sleep(float((self.limits or {}).get("frames", {}).get("seconds", 5)))
                match.syncing = True
                await socket.send(json.dumps({"type": "sync"}))  # where the match is decides what is sent
                continue
            if match.my_turn and match.status not in OVER and sent_at != match.ply:
                sent_at = match.ply
                await self._move(socket, match)

    async def _move(self, socket: ClientConnection, match: _Match) -> None:
        if match.pending is not None and match.pending[0] != match.ply:
            match.pending = None  # an old move's: the match went on
        if match.pending is None:
            turn = Turn(
                match.id,
                match.game,
                match.seat,
                match.ply,
                match.state,
                match.legal_moves,
                match.clock,
                match.seats,
                tuple(match.moves),
                match.options,
            )
            try:
                answer = await self.agent.on_turn(turn)
                match.pending = (match.ply, answer if isinstance(answer, Move) else Move(answer))
            except Resign as why:
                log.warning("match %s: the agent resigns at ply %s: %s", match.id, match.ply, why)
                await socket.send(json.dumps({"type": "resign"}))
                return
        ply, move = match.pending
        frame = {"type": "move", "move": move.move, "ply": ply}
        if move.stats is not None:
            frame["stats"] = move.stats
        await socket.send(json.dumps(frame))

    async def _answer_offer(self, socket: ClientConnection, match: _Match, offer: JSON | None) -> None:
        """A draw offer, takeback request or resignation offer waiting for this seat: the agent's
        ``on_offer(offer, state)`` (the position the offer was made in), else declined."""
        if not offer or match.seat not in offer.get("awaiting", []):
            return
        decide = getattr(self.agent, "on_offer", None)
        accept = bool(await decide(offer, match.state)) if decide is not None else False
        await socket.send(json.dumps({"type": "accept" if accept else "decline"}))

    # --- HTTP -----------------------------------------------------------------------------

    async def challenge(
        self, bot: str, game: str, *, seat: int = 0, clock: JSON | None = None, house_bots: list[str] | None = None
    ) -> JSON:
        """Challenge bot account `bot` (``POST /api/agents/{bot}/challenges/``); the challenge's JSON."""
        body = {"game": game, "seat": seat, "clock": clock, "house_bots": house_bots or []}
        return await asyncio.to_thread(self._http, "POST", f"/api/agents/{bot}/challenges/", body)

    def _http(self, method: str, path: str, body: JSON | None = None) -> JSON:
        request = urllib.request.Request(
            self.url + path, data=None if body is None else json.dumps(body).encode(), method=method
        )
        request.add_header("Content-Type", "application/json")
        request.add_header("Authorization", f"Bearer {self.token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            answer: JSON = json.loads(response.read() or b"null")
            return answer


def _raise_if_final(exc: ConnectionClosed) -> None:
    code = exc.rcvd.code if exc.rcvd is not None else None
    reason = exc.rcvd.reason if exc.rcvd is not None else ""
    if code in FINAL_CLOSE_CODES or code == CLOSE_BLOCKED:
        raise ClosedForGood(code, reason or FINAL_CLOSE_CODES.get(code, "blocked for a while")) from exc


@contextlib.asynccontextmanager
async def connect(url: str, token: str, agent: Agent, **options: Any) -> Any:
    """``async with connect(url, token, agent) as client:`` the event stream runs while inside."""
    client = BotClient(url, token, agent, **options)
    task = asyncio.ensure_future(client.run())
    try:
        ready = asyncio.ensure_future(client.ready.wait())
        done, _ = await asyncio.wait({ready, task}, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            ready.cancel()
            task.result()  # raises what ended it
        yield client
    finally:
        await client.stop()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, ClosedForGood):
            await task

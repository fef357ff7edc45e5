"""Every frame the server sends on a socket, one builder per frame (docs/wire.md).

Senders build frames here and nowhere else, so what goes on the wire is what
`docs/wire.md` documents: `tests/server/matches/test_frames.py` holds each builder to
the keys of the document's examples.  Keys keep the order they always had: the wire is
byte for byte what it was.

Frames that change a match are stored in its event log, which gives them `v`
(`MatchEvent.as_frame`), so their builders (those in `VERSIONED`) leave `v` out.
"""

from __future__ import annotations

from typing import Any

Frame = dict[str, Any]
JSON = dict[str, Any]

# What a client sends (docs/wire.md, "client → server"): the match socket's frames and the lobby
# socket's, each handled by its consumer (`HANDLERS`); the fuzzing tests send every one of them.
CLIENT_FRAMES: tuple[str, ...] = (
    "move",
    "resign",
    "resign_offer",
    "sync",
    "takeback_request",
    "draw_offer",
    "claim_draw",
    "accept",
    "decline",
    "rematch_offer",
    "rematch_accept",
    "rematch_decline",
    "chat",
)
LOBBY_CLIENT_FRAMES: tuple[str, ...] = ("sync", "seek", "seek_cancel", "seek_accept")


# --- the match socket: the whole match --------------------------------------------------


def state(match: JSON, seat: int | None, chat: JSON) -> Frame:
    """The whole match for one socket (on connect, and on `sync`); `seat` is the socket's own.

    `chat` is what this socket may read of the chat (its room, server/chat), so a reload keeps it.
    """
    return {"type": "state", "v": match["v"], "match": match, "you": {"seat": seat}, "chat": chat}


def state_changed(match: JSON) -> Frame:
    """The whole match for every socket when its status changed (adjourned, resumed); versioned.

    `match` carries the version the frame is stored at, as every state frame does.
    """
    return {"type": "state", "match": match}


def seat_taken(seat_json: JSON) -> Frame:
    """A person took an open seat."""
    return {"type": "seat", "seat": seat_json}


# --- moves ------------------------------------------------------------------------------


def move(
    *,
    ply: int,
    seat: int,
    move: str,
    notation: str,
    by: JSON,
    state: JSON,
    to_move: int | None,
    legal_moves: list[str],
    think_ms: int,
    fallback: str | None,
    queue_wait_ms: int | None = None,
    bot: bool = False,
    stats: JSON | None = None,
    clock: JSON | None = None,
    move_parts: list[JSON] | None = None,
) -> Frame:
    """A move was played (by a seat, or by chance: seat -1); `notation` is how players write it.

    `queue_wait_ms` is sent for bot moves only (`bot`), `stats` when the search gave
    figures, `clock` in clocked matches, `move_parts` where the next move is entered part by part.
    """
    frame = {
        "type": "move",
        "ply": ply,
        "seat": seat,
        "move": move,
        "notation": notation,
        "by": by,
        "state": state,
        "to_move": to_move,
        "legal_moves": legal_moves,
        "think_ms": think_ms,
        "fallback": fallback,  # why no search chose this move; null for a searched or a person's move
    }
    if bot:
        frame["queue_wait_ms"] = queue_wait_ms
    if stats:
        frame["stats"] = stats
    if clock is not None:
        frame["clock"] = clock
    if move_parts is not None:
        frame["move_parts"] = move_parts
    return frame


def takeback(
    *,
    seat: int,
    ply: int,
    state: JSON,
    to_move: int | None,
    legal_moves: list[str],
    clock: JSON | None = None,
    move_parts: list[JSON] | None = None,
) -> Frame:
    """`seat`'s last move and every later one are gone; the match is at `ply` with `state`."""
    frame = {
        "type": "takeback",
        "seat": seat,
        "ply": ply,
        "state": state,
        "to_move": to_move,
        "legal_moves": legal_moves,
    }
    if clock is not None:
        frame["clock"] = clock
    if move_parts is not None:
        frame["move_parts"] = move_parts
    return frame


# --- offers -----------------------------------------------------------------------------


def offer(offer: JSON) -> Frame:
    """A takeback request, a draw offer or a resignation offer now waits for the others' answers."""
    return {"type": "offer", "offer": offer}


def offer_answered(
    *, kind: str, seat: int, by: int, accepted: bool, offer: JSON | None, cancelled: str | None = None
) -> Frame:
    """`by` answered `seat`'s offer; `offer` is what still waits (several to accept) or None.

    `cancelled` says why no one answered it: a move cancels a pending offer.
    """
    frame = {"type": "offer_answered", "kind": kind, "seat": seat, "by": by, "accepted": accepted, "offer": offer}
    if cancelled is not None:
        frame["cancelled"] = cancelled
    return frame


# --- the end ----------------------------------------------------------------------------


def game_over(result: JSON, status: str) -> Frame:
    """The match ended (`finished`) or was called off (`aborted`)."""
    return {"type": "game_over", "result": result, "status": status}


# --- around the match: presence, heartbeat, bots, analysis, hints -------------------------


def presence(seat: int, online: bool, abandon_after_ms: int) -> Frame:
    """A seated person's last socket closed, or one opened again (not versioned)."""
    return {"type": "presence", "seat": seat, "online": online, "abandon_after_ms": abandon_after_ms}


def heartbeat(v: int, interval_ms: int) -> Frame:
    """The match's current version, straight from the web process to its own sockets."""
    return {"type": "heartbeat", "v": v, "interval_ms": interval_ms}


def bot_queued(seat: int, ply: int) -> Frame:
    """The bot's turn waits for a free worker: its budget has not started."""
    return {"type": "bot_queued", "seat": seat, "ply": ply}


def bot_thinking(seat: int, ply: int, budget_ms: int | None, stats: JSON | None = None) -> Frame:
    """A worker searches the bot's turn; later frames add the search's figures (`stats`), never its move."""
    frame = {"type": "bot_thinking", "seat": seat, "ply": ply, "budget_ms": budget_ms}
    if stats is not None:
        frame["stats"] = stats
    return frame


def analysis(status: str, progress: int, total: int) -> Frame:
    """How far the analysis of a finished match is (not versioned)."""
    return {"type": "analysis", "status": status, "progress": progress, "total": total}


def hint(
    *, seat: int, ply: int, move: str, value: float, depth: int, nodes: int, profile: str | None, is_ai: bool = True
) -> Frame:
    """The best move found for `seat` at `ply`, by a search (an AI, and it says so).

    `profile` is the bot profile whose search found it; the move then played copies the hint
    into its stats (exports).
    """
    return {
        "type": "hint",
        "seat": seat,
        "ply": ply,
        "move": move,
        "value": value,
        "depth": depth,
        "nodes": nodes,
        "profile": profile,
        "is_ai": is_ai,
    }


# --- chat in the match room (server/chat; not versioned: each room has its own group) ------------


def chat_message(message: JSON) -> Frame:
    """A person said something in the room this socket reads."""
    return {"type": "chat", "message": message}


def chat_deleted(message_id: int, room: str) -> Frame:
    """Staff hid a message of the room: pages drop it."""
    return {"type": "chat_deleted", "id": message_id, "room": room}


def chat_history(chat: JSON) -> Frame:
    """The room's recent messages again, after a reconnect that replayed events instead of a state."""
    return {"type": "chat_history", "chat": chat}


def chat_muted(until: str | None, message: str) -> Frame:
    """Staff muted this socket's person (to their sockets only): `until` an ISO time, None for good."""
    return {"type": "chat_muted", "until": until, "message": message}


def chat_unmuted() -> Frame:
    """Staff lifted the mute of this socket's person (to their sockets only): they may post again."""
    return {"type": "chat_unmuted"}


# --- both sockets -----------------------------------------------------------------------


def error(code: str, message: str) -> Frame:
    """A frame was refused; `code` is stable (`server/matches/errors.py`), the socket stays open."""
    return {"type": "error", "code": code, "message": message}


# --- the lobby socket -------------------------------------------------------------------


def lobby(open: list[JSON], active: list[JSON], online: int) -> Frame:
    """The lobby's whole list: open and running matches, and how many people are online."""
    return {"type": "lobby", "open": open, "active": active, "online": online}


def lobby_match(summary: JSON) -> Frame:
    """One match of the lobby changed (created, joined, started, ended)."""
    return {"type": "match", "match": summary}


def online(count: int) -> Frame:
    """How many people have a socket open."""
    return {"type": "online", "count": count}


# --- quick pairing (the lobby socket) -------------------------------------------------------


def seeks(seeks: list[JSON]) -> Frame:
    """Every open seek, on connect and in answer to `sync`."""
    return {"type": "seeks", "seeks": seeks}


def seek(seek: JSON) -> Frame:
    """A person placed a seek (it replaces their earlier one, if any)."""
    return {"type": "seek", "seek": seek}


def seek_gone(seek_id: int) -> Frame:
    """A seek was paired, accepted, cancelled, or its person left the lobby."""
    return {"type": "seek_gone", "id": seek_id}


def paired(match_id: int, seat: int) -> Frame:
    """To the two people only: their seeks made match `match_id`, where `seat` is theirs."""
    return {"type": "paired", "match": match_id, "seat": seat}


# --- rematch (the match socket of a finished match) ------------------------------------------


def rematch_offer(seat: int, awaiting: list[int]) -> Frame:
    """`seat` offers the others a rematch, seats swapped."""
    return {"type": "rematch_offer", "seat": seat, "awaiting": awaiting}


def rematch_answered(seat: int, by: int, accepted: bool, reason: str | None = None) -> Frame:
    """`by` declined `seat`'s rematch (or withdrew its own); `reason` when nobody chose it (someone left)."""
    frame = {"type": "rematch_answered", "seat": seat, "by": by, "accepted": accepted}
    if reason is not None:
        frame["reason"] = reason
    return frame


def rematch(match_id: int) -> Frame:
    """The rematch was accepted: match `match_id` is the next one, for every page to move to."""
    return {"type": "rematch", "match": match_id}


# The builders of frames stored in the match's event log: `v` is added when they are sent.
VERSIONED = frozenset(
    {state_changed, seat_taken, move, takeback, offer, offer_answered, game_over, hint}
    | {rematch_offer, rematch_answered, rematch}
)

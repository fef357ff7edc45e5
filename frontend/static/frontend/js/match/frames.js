// The server's frames applied to the store (docs/design.md §5): a full state, a move, a
// takeback, the game's end, a seat taken, the bot's progress, a hint, an error.  Each
// changes the store, tells the parts concerned, and asks for one render.

import { announceMove, announceResult, announceSeatsTaken } from "./announcements.js";

export function createFrames({ store, socket, boardHost, history, sender, thinking, hint, moveList, errors, render }) {
  function onFrame(frame) {
    switch (frame.type) {
      case "state":
        setMatch(frame.match, frame.you);
        break;
      case "move":
        applyMove(frame);
        break;
      case "bot_queued":
        thinking.queued(frame);
        break;
      case "bot_thinking":
        thinking.started(frame);
        break;
      case "game_over":
        applyGameOver(frame);
        break;
      case "takeback":
        applyTakeback(frame);
        break;
      case "seat":
        applySeat(frame);
        break;
      case "hint":
        hint.apply(frame);
        break;
      case "error":
        // The chat's refusals are the chat panel's to show (match/chat.js), not the board's.
        if (!String(frame.code).startsWith("chat_")) sender.onError(frame);
        break;
      default:
        break; // frames this page does not know yet are ignored
    }
  }

  /** The whole match: from a `state` frame (which also says our seat) or the API. */
  function setMatch(next, nextYou) {
    const firstTime = store.match === null;
    store.match = { moves: [], legal_moves: [], seats: [], ...next };
    if (nextYou) store.you = { seat: nextYou.seat ?? null };
    else if (store.you.seat === null) store.you = { seat: store.ownSeat() };
    sender.settle();
    thinking.onState();
    history.forget();
    boardHost.load(store.match.game)
      .then(() => {
        render();
        if (firstTime && store.match.moves.length) moveList.scrollToEnd();
      })
      .catch(() => {
        // The board's module did not load (the connection dropped): the next state frame tries again.
        errors.show("Could not load the board. Retrying when the connection is back.");
      });
  }

  function applyMove(frame) {
    const { match } = store;
    if (!match) return;
    sender.onMove(frame);
    if (match.moves.some((m) => m.ply === frame.ply)) return;
    match.moves.push({
      ply: frame.ply,
      seat: frame.seat,
      move: frame.move,
      notation: frame.notation ?? null, // how players write it (SAN in chess), for the move list
      by: frame.by,
      think_ms: frame.think_ms ?? (frame.stats && frame.stats.elapsed_ms),
      stats: frame.stats,
      fallback: frame.fallback ?? null,
      queue_wait_ms: frame.queue_wait_ms ?? null,
    });
    match.ply = frame.ply + 1;
    if ("state" in frame) match.state = frame.state;
    if ("to_move" in frame) match.to_move = frame.to_move;
    if ("legal_moves" in frame) {
      match.legal_moves = frame.legal_moves || [];
      match.move_parts = frame.move_parts || null; // sent only where a move is entered part by part
    }
    if (match.status === "waiting") match.status = "active";
    thinking.onMove(frame);
    announceMove(store, frame, boardHost.describeMove);
    render();
    moveList.scrollToEnd();
  }

  /** Moves taken back: the list ends before `frame.ply`, and the position is the one sent. */
  function applyTakeback(frame) {
    const { match } = store;
    if (!match) return;
    match.moves = match.moves.filter((m) => m.ply < frame.ply);
    match.ply = frame.ply;
    match.state = frame.state;
    match.to_move = frame.to_move;
    match.legal_moves = frame.legal_moves || [];
    match.move_parts = frame.move_parts || null;
    match.offer = null;
    sender.onTakeback();
    thinking.onTakeback();
    history.forget();
    render();
    moveList.scrollToEnd();
  }

  function applyGameOver(frame) {
    const { match } = store;
    if (!match) return;
    match.result = frame.result || null;
    match.status = frame.status || (frame.result && frame.result.reason === "aborted" ? "aborted" : "finished");
    match.to_move = null;
    match.legal_moves = [];
    match.move_parts = null;
    store.thinking = null;
    sender.onGameOver();
    announceResult(store);
    render();
  }

  function applySeat(frame) {
    if (!store.match) return;
    const before = store.match.seats.map((seat) => seat.player);
    if (frame.match) {
      store.match = { ...store.match, ...frame.match };
    } else if (frame.seat && typeof frame.seat.index === "number") {
      // Only the seat that changed: ask for the whole match (status, whose turn).
      store.match.seats = store.match.seats.map((seat) => (seat.index === frame.seat.index ? frame.seat : seat));
      socket.sync();
    }
    if (frame.you) store.you = { seat: frame.you.seat ?? null };
    announceSeatsTaken(store, before);
    thinking.onSeat();
    render();
  }

  return { onFrame, setMatch };
}

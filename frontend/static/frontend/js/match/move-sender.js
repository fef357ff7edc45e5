// Our move, from the click to the server's answer (docs/design.md §5, §6 "nothing is lost").
//
// A move stays `pending` until the server acknowledges it: the `move` frame for its ply, or
// an error.  When the connection drops first (or the move was made while offline), the page
// asks for the match's state once it is back: if the move is stored, fine; if the match is
// still at that ply with us to move, it is sent again, once (the server's ply check makes
// that safe); otherwise the player is told it did not reach the server.  On an open socket,
// a move unanswered after a few seconds makes the page ask `sync`, and tell the player if
// the move is not there.

const ACK_TIMEOUT_MS = 4000; // a move unanswered this long on an open socket: ask where the match is
const SYNC_ANSWER_MS = 4000; // and a sync unanswered this long: the socket is dead, connect again
// A move refused as one frame too many is kept and sent again after a pause that grows; the
// server counts moves apart from other frames (docs/wire.md "Limits"), so this is rare.
const RATE_RETRY_MS = 1000;
const RATE_RETRIES = 5;
const MOVE_ERRORS = ["illegal_move", "not_your_turn", "stale_ply", "not_seated", "game_over", "bad_message", "rate_limited"];
const ERROR_TEXT = {
  not_your_turn: "It is not your turn.",
  stale_ply: "The position changed before your move arrived; showing the latest position.",
  not_seated: "You are watching this match. Take an open seat to play.",
  game_over: "The game is over.",
  rate_limited: "Too many messages at once. Please wait a moment.",
  bad_message: "The server did not understand that message.",
};

export function createMoveSender({ store, el, socket, boardHost, history, premove, errors, render }) {
  /** The seated player to move picked `move` (on the board or typed). */
  function play(move) {
    const { match, you } = store;
    if (!match) return;
    if (history.leave()) return; // the first click on an earlier position goes back to the live one
    if (you.seat === null) {
      errors.show(ERROR_TEXT.not_seated);
      return;
    }
    if ((match.status !== "active" || match.to_move !== you.seat || store.pending) && premove.allowed(move)) {
      errors.clear();
      premove.queue(move); // played when our turn comes (match/premove.js)
      return;
    }
    if (match.status !== "active" || match.to_move !== you.seat) {
      errors.show(match.status === "active" ? ERROR_TEXT.not_your_turn : "The game is not running.");
      return;
    }
    if (store.pending) {
      errors.show(`Your move ${moveWords(store.pending.move)} is still on its way to the server.`);
      return;
    }
    if (!match.legal_moves.includes(move)) {
      errors.show(`${move} is not a legal move here.`);
      return;
    }
    errors.clear();
    store.pending = { move, ply: match.ply, sends: 0, unsure: false, timer: null };
    if (!send()) {
      // Kept, not dropped: it goes out once the connection is back and the match is still at this ply.
      store.pending.notice = true;
      errors.show(`Not connected: your move ${moveWords(move)} will be sent when the connection is back.`, { sticky: true });
    }
    render();
  }

  /** Send the pending move; false when the connection is down (it stays pending, unsure). */
  function send() {
    const sent = store.pending;
    window.clearTimeout(sent.timer);
    if (!socket.send({ type: "move", move: sent.move, ply: sent.ply })) {
      sent.unsure = true;
      return false;
    }
    sent.sends += 1;
    sent.unsure = false;
    sent.timer = window.setTimeout(() => {
      if (store.pending !== sent) return;
      // No answer on an open socket: where is the match?  The state frame decides (settle).
      sent.unsure = true;
      sent.timedOut = true;
      socket.sync({ force: true });
      sent.timer = window.setTimeout(() => {
        if (store.pending === sent && sent.unsure) socket.drop(); // the sync went unanswered too: a dead socket
      }, SYNC_ANSWER_MS);
    }, ACK_TIMEOUT_MS);
    return true;
  }

  /**
   * A state frame arrived (a reconnect, a sync): was our pending move stored,
   * can it still be sent, or is it lost?
   */
  function settle() {
    const { match, you, pending } = store;
    if (!pending) return;
    const stored = match.moves.find((m) => m.ply === pending.ply);
    if (stored) {
      if (stored.seat === you.seat && stored.move === pending.move) clear();
      else lost();
      return;
    }
    if (!pending.unsure) return; // still on its way over an open socket; this state was asked for by someone else
    const stillOurs = match.status === "active" && match.ply === pending.ply && match.to_move === you.seat &&
      (match.legal_moves || []).includes(pending.move);
    if (stillOurs && !pending.timedOut && pending.sends < 2 && socket.connected) {
      send(); // once more: the server refuses it with stale_ply if the first one did arrive
      return;
    }
    lost();
  }

  /** A move frame: ours acknowledged, or another move took its place. */
  function onMove(frame) {
    const { pending } = store;
    if (!pending || frame.ply < pending.ply) return;
    if (frame.ply === pending.ply && frame.seat === store.you.seat && frame.move === pending.move) {
      if (pending.notice) errors.clear(); // "will be sent when the connection is back": it was
      clear(); // acknowledged
    } else lost();
  }

  function onTakeback() {
    if (store.pending) lost();
  }

  function onGameOver() {
    if (!store.pending) return;
    const words = moveWords(store.pending.move);
    clear();
    errors.show(`Your move ${words} was not played: the game ended before it reached the server.`, { sticky: true });
  }

  function onError(frame) {
    const { pending } = store;
    if (frame.code === "rate_limited" && pending) {
      sendAgainLater(pending);
      return;
    }
    if (frame.code === "stale_ply" && pending && pending.sends > 1) {
      // Our second copy was refused: the first one may have been stored after all.  The state decides.
      window.clearTimeout(pending.timer);
      pending.unsure = true;
      pending.timedOut = true; // no third copy
      socket.sync({ force: true });
      return;
    }
    if (MOVE_ERRORS.includes(frame.code)) clear(); // the answer to our move: it was not played
    errors.show(frame.code === "illegal_move" && frame.message ? frame.message : ERROR_TEXT[frame.code] || frame.message || "Something went wrong.");
    if (["stale_ply", "not_your_turn", "game_over", "illegal_move"].includes(frame.code)) socket.sync();
    render();
  }

  /** The server refused a frame as one too many: our move is not dropped, it goes again shortly. */
  function sendAgainLater(sent) {
    window.clearTimeout(sent.timer);
    sent.rateRetries = (sent.rateRetries || 0) + 1;
    if (sent.rateRetries > RATE_RETRIES) {
      lost();
      return;
    }
    sent.notice = true; // cleared with the acknowledgement
    errors.show(`Too many messages at once: your move ${moveWords(sent.move)} is sent again in a moment.`, { sticky: true });
    sent.timer = window.setTimeout(() => {
      if (store.pending === sent && socket.connected) send(); // the server's ply check makes a second copy safe
    }, RATE_RETRY_MS * sent.rateRetries);
  }

  /** Back after a drop with a move not acknowledged: the state (after any replay) decides its fate. */
  function onSocketOpen() {
    if (!store.pending) return;
    store.pending.unsure = true;
    socket.sync({ force: true });
  }

  function onSocketDown() {
    const { pending } = store;
    if (!pending) return;
    window.clearTimeout(pending.timer);
    pending.unsure = true;
    pending.timedOut = false; // a reconnect may send it again
  }

  /** Tell the player their move is not on the board, and let them play again. */
  function lost() {
    if (!store.pending) return;
    const words = moveWords(store.pending.move);
    clear();
    errors.show(`Your move ${words} did not reach the server: play again.`, { sticky: true });
  }

  function clear() {
    if (store.pending) window.clearTimeout(store.pending.timer);
    store.pending = null;
  }

  function moveWords(move) {
    return boardHost.describeMove(move);
  }

  el.moveForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = el.moveInput.value;
    const move = boardHost.parseMove(text);
    if (!move) {
      errors.show(`“${text}” is not a move. ${boardHost.help}`);
      return;
    }
    el.moveInput.value = "";
    play(move);
  });

  return { play, settle, onMove, onTakeback, onGameOver, onError, onSocketOpen, onSocketDown };
}

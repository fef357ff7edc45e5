// Premoves: in a game of two players without chance, a move picked while the opponent is
// to move is queued, shown on the board and in a note with a Cancel button (Escape cancels
// too), and sent as soon as it is our turn, if it is legal then; if not, it is dropped and
// the note says so.  Nothing of this reaches the server before it is our turn: the server
// still sees one move at a time, in turn (docs/design.md §5).

import { h } from "../dom.js";

const DROPPED_NOTE_MS = 6000;

export function createPremove({ store, catalogue, boardHost, render }) {
  const note = document.getElementById("premove");
  let queued = null; // {move, words}
  let dropped = null; // {words, timer}: the last premove that could not be played
  let send = null; // the move sender's play(move)

  /** Whether a move picked now would wait for our turn: the opponent (or our sent move) is on. */
  function open() {
    const { match, you } = store;
    const game = match && catalogue.info(match.game);
    if (!game || game.num_players !== 2 || game.has_chance) return false;
    return match.status === "active" && you.seat !== null && !(store.yourTurn() && !store.pending);
  }

  /** Whether `move`, picked now, can wait for our turn instead of being refused. */
  function allowed(move) {
    return open() && boardHost.parseMove(move) === move; // a whole move (not a piece picked on its own)
  }

  /** Queue `move` (the same move again cancels it). */
  function queue(move) {
    if (queued && queued.move === move) {
      cancel();
      return;
    }
    clearDropped();
    queued = { move, words: boardHost.describeMove(move) };
    render();
  }

  function cancel() {
    if (!queued) return;
    queued = null;
    render();
  }

  /** After each frame: our turn has come (or the game ended, or moves were taken back). */
  function onFrame(frame) {
    if (!queued || !store.match) return;
    if (frame.type === "takeback" || store.isOver()) {
      drop(frame.type === "takeback" ? "moves were taken back" : "the game is over");
      return;
    }
    if (!store.yourTurn() || store.pending) return;
    const { move } = queued;
    if (!(store.match.legal_moves || []).includes(move)) {
      drop("it is not legal in this position");
      return;
    }
    queued = null;
    store.viewPly = null; // a premove is played on the live board, whatever was being looked at
    send(move);
  }

  function drop(why) {
    const words = queued.words;
    queued = null;
    clearDropped();
    dropped = { words: `Premove ${words} dropped: ${why}.`, timer: window.setTimeout(() => { dropped = null; render(); }, DROPPED_NOTE_MS) };
    render();
  }

  function clearDropped() {
    if (dropped) window.clearTimeout(dropped.timer);
    dropped = null;
  }

  function renderNote() {
    if (queued) {
      note.className = "premove-note";
      note.replaceChildren(
        h("span", {}, `Premove: ${queued.words}, played when it is your turn if it is legal then.`),
        h("button", { type: "button", class: "secondary", "data-testid": "premove-cancel", onclick: cancel }, "Cancel premove"));
    } else if (dropped) {
      note.className = "premove-note dropped";
      note.replaceChildren(h("span", { "data-testid": "premove-dropped" }, dropped.words));
    }
    note.hidden = !queued && !dropped;
  }

  function renderPremove() {
    renderNote();
    boardHost.markPremove(queued ? queued.move : null, open());
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && queued && !event.defaultPrevented) cancel();
  });

  return {
    allowed,
    queue,
    cancel,
    onFrame,
    render: renderPremove,
    /** The move sender plays a premove when its turn comes. */
    connect(play) { send = play; },
    get queued() { return queued ? queued.move : null; },
  };
}

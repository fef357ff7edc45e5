// Browsing earlier positions without leaving the live game: the move list's buttons, the
// first/previous/next/live buttons, the left and right arrow keys.  Boards that can replay
// moves draw earlier positions themselves; for the others the server sends them.

import { api } from "../api.js";

export function createHistory({ store, el, boardHost, render }) {
  let positionsLoading = null;

  /** Show the position after `target` moves; null (or the last ply) is the live position. */
  function browse(target) {
    const { match } = store;
    if (!match) return;
    const n = match.moves.length;
    if (target === null || target >= n || !boardHost.loaded) store.viewPly = null;
    else store.viewPly = Math.max(0, target);
    if (store.viewPly !== null && !boardHost.replay && !positionsFor(match)) {
      loadPositions(match.id).then(render); // games whose rules the page does not know
      return;
    }
    render();
  }

  /** The viewed ply, or the number of moves when the live position is shown. */
  function at() {
    return store.viewPly === null ? store.match.moves.length : store.viewPly;
  }

  function positionsFor(m) {
    const p = store.positions;
    return p && p.matchId === m.id && p.ply === m.moves.length ? p.list : null;
  }

  function loadPositions(matchId) {
    positionsLoading ||= api(`/api/matches/${matchId}/positions/`)
      .then((data) => { store.positions = { matchId, ply: data.ply, list: data.positions }; })
      .catch(() => { store.viewPly = null; }) // browsing is a nicety: stay on the live board
      .finally(() => { positionsLoading = null; });
    return positionsLoading;
  }

  function stateAt(ply) {
    const { match } = store;
    if (boardHost.replay) return boardHost.replay(match.moves.slice(0, ply));
    const list = positionsFor(match);
    if (list) return list[ply];
    loadPositions(match.id).then(render); // moves came in since: fetch them, show the live board meanwhile
    return match.state;
  }

  /** What the board shows: {live, state, last} (the move that led to it). */
  function shown() {
    const { match, viewPly } = store;
    const live = viewPly === null;
    const moves = match.moves;
    return {
      live,
      state: live ? match.state : stateAt(viewPly),
      last: (live ? moves[moves.length - 1] : moves[viewPly - 1]) || null,
    };
  }

  /** Back to the live position when one would play a move while looking at an earlier one. */
  function leave() {
    if (store.viewPly === null) return false;
    store.viewPly = null;
    render();
    return true;
  }

  /** A position that no longer exists (moves taken back, a fresh state) is left for the live one. */
  function forget() {
    if (store.viewPly !== null && store.viewPly > store.match.moves.length) store.viewPly = null;
  }

  document.querySelector(".move-nav").addEventListener("click", (event) => {
    const button = event.target.closest("[data-nav]");
    if (!button || !store.match) return;
    const n = store.match.moves.length;
    browse({ first: 0, prev: at() - 1, next: at() + 1, last: n }[button.dataset.nav]);
  });

  document.getElementById("back-to-live").addEventListener("click", () => browse(null));

  // Left and right arrows browse the moves, unless the board or a form field has the keys.
  document.addEventListener("keydown", (event) => {
    if (!store.match || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, textarea, select, #board")) return;
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    browse(event.key === "ArrowLeft" ? at() - 1 : at() + 1);
    event.preventDefault();
  });

  el.moveList.addEventListener("click", (event) => {
    const button = event.target.closest("[data-goto]");
    if (button) browse(Number(button.dataset.goto));
  });

  return { browse, shown, leave, forget };
}

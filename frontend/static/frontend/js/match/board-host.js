// The board: loads the game's board module (named by the catalogue) and draws the position
// that is shown, live or an earlier one.  The board module knows the game's pictures and
// notation; the host knows when the board takes a move.
//
// Optional exports of a board module the host passes on: `canFlip = true` when the board
// draws itself turned round for `render({..., flipped: true})` (the flip button shows only
// then); `moveSound(move, state, seat)` for match/sounds.js.  `render` also says
// `markerStrip: false` when no move will be played from this page (a spectator, a finished
// match): a board that keeps a strip for its move markers (Connect Four) leaves it out.
// `createBoard` gets `seatName(seat)`: the seat as the game calls it ("white", "blue (dot)").

import { markName } from "../players.js";

export function createBoardHost({ el, catalogue, onMove }) {
  let module = null; // the board module (boards/*.js) of `game`
  let view = null; // what its createBoard returned
  let game = null;
  let loading = null; // {game, promise} while a module is on its way
  let failures = 0;
  let flipped = false; // the player turned the board round (boards with `canFlip`)
  let marked = null; // the premove to mark on the board, or null
  let premoveOpen = false; // a move picked now is queued as a premove: the targets take it
  const flipButton = document.getElementById("flip-button");
  let viewerSeat = null; // the seat the board was last drawn for: moves are described in its numbering

  function load(id) {
    if (game === id && module) return Promise.resolve();
    if (loading && loading.game === id) return loading.promise;
    const promise = catalogue.load().then(() => {
      // A failed import may be remembered by the browser: a retry asks for a fresh URL.
      const url = `../boards/${catalogue.boardFile(id)}${failures ? `?retry=${failures}` : ""}`;
      return import(url);
    }).then((loaded) => {
      module = loaded;
      game = id;
      view = loaded.createBoard(el.board, { onMove, seatName: (seat) => markName(id, seat) });
      el.board.dataset.game = id;
      el.boardHelp.textContent = loaded.help;
    });
    loading = { game: id, promise };
    return promise
      .catch((error) => {
        failures += 1;
        throw error;
      })
      .finally(() => {
        loading = null;
      });
  }

  /** Draw `position` ({live, state, last}, see history.js) for the store's match. */
  function render(store, position) {
    if (!view) return;
    const { match, you } = store;
    const interactive = store.interactive();
    viewerSeat = you.seat;
    // Drawing replaces the board's nodes: the one with the keyboard focus goes, and the focus
    // with it, to <body>.  Give it back to the board, never taking it from another control.
    const hadFocus = el.board.contains(document.activeElement);
    view.render({
      state: position.state,
      legalMoves: match.legal_moves || [],
      moveParts: match.move_parts || null,
      interactive,
      lastMove: position.last ? position.last.move : null,
      lastSeat: position.last ? position.last.seat : null,
      seatToMove: position.live ? match.to_move : null,
      yourSeat: you.seat,
      flipped: flipped && canFlip(),
      markerStrip: you.seat !== null && !store.isOver(), // a move may still be played from this page
    });
    markPremove();
    flipButton.hidden = !canFlip();
    flipButton.setAttribute("aria-pressed", String(flipped && canFlip()));
    if (hadFocus && !el.board.contains(document.activeElement) && view.focus) view.focus();
    el.board.classList.toggle("interactive", interactive);
    el.board.classList.toggle("browsing", !position.live);
    el.viewing.hidden = position.live;
    el.moveForm.hidden = !(match.status === "active" && you.seat !== null);
    el.boardHelp.hidden = !(match.status === "active" && you.seat !== null); // how to play, while one can
    // Read-only rather than disabled: a disabled field would drop the focus of a player typing in it.
    el.moveInput.readOnly = !interactive;
    el.moveInput.setAttribute("aria-disabled", String(!interactive));
  }

  const canFlip = () => Boolean(module && module.canFlip === true);

  /**
   * The queued premove's target gets the `premove` class (match/premove.js), whatever the
   * board; while premoves are open the board's targets are not announced as disabled.
   */
  function markPremove() {
    for (const node of el.board.querySelectorAll(".premove")) node.classList.remove("premove");
    if (premoveOpen) {
      for (const node of el.board.querySelectorAll('[data-move][aria-disabled="true"]')) {
        node.setAttribute("aria-disabled", "false");
        node.classList.add("premovable");
      }
    }
    if (marked === null) return;
    for (const node of el.board.querySelectorAll("[data-move], [data-cell]")) {
      if (node.dataset.move === marked || node.dataset.cell === marked) node.classList.add("premove");
    }
  }

  // A move typed while nothing has the focus (the page was just opened, or clicked on its
  // background) goes to the board, as its help text promises; a control with the focus
  // keeps its keys.
  document.addEventListener("keydown", (event) => {
    if (!view || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== document.documentElement) return;
    const target = [...el.board.querySelectorAll("[data-move]")].find((node) => node.dataset.move === event.key);
    if (!target) return;
    event.preventDefault();
    target.focus({ preventScroll: true });
    target.dispatchEvent(new KeyboardEvent("keydown", { key: event.key, bubbles: true, cancelable: true }));
  });

  let redraw = null; // the room's render, for the flip button
  flipButton.addEventListener("click", () => {
    flipped = !flipped;
    if (redraw) redraw();
  });

  return {
    load,
    render,
    /** The room's render, called when the board is flipped. */
    onRedraw(fn) { redraw = fn; },
    get flipped() { return flipped && canFlip(); },
    /** Mark `move` as the queued premove (null: none); `open`: a move picked now would be one. */
    markPremove(move, open = false) {
      marked = move;
      premoveOpen = open;
      markPremove();
    },
    /** "capture", "check" or null from the board module; undefined when it does not say. */
    moveSound: (move, state, seat) => (module && module.moveSound ? module.moveSound(move, state, seat) : undefined),
    get loaded() { return module !== null; },
    get ready() { return view !== null; },
    get name() { return module ? module.name : null; },
    get help() { return module ? module.help : ""; },
    /** Board modules that replay moves themselves have `replay(moves)`; the others need the server. */
    get replay() { return module ? module.replay : undefined; },
    /** `move` in words; `seat` (who played it) lets a board write it as the viewer numbers the board. */
    describeMove: (move, seat = null, viewer = viewerSeat) => (module ? module.describeMove(move, seat, viewer) : move),
    /** `move` as the move list writes it: the notation, renumbered by boards that have `moveText`. */
    moveText: (move, seat = null, viewer = viewerSeat) => (module && module.moveText ? module.moveText(move, seat, viewer) : move),
    /** The number the move list shows before the `index`th move: the module's own ("1…" in chess), else "1.", "2.", ... */
    moveNumber: (index) => (module && module.moveNumber ? module.moveNumber(index) : `${index + 1}.`),
    parseMove: (text) => (module ? module.parseMove(text) : text.trim()),
  };
}

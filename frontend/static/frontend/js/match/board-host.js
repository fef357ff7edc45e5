// The board: loads the game's board module (named by the catalogue) and draws the position
// that is shown, live or an earlier one.  The board module knows the game's pictures and
// notation; the host knows when the board takes a move.

export function createBoardHost({ el, catalogue, onMove }) {
  let module = null; // the board module (boards/*.js) of `game`
  let view = null; // what its createBoard returned
  let game = null;
  let loading = null; // {game, promise} while a module is on its way
  let failures = 0;
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
      view = loaded.createBoard(el.board, { onMove });
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
      interactive,
      lastMove: position.last ? position.last.move : null,
      lastSeat: position.last ? position.last.seat : null,
      seatToMove: position.live ? match.to_move : null,
      yourSeat: you.seat,
    });
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

  return {
    load,
    render,
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
    parseMove: (text) => (module ? module.parseMove(text) : text.trim()),
  };
}

// The keyboard on the move list (history.js does the browsing; the left and right arrows are
// its own): Home and End go to the first and the live position from anywhere but the board
// and form fields, and the list itself is one tab stop, the row being viewed, whose up and
// down arrows browse too.  Each render replaces the list's rows: the focus that was on a row
// goes to the row now viewed, never to <body>.

const KEY_TARGETS = { Home: "first", End: "last" };

export function createHistoryNav({ store, el, history }) {
  let inList = false; // the focus was on a row of the list (a redraw removes that row)

  function viewed() {
    return store.viewPly === null ? store.match.moves.length : store.viewPly;
  }

  function go(where) {
    const n = store.match.moves.length;
    history.browse({ first: 0, last: null, prev: viewed() - 1, next: Math.min(n, viewed() + 1) }[where]);
  }

  /** The row of the position viewed: the one tab stop of the list. */
  function currentRow() {
    const rows = [...el.moveList.querySelectorAll(".move-link")];
    if (store.viewPly === 0) return rows[0] || null; // the start: before the first move's row
    return rows.find((row) => row.getAttribute("aria-current") === "step") || rows[rows.length - 1] || null;
  }

  function render() {
    if (!store.match) return;
    const current = currentRow();
    for (const row of el.moveList.querySelectorAll(".move-link")) row.tabIndex = row === current ? 0 : -1;
    const lost = !document.activeElement || document.activeElement === document.body || !document.contains(document.activeElement);
    if (inList && lost && current) {
      current.focus({ preventScroll: true });
      current.scrollIntoView({ block: "nearest" });
    }
  }

  el.moveList.addEventListener("keydown", (event) => {
    if (!store.match || event.altKey || event.ctrlKey || event.metaKey) return;
    const where = { ArrowUp: "prev", ArrowDown: "next", ...KEY_TARGETS }[event.key];
    if (!where) return;
    event.preventDefault();
    event.stopPropagation(); // the page-wide Home/End below would browse a second time
    go(where);
  });

  document.addEventListener("keydown", (event) => {
    if (!store.match || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (!(event.key in KEY_TARGETS)) return;
    if (event.target.closest && event.target.closest("input, textarea, select, #board")) return;
    event.preventDefault();
    go(KEY_TARGETS[event.key]);
  });

  document.addEventListener("focusin", (event) => {
    inList = el.moveList.contains(event.target);
  });

  return { render };
}

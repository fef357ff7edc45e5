// Chess board in SVG.  State (games.chess.to_json): `board` is 8 rows, rank 8 first, of
// 8 cells a..h, each null or a piece letter ("KQRBNP" white, "kqrbnp" black); `turn` is
// the seat to move (0 white, 1 black); `check` names the square of a king in check;
// `captured` lists the pieces each side has taken and `material` is white's material
// minus black's.  Moves travel as UCI ("e2e4", "e7e8q", castling "e1g1"); the server
// sends each played move's SAN as `notation`.
//
// Pick a piece, then its target: by click-click, by dragging it (pointer events, so touch
// works too), or with the arrow keys and Enter.  Typed SAN ("Nf3", "O-O", "e8=Q") is
// turned into the UCI move it names among the legal moves shown; the server checks it.

import { h, present, s } from "../dom.js";
import { replaceKeepingMarkers } from "./markers.js";

const N = 8;
const SQ = 100;
const FILES = "abcdefgh";
const DRAG_START_PX = 6; // a press that moves less than this is a click, not a drag
const CLICK_AFTER_POINTER_MS = 600; // the click that follows a handled pointer press is not a second pick
const SLIDE_MS = 160; // a new move's piece slides from its square to its target

const PIECE_NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
// Solid glyphs for both colours (white ones are filled white, outlined in black); U+FE0E asks
// for the text form, never the emoji one.
const SOLID = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const OUTLINE = { k: "\u2654", q: "\u2655", r: "\u2656", b: "\u2657", n: "\u2658", p: "\u2659" };
const TEXT_FORM = "\uFE0E";
const VALUES = { q: 9, r: 5, b: 3, n: 3, p: 1, k: 0 };
const PROMOTIONS = ["q", "r", "b", "n"];

export const name = "Chess";
export const help = "Pick a piece, then a marked square: click both, drag the piece, or use the arrow keys and Enter (Escape drops it). You can also type a move: Nf3, O-O, e8=Q or e2e4.";

// --- notation -----------------------------------------------------------------------------

const UCI = /^([a-h][1-8])([a-h][1-8])([qrbn])?$/;

/** A UCI move in words, for screen readers and messages: "e2 to e4", "e7 to e8, queen". */
export function describeMove(move) {
  const m = UCI.exec(String(move));
  if (!m) return String(move);
  return `${m[1]} to ${m[2]}${m[3] ? `, promoting to a ${PIECE_NAMES[m[3]]}` : ""}`;
}

/** The move list's number for the `index`th move (from 0): "1." before white's move, "1…" before black's. */
export function moveNumber(index) {
  const full = Math.floor(index / 2) + 1;
  return index % 2 === 0 ? `${full}.` : `${full}…`;
}

// The position last drawn with moves to play: typed SAN is resolved against it.
let playable = { board: null, turn: null, legalMoves: [] };

/**
 * The move typed: UCI as is; SAN or castling turned into the legal UCI move it names in
 * the position on the board.  SAN that names no legal move here is passed on as typed
 * (the page then says it is not legal); text that is no move at all is null.
 */
export function parseMove(text) {
  const typed = String(text).trim();
  const t = typed.replace(/[+#!?]+$/, "");
  if (UCI.test(t.toLowerCase())) return t.toLowerCase();
  const san = parseSan(t);
  if (!san) return null;
  return resolveSan(san, playable) || typed;
}

/** SAN's parts: {castle: "short"|"long"} or {piece, fromFile, fromRank, to, promotion}. */
function parseSan(t) {
  if (/^[O0o]-[O0o]$/.test(t)) return { castle: "short" };
  if (/^[O0o]-[O0o]-[O0o]$/.test(t)) return { castle: "long" };
  const m = /^([KQRNkqrn]|B)?([a-h])?([1-8])?[x:]?([a-h][1-8])(?:=?([QRBNqrbn]))?$/.exec(t);
  if (!m) return null;
  return {
    piece: m[1] ? m[1].toLowerCase() : "p",
    fromFile: m[2] || null,
    fromRank: m[3] || null,
    to: m[4],
    promotion: m[5] ? m[5].toLowerCase() : null,
  };
}

function resolveSan(san, { board, turn, legalMoves }) {
  if (!board || (turn !== 0 && turn !== 1)) return null;
  const rank = turn === 0 ? "1" : "8";
  const matches = legalMoves.filter((move) => {
    const m = UCI.exec(move);
    if (!m) return false;
    const piece = pieceAt(board, m[1]);
    if (!piece) return false;
    if (san.castle) {
      const to = san.castle === "short" ? `g${rank}` : `c${rank}`;
      return piece.toLowerCase() === "k" && m[1] === `e${rank}` && m[2] === to;
    }
    return piece.toLowerCase() === san.piece &&
      m[2] === san.to &&
      (!san.fromFile || m[1][0] === san.fromFile) &&
      (!san.fromRank || m[1][1] === san.fromRank) &&
      (m[3] || null) === san.promotion;
  });
  return matches.length === 1 ? matches[0] : null;
}

export const replay = null; // the rules live on the server: earlier positions come from it

// --- the board ----------------------------------------------------------------------------

function pieceAt(board, square) {
  const col = FILES.indexOf(square[0]);
  const row = N - Number(square[1]);
  return (board[row] && board[row][col]) || null;
}

const isWhite = (piece) => piece === piece.toUpperCase();
const colourWord = (piece) => (isWhite(piece) ? "white" : "black");
const pieceWords = (piece) => `${colourWord(piece)} ${PIECE_NAMES[piece.toLowerCase()]}`;

/** Where a square is drawn (its top-left corner) with white (or black) at the bottom. */
function corner(square, blackBottom) {
  const col = FILES.indexOf(square[0]);
  const rank = Number(square[1]);
  return blackBottom ? [(N - 1 - col) * SQ, (rank - 1) * SQ] : [col * SQ, (N - rank) * SQ];
}

/** The squares in the order they are drawn: top-left first, row by row. */
function squaresInView(blackBottom) {
  const out = [];
  for (let y = 0; y < N; y += 1) {
    for (let x = 0; x < N; x += 1) {
      out.push(blackBottom ? `${FILES[N - 1 - x]}${y + 1}` : `${FILES[x]}${N - y}`);
    }
  }
  return out;
}

/** A piece drawn at (x, y), the top-left corner of its square. */
function pieceGlyph(piece, x, y, size = SQ) {
  const kind = piece.toLowerCase();
  const at = { x: x + size / 2, y: y + size * 0.8, "font-size": size * 0.84 };
  return s("g", { class: `piece ${colourWord(piece)}`, "aria-hidden": "true" },
    isWhite(piece) ? s("text", { ...at, class: "piece-fill" }, SOLID[kind] + TEXT_FORM) : null,
    s("text", { ...at, class: "piece-ink" }, (isWhite(piece) ? OUTLINE[kind] : SOLID[kind]) + TEXT_FORM));
}

/** On a match's pages (the room, the analysis): a link that downloads the game as PGN. */
function pgnLink() {
  const found = /^\/matches\/(\d+)\//.exec(window.location.pathname);
  if (!found) return null;
  return h("a", {
    class: "button pgn-link",
    href: `/api/matches/${found[1]}/pgn/`,
    download: `plyground-${found[1]}.pgn`,
    "data-testid": "pgn-download",
  }, "Download PGN");
}

/**
 * `board` after the legal `move`, as far as drawing it needs: the piece (or the one it
 * promotes to) on its target, the rook beside a castling king, the pawn taken en passant gone.
 */
function played(board, move) {
  const m = UCI.exec(move);
  const cells = board.map((row) => [...row]);
  const at = (square) => [N - Number(square[1]), FILES.indexOf(square[0])];
  const put = (square, piece) => { const [r, c] = at(square); cells[r][c] = piece; };
  const piece = m ? pieceAt(board, m[1]) : null;
  if (!m || !piece) return cells;
  const kind = piece.toLowerCase();
  const fileStep = FILES.indexOf(m[2][0]) - FILES.indexOf(m[1][0]);
  if (kind === "k" && Math.abs(fileStep) === 2) {
    const rank = m[1][1];
    const [rookFrom, rookTo] = fileStep > 0 ? [`h${rank}`, `f${rank}`] : [`a${rank}`, `d${rank}`];
    put(rookTo, pieceAt(board, rookFrom));
    put(rookFrom, null);
  }
  if (kind === "p" && fileStep !== 0 && !pieceAt(board, m[2])) put(`${m[2][0]}${m[1][1]}`, null); // en passant
  put(m[1], null);
  put(m[2], m[3] ? (isWhite(piece) ? m[3].toUpperCase() : m[3]) : piece);
  return cells;
}

function emptyBoard() {
  return Array.from({ length: N }, () => Array(N).fill(null));
}

export function createBoard(container, { onMove }) {
  const svg = s("svg", {
    class: "board-svg board-chess",
    viewBox: `0 0 ${N * SQ} ${N * SQ}`,
    role: "group",
    "aria-label": "Chess board",
  });
  const topSide = h("div", { class: "chess-side top", "data-testid": "chess-side-top" });
  const bottomSide = h("div", { class: "chess-side bottom", "data-testid": "chess-side-bottom" });
  const picker = h("div", {
    class: "promotion-picker",
    role: "dialog",
    "aria-modal": "false",
    "aria-label": "Promote the pawn to",
    "data-testid": "promotion-picker",
    hidden: true,
  });
  const flip = h("button", { type: "button", class: "flip-button", "data-testid": "flip-board", "aria-pressed": "false" }, "⇅ Flip board");
  const pgn = pgnLink();
  const said = h("p", { class: "visually-hidden", "aria-live": "polite", "data-testid": "chess-said" });
  const stage = h("div", { class: "chess-stage" }, svg, picker);
  container.replaceChildren(h("div", { class: "chess-wrap" }, topSide, stage, bottomSide, h("div", { class: "chess-tools" }, pgn, flip), said));

  let view = null; // what render was last given
  let flipped = false; // the player's own flip, on top of the seat's orientation
  let drawnView = null; // the view last drawn: what a page drew over it stays while it is shown
  let selected = null; // the square of the picked piece
  let cursor = null; // the square with the keyboard's tab stop
  let promoting = null; // {from, to} while the picker is open
  let press = null; // a pointer press on the board: {id, square, x, y, dragging, node}
  let lastPointerUp = 0;
  let ahead = null; // {move, fen}: our move, drawn played before the server's answer comes

  const blackBottom = () => {
    const own = view && view.yourSeat === 1;
    return own !== flipped;
  };

  function movesFrom() {
    const byFrom = new Map();
    if (!view || !view.interactive) return byFrom;
    for (const move of view.legalMoves || []) {
      const m = UCI.exec(move);
      if (!m) continue;
      if (!byFrom.has(m[1])) byFrom.set(m[1], new Map());
      const targets = byFrom.get(m[1]);
      targets.set(m[2], [...(targets.get(m[2]) || []), move]);
    }
    return byFrom;
  }

  /** A square was picked (click, tap, Enter): pick the piece, play its move, or drop it. */
  function choose(square) {
    if (!view) return;
    if (promoting) {
      closePicker(null); // a click on the board instead of a piece to promote to: no promotion
      return;
    }
    const byFrom = movesFrom();
    const targets = selected ? byFrom.get(selected) : null;
    if (targets && targets.has(square)) {
      play(selected, square, targets.get(square));
      return;
    }
    if (byFrom.has(square) && selected !== square) {
      selected = square;
      const piece = pieceAt(board(), square);
      const to = [...byFrom.get(square).keys()];
      said.textContent = `${pieceWords(piece)} on ${square} picked: it can go to ${to.join(", ")}.`;
    } else if (!view.interactive && pieceAt(board(), square)) {
      onMove(square); // not a move: the page says why nothing can be played now
    } else {
      selected = null;
    }
    cursor = square;
    redraw();
  }

  function play(from, to, moves, { dragged = false } = {}) {
    selected = null;
    cursor = to;
    if (moves.length > 1) {
      openPicker(from, to, dragged);
      return;
    }
    send(moves[0], { dragged });
  }

  /** Hand `move` to the page, and draw it played while the server's answer is on its way. */
  function send(move, { dragged = false } = {}) {
    ahead = { move, fen: view.state ? view.state.fen : null };
    onMove(move);
    if (view.interactive) ahead = null; // the page took no move (it would have drawn us waiting)
    redraw();
    if (!dragged) slideIn(move);
  }

  function openPicker(from, to, dragged = false) {
    promoting = { from, to, dragged };
    const white = view.state && view.state.turn === 0;
    picker.replaceChildren(
      h("p", { class: "picker-title" }, "Promote to"),
      ...PROMOTIONS.map((kind) => {
        const piece = white ? kind.toUpperCase() : kind;
        return h("button", {
          type: "button",
          class: "promotion-choice",
          "data-promotion": kind,
          "aria-label": PIECE_NAMES[kind],
        }, h("span", { class: `promotion-glyph ${colourWord(piece)}`, "aria-hidden": "true" }, SOLID[kind] + TEXT_FORM), h("span", {}, PIECE_NAMES[kind]));
      }),
      h("button", { type: "button", class: "promotion-cancel", "data-promotion": "" }, "Cancel"));
    picker.hidden = false;
    redraw();
    picker.querySelector(".promotion-choice").focus();
  }

  function closePicker(kind) {
    const chosen = promoting;
    promoting = null;
    picker.hidden = true;
    picker.replaceChildren();
    if (chosen && kind) send(`${chosen.from}${chosen.to}${kind}`, { dragged: chosen.dragged });
    else redraw();
    focusCursor();
  }

  picker.addEventListener("click", (event) => {
    const button = event.target.closest("[data-promotion]");
    if (button) closePicker(button.dataset.promotion);
  });
  picker.addEventListener("keydown", (event) => {
    const buttons = [...picker.querySelectorAll("button")];
    const at = buttons.indexOf(document.activeElement);
    if (event.key === "Escape") closePicker(null);
    else if (event.key === "ArrowRight" || event.key === "ArrowDown") buttons[(at + 1) % buttons.length].focus();
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") buttons[(at - 1 + buttons.length) % buttons.length].focus();
    else return;
    event.preventDefault();
  });

  flip.addEventListener("click", () => {
    flipped = !flipped;
    flip.setAttribute("aria-pressed", String(flipped));
    redraw();
  });

  // --- keyboard: a cursor over the squares, in the order they are drawn ---------------------

  svg.addEventListener("keydown", (event) => {
    const node = event.target.closest("[data-square]");
    if (!node) return;
    const order = squaresInView(blackBottom());
    const at = order.indexOf(node.dataset.square);
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -N, ArrowDown: N }[event.key];
    if (step !== undefined) {
      const x = (at % N) + (Math.abs(step) === 1 ? step : 0);
      const y = Math.floor(at / N) + (Math.abs(step) === N ? Math.sign(step) : 0);
      if (x >= 0 && x < N && y >= 0 && y < N) moveCursor(order[y * N + x]);
    } else if (event.key === "Enter" || event.key === " ") {
      choose(node.dataset.square);
      focusCursor();
    } else if (event.key === "Escape") {
      selected = null;
      redraw();
      focusCursor();
    } else return;
    event.preventDefault();
  });

  function moveCursor(square) {
    cursor = square;
    svg.querySelectorAll("[data-square]").forEach((n) => n.setAttribute("tabindex", n.dataset.square === square ? "0" : "-1"));
    focusCursor();
  }

  function focusCursor() {
    const node = svg.querySelector(`[data-square="${cursor}"]`) || svg.querySelector("[data-square][tabindex='0']");
    if (node) node.focus({ preventScroll: true });
  }

  // --- pointer: click-click, or drag and drop ----------------------------------------------

  function svgPoint(event) {
    const matrix = svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return { x: point.x, y: point.y };
  }

  function squareAt(point) {
    if (!point) return null;
    const x = Math.floor(point.x / SQ);
    const y = Math.floor(point.y / SQ);
    if (x < 0 || x >= N || y < 0 || y >= N) return null;
    return squaresInView(blackBottom())[y * N + x];
  }

  svg.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || promoting) return;
    const square = squareAt(svgPoint(event));
    if (!square) return;
    press = { id: event.pointerId, square, x: event.clientX, y: event.clientY, dragging: false, node: null };
    if (movesFrom().has(square)) {
      svg.setPointerCapture(event.pointerId);
      event.preventDefault(); // no text selection, no scrolling: the piece may be dragged
    }
  });

  svg.addEventListener("pointermove", (event) => {
    if (!press || press.id !== event.pointerId || !movesFrom().has(press.square)) return;
    if (!press.dragging) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_START_PX) return;
      press.dragging = true;
      if (selected !== press.square) {
        selected = press.square;
        redraw();
      }
      press.node = svg.querySelector(`[data-square="${press.square}"] .piece`);
      if (press.node) {
        svg.querySelector(".drag-layer").append(press.node); // drawn above every square
        press.node.classList.add("dragging");
      }
    }
    const point = svgPoint(event);
    const [x0, y0] = corner(press.square, blackBottom());
    if (press.node && point) press.node.setAttribute("transform", `translate(${point.x - x0 - SQ / 2} ${point.y - y0 - SQ / 2})`);
    const over = squareAt(point);
    svg.querySelectorAll(".drop-over").forEach((n) => n.classList.remove("drop-over"));
    if (over) svg.querySelector(`[data-square="${over}"]`)?.classList.add("drop-over");
  });

  svg.addEventListener("pointerup", (event) => {
    if (!press || press.id !== event.pointerId) return;
    const started = press;
    press = null;
    lastPointerUp = Date.now();
    if (!started.dragging) {
      choose(started.square);
      return;
    }
    const to = squareAt(svgPoint(event));
    const targets = movesFrom().get(started.square);
    if (to && targets && targets.has(to)) {
      play(started.square, to, targets.get(to), { dragged: true });
      if (promoting) redraw(); // the pawn goes back to its square while the picker asks
    } else {
      selected = to === started.square ? started.square : null; // dropped back: still picked
      redraw();
    }
  });

  svg.addEventListener("pointercancel", () => {
    press = null;
    redraw();
  });

  // A click no pointer press handled (a screen reader's, say) picks its square too.
  svg.addEventListener("click", (event) => {
    if (Date.now() - lastPointerUp < CLICK_AFTER_POINTER_MS) return;
    const node = event.target.closest("[data-square]");
    if (node) choose(node.dataset.square);
  });

  // --- drawing -----------------------------------------------------------------------------

  function board() {
    const state = view && view.state;
    return state && Array.isArray(state.board) ? state.board : emptyBoard();
  }

  function render(next) {
    const before = view;
    view = next;
    const fen = (v) => (v && v.state ? v.state.fen : null);
    const positionChanged = !before || fen(before) !== fen(next) || before.interactive !== next.interactive;
    if (positionChanged) {
      selected = null;
      press = null;
      if (promoting) {
        promoting = null;
        picker.hidden = true;
        picker.replaceChildren();
      }
    }
    const moved = before && fen(before) !== fen(next) && next.lastMove && next.lastMove !== before.lastMove;
    const slide = moved && !(ahead && ahead.move === next.lastMove) ? next.lastMove : null;
    // Drawn ahead until the server answers: the position moved on, or the move came back to us (refused).
    if (ahead && (next.interactive || fen(next) !== ahead.fen)) ahead = null;
    playable = next.interactive && next.state
      ? { board: next.state.board, turn: next.state.turn, legalMoves: next.legalMoves || [] }
      : { board: null, turn: null, legalMoves: [] };
    redraw();
    if (slide) slideIn(slide);
  }

  /** The piece of the move just played glides in from the square it left (none when motion is unwanted). */
  function slideIn(move) {
    const m = UCI.exec(move);
    if (!m || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const piece = svg.querySelector(`[data-square="${m[2]}"] .piece`);
    if (!piece) return;
    const [x0, y0] = corner(m[1], blackBottom());
    const [x1, y1] = corner(m[2], blackBottom());
    const home = piece.parentNode;
    svg.querySelector(".drag-layer").append(piece); // above the squares it passes over
    const glide = piece.animate(
      [{ transform: `translate(${x0 - x1}px, ${y0 - y1}px)` }, { transform: "translate(0, 0)" }],
      { duration: SLIDE_MS, easing: "ease-out" },
    );
    glide.onfinish = () => home.insertBefore(piece, home.querySelector(".focus-ring"));
  }

  function redraw() {
    if (!view) return;
    const { state } = view;
    const drawnAhead = Boolean(ahead && state && state.fen === ahead.fen);
    const cells = drawnAhead ? played(board(), ahead.move) : board();
    const lastMove = drawnAhead ? ahead.move : view.lastMove;
    const bottomBlack = blackBottom();
    svg.dataset.orientation = bottomBlack ? "black" : "white";
    const byFrom = movesFrom();
    const targets = selected && byFrom.has(selected) ? byFrom.get(selected) : new Map();
    const last = UCI.exec(String(lastMove || ""));
    const lastSquares = last ? [last[1], last[2]] : [];
    const check = state && typeof state.check === "string" && !drawnAhead ? state.check : null;
    const order = squaresInView(bottomBlack);
    if (!order.includes(cursor)) cursor = byFrom.keys().next().value || (bottomBlack ? "e7" : "e2");

    const nodes = order.map((square, i) => {
      const [x, y] = corner(square, bottomBlack);
      const piece = pieceAt(cells, square);
      const dark = (FILES.indexOf(square[0]) + Number(square[1])) % 2 === 1; // a1 is dark
      const movable = byFrom.has(square);
      const target = targets.has(square);
      const classes = ["square", dark ? "dark" : "light"];
      if (movable) classes.push("movable", "legal");
      if (target) classes.push("target", "legal");
      if (square === selected) classes.push("selected");
      if (lastSquares.includes(square)) classes.push("last-move");
      if (square === check) classes.push("in-check");
      const words = [square, piece ? pieceWords(piece) : "empty"];
      if (square === check) words.push("in check");
      if (square === selected) words.push("picked");
      else if (target) words.push(piece ? `capture with the ${PIECE_NAMES[pieceAt(cells, selected).toLowerCase()]}` : "move here");
      else if (movable) words.push("can move");
      if (lastSquares.includes(square)) words.push("last move");
      const col = i % N;
      const row = Math.floor(i / N);
      return s("g", {
        class: classes.join(" "),
        "data-square": square,
        "data-piece": piece,
        role: "button",
        tabindex: square === cursor ? "0" : "-1",
        "aria-label": words.join(", "),
        "aria-pressed": movable ? String(square === selected) : null,
      },
      s("rect", { class: "cell", x, y, width: SQ, height: SQ }),
      square === check ? s("circle", { class: "check-glow", cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.48 }) : null,
      col === 0 ? s("text", { class: "coord rank", x: x + 6, y: y + 24 }, square[1]) : null,
      row === N - 1 ? s("text", { class: "coord file", x: x + SQ - 7, y: y + SQ - 7 }, square[0]) : null,
      piece ? pieceGlyph(piece, x, y) : null,
      target && !piece ? s("circle", { class: "target-dot", cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.16 }) : null,
      target && piece ? s("circle", { class: "target-ring", cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.46 }) : null,
      s("rect", { class: "focus-ring", x: x + 3, y: y + 3, width: SQ - 6, height: SQ - 6 }));
    });
    // A flip keeps the analysis page's arrow, turned with the board.
    replaceKeepingMarkers(svg, view === drawnView, [...nodes, s("g", { class: "drag-layer" })],
      (move) => moveMarker(state, move, svg));
    drawnView = view;
    drawSides(state, bottomBlack);
  }

  function drawSides(state, bottomBlack) {
    const captured = (state && state.captured) || {};
    const material = state && typeof state.material === "number" ? state.material : 0;
    const toMove = state && (state.turn === 0 || state.turn === 1) ? state.turn : null;
    const side = (colour) => {
      const taken = Array.isArray(captured[colour]) ? [...captured[colour]] : [];
      taken.sort((a, b) => VALUES[b.toLowerCase()] - VALUES[a.toLowerCase()]);
      const lead = colour === "white" ? material : -material;
      const counts = {};
      taken.forEach((p) => { counts[p.toLowerCase()] = (counts[p.toLowerCase()] || 0) + 1; });
      const listed = Object.entries(counts).map(([kind, n]) => `${n} ${PIECE_NAMES[kind]}${n > 1 ? "s" : ""}`);
      const words = `${colour === "white" ? "White" : "Black"}${toMove === (colour === "white" ? 0 : 1) ? " (to move)" : ""}: ` +
        `${listed.length ? `captured ${listed.join(", ")}` : "nothing captured"}` +
        `${lead > 0 ? `, ahead by ${lead}` : ""}`;
      return present(
        h("span", { class: `side-name ${colour}` }, colour === "white" ? "White" : "Black"),
        h("span", { class: "captured", "aria-hidden": "true" },
          ...taken.map((p) => h("span", { class: `captured-piece ${colourWord(p)}` }, SOLID[p.toLowerCase()] + TEXT_FORM))),
        lead > 0 ? h("span", { class: "material", "data-testid": `material-${colour}`, "aria-hidden": "true" }, `+${lead}`) : null,
        h("span", { class: "visually-hidden" }, words));
    };
    topSide.replaceChildren(...side(bottomBlack ? "white" : "black"));
    bottomSide.replaceChildren(...side(bottomBlack ? "black" : "white"));
  }

  return { render, focus: focusCursor };
}

/**
 * Optional, for pages that show a position without playing it (the analysis): an arrow
 * from the move's square to its target, on the board `svg` as last drawn (its orientation).
 */
export function moveMarker(state, move, svg) {
  const m = UCI.exec(String(move));
  if (!m) return null;
  const blackBottom = svg && svg.dataset && svg.dataset.orientation === "black";
  const [x1, y1] = corner(m[1], blackBottom).map((v) => v + SQ / 2);
  const [x2, y2] = corner(m[2], blackBottom).map((v) => v + SQ / 2);
  const length = Math.hypot(x2 - x1, y2 - y1);
  const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
  const head = 34;
  const [bx, by] = [x2 - ux * head, y2 - uy * head]; // the base of the arrow head
  const [px, py] = [-uy * head * 0.6, ux * head * 0.6];
  const paint = { "pointer-events": "none", opacity: 0.8 };
  return s("g", { class: "move-marker chess-arrow", "data-testid": "move-marker", "data-move": move },
    s("line", { ...paint, x1, y1, x2: bx, y2: by, stroke: "#0a7d33", "stroke-width": 16, "stroke-linecap": "round" }),
    s("path", { ...paint, fill: "#0a7d33", d: `M${x2} ${y2} L${bx + px} ${by + py} L${bx - px} ${by - py} Z` }));
}

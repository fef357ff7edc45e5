// The analysis page: asks for a finished match's analysis (idempotent), shows its
// progress while the strongest bot searches every position, then an evaluation
// graph, the moves with inaccuracies, mistakes and blunders marked, and the best
// move where the played one lost value; a board shows the position before each move,
// with the best move marked, stepped through with the keyboard, the graph or the moves.

import { ApiError, api, getMatch } from "./api.js";
import { announce, h, pageData, s } from "./dom.js";
import { LiveSocket } from "./socket.js";
import { createCatalogue } from "./match/catalogue.js";
import { aiBadge, algorithmName, discSymbol, formatMs, isBot, markName, playerLabel, playerWords, seatMark } from "./players.js";

const CLASSES = {
  inaccuracy: { mark: "?!", words: "inaccuracy", plural: "inaccuracies" },
  mistake: { mark: "?", words: "mistake", plural: "mistakes" },
  blunder: { mark: "??", words: "blunder", plural: "blunders" },
};
const POLL_MS = 2000;

const page = pageData();
const matchId = page.match_id;
const $ = (id) => document.getElementById(id);
const el = {
  root: $("analysis"),
  search: $("analysis-search"),
  progress: $("analysis-progress"),
  progressText: $("analysis-progress-text"),
  error: $("analysis-error"),
  results: $("analysis-results"),
  graph: $("eval-graph"),
  graphHelp: $("graph-help"),
  summary: $("analysis-summary"),
  legend: $("analysis-legend"),
  moves: $("analysis-moves"),
  board: $("analysis-board"),
  caption: $("position-caption"),
  steps: document.querySelector(".position-steps"),
};

let match = null;
let analysis = null;
let pollTimer = null;
const viewer = { board: null, module: null, positions: null, index: 0, loading: null };
const catalogue = createCatalogue();

const path = `/api/matches/${matchId}/analysis/`;
const socket = new LiveSocket(`/ws/matches/${matchId}/`, {
  banner: $("reconnect-banner"),
  onFrame: (frame) => {
    if (frame.type !== "analysis" || !analysis || analysis.status === "done") return;
    analysis = { ...analysis, status: frame.status || analysis.status, progress: frame.progress, total: frame.total };
    if (analysis.status === "done" || analysis.status === "failed") refresh();
    else render();
  },
});

async function start() {
  try {
    match = await getMatch(matchId);
  } catch (error) {
    fail(error instanceof ApiError && error.status === 404 ? "There is no match with this number." : "Could not load the match.");
    return;
  }
  try {
    analysis = await api(path, { method: "POST" });
  } catch (error) {
    fail(error instanceof ApiError ? error.message : "Could not start the analysis.");
    return;
  }
  render();
  if (analysis.status !== "done") {
    socket.connect();
    schedulePoll();
  }
}

/** A safety net: the frames say how far it is; a periodic read catches a missed one. */
function schedulePoll() {
  window.clearTimeout(pollTimer);
  pollTimer = window.setTimeout(refresh, POLL_MS);
}

async function refresh() {
  try {
    analysis = await api(path);
  } catch {
    // keep the last view; the next poll tries again
  }
  render();
  if (analysis.status === "done" || analysis.status === "failed") {
    window.clearTimeout(pollTimer);
    socket.close();
    if (analysis.status === "done") announce("The analysis is ready.");
  } else {
    schedulePoll();
  }
}

function fail(text) {
  el.error.textContent = text;
  el.root.dataset.status = "error";
  el.progress.hidden = true;
}

function seatPlayer(seat) {
  const entry = match && match.seats.find((x) => x.index === seat);
  return entry ? entry.player : null;
}

// --- rendering ---------------------------------------------------------------

function render() {
  if (!analysis) return;
  el.root.dataset.status = analysis.status;
  const search = analysis.search || {};
  el.search.textContent = `Every position searched by the strongest computer player (AI, ${algorithmName(search.algorithm) || "search"}` +
    `${search.time_budget_ms ? `, up to ${formatMs(search.time_budget_ms)} a position` : ""}).`;
  const running = analysis.status === "queued" || analysis.status === "running";
  el.progress.hidden = !running;
  if (running) renderProgress();
  if (analysis.status === "failed") fail(`The analysis failed${analysis.error ? `: ${analysis.error}` : "."} Reload the page to try again.`);
  el.results.hidden = analysis.status !== "done";
  if (analysis.status === "done") renderResults();
}

function renderProgress() {
  const { progress = 0, total = 0 } = analysis;
  const share = total ? progress / total : 0;
  el.progressText.textContent = analysis.status === "queued"
    ? `Waiting for a computer to start the analysis: ${queueText(analysis.queue_position)} ` +
      `(${total} ${total === 1 ? "position" : "positions"} to analyse).`
    : `Analysing: ${progress} of ${total} positions done…`;
  const bar = el.progress.querySelector(".budget");
  bar.setAttribute("aria-valuenow", String(Math.round(share * 100)));
  el.progress.querySelector(".budget-fill").style.width = `${(share * 100).toFixed(1)}%`;
}

function queueText(ahead) {
  if (ahead === null || ahead === undefined) return "in line";
  if (ahead === 0) return "this analysis is next in line";
  return `${ahead} ${ahead === 1 ? "analysis" : "analyses"} ahead of this one`;
}

function renderResults() {
  const plies = analysis.plies || [];
  const max = analysis.max_utility || 1;
  const seats = match.seats.map((x) => x.index).sort((a, b) => a - b);
  el.graph.replaceChildren(evalGraph(plies, max, seats));
  el.graphHelp.textContent = seats.length === 2
    ? `Winning chances: at the top ${playerWords(seatPlayer(0))} wins for sure, at the bottom ` +
      `${playerWords(seatPlayer(1))}, on the middle line the chances are even; marked points are the positions before a mistake.`
    : "Winning chances, one line per player, each with its own colour, dashes and shape: higher is better for that " +
      "player (the top a sure win, the bottom last place). Marked points are the positions before a mistake.";
  const t = analysis.thresholds || {};
  const pct = (x) => `${Math.round((x || 0) * 100)}`;
  el.legend.textContent = `A move is an inaccuracy (?!) when it gives away at least ${pct(t.inaccuracy)} points of ` +
    `the mover's winning chances (out of 100), a mistake (?) from ${pct(t.mistake)}, a blunder (??) from ` +
    `${pct(t.blunder)}: a lost win or a lost draw is a blunder. ${valueWords()} ` +
    "Each move shows the position's evaluation before it and after the move played, both for the player who moved." +
    (plies.some((p) => p.roll) ? " Rolls of the dice are not judged; a move that was the only one possible is never a mistake." : "");
  el.summary.replaceChildren(...seats.map((seat) => {
    const counts = Object.keys(CLASSES).map((name) => {
      const n = plies.filter((p) => p.seat === seat && p.class === name).length;
      return `${n} ${n === 1 ? name : CLASSES[name].plural}`;
    });
    // The colon stays with the name when a narrow screen wraps the counts to the next line.
    const who = h("span", { class: "summary-who" }, seatMark(match.game, seat), " ", playerLabel(seatPlayer(seat), { compact: true }), ":");
    return h("li", { "data-seat": seat }, who, h("span", {}, counts.join(", ")));
  }));
  el.moves.replaceChildren(...plies.map(moveItem));
  showPosition(viewer.index);
  loadViewer();
}

function moveItem(p) {
  const cls = p.class ? CLASSES[p.class] : null;
  const differs = p.best_move !== p.move && p.loss > 0;
  return h("li", {
    class: `analysis-move${cls ? ` ${p.class}` : ""}`,
    "data-ply": p.ply,
    "data-seat": p.seat,
    "data-class": p.class || "",
  },
  h("span", { class: "move-number" }, `${p.ply + 1}.`),
  seatMark(match.game, p.seat),
  h("span", { class: "visually-hidden" }, `${markName(match.game, p.seat)} played `),
  p.roll ? h("span", { class: "move-roll muted", "data-testid": "move-roll" }, `${p.roll}:`) : null,
  h("span", { class: "move-text" }, written(p.move, p.seat, p.ply)),
  isBot(seatPlayer(p.seat)) ? aiBadge(seatPlayer(p.seat).profile, { compact: true }) : null, // a bot's move says so (docs/design.md §6.1)
  cls ? h("span", { class: `judgement judgement-${p.class}`, title: cls.words, "data-testid": "judgement" }, cls.mark, h("span", { class: "visually-hidden" }, ` (${cls.words})`)) : null,
  differs ? h("span", { class: "best-move", "data-testid": "best-move" }, `best was ${bestWritten(p)}`) : null,
  h("span", { class: "move-figures muted" }, moveFigures(p)));
}

function moveFigures(p) {
  if (p.forced) return "the only move";
  if (p.not_analysed) return `not analysed: ${p.not_analysed}`;
  // Both values from the mover's side, so that the next row's value (the opponent's) is not read as this one's "after".
  const before = p.value_text ?? (p.value === null ? null : evalText(p.value));
  const played = p.played_text ?? (p.played_value === null || p.played_value === undefined ? null : evalText(p.played_value));
  const parts = [before === null ? "not valued" : `mover: ${before}${played === null ? "" : ` → ${played}`}`];
  if (p.drop !== undefined) parts.push(p.drop === null ? "loss not known" : `gave away ${Math.round(p.drop * 100)}% winning chances`);
  else parts.push(p.loss === null ? "loss not known" : `lost ${p.loss.toFixed(2)}`);
  if (p.cube) parts.push("cube decision: money equity per unit of the cube");
  if (p.exact) parts.push("exact");
  return parts.join(" · ");
}

function evalText(value) {
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}`;
}

/** How the evaluations read in this game (`chances.shown_as`): pawns, equity or winning chances. */
function valueWords() {
  const shown = (analysis.chances || {}).shown_as;
  if (shown === "pawns") return "Evaluations are in pawns (+1.00: a pawn up), #3 a mate in three moves, #-3 mated in three.";
  if (shown === "equity") return "Evaluations are equity: the points the player can expect to win (cubeless; a gammon counts 2).";
  return "Evaluations are the player's winning chances (a draw counting half).";
}

/** A move's expected score for `seat`, 0..1, or null; older analyses had none: their values, read from -max..max. */
function seatChance(p, seat, twoSeats, max) {
  if (p.seat_chances) return p.seat_chances[seat] ?? null;
  const value = seatValue(p, seat, twoSeats);
  return value === null ? null : (Math.max(-max, Math.min(max, value)) / max + 1) / 2;
}

/** A position's value for `seat`, or null where the analysis does not know it (older analyses: the mover's only). */
function seatValue(p, seat, twoSeats) {
  if (p.seat_values) return p.seat_values[seat] ?? null;
  if (p.value === null || p.value === undefined) return null;
  if (p.seat === seat) return p.value;
  return twoSeats ? -p.value : null;
}

const DASHES = ["", "7 4", "2 3", "10 3 2 3"];

/**
 * The evaluation position by position, ending at the result: for two seats from the
 * first seat's view (above the middle: better for it); for more, one line per seat,
 * told apart by colour, dashes and the seat's shape at the line's end.
 */
function evalGraph(plies, max, seats) {
  const twoSeats = seats.length === 2;
  const returns = analysis.result && Array.isArray(analysis.result.returns) ? analysis.result.returns : null;
  const width = 600;
  const height = 200;
  const pad = 10;
  const n = Math.max(1, plies.length - (returns && returns.length ? 0 : 1));
  const x = (i) => pad + (i * (width - 2 * pad)) / n;
  const y = (c) => height - pad - Math.max(0, Math.min(1, c)) * (height - 2 * pad); // an expected score, 0..1
  const svg = s("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "eval-svg",
    role: "img",
    "aria-label": twoSeats
      ? `Winning chances over ${plies.length} moves, from ${playerWords(seatPlayer(0))}'s side`
      : `Winning chances over ${plies.length} moves, one line per player`,
  },
  s("rect", { x: 0, y: 0, width, height, class: "eval-bg" }),
  s("line", { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: "eval-mid" }));
  const ends = [];
  for (const seat of twoSeats ? [0] : seats) {
    const points = plies.map((p, i) => ({ i, value: seatChance(p, seat, twoSeats, max), judged: p }))
      .filter((pt) => pt.value !== null);
    if (returns && returns.length) points.push({ i: plies.length, value: finalScore(returns, seat), judged: null });
    if (!points.length) continue;
    const line = points.map((pt, k) => `${k ? "L" : "M"}${x(pt.i).toFixed(1)} ${y(pt.value).toFixed(1)}`).join(" ");
    if (twoSeats) {
      const ends = `L${x(points[points.length - 1].i).toFixed(1)} ${height / 2} L${x(points[0].i).toFixed(1)} ${height / 2} Z`;
      svg.append(s("path", { d: `${line} ${ends}`, class: "eval-area" }));
    }
    svg.append(s("path", {
      d: line,
      class: `eval-line${twoSeats ? "" : ` seat-${seat}`}`,
      "stroke-dasharray": twoSeats ? null : DASHES[seat % DASHES.length] || null,
      "data-testid": "eval-line",
      "data-seat": seat,
    }));
    for (const pt of points) {
      if (!pt.judged || !pt.judged.class || (!twoSeats && pt.judged.seat !== seat)) continue;
      svg.append(s("circle", {
        cx: x(pt.i).toFixed(1),
        cy: y(pt.value).toFixed(1),
        r: pt.judged.class === "blunder" ? 6 : 4.5,
        class: `eval-point ${pt.judged.class}`,
      }, s("title", {}, `Move ${pt.judged.ply + 1}: ${pt.judged.notation || pt.judged.move}, ${CLASSES[pt.judged.class].words}`)));
    }
    if (!twoSeats) svg.append(lineEnd(seat, x(points[points.length - 1].i), y(points[points.length - 1].value), ends));
  }
  return svg;
}

/** The result as a score for `seat`: 1 ahead of every other seat, 0 behind every one, a tie half. */
function finalScore(returns, seat) {
  const others = returns.filter((_, i) => i !== seat);
  if (!others.length) return 0.5;
  const beaten = others.reduce((n, r) => n + (returns[seat] > r ? 1 : returns[seat] === r ? 0.5 : 0), 0);
  return beaten / others.length;
}

/** The seat's disc and shape where its line ends; moved left of another seat's end it would hide. */
function lineEnd(seat, cx, cy, ends) {
  let x = cx;
  while (ends.some((e) => Math.abs(e.x - x) < 14 && Math.abs(e.y - cy) < 14)) x -= 16;
  ends.push({ x, y: cy });
  return s("g", { class: `seat-mark seat-${seat}`, "data-testid": "eval-seat-end" },
    s("circle", { cx: x, cy, r: 7, class: "disc" }),
    discSymbol(seat, x, cy, 7),
    s("title", {}, playerWords(seatPlayer(seat))));
}

// --- the position at each move --------------------------------------------------

/** The board module (named by the catalogue, as in the match room) and every position of the match, once. */
function loadViewer() {
  viewer.loading ||= Promise.all([
    catalogue.load().then(() => import(`./boards/${catalogue.boardFile(match.game)}`)),
    api(`/api/matches/${matchId}/positions/`),
  ]).then(([module, body]) => {
    viewer.module = module;
    viewer.positions = body.positions || [];
    viewer.board = module.createBoard(el.board, { onMove: () => {}, seatName: (seat) => markName(match.game, seat) });
    el.board.dataset.game = match.game;
    if (module.moveText) el.moves.replaceChildren(...(analysis.plies || []).map(moveItem)); // in the viewer's numbering now
    showPosition(viewer.index);
  }).catch(() => {
    el.caption.textContent = "The board could not be loaded; the moves below still tell the game.";
    viewer.loading = null;
  });
}

/** Steps: 0 .. plies.length - 1 are the positions before each judged move, plies.length the end. */
function lastStep() {
  return analysis && analysis.plies ? analysis.plies.length : 0;
}

function showPosition(index) {
  viewer.index = Math.max(0, Math.min(lastStep(), index));
  markSelected();
  if (!viewer.board || !viewer.positions) return;
  const plies = analysis.plies || [];
  const judged = plies[viewer.index] || null;
  const at = judged ? judged.ply : viewer.positions.length - 1;
  const state = viewer.positions[Math.min(at, viewer.positions.length - 1)];
  const previous = (match.moves || []).filter((m) => m.ply < at && m.seat >= 0).pop() || null;
  viewer.board.render({
    state,
    legalMoves: [],
    interactive: false,
    lastMove: previous ? previous.move : null,
    lastSeat: previous ? previous.seat : null,
    seatToMove: null,
    yourSeat: null,
  });
  el.board.dataset.step = String(viewer.index);
  const marked = judged && !judged.forced ? markBestMove(state, judged.best_move) : false;
  el.caption.textContent = judged ? stepCaption(judged, marked) : `The final position, after ${plies.length} moves.`;
}

/**
 * Draws the best move with the board module's optional `moveMarker(state, move, svg)` (an
 * SVG element to add over the board as drawn); else outlines the move's target if the board has one.
 */
function markBestMove(state, move) {
  const svg = el.board.querySelector("svg");
  const marker = viewer.module.moveMarker && svg ? viewer.module.moveMarker(state, move, svg) : null;
  if (marker) {
    marker.classList.add("best-move-marker");
    svg.append(marker);
    return true;
  }
  const target = el.board.querySelector(`[data-move="${CSS.escape(move)}"]`);
  if (!target) return false;
  target.classList.add("best-move-marker");
  target.dataset.testid = "move-marker";
  target.style.outline = "4px dashed #0a7d33";
  return true;
}

/** The seat the page's person holds in this match (the numbering they play with), or null. */
function viewerSeat() {
  const me = page.player;
  const entry = me && match.seats.find((x) => x.player && !isBot(x.player) && String(x.player.id) === String(me.id));
  return entry ? entry.index : null;
}

/**
 * A move as the rows write it: the game's own notation of the move played (SAN in chess),
 * else the board's text in the viewer's numbering (backgammon), else the move.
 */
function written(move, seat, ply = null) {
  const played = ply === null ? null : (match.moves || []).find((m) => m.ply === ply);
  if (played && played.move === move && played.notation && played.notation !== move) return played.notation;
  return viewer.module && viewer.module.moveText ? viewer.module.moveText(move, seat, viewerSeat()) : move;
}

/** The best move in the game's notation (SAN in chess), with the line that follows it where known. */
function bestWritten(p) {
  const line = p.best_line || [];
  const first = p.best_notation && p.best_notation !== p.best_move ? p.best_notation : written(p.best_move, p.seat);
  return line.length > 1 ? `${first} (${line.slice(1, 6).join(" ")})` : first;
}

/** `move` (played by `seat`) in words, in the viewer's numbering where the board has one. */
function describe(move, seat) {
  return viewer.module && viewer.module.describeMove ? viewer.module.describeMove(move, seat, viewerSeat()) : move;
}

function stepCaption(p, marked) {
  const who = playerWords(seatPlayer(p.seat));
  const played = `Move ${p.ply + 1}: ${who} to play${p.roll ? ` (${p.roll})` : ""}, played ${describe(p.move, p.seat)}`;
  const verdict = p.class ? ` (${CLASSES[p.class].words})` : "";
  const shown = marked ? ", marked on the board" : "";
  const lost = p.loss > 0;
  if (p.forced) return `${played}, the only move.`;
  if (p.not_analysed) return `${played}: not analysed (${p.not_analysed}).`;
  if (p.best_move === p.move && !lost) return `${played}: the best move${shown}.`;
  if (p.best_move === p.move) {
    // Chosen by the search here, proven worse by the search of the position it led to.
    return `${played}${verdict}: the move the search preferred here${shown}, but the position after it ` +
      `is known to be worse (lost ${p.loss.toFixed(2)}).`;
  }
  if (!lost) return `${played}: as good as the best move found, ${describe(p.best_move, p.seat)}${shown}.`;
  const best = p.best_notation && p.best_notation !== p.best_move ? bestWritten(p) : describe(p.best_move, p.seat);
  return `${played}${verdict}; best was ${best}${shown}.`;
}

/** The step shown: its move row and a cursor on the graph. */
function markSelected() {
  for (const row of el.moves.querySelectorAll("li[data-ply]")) {
    const selected = row === el.moves.children[viewer.index];
    row.toggleAttribute("aria-current", selected);
    if (selected) row.setAttribute("aria-current", "step");
    row.style.outline = selected ? "2px solid currentColor" : "";
  }
  const svg = el.graph.querySelector("svg");
  if (!svg) return;
  svg.querySelector('[data-testid="eval-cursor"]')?.remove();
  const x = graphX(viewer.index);
  svg.append(s("line", {
    x1: x, y1: 0, x2: x, y2: GRAPH.height, stroke: "currentColor", "stroke-width": 2,
    "stroke-dasharray": "4 3", "data-testid": "eval-cursor", "pointer-events": "none",
  }));
}

/** The graph's geometry (`evalGraph`): x of step `i`, and the step nearest an x. */
const GRAPH = { width: 600, height: 200, pad: 10 };
function graphSteps() {
  const plies = analysis.plies || [];
  const returns = analysis.result && Array.isArray(analysis.result.returns) ? analysis.result.returns : null;
  return Math.max(1, plies.length - (returns && returns.length ? 0 : 1));
}
function graphX(i) {
  return GRAPH.pad + (i * (GRAPH.width - 2 * GRAPH.pad)) / graphSteps();
}

function stepFromGraph(event) {
  const svg = el.graph.querySelector("svg");
  if (!svg) return;
  const box = svg.getBoundingClientRect();
  const x = ((event.clientX - box.left) / box.width) * GRAPH.width;
  showPosition(Math.round(((x - GRAPH.pad) * graphSteps()) / (GRAPH.width - 2 * GRAPH.pad)));
}

const STEP_KEYS = {
  ArrowLeft: () => viewer.index - 1,
  ArrowRight: () => viewer.index + 1,
  Home: () => 0,
  End: () => lastStep(),
};
const STEP_BUTTONS = { first: STEP_KEYS.Home, previous: STEP_KEYS.ArrowLeft, next: STEP_KEYS.ArrowRight, last: STEP_KEYS.End };

document.addEventListener("keydown", (event) => {
  if (!analysis || analysis.status !== "done" || !(event.key in STEP_KEYS)) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
  event.preventDefault();
  showPosition(STEP_KEYS[event.key]());
});
el.steps.addEventListener("click", (event) => {
  const button = event.target.closest("[data-step]");
  if (button && analysis && analysis.status === "done") showPosition(STEP_BUTTONS[button.dataset.step]());
});
el.graph.addEventListener("click", stepFromGraph);
el.moves.addEventListener("click", (event) => {
  const row = event.target.closest("li[data-ply]");
  if (row) showPosition([...el.moves.children].indexOf(row));
});

start();

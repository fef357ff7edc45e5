// The analysis page: asks for a finished match's analysis (idempotent), shows its
// progress while the strongest bot searches every position, then an evaluation
// graph, the moves with inaccuracies, mistakes and blunders marked, and the best
// move where the played one lost value.

import { ApiError, api, getMatch } from "./api.js";
import { announce, h, pageData, s } from "./dom.js";
import { LiveSocket } from "./socket.js";
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
};

let match = null;
let analysis = null;
let pollTimer = null;

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
  const search = analysis.search || analysis.engine || {};
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
    ? "Waiting for a computer to start the analysis…"
    : `Analysing position ${Math.min(progress + 1, total)} of ${total}…`;
  const bar = el.progress.querySelector(".budget");
  bar.setAttribute("aria-valuenow", String(Math.round(share * 100)));
  el.progress.querySelector(".budget-fill").style.width = `${(share * 100).toFixed(1)}%`;
}

function renderResults() {
  const plies = analysis.plies || [];
  const max = analysis.max_utility || 1;
  const seats = match.seats.map((x) => x.index).sort((a, b) => a - b);
  el.graph.replaceChildren(evalGraph(plies, max, seats));
  el.graphHelp.textContent = seats.length === 2
    ? `Above the middle line ${playerWords(seatPlayer(0))} is better, below it ${playerWords(seatPlayer(1))}; ` +
      "marked points are the positions before a mistake."
    : "One line per player, each with its own colour, dashes and shape: higher is better for that player " +
      `(+${max} a win, -${max} last place). Marked points are the positions before a mistake.`;
  const t = analysis.thresholds || {};
  const scale = max === 1 ? "of a win's value" : `of the biggest win (worth ${max}: ${+(t.inaccuracy * max).toFixed(2)} and more)`;
  el.legend.textContent = `A move is an inaccuracy (?!) when it loses at least ${t.inaccuracy} ${scale}, ` +
    `a mistake (?) from ${t.mistake}, a blunder (??) from ${t.blunder}: a lost win or a lost draw is a blunder.` +
    (plies.some((p) => p.roll) ? " Rolls of the dice are not judged; a move that was the only one possible is never a mistake." : "");
  el.summary.replaceChildren(...seats.map((seat) => {
    const counts = Object.keys(CLASSES).map((name) => {
      const n = plies.filter((p) => p.seat === seat && p.class === name).length;
      return `${n} ${n === 1 ? name : CLASSES[name].plural}`;
    });
    return h("li", { "data-seat": seat }, seatMark(match.game, seat), playerLabel(seatPlayer(seat), { compact: true }), ": ", counts.join(", "));
  }));
  el.moves.replaceChildren(...plies.map(moveItem));
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
  h("span", { class: "move-text" }, p.move),
  isBot(seatPlayer(p.seat)) ? aiBadge(seatPlayer(p.seat).profile, { compact: true }) : null, // a bot's move says so (docs/design.md §6.1)
  cls ? h("span", { class: `judgement judgement-${p.class}`, title: cls.words, "data-testid": "judgement" }, cls.mark, h("span", { class: "visually-hidden" }, ` (${cls.words})`)) : null,
  differs ? h("span", { class: "best-move", "data-testid": "best-move" }, `best was ${p.best_move}`) : null,
  h("span", { class: "move-figures muted" }, moveFigures(p)));
}

function moveFigures(p) {
  if (p.forced) return "the only move";
  const parts = [p.value === null ? "not valued" : `${evalText(p.value)} before`];
  parts.push(p.loss === null ? "loss not known" : `lost ${p.loss.toFixed(2)}`);
  if (p.exact) parts.push("exact");
  return parts.join(" · ");
}

function evalText(value) {
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}`;
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
  const y = (v) => height / 2 - (Math.max(-max, Math.min(max, v)) / max) * (height / 2 - pad);
  const svg = s("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "eval-svg",
    role: "img",
    "aria-label": twoSeats
      ? `Evaluation over ${plies.length} moves, from ${playerWords(seatPlayer(0))}'s side`
      : `Evaluation over ${plies.length} moves, one line per player`,
  },
  s("rect", { x: 0, y: 0, width, height, class: "eval-bg" }),
  s("line", { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: "eval-mid" }));
  const ends = [];
  for (const seat of twoSeats ? [0] : seats) {
    const points = plies.map((p, i) => ({ i, value: seatValue(p, seat, twoSeats), judged: p }))
      .filter((pt) => pt.value !== null);
    if (returns && returns.length) points.push({ i: plies.length, value: returns[seat], judged: null });
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
      }, s("title", {}, `Move ${pt.judged.ply + 1}: ${pt.judged.move}, ${CLASSES[pt.judged.class].words}`)));
    }
    if (!twoSeats) svg.append(lineEnd(seat, x(points[points.length - 1].i), y(points[points.length - 1].value), ends));
  }
  return svg;
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

start();

// Backgammon board in SVG.  State (games.backgammon.to_json): `points` are 24
// counts in seat 0's numbering (index 0 is seat 0's 1-point; +n checkers of
// seat 0, -n of seat 1), `bar` and `off` per seat, `dice` the roll to play,
// `pips` per seat.  A move is a whole play in standard notation, in the
// mover's own numbering ("13/7* 8/5", "bar/22", "6/off", "pass"); dice rolls
// are moves of the pseudo-seat -1.  The board is drawn from seat 0's side;
// point numbers and plays are shown in the numbering of the player looking at it.
//
// Playing: the server sends the legal plays and, for each, its die-by-die steps (the
// match's `move_parts`, from games.backgammon.parts: a graph of positions, each with the
// steps that can come next and the legal play it is, if any).  The board offers the steps
// of the node it is at, draws the partial play, Undo takes a step back, and Confirm sends
// the node's play.  It never re-derives the rules: which steps a die allows is the server's.
//
// With the doubling cube (the match's options) the state also has `cube` ({value, owner:
// null while centred, action}), `match_to`, `score` and `crawford`; the cube actions
// ("double"/"roll" before the dice, "take"/"drop" when doubled) are legal moves the server
// sends like any other, offered as buttons.

import { h, s } from "../dom.js";
import { discSymbol } from "../players.js";
import { replaceKeepingMarkers } from "./markers.js";
import { Targets } from "./targets.js";

const BAR = 44; // bar width
const TRAY = 56;
const PAD = 12;
const FRAME_H = 520; // the playing area across the points
const STRIP = 28; // where the point numbers go, outside the points
const R = 21;
const POINT_LEN = 200;
const FORCED_DELAY_MS = 1200; // long enough to read the notice before the forced play goes
const DRAG_START_PX = 6;
const BAR_SPOT = 25; // the mover's numbering: 25 is the bar, 0 borne off
const OFF_SPOT = 0;
const CUBE_SIZE = 40;
// The cube's moves, as the buttons name them (games/backgammon/cube.py).
const CUBE_ACTIONS = { double: "Double", roll: "Roll", take: "Take", drop: "Drop" };
const isCubeMove = (move) => Object.hasOwn(CUBE_ACTIONS, move);

export const name = "Backgammon";
export const help =
  "Click (or drag) one of your checkers, then one of the highlighted points: each die is played on its own. " +
  "Undo (Backspace) takes a step back; Confirm (Enter) sends the play. Keyboard: arrow keys move between the " +
  "checkers you can move, Enter picks one and then its target. Resign concedes at once the most your opponent " +
  "could win: a backgammon times the cube (in a match, the match); Resign for points… offers less, if they accept.";

/**
 * `move` as the viewer reads it: plays are written in the mover's numbering, and a player
 * sees the board numbered from their own side (a spectator from seat 0's), so the other
 * seat's plays are renumbered (its 22-point is the viewer's 3-point).
 */
export function describeMove(move, seat = null, viewerSeat = null) {
  const text = String(move);
  const viewer = viewerSeat === 1 ? 1 : 0;
  if (typeof seat !== "number" || seat < 0 || seat === viewer || /^(open|roll|pass|double|take|drop)\b/.test(text)) return text;
  return text.replace(/(^|[\s/])(\d{1,2})(?=[*/\s(]|$)/g, (_, before, n) => `${before}${25 - Number(n)}`);
}

export function parseMove(text) {
  const t = String(text).trim().replace(/\s+/g, " ");
  return t || null;
}

export const replay = null; // hits and the bar are the rules' business: only the live position is drawn

// --- the partial play: drawing the steps the server offers ---------------------------------

/** The mover's checkers and the opponent's, both in the mover's numbering: [off, 1..24, bar]. */
function sidesOf(state, seat) {
  const me = Array(26).fill(0);
  const op = Array(26).fill(0);
  for (let p = 1; p <= 24; p += 1) {
    const n = state.points[seat === 0 ? p - 1 : 24 - p] * (seat === 0 ? 1 : -1);
    if (n > 0) me[p] = n;
    if (n < 0) op[p] = -n;
  }
  me[OFF_SPOT] = state.off[seat];
  op[OFF_SPOT] = state.off[1 - seat];
  me[BAR_SPOT] = state.bar[seat];
  op[BAR_SPOT] = state.bar[1 - seat];
  return { me, op };
}

/** The state JSON drawn for sides `me`/`op` of `seat` (a partial play), keeping the rest of `state`. */
function stateOf(state, seat, { me, op }) {
  const points = Array(24).fill(0);
  const sign = seat === 0 ? 1 : -1;
  for (let p = 1; p <= 24; p += 1) points[seat === 0 ? p - 1 : 24 - p] = sign * (me[p] - op[p]);
  const pair = (mine, theirs) => (seat === 0 ? [mine, theirs] : [theirs, mine]);
  const pips = (side) => side.reduce((sum, n, p) => sum + n * p, 0);
  return { ...state, points, bar: pair(me[BAR_SPOT], op[BAR_SPOT]), off: pair(me[OFF_SPOT], op[OFF_SPOT]), pips: pair(pips(me), pips(op)) };
}

const keyOf = ({ me, op }) => `${me.join(",")}|${op.join(",")}`;

function applyStep({ me, op }, step) {
  const m = [...me];
  const o = [...op];
  m[step.from] -= 1;
  m[step.to] += 1;
  if (step.hit) {
    o[step.to] -= 1;
    o[BAR_SPOT] += 1;
  }
  return { me: m, op: o };
}

/** Where a play in standard notation ("bar/22* 13/7(2)") leaves both sides; null if unreadable. */
function applyPlay({ me, op }, play) {
  const m = [...me];
  const o = [...op];
  for (const segment of play.toLowerCase().split(/\s+/)) {
    const counted = /^(.*?)(?:\((\d)\))?$/.exec(segment);
    const count = Number(counted[2] || 1);
    const route = counted[1].split("/").map((part) => ({
      point: part.startsWith("bar") ? BAR_SPOT : part.startsWith("off") ? OFF_SPOT : parseInt(part, 10),
      hit: part.endsWith("*"),
    }));
    if (route.length < 2 || route.some((hop) => !(hop.point >= 0 && hop.point <= BAR_SPOT))) return null;
    m[route[0].point] -= count;
    m[route[route.length - 1].point] += count;
    for (const hop of route.slice(1)) {
      if (hop.hit && o[hop.point] > 0) {
        o[hop.point] -= 1;
        o[BAR_SPOT] += 1;
      }
    }
  }
  return { me: m, op: o };
}

function without(dice, die) {
  const rest = [...dice];
  rest.splice(rest.indexOf(die), 1);
  return rest;
}

const SPOTS = { bar: BAR_SPOT, off: OFF_SPOT };

/** A step as the server writes it ("6:13/7", "4:bar/21*", "5:3/off"): {from, to, hit, die}; null if unreadable. */
export function parseStep(text) {
  const found = /^([1-6]):(bar|\d{1,2})\/(off|\d{1,2})(\*?)$/.exec(String(text));
  if (!found) return null;
  const spot = (name) => SPOTS[name] ?? Number(name);
  return { die: Number(found[1]), from: spot(found[2]), to: spot(found[3]), hit: found[4] === "*" };
}

/**
 * The turn's steps as the server's graph gives them (`moveParts`, node 0 the start).
 * offered(sides, left) lists the steps from that position with those dice left, the smallest
 * die when two take a checker to the same place (bearing off); playAt(sides) names the legal
 * play ending there.  Positions are found by playing the graph's steps from `start`.
 */
export function planTurn(start, dice, moveParts) {
  const nodes = new Map(); // position and dice left -> the node's steps
  const endings = new Map(); // position -> the legal play it is
  const placeOf = (sides, left) => `${keyOf(sides)}#${[...left].sort().join("")}`;
  const visit = (index, sides, left) => {
    const place = placeOf(sides, left);
    if (nodes.has(place) || !moveParts || !moveParts[index]) return;
    const node = moveParts[index];
    const steps = [];
    nodes.set(place, steps);
    if (node.move) endings.set(keyOf(sides), node.move);
    for (const [text, next] of node.parts || []) {
      const step = parseStep(text);
      if (!step || !left.includes(step.die)) continue;
      steps.push(step);
      visit(next, applyStep(sides, step), without(left, step.die));
    }
  };
  visit(0, start, dice);
  function offered(sides, left) {
    const found = new Map(); // "from-to" -> step
    const steps = [...(nodes.get(placeOf(sides, left)) || [])].sort((a, b) => a.die - b.die);
    for (const step of steps) if (!found.has(`${step.from}-${step.to}`)) found.set(`${step.from}-${step.to}`, step);
    return [...found.values()];
  }
  return { offered, playAt: (sides) => endings.get(keyOf(sides)) || null };
}

// --- drawing ----------------------------------------------------------------------------------

/**
 * Sizes along the board (x: the long axis, 12 points and the bar and tray) and across it (y).
 * A narrow screen turns the board upright and widens the points so a finger can hit them.
 */
function layout(portrait) {
  const W = portrait ? 64 : 50;
  const boardW = 12 * W + BAR;
  return { portrait, W, boardW, long: PAD * 2 + boardW + TRAY, across: FRAME_H + 2 * STRIP };
}

/** Left edge of seat 0's point p (1..24) and whether it hangs from the top. */
function pointBox(L, p) {
  const col = p <= 12 ? 12 - p : p - 13; // 1 is bottom right, 13 top left
  return { x: PAD + col * L.W + (col >= 6 ? BAR : 0), top: p > 12 };
}

/** Seat 0's points touched by a play of `seat`: [from..., to...]. */
export function playPoints(move, seat) {
  const toSeat0 = (n) => (seat === 1 ? 25 - n : n);
  const touched = { from: new Set(), to: new Set() };
  for (const segment of String(move).split(" ")) {
    const parts = segment.replace(/\(\d+\)$/, "").split("/").map((x) => x.replace("*", ""));
    parts.forEach((part, i) => {
      const n = Number(part);
      if (!Number.isInteger(n) || n < 1 || n > 24) return;
      (i === 0 ? touched.from : touched.to).add(toSeat0(n));
    });
  }
  return touched;
}

/** Text that stays upright when the board is turned. */
function text(L, attrs, content) {
  const transform = L.portrait ? `rotate(-90 ${attrs.x} ${attrs.y})` : null;
  return s("text", { ...attrs, transform }, content);
}

function checker(seat, cx, cy, extra = "") {
  return s("g", { class: `checker seat-${seat} ${extra}`, "data-seat": seat },
    s("circle", { class: "checker-body", cx, cy, r: R }),
    discSymbol(seat, cx, cy, R));
}

function stack(L, layers, seat, count, cx, baseY, direction) {
  const shown = Math.min(count, 5);
  for (let i = 0; i < shown; i += 1) layers.push(checker(seat, cx, baseY + direction * (R + i * 2 * R)));
  if (count > 5) {
    layers.push(text(L, { class: "stack-count", x: cx, y: baseY + direction * (R + 4 * 2 * R) + 7 }, String(count)));
  }
}

function die(value, x, y, size, used) {
  const spots = {
    1: [[0.5, 0.5]],
    2: [[0.25, 0.25], [0.75, 0.75]],
    3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
    4: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
    5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
    6: [[0.25, 0.22], [0.75, 0.22], [0.25, 0.5], [0.75, 0.5], [0.25, 0.78], [0.75, 0.78]],
  }[value] || [];
  return s("g", { class: `die${used ? " used" : ""}`, "data-value": value },
    s("rect", { x, y, width: size, height: size, rx: 7 }),
    ...spots.map(([u, v]) => s("circle", { class: "pip", cx: x + u * size, cy: y + v * size, r: size * 0.09 })));
}

/** Centre of seat 0's point p where a checker stands (for arrows), or the bar / the tray for `seat`. */
function spotCentre(L, p, seat) {
  if (p === BAR_SPOT) return { x: PAD + 6 * L.W + BAR / 2, y: STRIP + FRAME_H / 2 + (seat === 0 ? 40 : -40) };
  if (p === OFF_SPOT) return { x: PAD * 1.5 + L.boardW + (TRAY - PAD) / 2, y: seat === 0 ? STRIP + FRAME_H - 90 : STRIP + 90 };
  const { x, top } = pointBox(L, p);
  return { x: x + L.W / 2, y: top ? STRIP + PAD + 3 * R : STRIP + FRAME_H - PAD - 3 * R };
}

function rootTransform(L) {
  return L.portrait ? `translate(${L.across} 0) rotate(90)` : null;
}

function viewBox(L) {
  return L.portrait ? `0 0 ${L.across} ${L.long}` : `0 0 ${L.long} ${L.across}`;
}

/** "3 of your checkers", "1 opposing checker", "empty": a point's `n` (seat 0's +, seat 1's -) as `viewer` sees it. */
function checkerWords(n, viewer, seatName) {
  if (!n) return "empty";
  const whose = n > 0 ? 0 : 1;
  const owner = viewer === null ? seatName(whose) : whose === viewer ? "of your" : "opposing";
  return `${Math.abs(n)} ${owner} checker${Math.abs(n) > 1 ? "s" : ""}`;
}

/** The die (or dice, "6+5") that takes the picked checker to the point at `at`. */
function dieTag(L, at, dice) {
  const width = 14 * String(dice).length + 16;
  const [w, high] = L.portrait ? [30, width] : [width, 30]; // the tag turns with its text
  return s("g", { class: "die-tag", "aria-hidden": "true" },
    s("rect", { x: at.x - w / 2, y: at.y - high / 2, width: w, height: high, rx: 15 }),
    text(L, { x: at.x, y: at.y, "dominant-baseline": "central" }, String(dice)));
}

/** The dice to play, those the partial play used greyed (all of them for a forced play). */
function diceFaces(L, faces, steps, allUsed) {
  const size = 40;
  const x = PAD + 9 * L.W + BAR - (faces.length * (size + 10)) / 2;
  const used = faces.map(() => allUsed);
  for (const step of steps) used[faces.findIndex((value, i) => value === step.die && !used[i])] = true;
  return faces.map((value, i) => die(value, x + i * (size + 10), STRIP + FRAME_H / 2 - size / 2, size, used[i]));
}

/**
 * The doubling cube in the tray: in the middle while centred, on its owner's side (seat 0 at
 * the bottom) once a double was taken; a centred cube shows 64, as on a real board.
 */
function cubeFace(L, cube) {
  const x = PAD * 1.5 + L.boardW + (TRAY - PAD) / 2;
  const middle = STRIP + FRAME_H / 2;
  const y = cube.owner === 0 ? middle + 110 : cube.owner === 1 ? middle - 110 : middle;
  const value = cube.owner === null || cube.owner === undefined ? (cube.value > 1 ? cube.value : 64) : cube.value;
  return s("g", { class: `bg-cube${cube.action === "double" ? " offered" : ""}`, "data-testid": "bg-cube", "data-value": cube.value, "data-owner": cube.owner ?? "", "aria-hidden": "true" },
    s("rect", { x: x - CUBE_SIZE / 2, y: y - CUBE_SIZE / 2, width: CUBE_SIZE, height: CUBE_SIZE, rx: 6 }),
    text(L, { x, y, "dominant-baseline": "central", "text-anchor": "middle" }, String(value)));
}

/** The cube and the match score in words: "Cube 2, yours · Match to 7: you 3, Orange 1 · Crawford game". */
function cubeWords(state, yourSeat, seatName) {
  if (!state || !state.cube) return "";
  const who = (seat) => (seat === yourSeat ? "you" : seatName(seat));
  const { value, owner } = state.cube;
  const parts = [owner === null || owner === undefined ? `Cube ${value}, centred` : `Cube ${value}, owned by ${who(owner)}`];
  if (state.match_to) {
    const score = state.score || [0, 0];
    parts.push(`Match to ${state.match_to}: ${who(0)} ${score[0]}, ${who(1)} ${score[1]}`);
    if (state.crawford === "game") parts.push("Crawford game: no doubling");
    else if (state.crawford === "after") parts.push("after the Crawford game");
  }
  return parts.join(" · ");
}

/** "the 6", or "the 6 then the 5" for a checker moving on with the next die. */
const diceWords = (target) => (target.steps || [target]).map((step) => `the ${step.die}`).join(" then ");
const spotName = (p) => (p === BAR_SPOT ? "bar" : p === OFF_SPOT ? "off" : String(p));
const stepText = (step) => `${spotName(step.from)}/${spotName(step.to)}${step.hit ? "*" : ""}`;

export function createBoard(container, { onMove, seatName = (seat) => `seat ${seat + 1}` }) {
  const svg = s("svg", { class: "board-svg board-backgammon", role: "group", "aria-label": "Backgammon board", tabindex: "-1" });
  const summary = h("p", { class: "bg-summary", "data-testid": "bg-summary" });
  const notice = h("p", { class: "bg-notice", role: "status", "data-testid": "bg-notice", hidden: true });
  const prompt = h("p", { class: "bg-prompt", "data-testid": "bg-prompt", "aria-live": "polite" });
  const undo = h("button", { type: "button", class: "bg-undo", "data-testid": "bg-undo", "aria-keyshortcuts": "Backspace" }, "Undo");
  const confirm = h("button", { type: "button", class: "bg-confirm primary", "data-testid": "bg-confirm", "aria-keyshortcuts": "Enter" }, "Confirm");
  const controls = h("div", { class: "bg-controls", hidden: true }, undo, confirm, prompt);
  // The cube's score line, and its actions when one is the player's to take (buttons: Tab and Enter reach them).
  const cubeLine = h("p", { class: "bg-cube-line", "data-testid": "bg-score", hidden: true });
  const cubePrompt = h("span", { class: "bg-cube-prompt", "data-testid": "bg-cube-prompt" });
  const cubeActions = h("div", { class: "bg-cube-actions", role: "group", "aria-label": "Doubling cube", "data-testid": "bg-cube-actions", hidden: true }, cubePrompt);
  // Whole plays as text, for screen readers and the keyboard: out of sight until focused.
  const plays = h("div", { class: "bg-plays", role: "group", "aria-label": "Legal plays as text" });
  const wrap = h("div", { class: "bg-wrap" }, summary, cubeLine, notice, svg, cubeActions, controls, plays);
  container.replaceChildren(wrap);
  const targets = new Targets(plays, 4, onMove);
  const narrow = window.matchMedia("(max-width: 560px)");

  let view = null;
  let turn = null; // {key, seat, start, dice, plan, steps, forced}: the turn being played here
  let selected = null; // the mover's spot whose checker is picked
  let cursor = null; // the keyboard's spot
  let press = null; // a pointer held down on the board
  let previewMove = null; // a whole play from the text list, shown on the board
  let forcedTimer = null;
  let drawnView = null; // the view last drawn: what a page drew over it stays while it is shown

  // --- the turn --------------------------------------------------------------------------

  /** The turn being played is the position shown (not an earlier one being browsed). */
  function showing() {
    return Boolean(turn && view && view.state && turnKey(view.state) === turn.key);
  }

  /** The player may act on it: their move, nothing on its way to the server, not forced. */
  function playing() {
    return showing() && Boolean(view.interactive) && !turn.forced;
  }

  function current() {
    return turn.steps.reduce((sides, step) => applyStep(sides, step), turn.start);
  }

  function diceLeft() {
    return turn.steps.reduce((left, step) => without(left, step.die), turn.dice);
  }

  function offeredNow() {
    return playing() ? turn.plan.offered(current(), diceLeft()) : [];
  }

  function complete() {
    return playing() ? turn.plan.playAt(current()) : null;
  }

  const turnKey = (state) => JSON.stringify([state.ply, state.dice, state.points, state.bar, state.off]);

  /**
   * A new turn when it is ours in a new position; the partial play of the same turn stays
   * (while the play is on its way, or an earlier position is browsed and left again).
   */
  function startTurn() {
    const { state, legalMoves = [], moveParts = null, interactive, yourSeat } = view;
    const ours = interactive && state && Array.isArray(state.dice) && state.dice.length === 2 && yourSeat !== null && state.turn === yourSeat;
    if (!ours || (turn && turnKey(state) === turn.key)) return;
    window.clearTimeout(forcedTimer);
    forcedTimer = null;
    selected = null;
    cursor = null;
    const [a, b] = state.dice;
    const dice = a === b ? [a, a, a, a] : [a, b];
    const start = sidesOf(state, yourSeat);
    turn = { key: turnKey(state), seat: yourSeat, start, dice, plan: planTurn(start, dice, moveParts), steps: [], forced: null, shown: null };
    notice.hidden = true;
    if (legalMoves.length === 1) playForced(legalMoves[0], state.dice);
  }

  /** A turn with one legal play (or none): made for the player, after saying so. */
  function playForced(move, dice) {
    const roll = dice.join("-");
    notice.textContent = move === "pass"
      ? `No checker can move with ${roll}: your turn passes.`
      : `Only one play is possible with ${roll}: ${move}. It is played for you.`;
    notice.hidden = false;
    turn.forced = move;
    turn.forcedSends = 0;
    if (move !== "pass") turn.shown = applyPlay(turn.start, move);
    sendForcedSoon();
  }

  /**
   * Send the forced play after the notice was seen.  Checked again on each drawing: a play held
   * back while an earlier position was browsed goes when the live one is back, and one the
   * server did not take (the page is ours to play again) is sent once more.
   */
  function sendForcedSoon() {
    if (forcedTimer !== null || !turn || !turn.forced || turn.forcedSends >= 2) return;
    const forTurn = turn;
    forcedTimer = window.setTimeout(() => {
      forcedTimer = null;
      if (turn !== forTurn || !showing() || !view.interactive) return;
      turn.forcedSends += 1;
      onMove(turn.forced);
    }, FORCED_DELAY_MS);
  }

  /** Play a target: one die's step, or a checker's route over several dice. */
  function playStep(target) {
    const action = turn.steps.length ? turn.steps[turn.steps.length - 1].action + 1 : 0;
    turn.steps.push(...(target.steps || [target]).map((step) => ({ ...step, action })));
    selected = null;
    const next = offeredNow();
    cursor = next.length ? next[0].from : null;
    draw();
  }

  function undoStep() {
    if (!playing() || !turn.steps.length) return;
    // What one click or drag played goes back together: a die's step, or a checker's route.
    const { action } = turn.steps[turn.steps.length - 1];
    const first = turn.steps.findIndex((step) => step.action === action);
    cursor = turn.steps[first].from;
    turn.steps.splice(first);
    selected = null;
    draw();
  }

  function confirmPlay() {
    const play = complete();
    if (!play) return;
    onMove(play); // the page draws the board again, no longer ours to play while the play is on its way
    draw();
  }

  function movableSpots() {
    return [...new Set(offeredNow().map((step) => step.from))];
  }

  /**
   * Where the checker on `spot` can go: each die's step, and the points it reaches by moving on
   * with the other dice (marked "6+5"), when every way there leaves the same position.
   */
  function targetsOf(spot) {
    if (!playing()) return [];
    const single = offeredNow().filter((step) => step.from === spot);
    const routes = new Map(); // to -> {steps, key}, or null when two ways there differ (a hit on the way or not)
    const walk = (sides, left, from, path) => {
      for (const step of turn.plan.offered(sides, left)) {
        if (step.from !== from) continue;
        const next = applyStep(sides, step);
        const route = [...path, step];
        if (route.length > 1 && !single.some((t) => t.to === step.to)) {
          const known = routes.get(step.to);
          if (known === undefined) routes.set(step.to, { steps: route, key: keyOf(next) });
          else if (known && known.key !== keyOf(next) && known.steps.length === route.length) routes.set(step.to, null);
        }
        if (step.to !== OFF_SPOT) walk(next, without(left, step.die), step.to, route);
      }
    };
    walk(current(), diceLeft(), spot, []);
    const combined = [...routes].filter(([, route]) => route).map(([to, { steps }]) => ({
      from: spot, to, steps, hit: steps.some((step) => step.hit), die: steps.map((step) => step.die).join("+"),
    }));
    return [...single, ...combined];
  }

  /** What a click (or Enter) on the mover's `spot` does. */
  function activate(spot) {
    if (!playing()) return;
    const step = selected !== null ? targetsOf(selected).find((t) => t.to === spot) : null;
    if (step) {
      playStep(step);
      return;
    }
    if (spot === selected) selected = null;
    else if (movableSpots().includes(spot)) selected = spot;
    cursor = spot;
    draw();
  }

  // --- drawing -----------------------------------------------------------------------------

  function spotOf(node) {
    const found = node && node.closest ? node.closest("[data-spot]") : null;
    return found && svg.contains(found) ? Number(found.dataset.spot) : null;
  }

  /** Seat 0's point for the mover's spot (bar and off are their own). */
  const seat0 = (spot) => (spot === BAR_SPOT || spot === OFF_SPOT || !turn || turn.seat === 0 ? spot : 25 - spot);

  function draw() {
    if (!view) return;
    const L = layout(narrow.matches);
    // The focus on a point, or on Undo or Confirm (which a redraw may disable), stays on the board.
    const button = controls.contains(document.activeElement) ? document.activeElement : null;
    const hadFocus = svg.contains(document.activeElement) || button !== null;
    const { state, lastMove = null, seatToMove = null, yourSeat = null } = view;
    const live = showing();
    const sides = live ? turn.shown || current() : null;
    const shown = live && state ? stateOf(state, turn.seat, sides) : state;
    const points = shown && Array.isArray(shown.points) ? shown.points : Array(24).fill(0);
    const bar = (shown && shown.bar) || [0, 0];
    const off = (shown && shown.off) || [0, 0];
    const label = (p) => (yourSeat === 1 ? 25 - p : p);
    const offered = offeredNow();
    const movable = new Set(offered.map((step) => step.from));
    const targetsHere = selected !== null ? targetsOf(selected) : [];
    const targetAt = new Map(targetsHere.map((step) => [step.to, step]));
    const preview = previewMove ? playPoints(previewMove, seatToMove) : null;

    const frameY = STRIP;
    const layers = [s("rect", { class: "bg-frame", x: 0, y: 0, width: L.long, height: L.across, rx: 10 })]; // the numbers sit on its rim
    layers.push(s("rect", { class: "bg-bar", x: PAD + 6 * L.W, y: frameY + PAD, width: BAR, height: FRAME_H - 2 * PAD }));
    layers.push(s("rect", { class: "bg-tray", x: PAD * 1.5 + L.boardW, y: frameY + PAD, width: TRAY - PAD, height: FRAME_H - 2 * PAD, rx: 6 }));
    const lastTouched = !live && lastMove && !/^(open|roll) /.test(lastMove) ? playPoints(lastMove, view.lastSeat ?? seatToMove) : null;
    const spots = []; // interactive nodes, by the mover's spot
    const spotNode = (spot, classes, hit, aria) => {
      const step = targetAt.get(spot);
      if (movable.has(spot)) classes.push("movable");
      if (spot === selected) classes.push("selected");
      if (step) classes.push(step.steps ? "target route" : "target");
      if (spot === cursor && live) classes.push("cursor");
      const actionable = movable.has(spot) || Boolean(step);
      const node = s("g", {
        class: classes.join(" "),
        "data-spot": spot,
        "data-die": step ? step.die : null,
        role: live ? "button" : null,
        "aria-label": aria + (step ? `: move here with ${diceWords(step)}` : movable.has(spot) ? (spot === selected ? ", picked" : ", can move") : ""),
        "aria-pressed": live && movable.has(spot) ? String(spot === selected) : null,
        "aria-disabled": live ? String(!actionable) : null,
        tabindex: live ? "-1" : null,
      }, hit);
      spots.push(node);
      return node;
    };

    for (let p = 1; p <= 24; p += 1) {
      const { x, top } = pointBox(L, p);
      const base = top ? frameY + PAD : frameY + FRAME_H - PAD;
      const tip = top ? base + POINT_LEN : base - POINT_LEN;
      const classes = ["point", p % 2 === 0 ? "even" : "odd"];
      if (lastTouched && (lastTouched.from.has(p) || lastTouched.to.has(p))) classes.push("last-move");
      if (preview && preview.from.has(p)) classes.push("from");
      if (preview && preview.to.has(p)) classes.push("to");
      const n = points[p - 1];
      const spot = live ? (turn.seat === 0 ? p : 25 - p) : null;
      const whose = n > 0 ? 0 : 1;
      const shapes = [
        s("rect", { class: "hit", x, y: top ? frameY : frameY + FRAME_H / 2, width: L.W, height: FRAME_H / 2 }),
        s("path", { class: "triangle", d: `M${x} ${base} L${x + L.W} ${base} L${x + L.W / 2} ${tip} Z` }),
      ];
      const g = live
        ? spotNode(spot, classes, shapes, `Point ${label(p)}, ${checkerWords(n, yourSeat, seatName)}`)
        : s("g", { class: classes.join(" ") }, shapes);
      g.setAttribute("data-point", p);
      layers.push(g);
      const labelY = top ? frameY - STRIP / 2 + 2 : frameY + FRAME_H + STRIP / 2 - 2;
      layers.push(text(L, { class: "point-label", x: x + L.W / 2, y: labelY, "dominant-baseline": "central", "aria-hidden": "true" }, String(label(p))));
      if (n) stack(L, layers, whose, Math.abs(n), x + L.W / 2, base, top ? 1 : -1);
    }
    const barX = PAD + 6 * L.W + BAR / 2;
    if (live) {
      const mineBottom = turn.seat === 0;
      const y = mineBottom ? frameY + FRAME_H / 2 : frameY + PAD;
      layers.push(spotNode(BAR_SPOT, ["bar-spot"], s("rect", { class: "hit", x: barX - BAR / 2, y, width: BAR, height: FRAME_H / 2 - PAD }), `Bar, ${turn.start.me[BAR_SPOT] ? "your checkers to enter" : "none of yours"}`));
      const trayX = PAD * 1.5 + L.boardW;
      const ty = mineBottom ? frameY + FRAME_H / 2 : frameY + PAD;
      layers.push(spotNode(OFF_SPOT, ["off-spot"], s("rect", { class: "hit", x: trayX, y: ty, width: TRAY - PAD, height: FRAME_H / 2 - PAD, rx: 6 }), `Bear off, ${off[turn.seat]} borne off`));
    }
    if (bar[0]) stack(L, layers, 0, bar[0], barX, frameY + FRAME_H / 2 + 8, 1);
    if (bar[1]) stack(L, layers, 1, bar[1], barX, frameY + FRAME_H / 2 - 8, -1);
    const trayX = PAD * 1.5 + L.boardW + (TRAY - PAD) / 2;
    layers.push(text(L, { class: "off-count", x: trayX, y: frameY + FRAME_H - PAD - 10 }, `${off[0]}`));
    layers.push(text(L, { class: "off-count", x: trayX, y: frameY + PAD + 26 }, `${off[1]}`));
    for (const [to, step] of targetAt) layers.push(dieTag(L, spotCentre(L, seat0(to), turn.seat), step.die));
    if (state && state.cube) layers.push(cubeFace(L, state.cube));
    const dice = (state && state.dice) || [];
    layers.push(...diceFaces(L, live ? turn.dice : dice, live ? turn.steps : [], live && Boolean(turn.forced)));

    const root = s("g", { class: "bg-root", transform: rootTransform(L) }, ...layers);
    svg.setAttribute("viewBox", viewBox(L));
    svg.dataset.portrait = String(L.portrait);
    // A preview, a focus or the board turning upright keeps the analysis page's arrows.
    replaceKeepingMarkers(svg, view === drawnView, [root], (move) => moveMarker(state, move, svg));
    drawnView = view;

    // Roving focus: one tab stop, at the cursor (or the first checker that can move).
    const order = keyboardOrder();
    if (live && (cursor === null || !order.includes(cursor))) cursor = order[0] ?? null;
    for (const node of spots) node.setAttribute("tabindex", Number(node.dataset.spot) === cursor ? "0" : "-1");
    drawControls(dice);
    drawCube();
    drawPlays();
    if (hadFocus && !(button && !button.disabled && !controls.hidden)) focus();
  }

  function drawControls(dice) {
    controls.hidden = !showing() || Boolean(turn.forced);
    if (controls.hidden) return;
    const play = complete();
    undo.disabled = !playing() || !turn.steps.length;
    confirm.disabled = !play;
    confirm.dataset.play = play || "";
    const playedSoFar = turn.steps.map(stepText).join(" ");
    const left = diceLeft();
    if (!playing()) prompt.textContent = playedSoFar ? `Sending ${playedSoFar}…` : "";
    else if (play && !offeredNow().length) prompt.textContent = `Your play: ${play}. Confirm (Enter) or undo (Backspace).`;
    else if (selected !== null) {
      const where = targetsOf(selected).map((t) => `${spotName(t.to)} with ${diceWords(t)}`).join(", ");
      prompt.textContent = `From ${spotName(selected)}: ${where}.`;
    } else {
      prompt.textContent = `${playedSoFar ? `Played ${playedSoFar}; ` : `Dice ${dice.join("-")}: `}` +
        `${left.join(", ")} to play. Pick a checker${play ? ", or confirm" : ""}.`;
    }
  }

  /** The cube's line, and Double/Roll or Take/Drop when the server says the player may. */
  function drawCube() {
    const { state, legalMoves = [], interactive, yourSeat = null, seatToMove = null } = view;
    const words = cubeWords(state, yourSeat, seatName);
    cubeLine.hidden = !words;
    cubeLine.textContent = words;
    const choices = interactive && yourSeat !== null && seatToMove === yourSeat && (!state.dice || !state.dice.length)
      ? legalMoves.filter(isCubeMove) : [];
    const hadFocus = cubeActions.contains(document.activeElement);
    cubeActions.hidden = choices.length === 0;
    const shown = [...cubeActions.querySelectorAll("button")].map((b) => b.dataset.move).join(",");
    if (shown !== choices.join(",")) {
      const value = state && state.cube ? state.cube.value : 1;
      const buttons = choices.map((move) => h("button", {
        type: "button",
        class: `legal cube-action ${move === "double" || move === "take" ? "primary" : "secondary"}`,
        "data-move": move,
        "data-testid": `bg-${move}`,
        onclick: () => {
          for (const b of cubeActions.querySelectorAll("button")) b.disabled = true; // sent once
          onMove(move);
        },
      }, move === "double" ? `Double to ${value * 2}` : CUBE_ACTIONS[move]));
      cubeActions.replaceChildren(cubePrompt, ...buttons);
      // The choice takes the focus from the board (or nothing), never from the chat.
      const idle = !document.activeElement || document.activeElement === document.body || wrap.contains(document.activeElement);
      if (hadFocus || idle) buttons[0]?.focus({ preventScroll: true });
    }
    cubePrompt.textContent = choices.includes("take")
      ? `${seatName(1 - yourSeat)} doubles to ${state.cube.value * 2}: take (play on at ${state.cube.value * 2}) or drop (lose ${state.cube.value})?`
      : choices.includes("double") ? "Your turn: double, or roll the dice." : "";
  }

  function drawPlays() {
    const { state, yourSeat = null } = view;
    const legal = playing() ? view.legalMoves : [];
    if (legal.join(",") !== [...plays.children].map((node) => node.dataset.move).join(",")) {
      // Rebuilt only when the plays change: a preview redraws the board under the focused one.
      const nodes = legal.map((move) => h("button", { type: "button", class: "target legal play", "data-move": move, "aria-disabled": "false" }, move === "pass" ? "Pass (no play possible)" : move));
      plays.replaceChildren(...nodes);
      targets.set(nodes);
    }
    plays.hidden = legal.length === 0;
    const pips = state && Array.isArray(state.pips) ? `Pip counts: ${state.pips[0]} (blue) · ${state.pips[1]} (orange)` : "";
    const dice = (state && state.dice) || [];
    const roll = dice.length ? `Dice ${dice.join("-")}. ` : "";
    summary.textContent = `${roll}${pips}${yourSeat === 1 ? " · Points are numbered from your side." : ""}`;
  }

  // --- keyboard ----------------------------------------------------------------------------

  /** The spots the arrow keys visit: the checkers that can move, or the picked one and its targets. */
  function keyboardOrder() {
    if (!playing()) return [];
    if (selected !== null) return [selected, ...targetsOf(selected).map((t) => t.to)].sort((a, b) => b - a);
    return movableSpots().sort((a, b) => b - a);
  }

  /** The keyboard's place on the board: the cursor, or Confirm once the play is complete. */
  function focus() {
    const node = cursor !== null ? svg.querySelector(`[data-spot="${cursor}"]`) : null;
    const cubeChoice = cubeActions.hidden ? null : cubeActions.querySelector("button:not([disabled])");
    if (cubeChoice) cubeChoice.focus({ preventScroll: true });
    else if (node) node.focus({ preventScroll: true });
    else if (!confirm.disabled && !controls.hidden) confirm.focus({ preventScroll: true });
    else svg.focus({ preventScroll: true });
  }

  function moveCursor(delta) {
    const order = keyboardOrder();
    if (!order.length) return;
    const at = order.indexOf(cursor);
    cursor = order[(at + delta + order.length) % order.length];
    draw();
    focus();
  }

  svg.addEventListener("keydown", (event) => {
    if (!playing()) return;
    const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (event.key in keys) moveCursor(keys[event.key]);
    else if (event.key === "Escape" && selected !== null) {
      selected = null;
      draw();
    } else if (event.key === "Enter" || event.key === " ") {
      const spot = spotOf(event.target);
      const actionable = spot !== null && (movableSpots().includes(spot) || spot === selected ||
        (selected !== null && targetsOf(selected).some((t) => t.to === spot)));
      if (actionable && !(event.key === "Enter" && complete() && !offeredNow().length)) activate(spot);
      else if (event.key === "Enter") confirmPlay();
    } else return;
    event.preventDefault();
  });

  // Backspace and Enter work while the focus is on the board or nowhere (after a click on the
  // board, which takes no focus); other fields keep their keys.
  document.addEventListener("keydown", (event) => {
    if (!playing() || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const active = document.activeElement;
    const nowhere = !active || active === document.body || active === document.documentElement;
    // Enter on a button is the button's; Backspace means nothing to them, so it undoes there too.
    const onBoard = nowhere || svg.contains(active);
    if (event.key === "Backspace" && turn.steps.length && (onBoard || wrap.contains(active))) undoStep();
    else if (event.key === "Enter" && complete() && onBoard) confirmPlay();
    else return;
    event.preventDefault();
  });
  undo.addEventListener("click", () => undoStep());
  confirm.addEventListener("click", () => confirmPlay());

  // --- pointer: click or drag, mouse and touch alike ---------------------------------------

  function spotFromPoint(x, y) {
    const hit = document.elementsFromPoint(x, y).find((node) => svg.contains(node) && node.closest("[data-spot]"));
    return hit ? spotOf(hit) : null;
  }

  function dragGhost(event) {
    const root = svg.querySelector(".bg-root");
    let ghost = root.querySelector(".drag-ghost");
    if (!ghost) {
      ghost = checker(turn.seat, 0, 0, "drag-ghost");
      root.append(ghost);
    }
    const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(root.getScreenCTM().inverse());
    ghost.setAttribute("transform", `translate(${at.x} ${at.y})`);
    const over = spotFromPoint(event.clientX, event.clientY);
    svg.querySelectorAll("[data-spot].drop").forEach((n) => n.classList.remove("drop"));
    if (over !== null && targetsOf(selected).some((t) => t.to === over)) svg.querySelector(`[data-spot="${over}"]`)?.classList.add("drop");
  }

  svg.addEventListener("pointerdown", (event) => {
    if (!playing() || event.button > 0) return;
    const spot = spotOf(event.target);
    if (spot === null) return;
    const isTarget = selected !== null && targetsOf(selected).some((t) => t.to === spot);
    press = { spot, x: event.clientX, y: event.clientY, dragging: false, picked: false };
    if (!isTarget && movableSpots().includes(spot) && spot !== selected) {
      selected = spot;
      cursor = spot;
      press.picked = true;
      draw();
    }
    if (selected === spot) svg.setPointerCapture(event.pointerId);
    event.preventDefault(); // no text selection, no focus ring from the mouse
  });

  svg.addEventListener("pointermove", (event) => {
    if (!press || selected === null || press.spot !== selected) return;
    if (!press.dragging && Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_START_PX) return;
    press.dragging = true;
    svg.classList.add("dragging");
    dragGhost(event);
  });

  function release(event) {
    if (!press) return;
    const { spot, dragging, picked } = press;
    press = null;
    svg.classList.remove("dragging");
    if (event.type === "pointercancel" || !playing()) {
      draw();
      return;
    }
    if (dragging) {
      const over = spotFromPoint(event.clientX, event.clientY);
      const step = targetsOf(selected).find((t) => t.to === over);
      if (step) playStep(step);
      else draw(); // dropped elsewhere: the checker goes back, still picked
      return;
    }
    if (!picked) activate(spot); // a tap on a target plays it; on the picked checker, drops it
  }
  svg.addEventListener("pointerup", release);
  svg.addEventListener("pointercancel", release);

  // The text list shows its play on the board while one is focused or pointed at.
  function preview(move) {
    if (previewMove === move) return;
    previewMove = move;
    draw();
  }
  plays.addEventListener("pointerover", (event) => preview(event.target.closest("[data-move]")?.dataset.move ?? null));
  plays.addEventListener("focusin", (event) => preview(event.target.closest("[data-move]")?.dataset.move ?? null));
  plays.addEventListener("pointerleave", () => preview(null));
  plays.addEventListener("focusout", (event) => {
    if (!plays.contains(event.relatedTarget)) preview(null);
  });
  narrow.addEventListener("change", () => {
    if (svg.dataset.portrait !== String(narrow.matches)) draw();
  });

  function render(next) {
    view = next;
    startTurn();
    if (showing() && view.interactive) sendForcedSoon();
    draw();
  }

  return { render, focus };
}

/**
 * For the analysis page: arrows for each checker of `move` (a play of the seat to move in
 * `state`), drawn over the board `svg` as createBoard drew it.  Null for dice or a pass.
 */
export function moveMarker(state, move, svg = null) {
  if (!state || !Array.isArray(state.points) || typeof state.turn !== "number" || state.turn < 0) return null;
  if (/^(open|roll|pass|double|take|drop)\b/.test(String(move))) return null;
  const seat = state.turn;
  const L = layout(Boolean(svg && svg.dataset.portrait === "true"));
  const toSeat0 = (p) => (p === BAR_SPOT || p === OFF_SPOT || seat === 0 ? p : 25 - p);
  const arrows = [];
  for (const segment of String(move).toLowerCase().split(/\s+/)) {
    const counted = /^(.*?)(?:\((\d)\))?$/.exec(segment);
    const hops = counted[1].split("/").map((part) => (part.startsWith("bar") ? BAR_SPOT : part.startsWith("off") ? OFF_SPOT : parseInt(part, 10)));
    if (hops.length < 2 || hops.some((p) => !(p >= 0 && p <= BAR_SPOT))) return null;
    const a = spotCentre(L, toSeat0(hops[0]), seat);
    const b = spotCentre(L, toSeat0(hops[hops.length - 1]), seat);
    const count = Number(counted[2] || 1);
    for (let i = 0; i < count; i += 1) {
      // Arcs bending towards the middle of the board, each checker's a little further: arrows
      // along the same row (8/5 6/5, or 8/5(2)) stay apart.
      const middle = STRIP + FRAME_H / 2;
      const bend = (a.y > middle && b.y > middle ? -1 : a.y < middle && b.y < middle ? 1 : 0) * (50 + 35 * (arrows.length / 2));
      const cx = (a.x + b.x) / 2 + (bend ? 0 : 40 * (i + 1));
      const cy = (a.y + b.y) / 2 + bend;
      arrows.push(
        s("circle", { cx: a.x, cy: a.y, r: 9, fill: "#0a7d33", stroke: "#fff", "stroke-width": 2 }), // where the checker starts
        s("path", { d: `M${a.x} ${a.y} Q${cx} ${cy} ${b.x} ${b.y}`, "marker-end": "url(#bg-arrow-head)" }));
    }
  }
  if (!arrows.length) return null;
  const head = s("defs", {},
    s("marker", { id: "bg-arrow-head", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" },
      s("path", { d: "M0 0 L10 5 L0 10 Z", fill: "#0a7d33" })));
  return s("g", {
    class: "move-marker",
    "data-testid": "move-marker",
    "data-move": move,
    transform: rootTransform(L),
    fill: "none",
    stroke: "#0a7d33",
    "stroke-width": 8,
    "stroke-linecap": "round",
    "pointer-events": "none",
  }, head, ...arrows);
}

/** The move list writes plays as the viewer numbers the board, as `describeMove` does. */
export const moveText = describeMove;

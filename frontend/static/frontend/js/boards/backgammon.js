// Backgammon board in SVG.  State (games.backgammon.to_json): `points` are 24
// counts in seat 0's numbering (index 0 is seat 0's 1-point; +n checkers of
// seat 0, -n of seat 1), `bar` and `off` per seat, `dice` the roll to play,
// `pips` per seat.  A move is a whole play in standard notation, in the
// mover's own numbering ("13/7* 8/5", "bar/22", "6/off", "pass"); dice rolls
// are moves of the pseudo-seat -1.  The board is drawn from seat 0's side;
// point numbers are shown in the numbering of the player looking at it.

import { h, s } from "../dom.js";
import { discSymbol } from "../players.js";
import { Targets } from "./targets.js";

const W = 50; // point width
const BAR = 44;
const TRAY = 56;
const PAD = 12;
const HEIGHT = 520;
const R = 21;
const BOARD_W = 12 * W + BAR;

export const name = "Backgammon";
export const help = "Choose one of the legal plays below the board (hover or focus one to see it on the board), or type a play such as 13/7 8/5.";

export function describeMove(move) {
  return move;
}

export function parseMove(text) {
  const t = String(text).trim().replace(/\s+/g, " ");
  return t || null;
}

export const replay = null; // hits and the bar are the rules' business: only the live position is drawn

/** Left edge of seat 0's point p (1..24) and whether it hangs from the top. */
function pointBox(p) {
  if (p <= 12) {
    const fromRight = p - 1; // 1 is bottom right
    const col = 11 - fromRight;
    return { x: PAD + col * W + (col >= 6 ? BAR : 0), top: false };
  }
  const col = p - 13; // 13 is top left
  return { x: PAD + col * W + (col >= 6 ? BAR : 0), top: true };
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

function checker(seat, cx, cy, extra = "") {
  return s("g", { class: `checker seat-${seat} ${extra}`, "data-seat": seat },
    s("circle", { class: "checker-body", cx, cy, r: R }),
    discSymbol(seat, cx, cy, R));
}

function stack(layers, seat, count, cx, baseY, direction) {
  const shown = Math.min(count, 5);
  for (let i = 0; i < shown; i += 1) layers.push(checker(seat, cx, baseY + direction * (R + i * 2 * R)));
  if (count > 5) {
    layers.push(s("text", { class: "stack-count", x: cx, y: baseY + direction * (R + 4 * 2 * R) + 7 }, String(count)));
  }
}

function die(value, x, y, size) {
  const spots = {
    1: [[0.5, 0.5]],
    2: [[0.25, 0.25], [0.75, 0.75]],
    3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
    4: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
    5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
    6: [[0.25, 0.22], [0.75, 0.22], [0.25, 0.5], [0.75, 0.5], [0.25, 0.78], [0.75, 0.78]],
  }[value] || [];
  return s("g", { class: "die", "data-value": value },
    s("rect", { x, y, width: size, height: size, rx: 7 }),
    ...spots.map(([u, v]) => s("circle", { class: "pip", cx: x + u * size, cy: y + v * size, r: size * 0.09 })));
}

export function createBoard(container, { onMove }) {
  const svg = s("svg", {
    class: "board-svg board-backgammon",
    viewBox: `0 0 ${PAD * 2 + BOARD_W + TRAY} ${HEIGHT}`,
    role: "img",
    "aria-label": "Backgammon board",
  });
  const summary = h("p", { class: "bg-summary", "data-testid": "bg-summary" });
  const plays = h("div", { class: "bg-plays", role: "group", "aria-label": "Legal plays" });
  container.replaceChildren(h("div", { class: "bg-wrap" }, summary, svg, plays));
  const targets = new Targets(plays, 4, onMove);
  let lastView = null;

  function highlight(move) {
    svg.querySelectorAll(".point.from, .point.to").forEach((n) => n.classList.remove("from", "to"));
    if (!move || !lastView) return;
    const touched = playPoints(move, lastView.seatToMove);
    touched.from.forEach((p) => svg.querySelector(`.point[data-point="${p}"]`)?.classList.add("from"));
    touched.to.forEach((p) => svg.querySelector(`.point[data-point="${p}"]`)?.classList.add("to"));
  }

  plays.addEventListener("pointerover", (event) => highlight(event.target.closest("[data-move]")?.dataset.move));
  plays.addEventListener("focusin", (event) => highlight(event.target.closest("[data-move]")?.dataset.move));
  plays.addEventListener("pointerleave", () => highlight(null));

  function render(view) {
    lastView = view;
    const { state, legalMoves = [], interactive = false, lastMove = null, seatToMove = null, yourSeat = null } = view;
    const points = state && Array.isArray(state.points) ? state.points : Array(24).fill(0);
    const bar = (state && state.bar) || [0, 0];
    const off = (state && state.off) || [0, 0];
    const label = (p) => (yourSeat === 1 ? 25 - p : p);
    const layers = [s("rect", { class: "bg-frame", x: 0, y: 0, width: PAD * 2 + BOARD_W + TRAY, height: HEIGHT, rx: 10 })];
    layers.push(s("rect", { class: "bg-bar", x: PAD + 6 * W, y: PAD, width: BAR, height: HEIGHT - 2 * PAD }));
    layers.push(s("rect", { class: "bg-tray", x: PAD * 1.5 + BOARD_W, y: PAD, width: TRAY - PAD, height: HEIGHT - 2 * PAD, rx: 6 }));
    const lastTouched = lastMove && !/^(open|roll) /.test(lastMove) ? playPoints(lastMove, view.lastSeat ?? seatToMove) : null;
    for (let p = 1; p <= 24; p += 1) {
      const { x, top } = pointBox(p);
      const tip = top ? PAD + 200 : HEIGHT - PAD - 200;
      const base = top ? PAD : HEIGHT - PAD;
      const shade = (p % 2 === 0) ? "even" : "odd";
      const classes = ["point", shade];
      if (lastTouched && (lastTouched.from.has(p) || lastTouched.to.has(p))) classes.push("last-move");
      layers.push(s("g", { class: classes.join(" "), "data-point": p },
        s("path", { class: "triangle", d: `M${x} ${base} L${x + W} ${base} L${x + W / 2} ${tip} Z` }),
        s("text", { class: "point-label", x: x + W / 2, y: top ? PAD + 214 : HEIGHT - PAD - 204 }, String(label(p)))));
      const n = points[p - 1];
      if (n) stack(layers, n > 0 ? 0 : 1, Math.abs(n), x + W / 2, base, top ? 1 : -1);
    }
    const barX = PAD + 6 * W + BAR / 2;
    if (bar[0]) stack(layers, 0, bar[0], barX, HEIGHT / 2 + 8, 1);
    if (bar[1]) stack(layers, 1, bar[1], barX, HEIGHT / 2 - 8, -1);
    const trayX = PAD * 1.5 + BOARD_W + (TRAY - PAD) / 2;
    layers.push(s("text", { class: "off-count", x: trayX, y: HEIGHT - PAD - 10 }, `${off[0]}`));
    layers.push(s("text", { class: "off-count", x: trayX, y: PAD + 26 }, `${off[1]}`));
    const dice = (state && state.dice) || [];
    const size = 40;
    const diceX = PAD + 9 * W + BAR - (dice.length * (size + 10)) / 2;
    dice.forEach((value, i) => layers.push(die(value, diceX + i * (size + 10), HEIGHT / 2 - size / 2, size)));
    svg.replaceChildren(...layers);

    const legal = interactive ? legalMoves : [];
    const nodes = legal.map((move) => h("button", { type: "button", class: "target legal play", "data-move": move, "aria-disabled": "false" }, move === "pass" ? "Pass (no play possible)" : move));
    plays.replaceChildren(...nodes);
    plays.hidden = nodes.length === 0;
    targets.set(nodes);
    const pips = state && Array.isArray(state.pips) ? `Pip counts: ${state.pips[0]} (blue) · ${state.pips[1]} (orange)` : "";
    const roll = dice.length ? `Dice ${dice.join("-")}. ` : "";
    summary.textContent = `${roll}${pips}${yourSeat === 1 ? " · Points are numbered from your side." : ""}`;
  }

  return { render, focus: () => targets.focus() };
}

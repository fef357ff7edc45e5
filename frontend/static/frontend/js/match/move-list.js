// The list of moves played: who played what, the AI badge and search figures of a bot's
// move, the honest "no search" badge of a fallback move, and the position being viewed.

import { h } from "../dom.js";
import { aiBadge, formatMs, isBot, playerWords, seatMark } from "../players.js";
import { statsText } from "./figures.js";

export function createMoveList({ store, el, boardHost }) {
  function render() {
    const { match } = store;
    const items = match.moves.map((m, i) => item(m, i));
    el.moveList.replaceChildren(...items);
    if (!items.length) el.moveList.append(h("li", { class: "muted empty" }, "No moves yet."));
    const canBrowse = boardHost.loaded && match.moves.length > 0;
    document.querySelector(".move-nav").querySelectorAll("button").forEach((b) => { b.disabled = !canBrowse; });
  }

  function item(m, i) {
    const { match, viewPly } = store;
    const player = store.seatPlayer(m.seat);
    const bot = (m.by && m.by.is_ai) || isBot(player);
    const fallback = fallbackReason(m);
    const figures = [];
    // A fallback move was not searched: no think time, no search figures, never the level's badge alone.
    if (!fallback && typeof m.think_ms === "number" && m.seat >= 0) figures.push(formatMs(m.think_ms));
    if (!fallback && m.stats) figures.push(statsText(m.stats));
    if (!fallback && typeof m.queue_wait_ms === "number" && m.queue_wait_ms >= 1000) figures.push(`waited ${formatMs(m.queue_wait_ms)} for a computer`);
    const shown = figures.filter(Boolean);
    const viewing = viewPly === null ? i === match.moves.length - 1 : i === viewPly - 1;
    return h("li", { class: `move${viewing ? " current" : ""}${m.seat < 0 ? " chance" : ""}`, "data-ply": m.ply, "data-seat": m.seat },
      h("button", {
        type: "button",
        class: "move-link",
        "data-goto": i + 1,
        "aria-current": viewing ? "step" : null,
        "aria-label": m.seat < 0
          ? `Move ${i + 1}: dice, ${m.move}`
          : `Move ${i + 1}: ${playerWords(player)} played ${notation(m) || boardHost.describeMove(m.move, m.seat, store.you.seat)}` +
            (fallback ? `, a random move without search (${fallback})` : ""),
      },
      h("span", { class: "move-number" }, boardHost.moveNumber(i)),
      m.seat >= 0 ? seatMark(match.game, m.seat) : h("span", { class: "chance-mark", "aria-hidden": "true" }, "⚄"),
      h("span", { class: "move-text" }, notation(m) || boardHost.moveText(m.move, m.seat, store.you.seat))),
      bot && fallback ? fallbackBadge(fallback) : null,
      bot && !fallback ? aiBadge(player && player.profile, { compact: true }) : null,
      shown.length ? h("span", { class: "move-figures muted" }, shown.join(" · ")) : null);
  }

  function scrollToEnd() {
    el.moveList.scrollTop = el.moveList.scrollHeight;
  }

  return { render, scrollToEnd };
}

/**
 * The move as players write it, when the game writes it otherwise than its canonical move
 * (`notation`: SAN in chess), else null: the board then words it (and may renumber it).
 */
export function notation(m) {
  return typeof m.notation === "string" && m.notation && m.notation !== m.move ? m.notation : null;
}

function fallbackBadge(reason) {
  return h("span", {
    class: "ai-badge fallback-badge",
    "data-testid": "fallback-move",
    title: `The computer (AI) did not search: it played a random legal move because ${reason}.`,
    "aria-label": `AI, no search: a random move because ${reason}`,
  }, "AI · no search (random move): ", h("span", { class: "fallback-reason" }, reason));
}

/** Why no search chose this move, or null: the server's `fallback` (older moves: their stats say so). */
function fallbackReason(m) {
  if (typeof m.fallback === "string" && m.fallback) return m.fallback;
  if (m.stats && m.stats.fallback) return typeof m.stats.reason === "string" && m.stats.reason ? m.stats.reason : "no search answered";
  return null;
}

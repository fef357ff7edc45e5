// The bot to move: waiting for a free computer, or thinking, with a bar that fills over its
// time budget and the search figures it reports (the bot_queued and bot_thinking frames,
// docs/design.md §5).  A frame for a later ply than the match's waits for that ply's move.

import { h } from "../dom.js";
import { formatMs, playerLabel } from "../players.js";
import { announceQueued, announceThinking } from "./announcements.js";
import { statsText } from "./figures.js";

// A bot's turn usually waits for a worker a few milliseconds: the "waiting for a free
// computer" notice shows only once the wait lasts long enough for people to notice it.
export const QUEUED_NOTICE_DELAY_MS = 1000;

export function createThinking({ store, el, render }) {
  let queuedTimer = null;

  /** A state frame: keep what we know of the bot's search if it is still the same turn. */
  function onState() {
    const { match, thinking } = store;
    if (match.status !== "active" || !store.botToMove()) store.thinking = null;
    else if (!thinking || thinking.seat !== match.to_move || (thinking.ply !== undefined && thinking.ply !== match.ply)) {
      store.thinking = fromMatch();
    }
  }

  /** The bot to move: waiting for a free computer, or thinking since when the match says. */
  function fromMatch() {
    const { match } = store;
    const t = match.thinking;
    const seat = t && t.seat === match.to_move ? t : null;
    if (seat && seat.status === "queued") {
      return { seat: match.to_move, ply: match.ply, budgetMs: null, started: null, stats: null, queued: true, queuedAt: performance.now() };
    }
    let started = null;
    if (seat && seat.since && typeof seat.budget_ms === "number") {
      const elapsed = Math.min(Math.max(0, Date.now() - Date.parse(seat.since)), seat.budget_ms);
      if (!Number.isNaN(elapsed)) started = performance.now() - elapsed;
    }
    const next = { seat: match.to_move, ply: match.ply, budgetMs: seat ? seat.budget_ms ?? null : null, started, stats: null };
    if (started !== null) window.requestAnimationFrame(animate);
    return next;
  }

  /** A move was played: the bot that moved stops thinking, a bot to move starts; an early frame applies now. */
  function onMove(frame) {
    if (store.thinking && store.thinking.seat === frame.seat) store.thinking = null;
    if (!store.thinking && store.botToMove()) store.thinking = store.freshThinking();
    const early = store.earlyBotFrame;
    store.earlyBotFrame = null;
    if (early && early.ply === store.match.ply) {
      if (early.type === "bot_queued") queued(early);
      else started(early);
    }
  }

  function onTakeback() {
    store.thinking = store.botToMove() ? store.freshThinking() : null;
  }

  function onSeat() {
    if (store.match.status === "active" && store.botToMove() && !store.thinking) store.thinking = store.freshThinking();
  }

  /** A bot frame for another ply than the match's: a late one is dropped, an early one kept for its ply. */
  function forThisPly(frame) {
    if (typeof frame.ply !== "number" || frame.ply === store.match.ply) return true;
    if (frame.ply > store.match.ply) store.earlyBotFrame = frame;
    return false;
  }

  /** The bot's turn waits for a free worker: its time has not started, so no thinking bar. */
  function queued(frame) {
    const { match, thinking } = store;
    if (!match || match.status !== "active" || !forThisPly(frame)) return;
    const wasQueued = thinking && thinking.queued && thinking.seat === frame.seat;
    const queuedAt = wasQueued ? thinking.queuedAt : performance.now();
    store.thinking = { ply: frame.ply, seat: frame.seat, budgetMs: null, started: null, stats: null, queued: true, queuedAt };
    render();
  }

  function started(frame) {
    const { match, thinking } = store;
    if (!match || match.status === "finished" || match.status === "aborted") return;
    if (!forThisPly(frame)) return;
    const same = thinking && thinking.seat === frame.seat && thinking.started && thinking.ply === frame.ply;
    if (same) {
      // A progress report of the same search: new figures, same clock.
      if (frame.stats) thinking.stats = frame.stats;
      renderPanel();
      return;
    }
    store.thinking = {
      ply: frame.ply,
      seat: frame.seat,
      budgetMs: typeof frame.budget_ms === "number" ? frame.budget_ms : null,
      started: performance.now(),
      stats: frame.stats || null,
    };
    if (frame.seat !== null && frame.seat !== undefined) announceThinking(store, frame.seat);
    render();
    animate();
  }

  function budgetOf(thinking) {
    const player = store.seatPlayer(thinking.seat);
    return thinking.budgetMs ?? (player && player.profile && player.profile.time_budget_ms) ?? null;
  }

  function renderPanel() {
    const { match, thinking } = store;
    const isQueued = Boolean(thinking && thinking.queued && match && match.status === "active");
    const waitedMs = isQueued ? performance.now() - thinking.queuedAt : 0;
    const showQueued = isQueued && waitedMs >= QUEUED_NOTICE_DELAY_MS;
    if (showQueued && !thinking.queuedShown) {
      thinking.queuedShown = true;
      announceQueued(store, thinking.seat);
    }
    window.clearTimeout(queuedTimer);
    if (isQueued && !showQueued) queuedTimer = window.setTimeout(render, QUEUED_NOTICE_DELAY_MS - waitedMs);
    el.botQueued.hidden = !showQueued;
    if (showQueued) el.botQueued.querySelector(".queued-who").replaceChildren(playerLabel(store.seatPlayer(thinking.seat), { compact: true }));
    if (!thinking || !match || match.status !== "active" || isQueued) {
      el.thinking.hidden = true;
      return;
    }
    const budget = budgetOf(thinking);
    el.thinking.hidden = false;
    el.thinking.querySelector(".thinking-who").replaceChildren(playerLabel(store.seatPlayer(thinking.seat), { compact: true }));
    el.thinking.querySelector(".thinking-label").replaceChildren(
      "is thinking",
      budget ? h("span", { class: "thinking-budget" }, ` (budget ${formatMs(budget)})`) : "",
    );
    el.thinking.dataset.budgetMs = budget ?? "";
    el.thinking.classList.toggle("indeterminate", !thinking.started || !budget);
    el.thinking.querySelector(".thinking-figures").textContent = thinking.stats ? statsText(thinking.stats) : "";
    updateBar();
  }

  function updateBar() {
    const { thinking } = store;
    if (!thinking) return;
    const budget = budgetOf(thinking);
    const bar = el.thinking.querySelector(".budget");
    const fill = el.thinking.querySelector(".budget-fill");
    if (!thinking.started || !budget) {
      fill.style.width = "";
      bar.removeAttribute("aria-valuenow");
      return;
    }
    const share = Math.min(1, (performance.now() - thinking.started) / budget);
    fill.style.width = `${(share * 100).toFixed(1)}%`;
    bar.setAttribute("aria-valuenow", String(Math.round(share * 100)));
  }

  function animate() {
    const tick = () => {
      const { thinking } = store;
      if (!thinking || !thinking.started) return;
      updateBar();
      if (performance.now() - thinking.started < (thinking.budgetMs || 0) + 100) window.requestAnimationFrame(tick);
    };
    window.requestAnimationFrame(tick);
  }

  /** The tag on a seat to move: "waiting…", "thinking…" or "to move". */
  function turnTag(seat) {
    const { thinking } = store;
    if (!thinking || thinking.seat !== seat) return "to move";
    return thinking.queued && thinking.queuedShown ? "waiting…" : "thinking…";
  }

  return { onState, onMove, onTakeback, onSeat, queued, started, render: renderPanel, turnTag };
}

// The clocks of a match played with a time control: one per seat, on the seat's line,
// counting down for the seat to move (the `clock` of state, move and takeback frames,
// docs/design.md §5).

import { h } from "../dom.js";
import { markName } from "../players.js";

const TICK_MS = 200;

export function createClocks({ store }) {
  let clock = null; // {remaining: [ms], running: seat|null, since: performance.now() at the turn's start, increment, initial}
  let timer = null;

  function onFrame(frame) {
    if (frame.type === "state") set(frame.match && frame.match.clock);
    else if ((frame.type === "move" || frame.type === "takeback") && frame.clock) set(frame.clock);
    else if (frame.type === "game_over") stop();
  }

  function set(c) {
    if (!c || !Array.isArray(c.remaining_ms)) {
      clock = null;
      return;
    }
    clock = {
      remaining: c.remaining_ms.slice(),
      running: typeof c.running === "number" ? c.running : null,
      since: performance.now() - (c.elapsed_ms || 0),
      increment: c.increment_ms || 0,
      initial: c.initial_ms || 0,
    };
    tick();
  }

  function stop() {
    if (!clock || clock.running === null) return;
    clock.remaining[clock.running] = timeLeft(clock.running);
    clock.running = null;
  }

  function timeLeft(seat) {
    if (!clock) return null;
    const base = clock.remaining[seat] ?? 0;
    return Math.max(0, seat === clock.running ? base - (performance.now() - turnStart(seat)) : base);
  }

  /** When the running seat's time started: a bot is charged its search only, so its clock
   *  waits while the bot waits for a free computer (docs/wire.md "Creating a match"). */
  function turnStart(seat) {
    const bot = store.thinking;
    if (!bot || bot.seat !== seat) return clock.since;
    return bot.started === null ? performance.now() : Math.max(clock.since, bot.started);
  }

  function render() {
    const { match } = store;
    if (!match) return;
    document.querySelectorAll("#seats [data-seat]").forEach((item) => {
      const seat = Number(item.dataset.seat);
      let node = item.querySelector(".clock");
      if (!clock) {
        if (node) node.remove();
        return;
      }
      if (!node) {
        node = h("span", { class: "clock", "data-testid": `clock-${seat}`, role: "timer", "aria-label": `Time left for ${markName(match.game, seat)}` });
        item.append(node);
      }
      const left = timeLeft(seat);
      node.textContent = formatClock(left);
      node.classList.toggle("running", match.status === "active" && clock.running === seat);
      node.classList.toggle("low", left < 10000);
      node.classList.toggle("flagged", left <= 0);
    });
  }

  /** A light timer while a clock runs. */
  function tick() {
    if (timer !== null) return;
    timer = window.setInterval(() => {
      const { match } = store;
      if (!(clock && clock.running !== null && match && match.status === "active")) {
        window.clearInterval(timer);
        timer = null;
      }
      render();
    }, TICK_MS);
  }

  return { onFrame, render };
}

/** "4:59", "0:09.3" under ten seconds. */
export function formatClock(ms) {
  const total = Math.max(0, ms);
  if (total < 10000) return `0:0${(Math.floor(total / 100) / 10).toFixed(1)}`;
  const seconds = Math.ceil(total / 1000);
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

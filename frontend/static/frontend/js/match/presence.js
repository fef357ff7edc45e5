// Whether the other players are still here: the "opponent disconnected" note, with the
// time left before the match ends by abandonment (the `presence` frames, docs/design.md §5).

import { announce, h } from "../dom.js";
import { playerWords } from "../players.js";
import { capitalise } from "./announcements.js";
import { formatClock } from "./clocks.js";

const TICK_MS = 200;

export function createPresence({ store }) {
  const note = h("p", { id: "presence-note", class: "presence-note", role: "status", "data-testid": "presence-note", hidden: true });
  let gone = new Map(); // seat -> performance.now() when the grace ends
  let graceMs = null;
  let timer = null;

  function onFrame(frame) {
    if (frame.type === "state") set(frame.match);
    else if (frame.type === "presence") onPresence(frame);
    else if (frame.type === "game_over") gone.clear();
  }

  function set(m) {
    gone = new Map();
    graceMs = m && typeof m.abandon_after_ms === "number" ? m.abandon_after_ms : graceMs;
    for (const p of (m && m.presence) || []) {
      if (!p.online && m.status === "active") gone.set(p.seat, performance.now() + (graceMs ?? 0));
    }
    tick();
  }

  function onPresence(frame) {
    if (typeof frame.abandon_after_ms === "number") graceMs = frame.abandon_after_ms;
    const m = store.match || {};
    const p = (m.presence || []).find((x) => x.seat === frame.seat);
    if (p) p.online = frame.online;
    else m.presence = [...(m.presence || []), { seat: frame.seat, online: frame.online }];
    const mine = frame.seat === store.you.seat;
    if (frame.online) {
      if (gone.delete(frame.seat) && !mine) announce(`${who(frame.seat)} is back.`);
    } else {
      gone.set(frame.seat, performance.now() + (graceMs ?? 0));
      if (!mine) announce(`${who(frame.seat)} disconnected.`);
    }
    tick();
  }

  function who(seat) {
    return capitalise(playerWords(store.seatPlayer(seat)));
  }

  function render() {
    const { match, you } = store;
    if (!match) return;
    const away = match.status === "active" ? [...gone.entries()].filter(([s]) => s !== you.seat) : [];
    note.hidden = away.length === 0;
    if (!away.length) return;
    const [awaySeat, until] = away[0];
    const left = Math.max(0, until - performance.now());
    const name = you.seat === null ? who(awaySeat) : "Your opponent";
    note.dataset.seat = String(awaySeat);
    note.textContent = left > 0
      ? `${name} disconnected. If they do not come back within ${formatClock(left)}, they lose the match by abandonment.`
      : `${name} disconnected and did not come back: the match ends by abandonment.`;
  }

  /** A light timer while an abandonment countdown runs. */
  function tick() {
    if (timer !== null) return;
    timer = window.setInterval(() => {
      if (!gone.size) {
        window.clearInterval(timer);
        timer = null;
      }
      render();
    }, TICK_MS);
  }

  return { note, onFrame, render };
}

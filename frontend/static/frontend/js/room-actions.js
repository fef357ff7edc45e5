// The match room's actions between moves: takebacks, draw offers and their answers,
// the clocks, and whether the other players are still here (issue 6; docs/wire.md).
//
// match.js owns the match and the board; this module keeps its own part of the page
// (the offer panel, the clocks on the seats, the "opponent disconnected" note, the
// takeback and draw buttons) and is told of every frame and every render.

import { announce, h } from "./dom.js";
import { isBot, playerWords } from "./players.js";

const ERROR_TEXT = {
  nothing_to_take_back: "There is no move of yours to take back.",
  offer_not_allowed: "That is not possible in this match.",
  offer_pending: "An offer is already waiting for an answer.",
  no_offer: "There is no offer to answer any more.",
};
const OFFER_WORDS = { takeback: "to take back their last move", draw: "a draw" };

/**
 * @param {object} room
 *   socket                     the match's LiveSocket
 *   match(), you()             the current match object and {seat}
 *   showError(text)            the page's error line
 */
export function createRoomActions({ socket, match, you, showError }) {
  const $ = (id) => document.getElementById(id);
  const panel = h("div", { id: "offer-panel", class: "offer-panel", role: "status", "data-testid": "offer-panel", hidden: true });
  const presenceNote = h("p", { id: "presence-note", class: "presence-note", role: "status", "data-testid": "presence-note", hidden: true });
  const takebackButton = h("button", { type: "button", id: "takeback-button", "data-testid": "takeback-button", hidden: true, onclick: requestTakeback }, "Take back");
  const drawButton = h("button", { type: "button", id: "draw-button", "data-testid": "draw-button", hidden: true, onclick: offerDraw }, "Offer draw");
  $("actions").prepend(takebackButton, drawButton);
  $("status").after(panel, presenceNote);

  let clock = null; // {remaining: [ms], running: seat|null, since: performance.now() at the turn's start, increment}
  let gone = new Map(); // seat -> performance.now() when the grace ends
  let graceMs = null;
  let timer = null;

  // --- frames ----------------------------------------------------------------

  /** Every frame, after match.js applied it.  Returns nothing. */
  function onFrame(frame) {
    switch (frame.type) {
      case "state":
        setClock(frame.match && frame.match.clock);
        setPresence(frame.match);
        break;
      case "move":
      case "takeback":
        if (frame.clock) setClock(frame.clock);
        if (frame.type === "takeback") announceTakeback(frame);
        break;
      case "offer":
        current().offer = frame.offer;
        announceOffer(frame.offer);
        break;
      case "offer_answered":
        current().offer = frame.offer ?? null;
        announceAnswer(frame);
        break;
      case "presence":
        onPresence(frame);
        break;
      case "game_over":
        stopClock();
        current().offer = null;
        gone.clear();
        break;
      case "error":
        if (ERROR_TEXT[frame.code]) showError(`${ERROR_TEXT[frame.code]} ${frame.message || ""}`.trim());
        break;
      default:
        break;
    }
    render();
  }

  function current() {
    return match() || {};
  }

  // --- actions ---------------------------------------------------------------

  function requestTakeback() {
    if (!socket.send({ type: "takeback_request" })) showError("Not connected; try again once the connection is back.");
  }

  function offerDraw() {
    if (!socket.send({ type: "draw_offer" })) showError("Not connected; try again once the connection is back.");
  }

  function answer(accept) {
    if (!socket.send({ type: accept ? "accept" : "decline" })) showError("Not connected; try again once the connection is back.");
  }

  // --- rendering -------------------------------------------------------------

  function render() {
    const m = match();
    if (!m) return;
    renderButtons(m);
    renderOffer(m);
    renderPresence(m);
    renderClocks(m);
  }

  function others(m) {
    const mine = you().seat;
    return (m.seats || []).filter((seat) => seat.index !== mine);
  }

  function renderButtons(m) {
    const seat = you().seat;
    const live = m.status === "active" && seat !== null;
    const humansOnly = others(m).every((s) => s.player && !isBot(s.player));
    const anyHuman = others(m).some((s) => s.player && !isBot(s.player));
    const moved = (m.moves || []).some((move) => move.seat === seat);
    takebackButton.hidden = !(live && moved);
    takebackButton.textContent = anyHuman ? "Ask to take back" : "Take back";
    takebackButton.disabled = Boolean(m.offer) || !socket.connected;
    drawButton.hidden = !(live && humansOnly);
    drawButton.disabled = Boolean(m.offer) || !socket.connected;
  }

  function renderOffer(m) {
    const offer = m.status === "active" ? m.offer : null;
    panel.hidden = !offer;
    if (!offer) {
      panel.replaceChildren();
      return;
    }
    const seat = you().seat;
    panel.dataset.kind = offer.kind;
    if (offer.seat === seat) {
      panel.replaceChildren(
        h("span", {}, offer.kind === "draw" ? "You offered a draw. Waiting for an answer…" : "You asked to take back your last move. Waiting for an answer…"),
        h("button", { type: "button", "data-testid": "withdraw-button", onclick: () => answer(false) }, "Withdraw"),
      );
      return;
    }
    const who = capitalise(playerWords(seatPlayer(m, offer.seat)));
    const text = `${who} ${offer.kind === "draw" ? "offers" : "asks"} ${OFFER_WORDS[offer.kind] || offer.kind}.`;
    const mine = seat !== null && (offer.awaiting || []).includes(seat);
    panel.replaceChildren(
      h("span", {}, text),
      mine ? h("button", { type: "button", class: "primary", "data-testid": "accept-button", onclick: () => answer(true) }, "Accept") : null,
      mine ? h("button", { type: "button", "data-testid": "decline-button", onclick: () => answer(false) }, "Decline") : null,
    );
  }

  // --- presence ----------------------------------------------------------------

  function setPresence(m) {
    gone = new Map();
    graceMs = m && typeof m.abandon_after_ms === "number" ? m.abandon_after_ms : graceMs;
    for (const p of (m && m.presence) || []) {
      if (!p.online && m.status === "active") gone.set(p.seat, performance.now() + (graceMs ?? 0));
    }
    tick();
  }

  function onPresence(frame) {
    if (typeof frame.abandon_after_ms === "number") graceMs = frame.abandon_after_ms;
    const m = current();
    const p = (m.presence || []).find((x) => x.seat === frame.seat);
    if (p) p.online = frame.online;
    else m.presence = [...(m.presence || []), { seat: frame.seat, online: frame.online }];
    if (frame.online) {
      if (gone.delete(frame.seat) && frame.seat !== you().seat) announce(`${capitalise(playerWords(seatPlayer(m, frame.seat)))} is back.`);
    } else {
      gone.set(frame.seat, performance.now() + (graceMs ?? 0));
      if (frame.seat !== you().seat) announce(`${capitalise(playerWords(seatPlayer(m, frame.seat)))} disconnected.`);
    }
    tick();
  }

  function renderPresence(m) {
    const seat = you().seat;
    const away = m.status === "active" ? [...gone.entries()].filter(([s]) => s !== seat) : [];
    presenceNote.hidden = away.length === 0;
    if (!away.length) return;
    const [awaySeat, until] = away[0];
    const left = Math.max(0, until - performance.now());
    const who = seat === null ? capitalise(playerWords(seatPlayer(m, awaySeat))) : "Your opponent";
    presenceNote.dataset.seat = String(awaySeat);
    presenceNote.textContent = left > 0
      ? `${who} disconnected. If they do not come back within ${formatClock(left)}, they lose the match by abandonment.`
      : `${who} disconnected and did not come back: the match ends by abandonment.`;
  }

  // --- clocks ----------------------------------------------------------------

  function setClock(c) {
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

  function stopClock() {
    if (!clock || clock.running === null) return;
    clock.remaining[clock.running] = timeLeft(clock.running);
    clock.running = null;
  }

  function timeLeft(seat) {
    if (!clock) return null;
    const base = clock.remaining[seat] ?? 0;
    return Math.max(0, seat === clock.running ? base - (performance.now() - clock.since) : base);
  }

  function renderClocks(m) {
    document.querySelectorAll("#seats [data-seat]").forEach((item) => {
      const seat = Number(item.dataset.seat);
      let node = item.querySelector(".clock");
      if (!clock) {
        if (node) node.remove();
        return;
      }
      if (!node) {
        node = h("span", { class: "clock", "data-testid": `clock-${seat}`, role: "timer", "aria-label": `Time left for seat ${seat + 1}` });
        item.append(node);
      }
      const left = timeLeft(seat);
      node.textContent = formatClock(left);
      node.classList.toggle("running", m.status === "active" && clock.running === seat);
      node.classList.toggle("low", left < 10000);
      node.classList.toggle("flagged", left <= 0);
    });
  }

  /** A light timer while something runs: a clock or an abandonment countdown. */
  function tick() {
    if (timer !== null) return;
    timer = window.setInterval(() => {
      const m = match();
      const running = clock && clock.running !== null && m && m.status === "active";
      if (!running && !gone.size) {
        window.clearInterval(timer);
        timer = null;
      }
      if (m) {
        renderClocks(m);
        renderPresence(m);
      }
    }, 200);
  }

  // --- words -----------------------------------------------------------------

  function announceOffer(offer) {
    if (!offer) return;
    const m = current();
    if (offer.seat === you().seat) return;
    announce(`${capitalise(playerWords(seatPlayer(m, offer.seat)))} ${offer.kind === "draw" ? "offers" : "asks"} ${OFFER_WORDS[offer.kind] || offer.kind}.`);
  }

  function announceAnswer(frame) {
    const m = current();
    const by = frame.by === you().seat ? "You" : capitalise(playerWords(seatPlayer(m, frame.by)));
    if (frame.cancelled) return;
    if (frame.by === frame.seat) announce(frame.by === you().seat ? "You withdrew your offer." : `${by} withdrew the offer.`);
    else announce(`${by} ${frame.accepted ? "accepted" : "declined"} the ${frame.kind === "draw" ? "draw offer" : "takeback"}.`);
  }

  function announceTakeback(frame) {
    const m = current();
    announce(`${frame.seat === you().seat ? "You" : capitalise(playerWords(seatPlayer(m, frame.seat)))} took back a move.${m.to_move === you().seat ? " Your move." : ""}`);
  }

  return { onFrame, render };
}

function seatPlayer(m, seat) {
  const entry = m && (m.seats || []).find((s) => s.index === seat);
  return entry ? entry.player : null;
}

function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** "4:59", "0:09.3" under ten seconds. */
export function formatClock(ms) {
  const total = Math.max(0, ms);
  if (total < 10000) return `0:0${(Math.floor(total / 100) / 10).toFixed(1)}`;
  const seconds = Math.ceil(total / 1000);
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

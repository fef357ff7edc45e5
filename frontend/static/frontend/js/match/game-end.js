// The buttons that end a match or follow its end: resign (cancel, while it waits for
// players) with a confirmation, rematch, and the analysis link of a finished match.
//
// Rematch against bots starts the next match at once.  Between people it is an offer on the
// match socket (docs/wire.md): the other sees it on their result screen and accepts in place;
// both pages move to the next match when it is made, and a decline (or someone leaving) is
// shown to both.

import { ApiError, createMatch } from "../api.js";
import { announce, h } from "../dom.js";
import { isBot, markName } from "../players.js";

const CONFIRM_MS = 4000; // the armed "Confirm: resign" goes back to "Resign" after this long

export function createGameEnd({ store, el, socket, errors }) {
  let armed = null; // the timer that disarms the resign button, while it asks for confirmation
  let note = ""; // what became of the last rematch offer (declined, withdrawn, someone left)
  const panel = h("div", { id: "rematch-panel", class: "offer-panel rematch-panel", role: "status", "data-testid": "rematch-panel", hidden: true });
  el.rematch.after(panel);

  function render() {
    if (!store.match) return;
    const { match, you } = store;
    const seated = you.seat !== null;
    el.resign.hidden = !(seated && (match.status === "active" || match.status === "waiting"));
    if (!armed) el.resign.textContent = match.status === "waiting" ? "Cancel match" : "Resign";
    const over = store.isOver();
    el.newMatch.hidden = !over;
    const offer = rematchOffer();
    const people = againstPeople();
    el.rematch.hidden = !(over && seated && (!people || (match.status === "finished" && !offer)));
    renderPanel(seated && people ? offer : null);
    renderAnalysisLink();
  }

  const againstPeople = () => store.match.seats.every((seat) => !seat.player || !isBot(seat.player));

  function rematchOffer() {
    const offer = store.match && store.match.offer;
    return offer && offer.kind === "rematch" ? offer : null;
  }

  function who(seat) {
    const s = store.match.seats.find((x) => x.index === seat);
    return s && s.player ? s.player.name : markName(store.match.game, seat);
  }

  function renderPanel(offer) {
    const you = store.you.seat;
    const parts = [];
    if (offer && offer.match) {
      parts.push(h("span", {}, "The rematch has started. "), h("a", { href: `/matches/${offer.match}/`, "data-testid": "rematch-link" }, "Open it"));
    } else if (offer && offer.seat === you) {
      parts.push(h("span", {}, `Rematch offered. Waiting for ${offer.awaiting.map(who).join(" and ")}…`),
        button("Withdraw", "rematch-withdraw", "rematch_decline", "secondary"));
    } else if (offer && offer.awaiting.includes(you)) {
      parts.push(h("span", {}, `${who(offer.seat)} offers a rematch, colours swapped.`),
        button("Accept", "rematch-accept", "rematch_accept", "primary"),
        button("Decline", "rematch-decline", "rematch_decline", "secondary"));
    } else if (note) {
      parts.push(h("span", { "data-testid": "rematch-note" }, note));
    }
    panel.replaceChildren(...parts);
    panel.hidden = parts.length === 0;
  }

  function button(text, testid, type, kind) {
    return h("button", {
      type: "button",
      class: kind,
      "data-testid": testid,
      onclick: (event) => {
        event.currentTarget.disabled = true;
        if (!socket.send({ type })) errors.show("Not connected; try again once the connection is back.");
      },
    }, text);
  }

  /** The rematch frames of the match socket (the others are the room's other parts'). */
  function onFrame(frame) {
    const match = store.match;
    if (!match) return;
    if (frame.type === "rematch_offer") {
      match.offer = { kind: "rematch", seat: frame.seat, awaiting: frame.awaiting };
      note = "";
      if (frame.seat !== store.you.seat) announce(`${who(frame.seat)} offers a rematch.`);
    } else if (frame.type === "rematch_answered") {
      match.offer = null;
      el.rematch.disabled = false;
      note = answeredWords(frame);
      announce(note);
    } else if (frame.type === "rematch") {
      match.offer = { kind: "rematch", match: frame.match };
      if (store.you.seat !== null) {
        announce("The rematch is starting.");
        window.location.assign(`/matches/${frame.match}/`);
      }
    }
  }

  function answeredWords(frame) {
    const you = store.you.seat;
    const by = frame.by === you ? "You" : who(frame.by);
    if (frame.reason === "left") return `${by} left: no rematch.`;
    if (frame.by === frame.seat) return frame.by === you ? "You withdrew the rematch offer." : `${by} withdrew the rematch offer.`;
    return `${by} declined the rematch.`;
  }

  /** "Analyse": the post-game analysis page, once the match is finished. */
  function renderAnalysisLink() {
    let link = document.getElementById("analysis-link");
    if (!link) {
      link = h("a", { id: "analysis-link", class: "button", href: `/matches/${store.matchId}/analysis/`, "data-testid": "analyse-link" }, "Analyse");
      document.getElementById("actions").append(link);
    }
    link.hidden = !(store.match.status === "finished" && store.match.moves.length > 0);
  }

  function waiting() {
    return store.match && store.match.status === "waiting";
  }

  el.resign.addEventListener("click", () => {
    if (!armed) {
      el.resign.textContent = waiting() ? "Confirm: cancel" : "Confirm: resign";
      el.resign.classList.add("armed");
      armed = window.setTimeout(disarm, CONFIRM_MS);
      return;
    }
    disarm();
    if (!socket.send({ type: "resign" })) errors.show("Not connected; try again once the connection is back.");
  });

  function disarm() {
    window.clearTimeout(armed);
    armed = null;
    el.resign.textContent = waiting() ? "Cancel match" : "Resign";
    el.resign.classList.remove("armed");
  }

  el.rematch.addEventListener("click", async () => {
    if (againstPeople()) {
      el.rematch.disabled = true;
      note = "";
      if (!socket.send({ type: "rematch_offer" })) {
        errors.show("Not connected; try again once the connection is back.");
        el.rematch.disabled = false;
      }
      return;
    }
    // The same seats: the same bots, and humans where humans sat (we take ours again).
    const seats = store.match.seats.map((seat) =>
      seat.player && isBot(seat.player) && seat.player.profile && seat.player.profile.slug
        ? { kind: "bot", profile: seat.player.profile.slug }
        : { kind: "human" });
    el.rematch.disabled = true;
    try {
      const next = await createMatch(store.match.game, seats);
      window.location.assign(`/matches/${next.id}/`);
    } catch (error) {
      errors.show(error instanceof ApiError ? error.message : "Could not start a rematch.");
      el.rematch.disabled = false;
    }
  });

  return { render, onFrame };
}

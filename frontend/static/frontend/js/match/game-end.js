// The buttons that end a match or follow its end: resign (cancel, while it waits for
// players) with a confirmation, rematch, and the analysis link of a finished match.

import { ApiError, createMatch } from "../api.js";
import { h } from "../dom.js";
import { isBot } from "../players.js";

const CONFIRM_MS = 4000; // the armed "Confirm: resign" goes back to "Resign" after this long

export function createGameEnd({ store, el, socket, errors }) {
  let armed = null; // the timer that disarms the resign button, while it asks for confirmation

  function render() {
    const { match, you } = store;
    const seated = you.seat !== null;
    el.resign.hidden = !(seated && (match.status === "active" || match.status === "waiting"));
    if (!armed) el.resign.textContent = match.status === "waiting" ? "Cancel match" : "Resign";
    const over = store.isOver();
    el.newMatch.hidden = !over;
    el.rematch.hidden = !(over && seated);
    renderAnalysisLink();
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

  return { render };
}

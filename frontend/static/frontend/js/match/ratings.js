// Ratings in the match room: beside each person's and each measured bot's name their rating
// in this game, on one scale ("1500?" while provisional), and once a rated match has ended
// what it changed ("+12"), on the seat's line and, for the players, in the result box
// (GET /api/matches/{id}/ratings/, docs/wire.md).

import { api } from "../api.js";
import { announce, h } from "../dom.js";

export function createRatings({ store, el }) {
  let bySeat = new Map(); // seat -> {rating, deviation, provisional, change}
  let asked = 0; // answers can overtake each other: only the latest request's is shown

  function onFrame(frame) {
    if (frame.type === "state" || frame.type === "seat") refresh(false);
    else if (frame.type === "game_over") refresh(true);
  }

  async function refresh(justEnded) {
    const request = ++asked;
    let body;
    try {
      body = await api(`/api/matches/${store.matchId}/ratings/`);
    } catch {
      return; // ratings are a courtesy: the game goes on without them, the next state asks again
    }
    if (request !== asked) return;
    bySeat = new Map(body.seats.map((entry) => [entry.seat, entry]));
    render();
    const mine = bySeat.get(store.you.seat);
    if (justEnded && mine && mine.change) announce(`Your rating: ${changeWords(mine.change)}.`);
  }

  function render() {
    document.querySelectorAll("#seats [data-seat]").forEach((item) => {
      const entry = bySeat.get(Number(item.dataset.seat));
      let node = item.querySelector(".seat-rating");
      if (!entry) {
        if (node) node.remove();
        return;
      }
      if (!node) {
        node = h("span", { class: "seat-rating", "data-testid": `seat-rating-${item.dataset.seat}` });
        const player = item.querySelector(".player");
        if (player) player.after(node);
        else item.append(node);
      }
      node.replaceChildren(...seatRating(entry));
    });
    renderMine();
  }

  /** The players' own change under the result: "Your rating: 1500? → 1662? (+162)". */
  function renderMine() {
    const mine = bySeat.get(store.you.seat);
    let node = el.result.querySelector(".rating-result");
    if (el.result.hidden || !mine || !mine.change) {
      if (node) node.remove();
      return;
    }
    if (!node) {
      node = h("p", { class: "rating-result", "data-testid": "rating-result" });
      el.result.append(node);
    }
    node.replaceChildren("Your rating: ", changeWords(mine.change), " ", diff(mine.change));
  }

  return { onFrame, render };
}

const shown = (rating, provisional) => `${Math.round(rating)}${provisional ? "?" : ""}`;

function seatRating(entry) {
  if (!entry.change) return [shown(entry.rating, entry.provisional)];
  return [shown(entry.change.after, entry.change.provisional_after), " ", diff(entry.change)];
}

function changeWords(change) {
  return `${shown(change.before, change.provisional_before)} → ${shown(change.after, change.provisional_after)}`;
}

/** "+12", "−7" or "±0": the change as the rounded ratings show it. */
function diff(change) {
  const points = Math.round(change.after) - Math.round(change.before);
  const text = points > 0 ? `+${points}` : points < 0 ? `−${-points}` : "±0";
  const tone = points > 0 ? "up" : points < 0 ? "down" : "same";
  return h("span", { class: `rating-diff ${tone}`, "aria-label": `${points >= 0 ? "gained" : "lost"} ${Math.abs(points)} points` }, text);
}

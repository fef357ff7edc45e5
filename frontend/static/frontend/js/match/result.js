// The result box once the game is over: who won (or a draw, or aborted), why, and the
// final ranking of a game of more than two players.

import { h, present } from "../dom.js";
import { allLevel, placeWords, placesOf } from "../places.js";
import { playerLabel, seatMark } from "../players.js";

export function renderResult(store, node) {
  const { match, you } = store;
  const over = store.isOver();
  node.hidden = !over;
  if (!over) return;
  const r = match.result || {};
  const noWinner = r.winner === null || r.winner === undefined;
  const places = placesOf(r);
  const drawn = noWinner && (allLevel(places) || places.length === 0);
  const reason = r.reason ? h("span", { class: "result-reason" }, r.reason) : null;
  let headline;
  let tone;
  if (match.status === "aborted") {
    headline = h("strong", {}, "Match aborted");
    tone = "neutral";
  } else if (drawn) {
    headline = h("strong", {}, "Draw");
    tone = "neutral";
  } else if (noWinner) {
    // Several seats share first place (a game for three where one resigned): who finished where.
    ({ headline, tone } = sharedHeadline(store, places));
  } else if (r.winner === you.seat) {
    headline = h("strong", {}, "You won!");
    tone = "win";
  } else {
    headline = h("strong", {}, you.seat !== null ? "You lost. " : "", playerLabel(store.seatPlayer(r.winner)), " won");
    tone = you.seat !== null ? "loss" : "neutral";
  }
  node.className = `result result-${tone}`;
  node.dataset.winner = noWinner ? "" : String(r.winner);
  node.dataset.places = places.join(",");
  node.replaceChildren(...present(
    h("span", { class: "result-icon", "aria-hidden": "true" }, resultIcon(match, drawn, tone)),
    headline,
    reason ? " — " : null,
    reason,
    points(store, r),
    ranking(store, r),
  ));
}

/** "You finished 1st (shared)", or for a spectator "Shared first: A and B". */
function sharedHeadline(store, places) {
  const you = store.you.seat;
  if (you !== null && places[you] !== undefined) {
    return { headline: h("strong", {}, `You finished ${placeWords(places, you)}`), tone: places[you] === 1 ? "win" : "loss" };
  }
  const first = places.map((place, seat) => (place === 1 ? seat : null)).filter((seat) => seat !== null);
  const names = first.flatMap((seat, i) => [i ? " and " : "", playerLabel(store.seatPlayer(seat), { compact: true })]);
  return { headline: h("strong", {}, "Shared first: ", ...names), tone: "neutral" };
}

/** What each seat won in points (backgammon with the cube: the cube's value times 1, 2 or 3). */
function points(store, r) {
  if (!Array.isArray(r.points) || !r.points.some((p) => p > 0)) return null;
  const won = r.points.map((p, seat) => [p, seat]).filter(([p]) => p > 0);
  return h("span", { class: "result-points", "data-testid": "result-points" },
    ...won.flatMap(([p, seat]) => [" · ", playerLabel(store.seatPlayer(seat), { compact: true }), ` wins ${p} point${p === 1 ? "" : "s"}`]));
}

/** "=" only for a draw: a spectator sees a win as a win, in the neutral colours. */
function resultIcon(match, drawn, tone) {
  if (match.status === "aborted") return "–";
  if (drawn) return "=";
  return tone === "loss" ? "✕" : "★";
}

/** Who finished where, for more than two seats: each seat's place ("1st (shared)") and player. */
function ranking(store, r) {
  if (!Array.isArray(r.ranking) || r.ranking.length <= 2) return null;
  const places = placesOf(r);
  return h("ol", { class: "ranking", "aria-label": "Final ranking", "data-testid": "ranking" }, ...r.ranking.map((seat) =>
    h("li", { "data-testid": `place-${seat}` },
      h("span", { class: "place" }, placeWords(places, seat)),
      seatMark(store.match.game, seat),
      playerLabel(store.seatPlayer(seat), { compact: true }),
      seat === store.you.seat ? h("span", { class: "tag you-tag" }, "you") : null)));
}

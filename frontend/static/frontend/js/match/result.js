// The result box once the game is over: who won (or a draw, or aborted), why, and the
// final ranking of a game of more than two players.

import { h, present } from "../dom.js";
import { playerLabel, seatMark } from "../players.js";

export function renderResult(store, node) {
  const { match, you } = store;
  const over = store.isOver();
  node.hidden = !over;
  if (!over) return;
  const r = match.result || {};
  const noWinner = r.winner === null || r.winner === undefined;
  const reason = r.reason ? h("span", { class: "result-reason" }, r.reason) : null;
  let headline;
  let tone;
  if (match.status === "aborted") {
    headline = h("strong", {}, "Match aborted");
    tone = "neutral";
  } else if (noWinner) {
    headline = h("strong", {}, "Draw");
    tone = "neutral";
  } else if (r.winner === you.seat) {
    headline = h("strong", {}, "You won!");
    tone = "win";
  } else {
    headline = h("strong", {}, you.seat !== null ? "You lost. " : "", playerLabel(store.seatPlayer(r.winner)), " won");
    tone = you.seat !== null ? "loss" : "neutral";
  }
  node.className = `result result-${tone}`;
  node.dataset.winner = noWinner ? "" : String(r.winner);
  node.replaceChildren(...present(
    h("span", { class: "result-icon", "aria-hidden": "true" }, resultIcon(match, noWinner, tone)),
    headline,
    reason ? " — " : null,
    reason,
    ranking(store, r),
  ));
}

/** "=" only for a draw: a spectator sees a win as a win, in the neutral colours. */
function resultIcon(match, noWinner, tone) {
  if (match.status === "aborted") return "–";
  if (noWinner) return "=";
  return tone === "loss" ? "✕" : "★";
}

function ranking(store, r) {
  if (!Array.isArray(r.ranking) || r.ranking.length <= 2) return null;
  return h("ol", { class: "ranking", "aria-label": "Final ranking" }, ...r.ranking.map((seat) =>
    h("li", {},
      seatMark(store.match.game, seat),
      playerLabel(store.seatPlayer(seat), { compact: true }),
      seat === store.you.seat ? h("span", { class: "tag you-tag" }, "you") : null)));
}

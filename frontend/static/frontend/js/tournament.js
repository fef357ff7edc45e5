// A tournament's page: standings, crosstable and games, live over /ws/tournaments/{id}/ (docs/wire.md).
// Every entrant is shown as everywhere on the site: a bot with its AI badge, a guest with its marker.

import { api } from "./api.js";
import { announce, h, pageData } from "./dom.js";
import { playerLabel } from "./players.js";
import { LiveSocket } from "./socket.js";
import { factsLine, pointsText, statusLine } from "./tournament-words.js";

const page = pageData();
const $ = (id) => document.getElementById(id);
const id = page.tournament_id;
let current = null;

function byId(t) {
  return new Map(t.entrants_list.map((e) => [e.id, e]));
}

/** The signed-in person's entrant, if they entered (accounts' names are theirs alone). */
function myEntrant(t) {
  const me = page.player;
  if (!me || me.is_guest) return null;
  return t.entrants_list.find((e) => e.kind === "human" && e.name === me.name) || null;
}

function renderActions(t) {
  const me = page.player;
  const mine = myEntrant(t);
  const open = t.status === "scheduled" || (t.kind === "arena" && t.status === "running");
  const parts = [];
  if (!me || me.is_guest) {
    if (open && t.entry !== "bots") parts.push(h("span", { class: "muted" }, "Sign up or log in to play in tournaments."));
  } else if (mine && !mine.withdrawn && t.status !== "finished" && t.status !== "cancelled") {
    parts.push(h("button", { type: "button", "data-testid": "withdraw", onclick: () => act("withdraw") }, "Withdraw"));
  } else if (open && t.entry !== "bots") {
    parts.push(h("button", { type: "button", class: "primary", "data-testid": "join", onclick: () => act("join") }, mine ? "Play again" : "Join"));
  }
  if (open && t.entry !== "people") parts.push(h("span", { class: "muted" }, "Bot accounts enter through the Bot API, with their own token."));
  $("tournament-actions").replaceChildren(...parts);
}

async function act(verb) {
  $("tournament-error").textContent = "";
  try {
    await api(`/api/tournaments/${id}/${verb}/`, { method: "POST", body: {} });
    socket.send({ type: "sync" });
  } catch (error) {
    $("tournament-error").textContent = error.message;
  }
}

function scoreText(score) {
  return score === null || score === undefined ? "" : pointsText(score / 2);
}

function renderPairings(t) {
  const entrants = byId(t);
  const rows = t.pairings.map((p) => {
    const white = entrants.get(p.white);
    const black = p.black === null ? null : entrants.get(p.black);
    const result = p.white_score === null ? "playing" : black ? `${scoreText(p.white_score)}–${scoreText(p.black_score)}` : "bye";
    return h(
      "li",
      { class: "pairing", "data-testid": "pairing" },
      h("span", { class: "side" }, playerLabel(white, { compact: true })),
      h("span", { class: "result", "data-testid": "pairing-result" }, p.match_url ? h("a", { href: p.match_url }, result === "playing" ? "watch" : result) : result),
      black ? h("span", { class: "side" }, playerLabel(black, { compact: true })) : h("span", { class: "side muted" }, p.note || "bye"),
      p.note && black ? h("span", { class: "muted note" }, ` (${p.note})`) : null,
    );
  });
  $("pairings").replaceChildren(...(rows.length ? rows : [h("li", { class: "muted" }, t.status === "scheduled" ? "Paired at the start." : "No game now.")]));
}

function renderStandings(t) {
  const arena = t.kind === "arena";
  const head = h("thead", {}, h("tr", {},
    h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Entrant"), h("th", { scope: "col" }, "Points"),
    arena ? null : h("th", { scope: "col", title: "Buchholz: the opponents' points" }, "Bh"),
    arena ? null : h("th", { scope: "col", title: "Sonneborn-Berger: the points of the opponents beaten, half of those drawn" }, "SB"),
    h("th", { scope: "col", title: "wins / draws / losses" }, "W/D/L"),
  ));
  const body = h("tbody", {}, ...t.standings.map((row) => h(
    "tr",
    { "data-testid": `standing-${row.rank}`, class: row.entrant.withdrawn ? "withdrawn" : null },
    h("td", {}, String(row.rank)),
    h("th", { scope: "row" }, playerLabel(row.entrant, { compact: true }), row.entrant.withdrawn ? h("span", { class: "muted" }, " (withdrawn)") : null),
    h("td", { class: "points", "data-testid": `points-${row.rank}` }, pointsText(row.points), row.on_fire ? h("span", { class: "fire", title: "On fire: the next win counts double" }, " 🔥") : null),
    arena ? null : h("td", {}, pointsText(row.buchholz)),
    arena ? null : h("td", {}, pointsText(row.sonneborn_berger)),
    h("td", {}, `${row.wins}/${row.draws}/${row.losses}`),
  )));
  $("standings").replaceChildren(h("caption", { class: "visually-hidden" }, "Standings, best first"), head, body);
  $("tie-breaks").textContent = arena
    ? "Arena points: 2 a win, 1 a draw; after two wins running, each game counts double until one is not won."
    : "Ties are broken by Buchholz (Bh), then Sonneborn-Berger (SB), then rating.";
}

function renderCrosstable(t) {
  const entrants = byId(t);
  const ranks = new Map(t.standings.map((row) => [row.entrant.id, row.rank]));
  if (t.kind === "round_robin") {
    const order = t.standings.map((row) => row.entrant.id);
    const head = h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Entrant"), ...order.map((e) => h("th", { scope: "col" }, String(ranks.get(e))))));
    const body = h("tbody", {}, ...t.crosstable.map((row) => {
      const against = new Map(row.games.map((g) => [g.opponent, g]));
      return h("tr", {},
        h("td", {}, String(ranks.get(row.entrant))),
        h("th", { scope: "row" }, playerLabel(entrants.get(row.entrant), { compact: true })),
        ...order.map((e) => {
          if (e === row.entrant) return h("td", { class: "self" }, "×");
          const g = against.get(e);
          return h("td", {}, g ? (g.match ? h("a", { href: `/matches/${g.match}/` }, scoreText(g.score) || "…") : scoreText(g.score)) : "");
        }));
    }));
    $("crosstable").replaceChildren(head, body);
    return;
  }
  const body = h("tbody", {}, ...t.crosstable.map((row) => h("tr", {},
    h("td", {}, String(ranks.get(row.entrant))),
    h("th", { scope: "row" }, playerLabel(entrants.get(row.entrant), { compact: true })),
    h("td", { class: "games" }, ...row.games.map((g) => {
      const text = g.opponent === null ? `bye ${scoreText(g.score)}` : `${g.colour === "white" ? "○" : "●"}${ranks.get(g.opponent) ?? "?"} ${scoreText(g.score) || "…"}`;
      const title = g.opponent === null ? `round ${g.round}: a bye` : `against ${entrants.get(g.opponent)?.name} with ${g.colour}`;
      return h("span", { class: "cell", title }, g.match ? h("a", { href: `/matches/${g.match}/` }, text) : text);
    })),
  )));
  const head = h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Entrant"), h("th", { scope: "col" }, t.kind === "arena" ? "Games, in order (○ white, ● black, opponent's rank, score)" : "Rounds (○ white, ● black, opponent's rank, score)")));
  $("crosstable").replaceChildren(head, body);
}

function render(t) {
  const before = current;
  current = t;
  document.title = `${t.name} · Plyground`;
  $("tournament-name").textContent = t.name;
  $("tournament-facts").textContent = factsLine(t);
  $("tournament-status").textContent = statusLine(t);
  $("tournament").dataset.status = t.status;
  renderActions(t);
  renderPairings(t);
  renderStandings(t);
  renderCrosstable(t);
  if (before && before.status !== t.status) announce(statusLine(t));
  $("tournament").dataset.ready = "true";
}

const socket = new LiveSocket(`/ws/tournaments/${id}/`, {
  banner: $("reconnect-banner"),
  onFrame: (frame) => {
    if (frame.type === "tournament") render(frame.tournament);
    else if (frame.type === "error") $("tournament-error").textContent = frame.message;
  },
  onFatal: () => { $("tournament-error").textContent = "No such tournament."; },
});
socket.connect();

// "Measure my agent" on the account page (docs/bots.md, "Measuring a bot"): start a run of a bot
// against a game's house ladder, follow its progress, read its rating and the table per step.
// The same API as a program's; the server checks the game, the steps, the caps and the owner.

import { api } from "./api.js";

const POLL_MS = 3000;
const LIVE = new Set(["queued", "running"]);

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

let twoPlayerGames = null;
async function gamesForTwo() {
  twoPlayerGames ??= api("/api/games/").then((games) => games.filter((g) => g.num_players === 2));
  return twoPlayerGames;
}

function resultText(run) {
  const r = run.result;
  if (!r) return "no game finished yet";
  const sofar = LIVE.has(run.status) ? " so far" : "";
  return `rating ${r.rating} (95 %: ${r.low}–${r.high}) from ${r.games} game${r.games === 1 ? "" : "s"}${sofar}`;
}

function stepTable(run) {
  const table = element("table", "", { class: "measure-table", "data-testid": "measure-table" });
  const head = element("tr");
  for (const title of ["House bot", "its rating", "games", "won–drawn–lost", "score"]) head.append(element("th", title, { scope: "col" }));
  table.append(head);
  for (const row of run.result?.steps || []) {
    const tr = element("tr", "", { "data-step": row.step });
    tr.append(
      element("td", row.name),
      element("td", `${row.step_rating} ± ${Math.round(1.96 * row.step_deviation)}`),
      element("td", String(row.games)),
      element("td", `${row.wins}–${row.draws}–${row.losses}`),
      element("td", row.score === null ? "–" : `${Math.round(row.score * 100)} %`),
    );
    table.append(tr);
  }
  return table;
}

/** Downloads of the run's games: every move with the agent's stats and the house bots'. */
function exportLinks(run) {
  const links = element("p", "Its games, every move with the search statistics: ", { "data-testid": "measure-export" });
  const formats = [["jsonl", "JSONL"], ["csv", "CSV"], ...(run.game === "chess" ? [["pgn", "PGN"]] : [])];
  formats.forEach(([format, label], index) => {
    if (index) links.append(" · ");
    links.append(element("a", label, { href: `/api/agents/measurements/${run.id}/export/${format}/`, download: "" }));
  });
  return links;
}

/** One run: its status and progress, the rating so far, the table; a cancel button while it lives. */
function runView(run, gameName, onCancel) {
  const box = element("div", "", { class: "measurement", "data-testid": "measurement", "data-status": run.status });
  const { finished, total, aborted, playing } = run.progress;
  const line = `${gameName}: ${run.status}, ${finished} of ${total} games played${aborted ? `, ${aborted} aborted` : ""}`;
  box.append(element("p", line, { "data-testid": "measure-progress" }));
  if (run.reason) box.append(element("p", run.reason, { class: "muted" }));
  box.append(element("p", resultText(run), { "data-testid": "measure-result" }), stepTable(run));
  if (playing) box.append(element("a", "Watch the game in play", { href: `/matches/${playing}/` }));
  if (run.matches.length) box.append(exportLinks(run));
  if (LIVE.has(run.status)) {
    const cancel = element("button", "Cancel the run", { type: "button" });
    cancel.addEventListener("click", onCancel);
    box.append(" ", cancel);
  }
  return box;
}

/** The measurement part of a bot's entry: a form to start a run, and its latest run, kept fresh. */
export function measurementPart(bot, say) {
  const part = element("details", "", { class: "measure", "data-testid": "measure" });
  part.append(element("summary", "Measure its strength against the house bots"));
  const form = element("form", "", { class: "inline-form", "data-testid": "measure-form" });
  const game = element("select", "", { name: "game", "aria-label": "Game" });
  const perStep = element("select", "", { name: "games_per_step", "aria-label": "Games against each house bot" });
  for (const n of [2, 4, 10, 20, 50]) perStep.append(element("option", `${n} games a house bot`, { value: String(n) }));
  perStep.value = "10";
  const openings = element("select", "", { name: "openings", "aria-label": "Openings" });
  openings.append(
    element("option", "from the start", { value: "" }),
    element("option", "from the standard openings", { value: "standard" }),
  );
  form.append(game, " ", perStep, " ", openings, " ", element("button", "Start", { type: "submit" }));
  const latest = element("div", "", { "data-testid": "measure-latest" });
  part.append(
    element("p", "It plays each of the game's rated house bots in turn, one game at a time, each colour as often, on a 3 minutes + 2 seconds clock; keep it connected. From the standard openings, each opening is played with both colours. Its rating is on the scale people and house bots are rated on."),
    form,
    latest,
  );
  const path = `/api/agents/${encodeURIComponent(bot.name)}/measurements/`;
  let timer = null;

  async function refresh() {
    clearTimeout(timer);
    const [runs, games] = await Promise.all([api(path), gamesForTwo()]);
    if (!runs.length) { latest.replaceChildren(); return; }
    const name = games.find((g) => g.id === runs[0].game)?.name ?? runs[0].game;
    latest.replaceChildren(runView(runs[0], name, () => cancel(runs[0])));
    if (LIVE.has(runs[0].status)) timer = setTimeout(() => refresh().catch(say), POLL_MS);
  }

  async function cancel(run) {
    try {
      await api(`/api/agents/measurements/${run.id}/`, { method: "DELETE" });
      await refresh();
    } catch (error) { say(error); }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const body = { game: game.value, games_per_step: Number(perStep.value), openings: openings.value || null };
      await api(path, { method: "POST", body });
      await refresh();
    } catch (error) { say(error); }
  });
  gamesForTwo()
    .then((games) => game.replaceChildren(...games.map((g) => element("option", g.name, { value: g.id }))))
    .catch(say);
  refresh().catch(say);
  return part;
}

// A person's ratings, per game: on any page with
// <section id="player-ratings" data-player="NAME">, this module fetches
// /api/players/NAME/ratings/ and shows each game's Glicko-2 rating ("?" while
// provisional, ± its deviation) with a rating graph in inline SVG. The graph is
// an image with a summary for screen readers, and its points are also a table.

import { api, getGames, items } from "./api.js";
import { h, s } from "./dom.js";

const WIDTH = 300;
const HEIGHT = 120;
const PAD = { left: 34, right: 8, top: 8, bottom: 18 };

const round = (x) => Math.round(x);

/** "1523?" while provisional, "1523" once established. */
export function ratingText(entry) {
  return `${round(entry.rating)}${entry.provisional ? "?" : ""}`;
}

function ensureStyles() {
  if (document.querySelector('link[data-ratings-css]')) return;
  const href = new URL("../css/ratings.css", import.meta.url).href;
  if ([...document.styleSheets].some((sheet) => sheet.href === href)) return;
  document.head.append(h("link", { rel: "stylesheet", href, "data-ratings-css": "" }));
}

function dateText(iso) {
  const when = new Date(iso);
  return Number.isNaN(when.getTime()) ? iso : when.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

/** The rating after each rated game as a line, with its deviation as a band around it. */
export function ratingGraph(points, label) {
  const svg = s("svg", { class: "rating-graph", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": label, "data-testid": "rating-graph" });
  if (!points.length) return svg;
  const lows = points.map((p) => p.rating - p.deviation);
  const highs = points.map((p) => p.rating + p.deviation);
  let [min, max] = [Math.min(...lows), Math.max(...highs)];
  if (max - min < 50) [min, max] = [min - 25, max + 25];
  const x = (i) => PAD.left + (points.length === 1 ? 0.5 : i / (points.length - 1)) * (WIDTH - PAD.left - PAD.right);
  const y = (r) => PAD.top + (1 - (r - min) / (max - min)) * (HEIGHT - PAD.top - PAD.bottom);
  const upper = points.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`);
  const lower = points.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse();
  svg.append(
    s("line", { class: "axis", x1: PAD.left, x2: WIDTH - PAD.right, y1: HEIGHT - PAD.bottom, y2: HEIGHT - PAD.bottom }),
    s("text", { x: 2, y: y(max) + 8 }, String(round(max))),
    s("text", { x: 2, y: y(min) }, String(round(min))),
    points.length > 1
      ? s("polygon", { class: "band", points: [...upper, ...lower].join(" ") })
      : s("rect", { class: "band", x: x(0) - 3, width: 6, y: y(highs[0]), height: y(lows[0]) - y(highs[0]) }),
    s("polyline", { class: "line", points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }),
    ...points.map((p, i) => s("circle", { class: "dot", cx: x(i), cy: y(p.rating), r: 2.5 })),
  );
  return svg;
}

function historyTable(name, points) {
  return h("details", {},
    h("summary", {}, `${name} rating history as a table`),
    h("table", { class: "rating-history", "data-testid": "rating-history" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "After the game of"), h("th", { scope: "col" }, "Rating"), h("th", { scope: "col" }, "Deviation"))),
      h("tbody", {}, ...points.map((p) => h("tr", {},
        h("td", {}, dateText(p.at)), h("td", {}, String(round(p.rating))), h("td", {}, `± ${round(p.deviation)}`))))));
}

function ratingCard(entry, name, points) {
  const first = points.length ? round(points[0].rating) : null;
  const summary = points.length
    ? `${name} rating over ${points.length} rated game${points.length === 1 ? "" : "s"}: from ${first} to ${round(entry.rating)}.`
    : `${name}: no rated games yet.`;
  return h("li", { class: "rating-card", "data-game": entry.game, "data-testid": `rating-${entry.game}` },
    h("h3", {}, name),
    h("p", {},
      h("span", { class: "rating-now rating-value", "data-testid": `rating-value-${entry.game}` }, ratingText(entry)),
      " ",
      h("span", { class: "muted" }, `± ${round(entry.deviation)}`),
      entry.provisional ? h("span", { class: "muted" }, " (provisional)") : null),
    h("p", { class: "muted" }, `${entry.games} rated game${entry.games === 1 ? "" : "s"}`),
    ratingGraph(points, summary),
    historyTable(name, points));
}

/** Fill one `#player-ratings` section from the API. */
export async function renderRatings(section) {
  const player = section.dataset.player;
  if (!player) return;
  ensureStyles();
  section.setAttribute("aria-busy", "true");
  try {
    const [body, games] = await Promise.all([
      api(`/api/players/${encodeURIComponent(player)}/ratings/`),
      getGames().then(items).catch(() => []),
    ]);
    const names = new Map(games.map((g) => [g.id, g.name]));
    const cards = body.ratings.map((entry) => ratingCard(entry, names.get(entry.game) || entry.game, body.history[entry.game] || []));
    section.replaceChildren(
      h("h2", {}, "Ratings"),
      cards.length
        ? h("ul", { class: "ratings-list" }, ...cards)
        : h("p", { class: "muted", "data-testid": "ratings-empty" }, "No rated games yet."));
  } catch (error) {
    section.replaceChildren(h("h2", {}, "Ratings"), h("p", { class: "error", role: "alert" }, `Could not load the ratings: ${error.message}`));
  } finally {
    section.setAttribute("aria-busy", "false");
    section.dataset.ready = "true";
  }
}

const section = document.getElementById("player-ratings");
if (section) renderRatings(section);

// How players are shown.  A bot is never presented as a person (docs/design.md §6.1):
// wherever a bot appears it carries an AI badge with its level and algorithm.  A guest
// carries a Guest marker: accounts' names are theirs alone, guests' are not.

import { h, pageData, s } from "./dom.js";

// The algorithm catalogue (`ai.catalogue`), as every page receives it: {id: {label, summary, how, capabilities}}.
const ALGORITHMS = pageData().algorithms || {};

export function algorithmName(algorithm) {
  return ALGORITHMS[algorithm]?.label || algorithm || "";
}

/** Whether the catalogue says the algorithm can do `capability` (`ai.Capability`: "full_width", "looks_ahead", ...). */
export function algorithmCan(algorithm, capability) {
  return (ALGORITHMS[algorithm]?.capabilities || []).includes(capability);
}

/** The catalogue's longer story of an algorithm, a paragraph each, for a bot's page. */
export function algorithmHow(algorithm) {
  return ALGORITHMS[algorithm]?.how || [];
}

/** The catalogue's one-line summary of an algorithm, for players. */
export function algorithmSummary(algorithm) {
  return ALGORITHMS[algorithm]?.summary || "";
}

export function isBot(player) {
  return Boolean(player && (player.is_ai || player.kind === "bot"));
}

/** "1.2 s" / "300 ms". */
export function formatMs(ms) {
  if (typeof ms !== "number") return "";
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10000 ? 0 : 1)} s` : `${Math.round(ms)} ms`;
}

/**
 * The AI badge: "AI · level 3 · alpha-beta".  `profile` may be a bot profile
 * from /api/bots/ or the `profile` of a seat's player; both have level and
 * algorithm.  Without a profile the badge still says AI.
 */
export function aiBadge(profile, { compact = false } = {}) {
  const parts = ["AI"];
  if (profile && profile.level !== undefined && profile.level !== null) parts.push(`level ${profile.level}`);
  const algorithm = profile && profile.algorithm ? algorithmName(profile.algorithm) : "";
  if (algorithm && !compact) parts.push(algorithm);
  const title = profile
    ? `Computer player${profile.name ? ` “${profile.name}”` : ""}: level ${profile.level ?? "?"}, ${algorithmName(profile.algorithm) || "search"}` +
      (profile.time_budget_ms ? `, ${formatMs(profile.time_budget_ms)} per move` : "")
    : "Computer player";
  const badge = h("span", { class: "ai-badge", title, "data-testid": "ai-badge" }, parts.join(" · "));
  // A compact badge keeps the same words; a narrow screen hides the algorithm (the title keeps it),
  // so that the bot's name next to it is not cut to a few letters.
  if (algorithm && compact) badge.append(h("span", { class: "ai-badge-detail" }, ` · ${algorithm}`));
  return badge;
}

/** A bot account: a program a person registered (docs/bots.md), shown as an AI with its owner. */
export function isAgent(player) {
  return Boolean(player && player.kind === "agent");
}

/** The AI badge of a bot account: "AI · by <owner>". */
export function agentBadge(player) {
  const title = `Computer player: a program registered by ${player.owner}`;
  return h("span", { class: "ai-badge", title, "data-testid": "ai-badge" }, `AI · by ${player.owner}`);
}

export function isGuest(player) {
  return Boolean(player && !isBot(player) && player.is_guest);
}

/** The Guest marker: a person playing without an account, whose name is not reserved to them. */
export function guestBadge() {
  const title = "Guest: playing without an account; another person may use the same name";
  return h("span", { class: "guest-badge", title, "data-testid": "guest-badge" }, "Guest");
}

// Each game's seats as its spec declares them (`games.spec.SeatSpec`), as every page receives
// them: {game id: [{index, name, colour, mark}]}.  No game is named here.
const SEATS = pageData().seats || {};

function seatSpec(game, seat) {
  return (SEATS[game] || [])[seat] || null;
}

/** The small mark of a seat used in lists: X / O, a plain disc, or a disc with the seat's symbol. */
export function seatMark(game, seat) {
  const spec = seatSpec(game, seat);
  const mark = spec ? spec.mark : "disc";
  const svg = s("svg", { class: `seat-mark seat-${seat}${spec ? ` colour-${spec.colour}` : ""}`, viewBox: "0 0 20 20", "aria-hidden": "true" });
  if (mark === "x") svg.append(s("path", { d: "M4 4 L16 16 M16 4 L4 16", class: "mark-x" }));
  else if (mark === "o") svg.append(s("circle", { cx: 10, cy: 10, r: 6.5, class: "mark-o" }));
  else {
    svg.append(s("circle", { cx: 10, cy: 10, r: mark === "plain" ? 8.5 : 9, class: "disc" }));
    if (mark === "disc") svg.append(discSymbol(seat, 10, 10, 9));
  }
  return svg;
}

/** The symbol inside a disc, so seats differ by shape and not only colour. */
export function discSymbol(seat, cx, cy, r) {
  const k = r * 0.42;
  switch (seat % 4) {
    case 0:
      return s("circle", { cx, cy, r: k * 0.8, class: "disc-symbol" });
    case 1:
      return s("path", { d: `M${cx} ${cy - k} L${cx + k} ${cy} L${cx} ${cy + k} L${cx - k} ${cy} Z`, class: "disc-symbol" });
    case 2:
      return s("rect", { x: cx - k * 0.75, y: cy - k * 0.75, width: k * 1.5, height: k * 1.5, class: "disc-symbol" });
    default:
      return s("path", { d: `M${cx} ${cy - k} L${cx + k} ${cy + k * 0.8} L${cx - k} ${cy + k * 0.8} Z`, class: "disc-symbol" });
  }
}

/** The seat's name as players call it ("X", "black", "blue (dot)"); "seat N" where the page has no spec. */
export function markName(game, seat) {
  const spec = seatSpec(game, seat);
  return spec ? spec.name : `seat ${seat + 1}`;
}

/** A player's name with the AI badge when it is a bot, the Guest marker when a guest; "Open seat" when empty. */
export function playerLabel(player, { compact = false } = {}) {
  if (!player) return h("span", { class: "player open-seat" }, "Open seat");
  const bot = isBot(player);
  const badge = isAgent(player)
    ? agentBadge(player)
    : bot
      ? aiBadge(player.profile, { compact })
      : isGuest(player)
        ? guestBadge()
        : null;
  return h(
    "span",
    { class: `player ${bot ? "player-bot" : "player-human"}`, "data-kind": bot ? "bot" : "human" },
    h("span", { class: "player-name" }, player.name || (bot ? "Computer" : "Player")),
    badge ? " " : null,
    badge,
  );
}

/** Plain words for screen readers and the status line. */
export function playerWords(player) {
  if (!player) return "an open seat";
  if (!isBot(player)) return `${player.name || "a player"}${isGuest(player) ? " (guest)" : ""}`;
  if (isAgent(player)) return `${player.name} (AI, by ${player.owner})`;
  const p = player.profile;
  return `${player.name || "the computer"} (AI${p && p.level !== undefined ? `, level ${p.level}` : ""})`;
}

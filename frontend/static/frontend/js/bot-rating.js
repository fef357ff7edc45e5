// A bot's measured rating in words: "Elo 905 (±150) · 120 games, 2026-11-26" (server/bots/measured.py).

import { formatMs } from "./players.js";

const measuredYet = (bot) => typeof bot.rating === "number";

/** The Elo and the half-width of its 95% interval; the random mover is the anchor at 0. */
export function ratingShort(bot) {
  if (!measuredYet(bot)) return "rating not measured yet";
  const elo = Math.round(bot.rating);
  if (typeof bot.rating_low !== "number" || typeof bot.rating_high !== "number") return `Elo ${elo}`;
  const half = Math.round((bot.rating_high - bot.rating_low) / 2);
  return half ? `Elo ${elo} (±${half})` : `Elo ${elo} (anchor)`;
}

/** The rating with what it rests on: games and date, and the capped budget when there was one. */
export function ratingText(bot) {
  if (!measuredYet(bot)) return ratingShort(bot);
  const when = [bot.rated_games ? `${bot.rated_games} games` : null, bot.measured_on].filter(Boolean).join(", ");
  return [ratingShort(bot), when || null].filter(Boolean).join(" · ");
}

/** Why the figure may differ from its play today, or "" (a capped budget; adapting to you). */
export function ratingCaveat(bot) {
  if (!measuredYet(bot)) return "";
  const notes = [];
  if (typeof bot.rating_budget_cap_ms === "number") {
    notes.push(`measured with its budget capped at ${formatMs(bot.rating_budget_cap_ms)}; it plays with ${formatMs(bot.time_budget_ms)}, likely stronger`);
  }
  if (bot.adaptive) notes.push("measured at its starting strength: against you it adapts");
  return notes.join("; ");
}

/**
 * Chess bots: the rating on Stockfish's scale, e.g. "≈1450 on Stockfish 15.1's UCI_Elo scale
 * (±120, 40 games)" (server/bots/public_rating.py); "" when it has none for its current settings.
 */
export function publicRatingText(bot) {
  return bot.public_rating ? bot.public_rating.label : "";
}

/** The same for a lobby tile: "≈1450 Stockfish Elo". */
export function publicRatingShort(bot) {
  return bot.public_rating ? bot.public_rating.short : "";
}

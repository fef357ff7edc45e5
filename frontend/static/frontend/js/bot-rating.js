// A bot's rating in words, on the scale people are rated on (Glicko-2, server/bots/placement.py):
// "1412? ±118" — "?" while it is provisional, as a person's is, and its uncertainty (RD).

import { formatMs } from "./players.js";

const measuredYet = (bot) => typeof bot.rating === "number";

/** Its rating for a tile: one number, "?" while provisional, and its uncertainty; or why there is none. */
export function ratingShort(bot) {
  if (!measuredYet(bot)) return bot.unmeasured_since ? "no longer measured" : "not measured yet";
  const mark = bot.provisional ? "?" : "";
  const spread = typeof bot.deviation === "number" ? ` ±${Math.round(bot.deviation)}` : "";
  return `${Math.round(bot.rating)}${mark}${spread}`;
}

/** The rating with what it rests on: the scale, the calibration games and their date. */
export function ratingText(bot) {
  if (!measuredYet(bot)) {
    return bot.unmeasured_since
      ? `no longer measured: its settings changed on ${bot.unmeasured_since}, not calibrated since`
      : "not measured yet";
  }
  const when = [bot.rated_games ? `${bot.rated_games} calibration games` : null, bot.measured_on].filter(Boolean).join(", ");
  return [`${ratingShort(bot)}, on the players' scale`, when || null].filter(Boolean).join(" · ");
}

/** Why the figure may differ from its play today, or "" (a capped budget; adapting to you). */
export function ratingCaveat(bot) {
  if (!measuredYet(bot)) return "";
  const notes = [];
  if (typeof bot.rating_budget_cap_ms === "number") {
    notes.push(`measured with its budget capped at ${formatMs(bot.rating_budget_cap_ms)}; it plays with ${formatMs(bot.time_budget_ms)}, likely stronger`);
  }
  if (bot.adaptive) notes.push("measured at its starting strength: against you it adapts, stronger or gentler");
  return notes.join("; ");
}

/**
 * Chess bots: the rating on Stockfish's scale, e.g. "≈1450 on Stockfish 15.1's UCI_Elo scale
 * (±120, 40 games)" (server/bots/public_rating.py); "" when it has none for its current settings.
 * Shown in the bot's details, never on its tile: a tile has one number.
 */
export function publicRatingText(bot) {
  return bot.public_rating ? bot.public_rating.label : "";
}

// "How this bot plays": one bot profile in words a player understands.

import { ApiError, api, createMatch, getGames, items } from "./api.js";
import { h, pageData } from "./dom.js";
import { aiBadge, algorithmCan, algorithmHow, algorithmName, algorithmSummary, formatMs } from "./players.js";
import { publicRatingText, ratingCaveat, ratingText } from "./bot-rating.js";

// A search capped at one ply looks at its own moves only: no replies, no dice, whatever the algorithm.
const ONE_PLY = [
  "It looks no further than its own move: it scores the position each legal move leaves with the game's evaluation and plays the best (a search one ply deep: no replies, no dice).",
];

// A bot that slips does not always play what its search likes best: say so beside the search's story.
const SLIPS = "It does not always play that best move: it slips (Slips, below), playing another of its better moves instead.";

function howItPlays(bot) {
  // The story of each algorithm is the catalogue's (`ai.catalogue`, in the page data); another gets its summary.
  const onePly = bot.max_depth === 1 && algorithmCan(bot.algorithm, "full_width");
  const story = algorithmHow(bot.algorithm);
  const how = onePly ? ONE_PLY
    : story.length ? story : [algorithmSummary(bot.algorithm) || `It uses ${algorithmName(bot.algorithm)} search.`];
  return bot.slip_rate && algorithmCan(bot.algorithm, "looks_ahead") ? [...how, SLIPS] : how;
}

// A slip: a plausible second choice instead of its best (the profile's `slip_rate`); a temperature of 1
// or more draws slips nearly evenly among those choices (ai/weakening.py).
function slipsText(bot) {
  if (!bot.slip_rate) return null;
  const often = bot.slip_rate >= 1 ? "whenever it has another of its better moves"
    : `on about ${Math.round(bot.slip_rate * 100)}% of its moves`;
  return bot.temperature >= 1 ? `${often}, drawn nearly at random among them` : often;
}

const page = pageData();
const $ = (id) => document.getElementById(id);

function fact(term, value) {
  return value === null || value === undefined || value === "" ? [] : [h("dt", {}, term), h("dd", {}, String(value))];
}

async function main() {
  let bot;
  let game;
  try {
    const [bots, games] = await Promise.all([api("/api/bots/"), getGames()]);
    bot = items(bots).find((b) => b.slug === page.slug);
    if (bot) game = items(games).find((g) => g.id === bot.game);
  } catch (error) {
    $("bot-error").textContent = `Could not load this bot: ${error.message}`;
    return;
  }
  const root = $("bot-page");
  if (!bot) {
    $("bot-title").textContent = "No such computer player";
    root.dataset.ready = "missing";
    return;
  }
  document.title = `${bot.name} (AI) · Plyground`;
  $("bot-title").textContent = `${bot.name}`;
  $("bot-badge").replaceChildren(aiBadge(bot), " ", h("span", { class: "muted" }, `plays ${game ? game.name : bot.game}`));
  $("bot-description").textContent = bot.description || "";
  $("bot-how").replaceChildren(...howItPlays(bot).map((text) => h("p", {}, text)));
  $("bot-facts").replaceChildren(
    ...fact("Level", bot.level),
    ...fact("Search", algorithmName(bot.algorithm)),
    ...fact("Time per move", bot.time_budget_ms ? formatMs(bot.time_budget_ms) : null),
    ...fact("Depth limit", bot.max_depth ?? (algorithmCan(bot.algorithm, "full_width") ? "none: as deep as the time allows" : null)),
    ...fact("Slips", slipsText(bot)),
    ...fact("Style", bot.style),
    ...fact("Rating", ratingText(bot)),
    ...fact("How it was rated", ratingCaveat(bot)
      ? `${bot.rating_method}; ${ratingCaveat(bot)}`
      : bot.rating_method ? `${bot.rating_method}: placed by calibration games against the other bots, moved by rated games against people` : null),
    ...fact("Rating on Stockfish's scale", publicRatingText(bot) || null),
    ...fact("How it was rated against Stockfish", bot.public_rating ? `${bot.public_rating.method}. ${bot.public_rating.caveat}` : null),
  );
  const play = $("play-bot");
  play.textContent = `Play ${game ? game.name : bot.game} against ${bot.name}`;
  play.hidden = false;
  play.addEventListener("click", async () => {
    play.disabled = true;
    const n = game ? game.num_players : 2;
    const seats = [{ kind: "human" }, ...Array.from({ length: n - 1 }, () => ({ kind: "bot", profile: bot.slug }))];
    try {
      const match = await createMatch(bot.game, seats);
      window.location.assign(`/matches/${match.id}/`);
    } catch (error) {
      $("bot-error").textContent = error instanceof ApiError ? error.message : "Could not start the match.";
      play.disabled = false;
    }
  });
  root.dataset.ready = "true";
}

main();

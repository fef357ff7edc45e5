// "How this bot plays": one bot profile in words a player understands.

import { ApiError, api, createMatch, getGames, items } from "./api.js";
import { h, pageData } from "./dom.js";
import { aiBadge, algorithmName, algorithmSummary, formatMs } from "./players.js";
import { publicRatingText, ratingCaveat, ratingText } from "./bot-rating.js";

// The longer story for the algorithms the seeds use; another algorithm gets the catalogue's summary.
const HOW = {
  random: [
    "It picks one of the legal moves at random, with no look-ahead at all.",
    "A first opponent for learning the rules: it never sets a trap and rarely stops one.",
  ],
  alphabeta: [
    "It searches the tree of moves and replies (minimax) and prunes lines that cannot change its choice (alpha-beta pruning).",
    "It deepens the search one ply at a time until its time budget runs out, and plays the best move of the deepest search it finished.",
    "Where the search stops it scores positions with a heuristic evaluation: open lines, threats and the like.",
  ],
  expectimax: [
    "It searches moves and replies, and at dice rolls it averages over every outcome, weighted by its probability (expectimax).",
  ],
  mcts: [
    "It plays many quick random games from the current position and grows a tree towards the moves that win most often (Monte Carlo tree search).",
    "The more time it has, the more games it plays and the stronger its choice.",
  ],
  maxn: [
    "With more than two players, each assumed to maximise their own score, it searches the tree keeping one value per player (max^n).",
  ],
};

// A search capped at one ply looks at its own moves only: no replies, no dice, whatever the algorithm.
const ONE_PLY = [
  "It looks no further than its own move: it scores the position each legal move leaves with the game's evaluation and plays the best (a search one ply deep: no replies, no dice).",
];

// A bot that slips does not always play what its search likes best: say so beside the search's story.
const SLIPS = "It does not always play that best move: it slips (Slips, below), playing another of its better moves instead.";

function howItPlays(bot) {
  const onePly = bot.max_depth === 1 && (bot.algorithm === "alphabeta" || bot.algorithm === "expectimax");
  const how = onePly ? ONE_PLY
    : HOW[bot.algorithm] || [algorithmSummary(bot.algorithm) || `It uses ${algorithmName(bot.algorithm)} search.`];
  return bot.error_rate && bot.algorithm !== "random" ? [...how, SLIPS] : how;
}

// A slip: a plausible second choice instead of its best (the profile's `error_rate`); a temperature of 1
// or more draws slips nearly evenly among those choices (ai/weakening.py).
function slipsText(bot) {
  if (!bot.error_rate) return null;
  const often = bot.error_rate >= 1 ? "whenever it has another of its better moves"
    : `on about ${Math.round(bot.error_rate * 100)}% of its moves`;
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
    ...fact("Depth limit", bot.max_depth ?? (bot.algorithm === "alphabeta" ? "none: as deep as the time allows" : null)),
    ...fact("Slips", slipsText(bot)),
    ...fact("Style", bot.style),
    ...fact("Rating", typeof bot.rating === "number" ? ratingText(bot) : "not measured yet"),
    ...fact("How it was rated", ratingCaveat(bot)
      ? `${bot.rating_method}; ${ratingCaveat(bot)}`
      : bot.rating_method ? `${bot.rating_method}: calibration games against the other bots, the random mover at Elo 0` : null),
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

// The lobby: the games and their bots, starting a match, and the open and
// live matches kept current over /ws/lobby/ (no polling).

import { ApiError, api, createMatch, getBots, getGames, items, joinMatch, listMatches } from "./api.js";
import { announce, h, pageData, present, since } from "./dom.js";
import { LiveSocket } from "./socket.js";
import { aiBadge, algorithmName, formatMs, playerLabel, seatMark } from "./players.js";
import { allLevel, placeWords, placesOf } from "./places.js";
import { optionsWords } from "./options.js";
import { publicRatingText, ratingCaveat, ratingShort, ratingText } from "./bot-rating.js";

const $ = (id) => document.getElementById(id);
const gamesById = new Map();
const matches = new Map(); // id -> summary, open and active only
const finished = new Map(); // id -> summary of our own finished matches
const adjourned = new Map(); // id -> summary of our own adjourned matches (we left; they wait for us)
let me = pageData().player;
let afterOpen = null; // a seek frame waiting for the lobby socket to open again as our player
let heardFromSocket = false;
let online = null;

// --- games and bots ----------------------------------------------------------

async function loadGames() {
  const container = $("games");
  let games;
  try {
    games = items(await getGames());
  } catch (error) {
    container.replaceChildren(h("p", { class: "error" }, `Could not load the games: ${error.message}`));
    return;
  }
  games.forEach((game) => gamesById.set(game.id, game));
  container.replaceChildren(gameIndex(games), ...games.map(gameCard));
  renderSeekForm();
  renderSeeks();
  renderMatches();
  await Promise.all(games.map(async (game) => {
    const list = container.querySelector(`[data-game="${game.id}"] .bot-list`);
    try {
      renderBots(game, list, items(await getBots(game.id)));
    } catch (error) {
      list.replaceChildren(h("p", { class: "error" }, `Could not load the bots: ${error.message}`));
    }
  }));
}

/** Links to each game's card: on a phone the cards are a long scroll, and chess is last. */
function gameIndex(games) {
  return h("nav", { class: "game-index", "aria-label": "Jump to a game", "data-testid": "game-index" },
    ...games.map((game) => h("a", { href: `#game-${game.id}` }, game.name)));
}

function gameCard(game) {
  const botForm = h("form", { class: "bot-form", "data-testid": `play-bot-form-${game.id}` },
    h("fieldset", {},
      h("legend", {}, "Play against the computer"),
      h("div", { class: "bot-list", role: "radiogroup", "aria-label": `${game.name} computer players` }, h("p", { class: "muted" }, "Loading bots…"))),
    game.num_players === 2
      ? h("label", { class: "order" }, "You play ",
        h("select", { name: "order", "data-testid": `order-${game.id}` },
          h("option", { value: "0" }, seatWords(game, 0)),
          h("option", { value: "1" }, seatWords(game, 1)),
          h("option", { value: "random" }, "either, at random")))
      : null,
    clockPicker(game, { testid: `bot-clock-${game.id}`, note: "only you can lose on time" }),
    h("label", { class: "hints-choice" }, h("input", { type: "checkbox", name: "hints", "data-testid": `hints-${game.id}` }), " Allow hints: a Hint button shows the computer's move for your turn (a game with hints is never rated)"),
    h("button", { type: "submit", class: "primary", "data-testid": `play-bot-${game.id}`, disabled: true }, "Play against the computer"));
  botForm.addEventListener("submit", (event) => {
    event.preventDefault();
    startBotMatch(game, botForm);
  });

  const friend = h("button", {
    type: "button",
    class: "secondary",
    "data-testid": `play-friend-${game.id}`,
    onclick: (event) => startFriendMatch(game, event.currentTarget),
  }, "Play a friend");

  return h("article", { class: "game-card", id: `game-${game.id}`, "data-game": game.id, "data-testid": `game-${game.id}` },
    h("header", {},
      h("h3", {}, game.name),
      h("p", { class: "muted" }, `${game.num_players} players${game.has_chance ? " · dice" : ""}`)),
    optionsPicker(game),
    botForm,
    h("div", { class: "friend" }, friend, clockPicker(game), ratedPicker(game), h("span", { class: "muted" }, " You get a link to send.")),
    h("p", { class: "error card-error", role: "alert" }));
}

/** A seat as the game calls it, with who moves first: "white, moves first", "black". */
function seatWords(game, index) {
  const name = (game.seats && game.seats[index] && game.seats[index].name) || `seat ${index + 1}`;
  return index === 0 ? `${name}, moves first` : name;
}

function renderBots(game, list, bots) {
  if (!bots.length) {
    list.replaceChildren(h("p", { class: "muted" }, "No computer players for this game yet."));
    return;
  }
  bots.sort((a, b) => (a.level ?? 0) - (b.level ?? 0));
  // The ladder (Beginner … Master), and apart from it the bot that adapts to you.
  const ladder = bots.filter((bot) => !isAdaptive(bot));
  const adaptive = bots.filter(isAdaptive);
  const preferred = (ladder[Math.min(1, ladder.length - 1)] || bots[0]).slug;
  const details = h("div", { class: "bot-details", "aria-live": "polite", "data-testid": `bot-details-${game.id}` });
  const tile = (bot) => botTile(game, bot, preferred, details);
  list.replaceChildren(...present(
    ladder.length ? h("div", { class: "level-pills", "data-testid": `ladder-${game.id}` }, ...ladder.map(tile)) : null,
    adaptive.length
      ? h("div", { class: "adaptive-bots", "data-testid": `adaptive-${game.id}` },
        h("p", { class: "adaptive-note muted" }, "Or one that adapts to how you play:"),
        h("div", { class: "level-pills" }, ...adaptive.map(tile)))
      : null,
    details));
  showBot(details, bots.find((b) => b.slug === preferred));
  list.closest("form").querySelector("button[type=submit]").disabled = false;
}

const isAdaptive = (bot) => Boolean(bot.adaptive) || bot.slug.endsWith("-adaptive");

/** A level's name: Beginner, Casual, Intermediate, Advanced, Master (games/spec.py). */
function levelName(bot) {
  if (isAdaptive(bot)) return "Adapts to you";
  return bot.level_name || `Level ${bot.level}`;
}

/** One bot of the ladder as a radio tile: its level name, the AI badge on the tile itself, its rating. */
function botTile(game, bot, preferred, details) {
  const id = `bot-${game.id}-${bot.slug}`;
  const input = h("input", { type: "radio", id, name: `bot-${game.id}`, value: bot.slug, checked: bot.slug === preferred });
  input.addEventListener("change", () => showBot(details, bot));
  return h("label", { class: "level-pill", for: id, "data-testid": `bot-${bot.slug}`, "data-level": bot.level, title: `${bot.name} (AI): ${levelName(bot)}, level ${bot.level}, ${algorithmName(bot.algorithm)}` },
    input,
    h("span", { class: "level-number" }, levelName(bot)),
    h("span", { class: "tile-badge ai-badge", "aria-label": "computer player (AI)" }, "AI"),
    h("span", { class: "level-kind" }, isAdaptive(bot) ? `level ${bot.level}` : `level ${bot.level} · ${algorithmName(bot.algorithm)}`),
    // One number, on the people's scale; an adaptive bot's is where it starts (it adapts to you).
    h("span", { class: "level-rating", "data-testid": `rating-${bot.slug}`, title: [`Rating ${ratingText(bot)}`, ratingCaveat(bot)].filter(Boolean).join("; ") },
      isAdaptive(bot) && typeof bot.rating === "number" ? `starts at ${ratingShort(bot)}` : ratingShort(bot)));
}

/** The chosen bot in full: its name always with the AI badge. */
function showBot(details, bot) {
  details.replaceChildren(...present(
    h("p", { class: "bot-main" }, h("span", { class: "bot-name" }, bot.name), " ", aiBadge(bot)),
    h("p", { class: "bot-meta muted" },
      [`Rating ${ratingText(bot)}`, bot.time_budget_ms ? `${formatMs(bot.time_budget_ms)} a move` : null].filter(Boolean).join(" · ")),
    ratingCaveat(bot) ? h("p", { class: "bot-meta muted" }, `Rating ${ratingCaveat(bot)}.`) : null,
    publicRatingText(bot) ? h("p", { class: "bot-meta", "data-testid": "bot-public-rating" }, publicRatingText(bot)) : null,
    bot.description ? h("p", { class: "bot-description" }, bot.description) : null,
    h("a", { class: "bot-link", href: `/bots/${encodeURIComponent(bot.slug)}/` }, `How ${bot.name} plays`)));
}

async function startBotMatch(game, form) {
  const chosen = form.querySelector(`input[name="bot-${game.id}"]:checked`);
  if (!chosen) {
    cardError(game, "Choose a computer player first.");
    return;
  }
  const bot = { kind: "bot", profile: chosen.value };
  const seats = Array.from({ length: game.num_players - 1 }, () => ({ ...bot }));
  let seat = form.elements.order ? form.elements.order.value : "0";
  if (seat === "random") seat = Math.random() < 0.5 ? "0" : "1";
  seats.splice(Number(seat), 0, { kind: "human" });
  const hints = form.elements.hints && form.elements.hints.checked;
  const clock = chosenClock(form.elements.clock);
  await start(game, seats, form.querySelector("button[type=submit]"), { ...(hints ? { hints: true } : {}), ...(clock ? { clock } : {}), ...chosenOptions(game) });
}

async function startFriendMatch(game, button) {
  const seats = Array.from({ length: game.num_players }, () => ({ kind: "human" }));
  const clock = chosenClock(document.querySelector(`[data-testid="clock-${game.id}"]`));
  const rated = document.querySelector(`[data-testid="rated-${game.id}"]`)?.value === "rated";
  await start(game, seats, button, { ...(clock ? { clock } : {}), ...(rated ? { rated } : {}), ...chosenOptions(game) });
}

/** The game's options (GET /api/games/: backgammon's cube, Jacoby rule, match length), one control each;
 *  the server checks the values and says what is wrong with them. */
function optionsPicker(game, prefix = "option") {
  if (!game.options || !game.options.length) return null;
  return h("fieldset", { class: "game-options", "data-testid": `${prefix}s-${game.id}` },
    h("legend", {}, `${game.name} rules`),
    ...game.options.map((option) => {
      const testid = `${prefix}-${game.id}-${option.name}`;
      if (option.kind === "bool") {
        return h("label", { class: "game-option" },
          h("input", { type: "checkbox", name: `option-${option.name}`, "data-option": option.name, "data-testid": testid, checked: Boolean(option.default) }),
          ` ${option.description}`);
      }
      return h("label", { class: "game-option" }, `${option.description} `,
        h("input", { type: "number", name: `option-${option.name}`, "data-option": option.name, "data-testid": testid, min: option.low, max: option.high, step: 1, value: option.default, inputmode: "numeric" }));
    }));
}

/** {options: {...}} as the game's card sets them, or nothing for a game without options. */
function chosenOptions(game, prefix = "option") {
  const inputs = document.querySelectorAll(`[data-testid="${prefix}s-${game.id}"] [data-option]`);
  if (!inputs.length) return {};
  const options = {};
  for (const input of inputs) options[input.dataset.option] = input.type === "checkbox" ? input.checked : Number(input.value);
  return { options };
}

/** {minutes, increment} of a clock picker, or null for none. */
function chosenClock(select) {
  if (!select || !select.value) return null;
  const [minutes, increment] = select.value.split("+").map(Number);
  return { minutes, increment };
}

/** Rated (the result changes both ratings) or casual, chosen before the match exists. */
function ratedPicker(game) {
  return h("label", { class: "rated-picker" }, " ",
    h("select", { name: "rated", "data-testid": `rated-${game.id}`, "aria-label": `${game.name} with a friend: rated or casual` },
      h("option", { value: "casual" }, "Casual"),
      h("option", { value: "rated" }, "Rated")));
}

/** A clock: none, or minutes + increment (seconds a move).  Against bots only people flag (docs/wire.md). */
function clockPicker(game, { testid = `clock-${game.id}`, note = "" } = {}) {
  return h("label", { class: "clock-picker" }, " Clock ",
    h("select", { name: "clock", "data-testid": testid },
      h("option", { value: "" }, "none"),
      ...["1+0", "3+2", "5+3", "10+5", "30+20"].map((tc) => h("option", { value: tc }, `${tc.replace("+", " min + ")} s`))),
    note ? h("span", { class: "muted clock-note" }, ` (${note})`) : null);
}

async function start(game, seats, button, extra = {}) {
  button.disabled = true;
  cardError(game, "");
  try {
    const match = await createMatch(game.id, seats, extra);
    window.location.assign(`/matches/${match.id}/`);
  } catch (error) {
    cardError(game, error instanceof ApiError ? error.message : "Could not start the match.");
    button.disabled = false;
  }
}

function cardError(game, text) {
  const node = document.querySelector(`[data-game="${game.id}"] .card-error`);
  if (node) node.textContent = text;
}

// --- play a person: seeks, paired automatically on the lobby socket (docs/wire.md) -----

const seeks = new Map(); // id -> seek, everyone's (ours too)
const CLOCKS = ["1+0", "3+2", "5+3", "10+5", "30+20"];
const RANGES = [100, 200, 400];

const isMySeek = (seek) => Boolean(me) && String(seek.player.id) === String(me.id);

function clockWords(clock) {
  return clock ? `${clock.replace("+", " min + ")} s` : "no clock";
}

function gameName(id) {
  const game = gamesById.get(id);
  return game ? game.name : id;
}

function seekWords(seek) {
  const range = seek.range === null || seek.range === undefined ? "any rating" : `±${seek.range}`;
  const options = optionsWords(seek.options);
  return `${gameName(seek.game)}${options ? ` (${options})` : ""} · ${clockWords(seek.clock)} · ${seek.rated ? "rated" : "casual"} · ${range}`;
}

/** The "Play a person" form: the two-player games, a clock, rated or casual, a rating range. */
function renderSeekForm() {
  const form = $("seek-form");
  const twoPlayer = [...gamesById.values()].filter((game) => game.num_players === 2);
  const select = form.elements.game;
  const chosen = select.value;
  select.replaceChildren(...twoPlayer.map((game) => h("option", { value: game.id }, game.name)));
  if (chosen && twoPlayer.some((g) => g.id === chosen)) select.value = chosen;
  form.querySelector("button[type=submit]").disabled = twoPlayer.length === 0;
  renderSeekOptions();
}

/** The chosen game's options under the seek form: seeks pair only with the same ones. */
function renderSeekOptions() {
  const game = gamesById.get($("seek-form").elements.game.value);
  $("seek-options").replaceChildren(...present(game ? optionsPicker(game, "seek-option") : null));
}

function setUpSeekForm() {
  const form = $("seek-form");
  form.elements.clock.replaceChildren(h("option", { value: "" }, "none"), ...CLOCKS.map((tc) => h("option", { value: tc }, clockWords(tc))));
  form.elements.clock.value = "5+3";
  form.elements.game.addEventListener("change", renderSeekOptions);
  form.elements.range.replaceChildren(h("option", { value: "" }, "anyone"), ...RANGES.map((r) => h("option", { value: String(r) }, `±${r}`)));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const frame = {
      type: "seek",
      game: form.elements.game.value,
      clock: form.elements.clock.value || null,
      rated: form.elements.rated.value === "rated",
      range: form.elements.range.value ? Number(form.elements.range.value) : null,
      ...chosenOptions(gamesById.get(form.elements.game.value), "seek-option"),
    };
    $("seek-error").textContent = "";
    await sendAsPerson(frame);
  });
  $("seek-cancel").addEventListener("click", () => lobbySocket.send({ type: "seek_cancel" }));
}

function renderSeeks() {
  const mine = [...seeks.values()].find(isMySeek);
  $("my-seek").hidden = !mine;
  $("seek-form").hidden = Boolean(mine);
  if (mine) $("my-seek-text").textContent = `Looking for an opponent: ${seekWords(mine)}…`;
  const others = [...seeks.values()].filter((seek) => !isMySeek(seek)).sort((a, b) => a.id - b.id);
  $("seek-list").replaceChildren(...others.map(seekRow));
  $("seeks-empty").hidden = others.length > 0;
}

function seekRow(seek) {
  return h("li", { class: "match-row seek-row", "data-testid": `seek-${seek.id}` },
    h("span", { class: "row-game" }, gameName(seek.game)),
    h("span", { class: "row-seats" }, playerLabel(seek.player, { compact: true }), h("span", { class: "muted" }, ` (${seek.rating})`)),
    h("span", { class: "row-info muted" }, [clockWords(seek.clock), seek.rated ? "rated" : "casual", optionsWords(seek.options)].filter(Boolean).join(" · ")),
    h("span", { class: "row-actions" }, h("button", {
      type: "button",
      class: "primary",
      "data-testid": `accept-seek-${seek.id}`,
      "aria-label": `Play ${seek.player.name}: ${seekWords(seek)}`,
      onclick: async (event) => {
        event.currentTarget.disabled = true;
        $("seek-error").textContent = "";
        await sendAsPerson({ type: "seek_accept", id: seek.id });
      },
    }, "Play")));
}

/** Send a pairing frame as a person: a browser with no player yet gets one, and the socket
 * opens again knowing it (the lobby socket knows its person from when it opened). */
async function sendAsPerson(frame) {
  if (!me) {
    try {
      me = await api("/api/pairing/ready/", { method: "POST", body: {} });
    } catch (error) {
      $("seek-error").textContent = error instanceof ApiError ? error.message : "Could not start: try again.";
      return;
    }
    afterOpen = frame;
    lobbySocket.restart();
    return;
  }
  if (!lobbySocket.send(frame)) $("seek-error").textContent = "Not connected; try again once the connection is back.";
}

function onSeekFrame(frame) {
  if (frame.type === "seeks") {
    seeks.clear();
    for (const seek of frame.seeks || []) seeks.set(seek.id, seek);
  } else if (frame.type === "seek") {
    for (const [id, seek] of seeks) if (String(seek.player.id) === String(frame.seek.player.id)) seeks.delete(id);
    seeks.set(frame.seek.id, frame.seek);
    if (!isMySeek(frame.seek)) announce(`${frame.seek.player.name} is looking for a game: ${seekWords(frame.seek)}.`);
  } else if (frame.type === "seek_gone") {
    seeks.delete(frame.id);
  } else if (frame.type === "paired") {
    announce("Opponent found. Opening the match…");
    window.location.assign(`/matches/${frame.match}/`);
    return;
  } else if (frame.type === "error" && frame.code === "seek_unavailable") {
    $("seek-error").textContent = frame.message;
  }
  renderSeeks();
}

// --- open and live matches ---------------------------------------------------

const isOpen = (m) => m.status === "waiting" && m.seats.some((seat) => !seat.player);

function upsert(summary) {
  adjourned.delete(summary.id);
  if (summary.status === "waiting" || summary.status === "active") {
    matches.set(summary.id, summary);
  } else {
    matches.delete(summary.id);
    if (!isMine(summary)) return;
    if (summary.status === "adjourned") adjourned.set(summary.id, summary);
    else finished.set(summary.id, summary);
  }
}

const isMine = (m) => Boolean(me) && m.seats.some((seat) => seat.player && !seat.player.is_ai && String(seat.player.id) === String(me.id));

function mySeat(m) {
  const seat = m.seats.find((s) => s.player && !s.player.is_ai && String(s.player.id) === String(me.id));
  return seat ? seat.index : null;
}

function outcome(m) {
  const r = m.result || {};
  if (m.status === "aborted") return "aborted";
  const places = placesOf(r);
  const seat = mySeat(m);
  if ((r.winner === null || r.winner === undefined) && !allLevel(places) && seat !== null && places[seat]) {
    return `finished ${placeWords(places, seat)}${r.reason ? `, ${r.reason}` : ""}`;
  }
  if (r.winner === null || r.winner === undefined) return `draw${r.reason ? `, ${r.reason}` : ""}`;
  return `${r.winner === mySeat(m) ? "won" : "lost"}${r.reason ? `, ${r.reason}` : ""}`;
}

function renderMine() {
  const live = [...matches.values()].filter(isMine).sort((a, b) => b.id - a.id);
  const waiting = [...adjourned.values()].sort((a, b) => b.id - a.id);
  const done = [...finished.values()].filter(isMine).sort((a, b) => b.id - a.id).slice(0, 20);
  const rows = [
    ...live.map((m) => mineRow(m, m.status === "waiting" ? "waiting for an opponent" : "your match is on", "Resume")),
    ...waiting.map((m) => mineRow(m, "adjourned: you left, it waits for you", resumeButton(m))),
    ...done.map((m) => mineRow(m, outcome(m), "Replay")),
  ];
  $("my-matches").replaceChildren(...rows);
  $("mine-empty").hidden = rows.length > 0;
}

function mineRow(m, info, action) {
  const game = gamesById.get(m.game);
  const others = m.seats.filter((seat) => seat.index !== mySeat(m));
  return h("li", { class: "match-row", "data-match-id": m.id, "data-testid": `mine-${m.id}` },
    h("span", { class: "row-game" }, game ? game.name : m.game),
    h("ul", { class: "row-seats" }, h("li", {}, "vs "), ...others.map((seat) =>
      h("li", { "data-seat": seat.index }, seatMark(m.game, seat.index), playerLabel(seat.player, { compact: true })))),
    h("span", { class: `row-info muted outcome-${info.split(",")[0].replace(/\s+/g, "-")}` }, info),
    h("span", { class: "row-actions" }, typeof action === "string" ? h("a", { class: "button secondary", href: `/matches/${m.id}/` }, action) : action));
}

// An adjourned match (docs/lobby.md) is active again once resumed; opening its page would resume it too.
function resumeButton(m) {
  return h("button", {
    type: "button",
    class: "primary",
    "data-testid": `resume-${m.id}`,
    onclick: (event) => resume(m, event.currentTarget),
  }, "Resume");
}

async function resume(m, button) {
  button.disabled = true;
  try {
    await api(`/api/matches/${m.id}/resume/`, { method: "POST", body: {} });
    window.location.assign(`/matches/${m.id}/`);
  } catch (error) {
    $("lobby-error").textContent = error instanceof ApiError ? error.message : "Could not resume the match.";
    button.disabled = false;
  }
}

function renderMatches() {
  renderMine();
  const all = [...matches.values()];
  const open = all.filter(isOpen).sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  const live = all.filter((m) => m.status === "active").sort((a, b) => b.id - a.id);
  $("open-matches").replaceChildren(...open.map((m) => matchRow(m, true)));
  $("live-matches").replaceChildren(...live.map((m) => matchRow(m, false)));
  $("open-empty").hidden = open.length > 0;
  $("live-empty").hidden = live.length > 0;
  $("open-count").textContent = open.length ? `(${open.length})` : "";
  $("live-count").textContent = live.length ? `(${live.length})` : "";
  const counts = [`${live.length} match${live.length === 1 ? "" : "es"} being played`, `${open.length} open`];
  if (typeof online === "number") counts.unshift(`${online} player${online === 1 ? "" : "s"} online`);
  $("lobby-counts").textContent = counts.join(" · ");
}

function matchRow(m, open) {
  const game = gamesById.get(m.game);
  const seats = h("ul", { class: "row-seats" }, ...m.seats.map((seat) =>
    h("li", { "data-seat": seat.index }, seatMark(m.game, seat.index), playerLabel(seat.player, { compact: true }))));
  const actions = [];
  if (open && !isMine(m)) {
    actions.push(h("button", {
      type: "button",
      class: "primary",
      "data-testid": `join-${m.id}`,
      onclick: (event) => join(m, event.currentTarget),
    }, "Join"));
  }
  actions.push(h("a", { class: "button secondary", href: `/matches/${m.id}/`, "data-testid": `watch-${m.id}` }, open ? "Open" : "Watch"));
  const age = m.created_at ? since(m.created_at) : "";
  const info = open
    ? (age ? `open ${age === "just now" ? "just now" : `for ${age}`}` : "open")
    : `move ${(m.ply ?? 0) + 1}`;
  return h("li", { class: "match-row", "data-match-id": m.id, "data-testid": `match-${m.id}` },
    h("span", { class: "row-game" }, game ? game.name : m.game),
    seats,
    h("span", { class: "row-info muted" }, info, " ", ratedTag(m), optionsWords(m.options) ? h("span", { class: "row-options", "data-testid": `options-${m.id}` }, ` · ${optionsWords(m.options)}`) : null),
    h("span", { class: "row-actions" }, ...actions));
}

/** "Rated" or "Casual", with what it means on hover and for screen readers. */
function ratedTag(m) {
  const meaning = m.rated ? "the result changes the players' ratings" : "ratings do not change";
  return h("span", { class: `tag ${m.rated ? "tag-rated" : "tag-casual"}`, title: meaning, "data-testid": `rated-${m.id}` },
    m.rated ? "Rated" : "Casual", h("span", { class: "visually-hidden" }, `: ${meaning}`));
}

async function join(m, button) {
  button.disabled = true;
  try {
    await joinMatch(m.id);
    window.location.assign(`/matches/${m.id}/`);
  } catch (error) {
    $("lobby-error").textContent = error instanceof ApiError ? error.message : "Could not join the match.";
    button.disabled = false;
  }
}

const lobbySocket = new LiveSocket("/ws/lobby/", {
  banner: $("reconnect-banner"),
  onOpen() {
    if (afterOpen && lobbySocket.send(afterOpen)) afterOpen = null;
  },
  onFrame(frame) {
    if (frame.type === "lobby") {
      heardFromSocket = true;
      seeks.clear(); // the open seeks follow in a `seeks` frame, when there are any
      renderSeeks();
      matches.clear();
      for (const m of [...(frame.open || []), ...(frame.active || [])]) upsert(m);
      if (typeof frame.online === "number") online = frame.online;
      renderMatches();
    } else if (frame.type === "match" && frame.match) {
      const known = matches.has(frame.match.id);
      upsert(frame.match);
      if (!known && isOpen(frame.match)) {
        const game = gamesById.get(frame.match.game);
        announce(`New open match: ${game ? game.name : frame.match.game}.`);
      }
      renderMatches();
    } else if (frame.type === "online" && typeof frame.count === "number") {
      online = frame.count;
      renderMatches();
    } else {
      onSeekFrame(frame);
    }
  },
  // Refused for good (signed out, too many sockets open): say why, as the match page does.
  onFatal: (event) => {
    $("lobby-error").textContent = event.reason || "The live lobby has stopped: reload the page.";
  },
});

async function loadHistory() {
  if (!me) return;
  try {
    // `player=me` narrows the list where the server supports it; the seat check keeps only ours either way.
    const [done, waiting] = await Promise.all([
      listMatches("finished", { player: "me" }),
      listMatches("adjourned", { player: "me" }),
    ]);
    for (const m of items(done)) if (isMine(m)) finished.set(m.id, m);
    for (const m of items(waiting)) if (isMine(m) && !matches.has(m.id)) adjourned.set(m.id, m);
    renderMatches();
  } catch {
    // History is a convenience: the lobby works without it.
  }
}

async function loadMatchesOnce() {
  try {
    const [open, active] = await Promise.all([listMatches("open"), listMatches("active")]);
    if (heardFromSocket) return;
    for (const m of [...items(open), ...items(active)]) upsert(m);
    renderMatches();
  } catch {
    // The socket will fill the lists when it connects.
  }
}

setUpSeekForm();
lobbySocket.connect();
loadGames();
loadMatchesOnce();
loadHistory();
window.setInterval(renderMatches, 30000);


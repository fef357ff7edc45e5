// The match room: one match, live over /ws/matches/{id}/ (DESIGN §5).
//
// The server is the only authority: the page draws the state it is sent,
// offers the legal moves it is sent, and sends {"type": "move", "move", "ply"}
// when the seated player to move picks one.  Spectators see the same board,
// read-only.
//
// No move is lost silently.  A move stays `pending` until the server
// acknowledges it: the `move` frame for its ply, or an error.  When the
// connection drops first (or the move was made while offline), the page asks
// for the match's state once it is back: if the move is stored, fine; if the
// match is still at that ply with us to move, it is sent again, once (the
// server's ply check makes that safe); otherwise the player is told it did not
// reach the server.  On an open socket, a move unanswered after a few seconds
// makes the page ask `sync`, and tell the player if the move is not there.

import { ApiError, api, createMatch, getMatch, joinMatch } from "./api.js";
import { announce, h, pageData, present } from "./dom.js";
import { LiveSocket } from "./socket.js";
import { createRoomActions } from "./room-actions.js";
import { aiBadge, formatMs, isBot, markName, playerLabel, playerWords, seatMark } from "./players.js";

const BOARDS = {
  tictactoe: "./boards/tictactoe.js",
  connect4: "./boards/connect4.js",
  othello: "./boards/othello.js",
  backgammon: "./boards/backgammon.js",
  "chinese-checkers": "./boards/chinese-checkers.js",
  "chinese-checkers-2": "./boards/chinese-checkers.js",
};
const GAME_NAMES = {
  tictactoe: "Tic-tac-toe",
  connect4: "Connect Four",
  othello: "Othello",
  backgammon: "Backgammon",
  "chinese-checkers": "Chinese checkers",
  "chinese-checkers-2": "Chinese checkers (two players)",
};
const ACK_TIMEOUT_MS = 4000; // a move unanswered this long on an open socket: ask where the match is
const SYNC_ANSWER_MS = 4000; // and a sync unanswered this long: the socket is dead, connect again
const MOVE_ERRORS = ["illegal_move", "not_your_turn", "stale_ply", "not_seated", "game_over", "bad_message", "rate_limited"];
const ERROR_TEXT = {
  not_your_turn: "It is not your turn.",
  stale_ply: "The position changed before your move arrived; showing the latest position.",
  not_seated: "You are watching this match. Take an open seat to play.",
  game_over: "The game is over.",
  rate_limited: "Too many messages at once. Please wait a moment.",
  bad_message: "The server did not understand that message.",
};

const page = pageData();
const matchId = page.match_id;
const $ = (id) => document.getElementById(id);
const el = {
  room: $("match-room"),
  title: $("match-title"),
  status: $("status"),
  thinking: $("thinking"),
  board: $("board"),
  boardHelp: $("board-help"),
  viewing: $("viewing-note"),
  result: $("result"),
  moveForm: $("move-form"),
  moveInput: $("move-input"),
  error: $("error"),
  seats: $("seats"),
  invite: $("invite"),
  inviteLink: $("invite-link"),
  resign: $("resign-button"),
  rematch: $("rematch-button"),
  newMatch: $("new-match"),
  moveList: $("move-list"),
  botQueued: $("bot-queued"),
};

let match = null;
let you = { seat: null };
let viewPly = null; // null: the live position; k: the position after k moves
// Our move until the server acknowledges it: {move, ply, sends, unsure, timer}.  `unsure`: the
// connection dropped (or never carried it) or no answer came, so the next state frame decides.
let pending = null;
let thinking = null; // {seat, ply, budgetMs, started, stats, queued}; queued: waiting for a free computer
let earlyBotFrame = null; // a bot_queued/bot_thinking for a ply whose move frame has not arrived yet
let boardModule = null;
let board = null;
let boardGame = null;
let errorTimer = null;
let resignArmed = null;

const socket = new LiveSocket(`/ws/matches/${matchId}/`, {
  versioned: true,
  watchdog: true,
  banner: $("reconnect-banner"),
  onFrame: handleFrame,
  onOpen: () => {
    // Back after a drop with a move not acknowledged: the state (after any replay) decides its fate.
    if (pending) {
      pending.unsure = true;
      socket.sync({ force: true });
    }
    render();
  },
  onDown: () => {
    if (pending) {
      window.clearTimeout(pending.timer);
      pending.unsure = true;
      pending.timedOut = false; // a reconnect may send it again
    }
    render();
  },
  onFatal: (event) => {
    el.status.textContent = event.reason || "This match cannot be opened.";
    el.room.dataset.ready = "missing";
  },
});

// Takebacks, offers, clocks and presence live in room-actions.js (issue 6).
const roomActions = createRoomActions({ socket, match: () => match, you: () => you, showError });

// --- frames ------------------------------------------------------------------

function handleFrame(frame) {
  handleMatchFrame(frame);
  roomActions.onFrame(frame);
}

function handleMatchFrame(frame) {
  switch (frame.type) {
    case "state":
      setMatch(frame.match, frame.you);
      break;
    case "move":
      applyMove(frame);
      break;
    case "bot_queued":
      botQueued(frame);
      break;
    case "bot_thinking":
      startThinking(frame);
      break;
    case "game_over":
      applyGameOver(frame);
      break;
    case "takeback":
      applyTakeback(frame);
      break;
    case "seat":
      applySeat(frame);
      break;
    case "hint":
      applyHint(frame);
      break;
    case "error":
      showServerError(frame);
      break;
    default:
      break; // frames this page does not know yet are ignored
  }
}

function setMatch(next, nextYou) {
  const firstTime = match === null;
  match = { moves: [], legal_moves: [], seats: [], ...next };
  if (nextYou) you = { seat: nextYou.seat ?? null };
  else if (you.seat === null) you = { seat: ownSeat() };
  settlePending();
  if (match.status !== "active" || !botToMove()) thinking = null;
  else if (!thinking || thinking.seat !== match.to_move || (thinking.ply !== undefined && thinking.ply !== match.ply)) {
    thinking = thinkingFromMatch();
  }
  if (viewPly !== null && viewPly > match.moves.length) viewPly = null;
  loadBoard(match.game)
    .then(() => {
      render();
      if (firstTime && match.moves.length) scrollMoves();
    })
    .catch(() => {
      // The board's module did not load (the connection dropped): the next state frame tries again.
      showError("Could not load the board. Retrying when the connection is back.");
    });
}

function applyMove(frame) {
  if (!match) return;
  if (pending && frame.ply >= pending.ply) {
    if (frame.ply === pending.ply && frame.seat === you.seat && frame.move === pending.move) {
      if (pending.notice) clearError(); // "will be sent when the connection is back": it was
      clearPending(); // acknowledged
    } else moveLost();
  }
  if (match.moves.some((m) => m.ply === frame.ply)) return;
  match.moves.push({
    ply: frame.ply,
    seat: frame.seat,
    move: frame.move,
    by: frame.by,
    think_ms: frame.think_ms ?? (frame.stats && frame.stats.elapsed_ms),
    stats: frame.stats,
    fallback: frame.fallback ?? null,
    queue_wait_ms: frame.queue_wait_ms ?? null,
  });
  match.ply = frame.ply + 1;
  if ("state" in frame) match.state = frame.state;
  if ("to_move" in frame) match.to_move = frame.to_move;
  if ("legal_moves" in frame) match.legal_moves = frame.legal_moves || [];
  if (match.status === "waiting") match.status = "active";
  if (thinking && thinking.seat === frame.seat) thinking = null;
  if (!thinking && botToMove()) thinking = { seat: match.to_move, ply: match.ply, budgetMs: null, started: null };
  const early = earlyBotFrame;
  earlyBotFrame = null;
  if (early && early.ply === match.ply) {
    if (early.type === "bot_queued") botQueued(early);
    else startThinking(early);
  }

  let words = frame.seat < 0
    ? `Dice: ${frame.move}.`
    : `${frame.seat === you.seat ? "You" : capitalise(playerWords(seatPlayer(frame.seat)))} played ${boardModule ? boardModule.describeMove(frame.move) : frame.move}.`;
  if (match.to_move !== null && match.to_move === you.seat) words += " Your move.";
  announce(words);
  render();
  scrollMoves();
}

/** Moves taken back: the list ends before `frame.ply`, and the position is the one sent. */
function applyTakeback(frame) {
  if (!match) return;
  match.moves = match.moves.filter((m) => m.ply < frame.ply);
  match.ply = frame.ply;
  match.state = frame.state;
  match.to_move = frame.to_move;
  match.legal_moves = frame.legal_moves || [];
  match.offer = null;
  if (pending) moveLost();
  thinking = botToMove() ? { seat: match.to_move, ply: match.ply, budgetMs: null, started: null } : null;
  if (viewPly !== null && viewPly > match.moves.length) viewPly = null;
  render();
  scrollMoves();
}

function applyGameOver(frame) {
  if (!match) return;
  match.result = frame.result || null;
  match.status = frame.status || (frame.result && frame.result.reason === "aborted" ? "aborted" : "finished");
  match.to_move = null;
  match.legal_moves = [];
  thinking = null;
  if (pending) {
    const words = moveWords(pending.move);
    clearPending();
    showError(`Your move ${words} was not played: the game ended before it reached the server.`, { sticky: true });
  }
  announce(resultWords());
  render();
}

function applySeat(frame) {
  if (!match) return;
  const before = match.seats.map((seat) => seat.player);
  if (frame.match) {
    match = { ...match, ...frame.match };
  } else if (frame.seat && typeof frame.seat.index === "number") {
    // Only the seat that changed: ask for the whole match (status, whose turn).
    match.seats = match.seats.map((seat) => (seat.index === frame.seat.index ? frame.seat : seat));
    socket.sync();
  }
  if (frame.you) you = { seat: frame.you.seat ?? null };
  match.seats.forEach((seat, i) => {
    if (!before[i] && seat.player) announce(`${capitalise(playerWords(seat.player))} took seat ${seat.index + 1}.`);
  });
  if (match.status === "active" && botToMove() && !thinking) thinking = { seat: match.to_move, ply: match.ply, budgetMs: null, started: null };
  render();
}

/** A bot frame for another ply than the match's: a late one is dropped, an early one kept for its ply. */
function botFrameForThisPly(frame) {
  if (typeof frame.ply !== "number" || frame.ply === match.ply) return true;
  if (frame.ply > match.ply) earlyBotFrame = frame;
  return false;
}

/** The bot's turn waits for a free worker: its time has not started, so no thinking bar. */
function botQueued(frame) {
  if (!match || match.status !== "active" || !botFrameForThisPly(frame)) return;
  const wasQueued = thinking && thinking.queued && thinking.seat === frame.seat;
  thinking = { ply: frame.ply, seat: frame.seat, budgetMs: null, started: null, stats: null, queued: true };
  if (!wasQueued) announce(`${capitalise(playerWords(seatPlayer(frame.seat)))} is waiting for a free computer.`);
  render();
}

function startThinking(frame) {
  if (!match || match.status === "finished" || match.status === "aborted") return;
  if (!botFrameForThisPly(frame)) return;
  const same = thinking && thinking.seat === frame.seat && thinking.started && thinking.ply === frame.ply;
  if (same) {
    // A progress report of the same search: new figures, same clock.
    if (frame.stats) thinking.stats = frame.stats;
    renderThinking();
    return;
  }
  thinking = {
    ply: frame.ply,
    seat: frame.seat,
    budgetMs: typeof frame.budget_ms === "number" ? frame.budget_ms : null,
    started: performance.now(),
    stats: frame.stats || null,
  };
  if (thinking.seat !== null && thinking.seat !== undefined) {
    announce(`${capitalise(playerWords(seatPlayer(thinking.seat)))} is thinking.`);
  }
  render();
  animateThinking();
}

function showServerError(frame) {
  if (frame.code === "stale_ply" && pending && pending.sends > 1) {
    // Our second copy was refused: the first one may have been stored after all.  The state decides.
    window.clearTimeout(pending.timer);
    pending.unsure = true;
    pending.timedOut = true; // no third copy
    socket.sync({ force: true });
    return;
  }
  if (MOVE_ERRORS.includes(frame.code)) clearPending(); // the answer to our move: it was not played
  showError(frame.code === "illegal_move" && frame.message ? frame.message : ERROR_TEXT[frame.code] || frame.message || "Something went wrong.");
  if (["stale_ply", "not_your_turn", "game_over", "illegal_move"].includes(frame.code)) socket.sync();
  render();
}

// --- actions -----------------------------------------------------------------

function playMove(move) {
  if (!match) return;
  if (viewPly !== null) {
    viewPly = null;
    render();
    return;
  }
  if (you.seat === null) {
    showError(ERROR_TEXT.not_seated);
    return;
  }
  if (match.status !== "active" || match.to_move !== you.seat) {
    showError(match.status === "active" ? ERROR_TEXT.not_your_turn : "The game is not running.");
    return;
  }
  if (pending) return;
  if (!match.legal_moves.includes(move)) {
    showError(`${move} is not a legal move here.`);
    return;
  }
  clearError();
  pending = { move, ply: match.ply, sends: 0, unsure: false, timer: null };
  if (!sendPending()) {
    // Kept, not dropped: it goes out once the connection is back and the match is still at this ply.
    pending.notice = true;
    showError(`Not connected: your move ${moveWords(move)} will be sent when the connection is back.`, { sticky: true });
  }
  render();
}

/** Send the pending move; false when the connection is down (it stays pending, unsure). */
function sendPending() {
  window.clearTimeout(pending.timer);
  if (!socket.send({ type: "move", move: pending.move, ply: pending.ply })) {
    pending.unsure = true;
    return false;
  }
  pending.sends += 1;
  pending.unsure = false;
  const sent = pending;
  sent.timer = window.setTimeout(() => {
    if (pending !== sent) return;
    // No answer on an open socket: where is the match?  The state frame decides (settlePending).
    sent.unsure = true;
    sent.timedOut = true;
    socket.sync({ force: true });
    sent.timer = window.setTimeout(() => {
      if (pending === sent && sent.unsure) socket.drop(); // the sync went unanswered too: a dead socket
    }, SYNC_ANSWER_MS);
  }, ACK_TIMEOUT_MS);
  return true;
}

/**
 * A state frame arrived (a reconnect, a sync): was our pending move stored,
 * can it still be sent, or is it lost?
 */
function settlePending() {
  if (!pending) return;
  const stored = match.moves.find((m) => m.ply === pending.ply);
  if (stored) {
    if (stored.seat === you.seat && stored.move === pending.move) clearPending();
    else moveLost();
    return;
  }
  if (!pending.unsure) return; // still on its way over an open socket; this state was asked for by someone else
  const stillOurs = match.status === "active" && match.ply === pending.ply && match.to_move === you.seat &&
    (match.legal_moves || []).includes(pending.move);
  if (stillOurs && !pending.timedOut && pending.sends < 2 && socket.connected) {
    sendPending(); // once more: the server refuses it with stale_ply if the first one did arrive
    return;
  }
  moveLost();
}

/** Tell the player their move is not on the board, and let them play again. */
function moveLost() {
  if (!pending) return;
  const words = moveWords(pending.move);
  clearPending();
  showError(`Your move ${words} did not reach the server: play again.`, { sticky: true });
}

function moveWords(move) {
  return boardModule ? boardModule.describeMove(move) : move;
}

function clearPending() {
  if (pending) window.clearTimeout(pending.timer);
  pending = null;
}

async function takeSeat(button) {
  button.disabled = true;
  try {
    const joined = await joinMatch(matchId);
    match = { ...match, ...joined };
    announce("You took a seat.");
    if (!page.player) await learnWhoIAm();
    // A new connection tells us which seat is ours.
    socket.restart();
  } catch (error) {
    showError(error instanceof ApiError ? error.message : "Could not join the match.");
  } finally {
    button.disabled = false;
    render();
  }
}

el.resign.addEventListener("click", () => {
  if (!resignArmed) {
    el.resign.textContent = match && match.status === "waiting" ? "Confirm: cancel" : "Confirm: resign";
    el.resign.classList.add("armed");
    resignArmed = window.setTimeout(disarmResign, 4000);
    return;
  }
  disarmResign();
  if (!socket.send({ type: "resign" })) showError("Not connected; try again once the connection is back.");
});

function disarmResign() {
  window.clearTimeout(resignArmed);
  resignArmed = null;
  el.resign.textContent = match && match.status === "waiting" ? "Cancel match" : "Resign";
  el.resign.classList.remove("armed");
}

el.rematch.addEventListener("click", async () => {
  // The same seats: the same bots, and humans where humans sat (we take ours again).
  const seats = match.seats.map((seat) =>
    seat.player && isBot(seat.player) && seat.player.profile && seat.player.profile.slug
      ? { kind: "bot", profile: seat.player.profile.slug }
      : { kind: "human" });
  el.rematch.disabled = true;
  try {
    const next = await createMatch(match.game, seats);
    window.location.assign(`/matches/${next.id}/`);
  } catch (error) {
    showError(error instanceof ApiError ? error.message : "Could not start a rematch.");
    el.rematch.disabled = false;
  }
});

el.moveForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = el.moveInput.value;
  const move = boardModule ? boardModule.parseMove(text) : text.trim();
  if (!move) {
    showError(`“${text}” is not a move. ${boardModule ? boardModule.help : ""}`);
    return;
  }
  el.moveInput.value = "";
  playMove(move);
});

$("copy-invite").addEventListener("click", async () => {
  el.inviteLink.select();
  try {
    await navigator.clipboard.writeText(el.inviteLink.value);
    announce("Invitation link copied.");
  } catch {
    document.execCommand("copy");
  }
});

document.querySelector(".move-nav").addEventListener("click", (event) => {
  const button = event.target.closest("[data-nav]");
  if (!button || !match) return;
  const n = match.moves.length;
  const at = viewPly === null ? n : viewPly;
  const target = { first: 0, prev: at - 1, next: at + 1, last: n }[button.dataset.nav];
  browse(target);
});

$("back-to-live").addEventListener("click", () => browse(null));

// Left and right arrows browse the moves, unless the board or a form field has the keys.
document.addEventListener("keydown", (event) => {
  if (!match || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest("input, textarea, select, #board")) return;
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  const n = match.moves.length;
  const at = viewPly === null ? n : viewPly;
  browse(event.key === "ArrowLeft" ? at - 1 : at + 1);
  event.preventDefault();
});

el.moveList.addEventListener("click", (event) => {
  const button = event.target.closest("[data-goto]");
  if (button) browse(Number(button.dataset.goto));
});

function browse(target) {
  if (!match) return;
  const n = match.moves.length;
  if (target === null || target >= n || !boardModule) viewPly = null;
  else viewPly = Math.max(0, target);
  if (viewPly !== null && !boardModule.replay && !positionsFor(match)) {
    loadPositions(match.id).then(render);  // games whose rules the page does not know
    return;
  }
  render();
}

// Positions after each ply, from the server, for boards that cannot replay moves themselves.
let positions = null; // {matchId, ply, list}
let positionsLoading = null;

function positionsFor(m) {
  return positions && positions.matchId === m.id && positions.ply === m.moves.length ? positions.list : null;
}

function loadPositions(matchId) {
  positionsLoading ||= api(`/api/matches/${matchId}/positions/`)
    .then((data) => { positions = { matchId, ply: data.ply, list: data.positions }; })
    .catch(() => { viewPly = null; }) // browsing is a nicety: stay on the live board
    .finally(() => { positionsLoading = null; });
  return positionsLoading;
}

function stateAt(ply) {
  if (boardModule.replay) return boardModule.replay(match.moves.slice(0, ply));
  const list = positionsFor(match);
  if (list) return list[ply];
  loadPositions(match.id).then(render); // moves came in since: fetch them, show the live board meanwhile
  return match.state;
}

// --- rendering ---------------------------------------------------------------

let boardLoading = null;
let boardFailures = 0;

function loadBoard(game) {
  if (boardGame === game && boardModule) return Promise.resolve();
  if (boardLoading && boardLoading.game === game) return boardLoading.promise;
  // A failed import may be remembered by the browser: a retry asks for a fresh URL.
  const url = (BOARDS[game] || "./boards/generic.js") + (boardFailures ? `?retry=${boardFailures}` : "");
  const promise = import(url).then((module) => {
    boardModule = module;
    boardGame = game;
    board = module.createBoard(el.board, { onMove: playMove });
    el.board.dataset.game = game;
    el.boardHelp.textContent = module.help;
  });
  boardLoading = { game, promise };
  return promise
    .catch((error) => {
      boardFailures += 1;
      throw error;
    })
    .finally(() => {
      boardLoading = null;
    });
}

/** Our seat from the seat list, for the moment before the socket says it. */
function ownSeat() {
  const me = page.player;
  const seat = me && match.seats.find((s) => s.player && !isBot(s.player) && String(s.player.id) === String(me.id));
  return seat ? seat.index : null;
}

/** The bot to move: waiting for a free computer, or thinking since when the match says. */
function thinkingFromMatch() {
  const t = match.thinking;
  const seat = t && t.seat === match.to_move ? t : null;
  if (seat && seat.status === "queued") {
    return { seat: match.to_move, ply: match.ply, budgetMs: null, started: null, stats: null, queued: true };
  }
  let started = null;
  if (seat && seat.since && typeof seat.budget_ms === "number") {
    const elapsed = Math.min(Math.max(0, Date.now() - Date.parse(seat.since)), seat.budget_ms);
    if (!Number.isNaN(elapsed)) started = performance.now() - elapsed;
  }
  const next = { seat: match.to_move, ply: match.ply, budgetMs: seat ? seat.budget_ms ?? null : null, started, stats: null };
  if (started !== null) window.requestAnimationFrame(animateThinking);
  return next;
}

function seatPlayer(seat) {
  const entry = match && match.seats.find((s) => s.index === seat);
  return entry ? entry.player : null;
}

function botToMove() {
  return match && match.to_move !== null && match.to_move !== undefined && isBot(seatPlayer(match.to_move));
}

function interactive() {
  return Boolean(
    match && match.status === "active" && you.seat !== null && match.to_move === you.seat &&
    viewPly === null && !pending,
  );
}

function render() {
  if (!match) return;
  const gameName = GAME_NAMES[match.game] || (boardModule && boardModule.name) || match.game;
  el.title.textContent = `${gameName} · match ${match.id}`;
  document.title = `${match.status === "active" && match.to_move === you.seat && you.seat !== null ? "Your move · " : ""}${gameName} · Plyground`;
  Object.assign(el.room.dataset, {
    ready: board ? "true" : "loading",
    game: match.game,
    status: match.status,
    ply: String(match.ply),
    toMove: match.to_move === null || match.to_move === undefined ? "" : String(match.to_move),
    yourSeat: you.seat === null ? "" : String(you.seat),
    connected: String(socket.connected),
  });
  renderStatus();
  renderThinking();
  renderBoard();
  renderResult();
  renderSeats();
  renderMoves();
  renderActions();
  renderAnalysisLink();
  renderHintButton();
  roomActions.render();
}

function renderStatus() {
  const st = match.status;
  const parts = [];
  if (st === "waiting") {
    parts.push(you.seat !== null ? "Waiting for an opponent to join. Share the invitation link." : "Waiting for players. Take an open seat to play.");
  } else if (st === "active") {
    if (pending && pending.unsure && !socket.connected) parts.push("Your move is queued.");
    else if (pending) parts.push("Sending your move…");
    else if (match.to_move === you.seat && you.seat !== null) parts.push("Your move.");
    else {
      const p = seatPlayer(match.to_move);
      if (isBot(p)) parts.push(h("span", {}, "Waiting for ", playerLabel(p, { compact: true }), " to move."));
      else parts.push(`Waiting for ${p ? p.name : "the opponent"} to move.`);
      if (you.seat === null) parts.push(" You are watching.");
    }
  } else if (st === "finished") {
    parts.push("Game over.");
  } else if (st === "aborted") {
    parts.push("This match was aborted.");
  }
  if (!socket.connected && st !== "finished" && st !== "aborted" && !pending) parts.push(" (offline)");
  el.status.replaceChildren(...parts);
  // The bot's box (thinking, or waiting for a computer) says who is to move: the status line steps
  // aside for it (screen readers still read it), so the turn bar keeps one height and the board stays put.
  el.status.classList.toggle("covered", Boolean(st === "active" && thinking && !pending && socket.connected));
  el.status.dataset.yourTurn = String(st === "active" && match.to_move === you.seat && you.seat !== null);
  el.status.classList.toggle("your-turn", el.status.dataset.yourTurn === "true");
}

function renderThinking() {
  const queued = Boolean(thinking && thinking.queued && match && match.status === "active");
  el.botQueued.hidden = !queued;
  if (queued) el.botQueued.querySelector(".queued-who").replaceChildren(playerLabel(seatPlayer(thinking.seat), { compact: true }));
  if (!thinking || !match || match.status !== "active" || queued) {
    el.thinking.hidden = true;
    return;
  }
  const player = seatPlayer(thinking.seat);
  const budget = thinking.budgetMs ?? (player && player.profile && player.profile.time_budget_ms) ?? null;
  el.thinking.hidden = false;
  el.thinking.querySelector(".thinking-who").replaceChildren(playerLabel(player, { compact: true }));
  el.thinking.querySelector(".thinking-label").textContent = budget ? `is thinking (budget ${formatMs(budget)})` : "is thinking";
  el.thinking.dataset.budgetMs = budget ?? "";
  el.thinking.classList.toggle("indeterminate", !thinking.started || !budget);
  const stats = thinking.stats;
  el.thinking.querySelector(".thinking-figures").textContent = stats ? statsText(stats) : "";
  updateBar();
}

function updateBar() {
  if (!thinking) return;
  const player = seatPlayer(thinking.seat);
  const budget = thinking.budgetMs ?? (player && player.profile && player.profile.time_budget_ms) ?? null;
  const bar = el.thinking.querySelector(".budget");
  const fill = el.thinking.querySelector(".budget-fill");
  if (!thinking.started || !budget) {
    fill.style.width = "";
    bar.removeAttribute("aria-valuenow");
    return;
  }
  const share = Math.min(1, (performance.now() - thinking.started) / budget);
  fill.style.width = `${(share * 100).toFixed(1)}%`;
  bar.setAttribute("aria-valuenow", String(Math.round(share * 100)));
}

function animateThinking() {
  const tick = () => {
    if (!thinking || !thinking.started) return;
    updateBar();
    if (performance.now() - thinking.started < (thinking.budgetMs || 0) + 100) window.requestAnimationFrame(tick);
  };
  window.requestAnimationFrame(tick);
}

function renderBoard() {
  if (!board) return;
  const live = viewPly === null;
  const moves = match.moves;
  const state = live ? match.state : stateAt(viewPly);
  const last = live ? moves[moves.length - 1] : moves[viewPly - 1];
  board.render({
    state,
    legalMoves: match.legal_moves || [],
    interactive: interactive(),
    lastMove: last ? last.move : null,
    lastSeat: last ? last.seat : null,
    seatToMove: live ? match.to_move : null,
    yourSeat: you.seat,
  });
  el.board.classList.toggle("interactive", interactive());
  el.board.classList.toggle("browsing", !live);
  el.viewing.hidden = live;
  el.moveForm.hidden = !(match.status === "active" && you.seat !== null);
  el.moveInput.disabled = !interactive();
}

function resultWords() {
  if (!match.result && match.status !== "aborted") return "";
  const r = match.result || {};
  const reason = r.reason ? ` (${r.reason})` : "";
  if (match.status === "aborted") return `Match aborted${reason}.`;
  if (r.winner === null || r.winner === undefined) return `Draw${reason}.`;
  if (r.winner === you.seat) return `You won${reason}.`;
  const who = capitalise(playerWords(seatPlayer(r.winner)));
  return you.seat !== null ? `You lost. ${who} won${reason}.` : `${who} won${reason}.`;
}

function renderResult() {
  const over = match.status === "finished" || match.status === "aborted";
  el.result.hidden = !over;
  if (!over) return;
  const r = match.result || {};
  const reason = r.reason ? h("span", { class: "result-reason" }, r.reason) : null;
  let headline;
  let tone;
  if (match.status === "aborted") {
    headline = h("strong", {}, "Match aborted");
    tone = "neutral";
  } else if (r.winner === null || r.winner === undefined) {
    headline = h("strong", {}, "Draw");
    tone = "neutral";
  } else if (r.winner === you.seat) {
    headline = h("strong", {}, "You won!");
    tone = "win";
  } else {
    headline = h("strong", {}, you.seat !== null ? "You lost. " : "", playerLabel(seatPlayer(r.winner)), " won");
    tone = you.seat !== null ? "loss" : "neutral";
  }
  el.result.className = `result result-${tone}`;
  el.result.dataset.winner = r.winner === null || r.winner === undefined ? "" : String(r.winner);
  const ranking = Array.isArray(r.ranking) && r.ranking.length > 2
    ? h("ol", { class: "ranking", "aria-label": "Final ranking" }, ...r.ranking.map((seat) =>
      h("li", {}, seatMark(match.game, seat), playerLabel(seatPlayer(seat), { compact: true }), seat === you.seat ? h("span", { class: "tag you-tag" }, "you") : null)))
    : null;
  el.result.replaceChildren(...present(
    h("span", { class: "result-icon", "aria-hidden": "true" }, tone === "win" ? "★" : tone === "loss" ? "✕" : "="),
    headline,
    reason ? " — " : null,
    reason,
    ranking,
  ));
}

function renderSeats() {
  const canJoin = match.status === "waiting" && you.seat === null;
  el.seats.replaceChildren(...match.seats.map((seat) => {
    const toMove = match.status === "active" && match.to_move === seat.index;
    const item = h("li", {
      class: `seat${toMove ? " to-move" : ""}${seat.index === you.seat ? " you" : ""}`,
      "data-seat": seat.index,
      "data-testid": `seat-${seat.index}`,
    },
    seatMark(match.game, seat.index),
    h("span", { class: "visually-hidden" }, `Seat ${seat.index + 1}, ${markName(match.game, seat.index)}: `),
    playerLabel(seat.player),
    seat.index === you.seat ? h("span", { class: "tag you-tag" }, "you") : null,
    toMove ? h("span", { class: "tag turn-tag" }, turnTag(seat.index)) : null);
    if (!seat.player && canJoin) {
      item.append(h("button", { type: "button", class: "join-button primary", "data-testid": "join-button", onclick: (e) => takeSeat(e.currentTarget) }, "Take this seat"));
    }
    return item;
  }));
  const open = match.seats.some((seat) => !seat.player);
  el.invite.hidden = !(match.status === "waiting" && you.seat !== null && open);
  el.inviteLink.value = window.location.href.split("?")[0].split("#")[0];
}

function turnTag(seat) {
  if (!thinking || thinking.seat !== seat) return "to move";
  return thinking.queued ? "waiting…" : "thinking…";
}

/** Why no search chose this move, or null: the server's `fallback` (older moves: their stats say so). */
function fallbackReason(m) {
  if (typeof m.fallback === "string" && m.fallback) return m.fallback;
  if (m.stats && m.stats.fallback) return typeof m.stats.reason === "string" && m.stats.reason ? m.stats.reason : "no search answered";
  return null;
}

function renderMoves() {
  const items = match.moves.map((m, i) => {
    const player = seatPlayer(m.seat);
    const bot = (m.by && m.by.is_ai) || isBot(player);
    const fallback = fallbackReason(m);
    const figures = [];
    // A fallback move was not searched: no think time, no search figures, never the level's badge alone.
    if (!fallback && typeof m.think_ms === "number" && m.seat >= 0) figures.push(formatMs(m.think_ms));
    if (!fallback && m.stats) figures.push(statsText(m.stats));
    if (!fallback && typeof m.queue_wait_ms === "number" && m.queue_wait_ms >= 1000) figures.push(`waited ${formatMs(m.queue_wait_ms)} for a computer`);
    const viewing = viewPly === null ? i === match.moves.length - 1 : i === viewPly - 1;
    return h("li", { class: `move${viewing ? " current" : ""}${m.seat < 0 ? " chance" : ""}`, "data-ply": m.ply, "data-seat": m.seat },
      h("button", {
        type: "button",
        class: "move-link",
        "data-goto": i + 1,
        "aria-current": viewing ? "step" : null,
        "aria-label": m.seat < 0
          ? `Move ${i + 1}: dice, ${m.move}`
          : `Move ${i + 1}: ${playerWords(player)} played ${boardModule ? boardModule.describeMove(m.move) : m.move}` +
            (fallback ? `, a random move without search (${fallback})` : ""),
      },
      h("span", { class: "move-number" }, `${i + 1}.`),
      m.seat >= 0 ? seatMark(match.game, m.seat) : h("span", { class: "chance-mark", "aria-hidden": "true" }, "⚄"),
      h("span", { class: "move-text" }, m.move)),
      bot && fallback
        ? h("span", {
          class: "ai-badge fallback-badge",
          "data-testid": "fallback-move",
          title: `The computer (AI) did not search: it played a random legal move because ${fallback}.`,
          "aria-label": `AI, no search: a random move because ${fallback}`,
        }, "AI · no search (random move): ", h("span", { class: "fallback-reason" }, fallback))
        : null,
      bot && !fallback ? aiBadge(player && player.profile, { compact: true }) : null,
      figures.filter(Boolean).length ? h("span", { class: "move-figures muted" }, figures.filter(Boolean).join(" · ")) : null);
  });
  el.moveList.replaceChildren(...items);
  if (!items.length) el.moveList.append(h("li", { class: "muted empty" }, "No moves yet."));
  const nav = document.querySelector(".move-nav");
  const canBrowse = Boolean(boardModule) && match.moves.length > 0;
  nav.querySelectorAll("button").forEach((b) => { b.disabled = !canBrowse; });
}

function renderActions() {
  const seated = you.seat !== null;
  el.resign.hidden = !(seated && (match.status === "active" || match.status === "waiting"));
  if (!resignArmed) el.resign.textContent = match.status === "waiting" ? "Cancel match" : "Resign";
  const over = match.status === "finished" || match.status === "aborted";
  el.newMatch.hidden = !over;
  el.rematch.hidden = !(over && seated);
}

/** "Analyse": the post-game analysis page, once the match is finished. */
function renderAnalysisLink() {
  let link = $("analysis-link");
  if (!link) {
    link = h("a", { id: "analysis-link", class: "button", href: `/matches/${matchId}/analysis/`, "data-testid": "analyse-link" }, "Analyse");
    $("actions").append(link);
  }
  link.hidden = !(match.status === "finished" && match.moves.length > 0);
}

/** "Hint": the best move of a short search, in matches created with hints, on your turn. */
let hint = null; // {ply, move} of the last hint, or {ply, asking: true} while it is asked for
function renderHintButton() {
  let button = $("hint-button");
  if (!button) {
    button = h("button", { type: "button", id: "hint-button", "data-testid": "hint-button", onclick: askHint }, "Hint");
    $("actions").append(button, h("p", { id: "hint-box", class: "hint-box", role: "status", "data-testid": "hint-box" }));
  }
  const yourTurn = match.status === "active" && you.seat !== null && match.to_move === you.seat && viewPly === null;
  button.hidden = !(match.hints_allowed && yourTurn);
  button.disabled = Boolean(hint && hint.ply === match.ply);
  const box = $("hint-box");
  const shown = yourTurn && hint && hint.ply === match.ply && hint.move;
  box.hidden = !shown;
  box.textContent = shown ? `Hint: the computer (AI) would play ${boardModule ? boardModule.describeMove(hint.move) : hint.move}.` : "";
}

async function askHint() {
  hint = { ply: match.ply, asking: true };
  render();
  try {
    // 200: the hint; 202: a worker searches it, and it comes as a `hint` frame (applyHint).
    const answer = await api(`/api/matches/${matchId}/hint/`, { method: "POST" });
    if (answer.status === "done") applyHint(answer);
    else window.setTimeout(() => checkHint(answer.ply, 1), HINT_CHECK_MS);
  } catch (error) {
    hint = null;
    showError(error instanceof ApiError ? error.message : "Could not get a hint.");
  }
  render();
}

/** A safety net for a lost `hint` frame: read it; give the button back when it is not coming. */
const HINT_CHECK_MS = 3000;
async function checkHint(ply, attempt) {
  if (!hint || hint.ply !== ply || hint.move || match.ply !== ply) return;
  let answer = null;
  try {
    answer = await api(`/api/matches/${matchId}/hint/`);
  } catch {
    answer = null;
  }
  if (answer && answer.status === "done") applyHint(answer);
  else if (answer && answer.status === "queued" && attempt < 10) window.setTimeout(() => checkHint(ply, attempt + 1), HINT_CHECK_MS);
  else if (hint && hint.ply === ply && !hint.move) {
    hint = null;
    render();
  }
}

function applyHint(frame) {
  if (you.seat === null || frame.seat !== you.seat || frame.ply !== match.ply) return;
  if (hint && hint.ply === frame.ply && hint.move) return;
  hint = { ply: frame.ply, move: frame.move };
  announce(`Hint: ${frame.move}.`);
  render();
}

/** A visitor becomes a guest on their first action (taking a seat): show their name now. */
async function learnWhoIAm() {
  try {
    const me = await api("/api/players/me/");
    page.player = { id: String(me.id), name: me.name, is_guest: me.is_guest };
    const who = $("player-name");
    if (who) who.replaceChildren(me.name, " ", ...(me.is_guest ? [h("span", { class: "tag" }, "guest")] : []));
  } catch {
    // the socket's state frame still says which seat is ours
  }
}

function scrollMoves() {
  el.moveList.scrollTop = el.moveList.scrollHeight;
}

function statsText(stats) {
  const parts = [];
  if (typeof stats.depth === "number" && stats.depth > 0) parts.push(`depth ${stats.depth}`);
  if (typeof stats.nodes === "number" && stats.nodes > 0) parts.push(`${compactNumber(stats.nodes)} nodes`);
  if (typeof stats.iterations === "number") parts.push(`${compactNumber(stats.iterations)} playouts`);
  return parts.join(" · ");
}

function compactNumber(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return String(n);
}

function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** A message under the board; `sticky` ones stay until the player plays again (a move they must redo). */
function showError(text, { sticky = false } = {}) {
  el.error.textContent = text;
  window.clearTimeout(errorTimer);
  if (!sticky) errorTimer = window.setTimeout(clearError, 8000);
}

function clearError() {
  el.error.textContent = "";
}

// --- start -------------------------------------------------------------------

socket.connect();
getMatch(matchId)
  .then((m) => {
    if (!match) setMatch(m, null);
  })
  .catch((error) => {
    if (error instanceof ApiError && error.status === 404) {
      socket.close();
      el.status.textContent = "There is no match with this number.";
      el.room.dataset.ready = "missing";
    }
  });

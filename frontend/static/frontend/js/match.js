// The match room: one match, live over /ws/matches/{id}/ (docs/design.md §5).
//
// The server is the only authority: the page draws the state it is sent, offers the legal
// moves it is sent, and sends {"type": "move", "move", "ply"} when the seated player to
// move picks one (match/move-sender.js says how no move is lost silently).  Spectators see
// the same board, read-only.
//
// This module wires the room's parts together; the state they share is one MatchStore
// (match/store.js), and each part is a module of match/ with one concern.

import { ApiError, getMatch } from "./api.js";
import { pageData } from "./dom.js";
import { LiveSocket } from "./socket.js";
import { createBoardHost } from "./match/board-host.js";
import { createCatalogue } from "./match/catalogue.js";
import { createChat } from "./match/chat.js";
import { createClocks } from "./match/clocks.js";
import { roomElements } from "./match/elements.js";
import { createErrorLine } from "./match/error-line.js";
import { createFrames } from "./match/frames.js";
import { createGameEnd } from "./match/game-end.js";
import { createHint } from "./match/hint.js";
import { createHistory } from "./match/history.js";
import { createHistoryNav } from "./match/history-nav.js";
import { createMoveList } from "./match/move-list.js";
import { createMoveSender } from "./match/move-sender.js";
import { createOffers } from "./match/offers.js";
import { createPremove } from "./match/premove.js";
import { createPresence } from "./match/presence.js";
import { createRatings } from "./match/ratings.js";
import { renderResult } from "./match/result.js";
import { createSeats } from "./match/seats.js";
import { createStatus } from "./match/status.js";
import { createSounds } from "./match/sounds.js";
import { MatchStore } from "./match/store.js";
import { createThemePickers } from "./match/themes.js";
import { createThinking } from "./match/thinking.js";

const page = pageData();
const store = new MatchStore(page.match_id, page.player ?? null);
const el = roomElements();
const errors = createErrorLine(el.error);
const catalogue = createCatalogue();

const socket = new LiveSocket(`/ws/matches/${store.matchId}/`, {
  versioned: true,
  watchdog: true,
  banner: el.banner,
  onFrame: (frame) => {
    frames.onFrame(frame);
    sounds.onFrame(frame);
    premove.onFrame(frame);
    // The parts between moves hear every frame after the match has taken it in.
    for (const part of betweenMoves) part.onFrame(frame);
    renderBetweenMoves();
  },
  onOpen: () => {
    sender.onSocketOpen();
    render();
  },
  onDown: () => {
    sender.onSocketDown();
    render();
  },
  onFatal: (event) => status.missing(event.reason || "This match cannot be opened."),
});

const room = { store, el, socket, catalogue, errors, render };
const boardHost = createBoardHost({ el, catalogue, onMove: (move) => sender.play(move) });
const history = createHistory({ ...room, boardHost });
const premove = createPremove({ ...room, boardHost });
const sender = createMoveSender({ ...room, boardHost, history, premove });
premove.connect(sender.play);
const sounds = createSounds({ ...room, boardHost });
const historyNav = createHistoryNav({ ...room, history });
createThemePickers();
boardHost.onRedraw(render);
const thinking = createThinking(room);
const hint = createHint({ ...room, boardHost });
const moveList = createMoveList({ ...room, boardHost });
const seats = createSeats({ ...room, thinking, boardHost });
const gameEnd = createGameEnd(room);
const status = createStatus({ ...room, boardHost });
const frames = createFrames({ ...room, boardHost, history, sender, thinking, hint, moveList });
const offers = createOffers(room);
const presence = createPresence(room);
const clocks = createClocks(room);
const chat = createChat(room);
const ratings = createRatings(room);
const betweenMoves = [offers, presence, clocks, gameEnd, chat, ratings];
document.getElementById("actions").prepend(...offers.buttons);
el.status.after(offers.panel, presence.note);

/** Draw the whole room from the store. */
function render() {
  if (!store.match) return;
  status.render();
  thinking.render();
  boardHost.render(store, history.shown());
  renderResult(store, el.result);
  seats.render();
  moveList.render();
  historyNav.render();
  premove.render();
  gameEnd.render();
  hint.render();
  renderBetweenMoves();
}

/** Takebacks and offers, whether the others are still here, the clocks and ratings (on the seats' lines), the chat. */
function renderBetweenMoves() {
  for (const part of betweenMoves) part.render();
}

socket.connect();
getMatch(store.matchId)
  .then((m) => {
    if (!store.match) frames.setMatch(m, null);
  })
  .catch((error) => {
    if (error instanceof ApiError && error.status === 404) {
      socket.close();
      status.missing("There is no match with this number.");
    }
  });

// What the room says to screen-reader users through the page's live region, in words.
// (Offers, takebacks and presence say theirs in offers.js and presence.js.)

import { announce } from "../dom.js";
import { allLevel, placeWords, placesOf } from "../places.js";
import { markName, playerWords } from "../players.js";
import { notation } from "./move-list.js";

export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** "The computer (AI) Ada", capitalised: the player in a seat, for the start of a sentence. */
function who(store, seat) {
  return capitalise(playerWords(store.seatPlayer(seat)));
}

/** "Ada played Nf3.": the move as players write it where the game has a notation (SAN), else the board's words. */
export function announceMove(store, frame, describeMove) {
  let words = frame.seat < 0
    ? `Dice: ${frame.move}.`
    : `${frame.seat === store.you.seat ? "You" : who(store, frame.seat)} played ${notation(frame) || describeMove(frame.move, frame.seat, store.you.seat)}.`;
  if (store.match.to_move !== null && store.match.to_move === store.you.seat) words += " Your move.";
  announce(words);
}

export function announceSeatsTaken(store, before) {
  store.match.seats.forEach((seat, i) => {
    if (!before[i] && seat.player) announce(`${capitalise(playerWords(store.seatPlayer(seat.index)))} took ${markName(store.match.game, seat.index)}.`);
  });
}

export function announceQueued(store, seat) {
  announce(`${who(store, seat)} is waiting for a free computer.`);
}

export function announceThinking(store, seat) {
  announce(`${who(store, seat)} is thinking.`);
}

export function announceResult(store) {
  announce(resultWords(store));
}

export function announceHint(move) {
  announce(`Hint: ${move}.`);
}

function resultWords(store) {
  const { match, you } = store;
  if (!match.result && match.status !== "aborted") return "";
  const r = match.result || {};
  const reason = r.reason ? ` (${r.reason})` : "";
  if (match.status === "aborted") return `Match aborted${reason}.`;
  const places = placesOf(r);
  if ((r.winner === null || r.winner === undefined) && !allLevel(places) && places.length) {
    const finished = places.map((_, seat) => `${seat === you.seat ? "you" : who(store, seat)} ${placeWords(places, seat)}`);
    return `${capitalise(finished.join(", "))}${reason}.`;
  }
  if (r.winner === null || r.winner === undefined) return `Draw${reason}.`;
  if (r.winner === you.seat) return `You won${reason}.`;
  const winner = who(store, r.winner);
  return you.seat !== null ? `You lost. ${winner} won${reason}.` : `${winner} won${reason}.`;
}

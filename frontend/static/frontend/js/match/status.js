// The room's headline: the title, the tab's title, the status line, and the room's data
// attributes (what tests and styles read: ready, status, ply, whose turn, connected).

import { h } from "../dom.js";
import { optionsWords } from "../options.js";
import { isBot, playerLabel } from "../players.js";

export function createStatus({ store, el, socket, catalogue, boardHost }) {
  function render() {
    renderTitle();
    renderDataset();
    renderLine();
  }

  function renderTitle() {
    const { match } = store;
    const gameName = catalogue.name(match.game) || boardHost.name || match.game;
    el.title.textContent = `${gameName} · match ${match.id}`;
    document.title = `${store.yourTurn() ? "Your move · " : ""}${gameName} · Plyground`;
    renderRated(match.rated, optionsWords(match.options));
  }

  // "Rated" or "Casual" under the title, with what it means for screen readers and on hover.
  let ratedTag = null;
  function renderRated(rated, options) {
    if (!ratedTag) {
      ratedTag = h("p", { class: "match-kind", "data-testid": "match-rated" });
      el.title.after(ratedTag);
    }
    const meaning = rated ? "the result changes the players' ratings" : "ratings do not change";
    ratedTag.dataset.rated = String(Boolean(rated));
    ratedTag.replaceChildren(
      h("span", { class: `tag ${rated ? "tag-rated" : "tag-casual"}`, title: meaning }, rated ? "Rated" : "Casual"),
      h("span", { class: "visually-hidden" }, `: ${meaning}`),
      options ? h("span", { class: "match-options", "data-testid": "match-options" }, ` · ${options}`) : "");
  }

  function renderDataset() {
    const { match, you } = store;
    Object.assign(el.room.dataset, {
      ready: boardHost.ready ? "true" : "loading",
      game: match.game,
      status: match.status,
      ply: String(match.ply),
      toMove: match.to_move === null || match.to_move === undefined ? "" : String(match.to_move),
      yourSeat: you.seat === null ? "" : String(you.seat),
      connected: String(socket.connected),
    });
  }

  function renderLine() {
    const { match, you, pending, thinking } = store;
    const st = match.status;
    const parts = [];
    if (st === "waiting") {
      parts.push(you.seat !== null ? "Waiting for an opponent to join. Share the invitation link." : "Waiting for players. Take an open seat to play.");
    } else if (st === "active") {
      if (pending && pending.unsure && !socket.connected) parts.push("Your move is queued.");
      else if (pending) parts.push("Sending your move…");
      else if (store.yourTurn()) parts.push("Your move.");
      else {
        const p = store.seatPlayer(match.to_move);
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
    // So does the result box once the game is over: it says more than "Game over.".
    const boxed = (st === "active" && thinking && !pending && socket.connected) || store.isOver();
    el.status.classList.toggle("covered", Boolean(boxed));
    // Without a bot in the match no bot's box ever comes: the turn bar keeps no room for one.
    const withBot = (match.seats || []).some((seat) => isBot(seat.player));
    el.status.closest(".turn-bar").classList.toggle("without-bots", !withBot);
    el.status.dataset.yourTurn = String(store.yourTurn());
    el.status.classList.toggle("your-turn", el.status.dataset.yourTurn === "true");
  }

  /** The server refused the room for good (close codes 4400-4499), or there is no such match. */
  function missing(text) {
    el.status.textContent = text;
    el.room.dataset.ready = "missing"; // the stylesheet hides the board and the side panels
  }

  return { render, missing };
}

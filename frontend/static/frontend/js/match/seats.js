// The players: one line per seat (who sits there, whose turn it is, "you", the clock), the
// "Take this seat" buttons of a match waiting for players, and the invitation link.  Each
// line sits at its edge of the board, as on lichess: the viewer's seat (seat 0 for a
// spectator) below it, the others above; a flipped board swaps the two seats' places.

import { ApiError, api, joinMatch } from "../api.js";
import { announce, h } from "../dom.js";
import { markName, playerLabel, seatMark } from "../players.js";

export function createSeats({ store, el, socket, thinking, errors, render, boardHost }) {
  /** The seat whose line is below the board. */
  function bottomSeat() {
    const { match, you } = store;
    const near = you.seat ?? 0;
    return boardHost.flipped && match.seats.length === 2 ? 1 - near : near;
  }

  function renderSeats() {
    const { match, you } = store;
    const canJoin = match.status === "waiting" && you.seat === null;
    const bottom = bottomSeat();
    el.seats.replaceChildren(...match.seats.map((seat) => {
      const toMove = match.status === "active" && match.to_move === seat.index;
      const edge = seat.index === bottom ? "edge-bottom" : "edge-top";
      const item = h("li", {
        class: `seat ${edge}${toMove ? " to-move" : ""}${seat.index === you.seat ? " you" : ""}`,
        "data-seat": seat.index,
        "data-testid": `seat-${seat.index}`,
      },
      seatMark(match.game, seat.index),
      h("span", { class: "visually-hidden" }, `${markName(match.game, seat.index)}: `),
      playerLabel(store.seatPlayer(seat.index)),
      seat.index === you.seat ? h("span", { class: "tag you-tag" }, "you") : null,
      toMove ? h("span", { class: "tag turn-tag" }, thinking.turnTag(seat.index)) : null);
      if (!seat.player && canJoin) {
        item.append(h("button", { type: "button", class: "join-button primary", "data-testid": "join-button", onclick: (e) => takeSeat(e.currentTarget) }, "Take this seat"));
      }
      return item;
    }));
    const open = match.seats.some((seat) => !seat.player);
    el.invite.hidden = !(match.status === "waiting" && you.seat !== null && open);
    el.inviteLink.value = window.location.href.split("?")[0].split("#")[0];
  }

  async function takeSeat(button) {
    button.disabled = true;
    try {
      const joined = await joinMatch(store.matchId);
      store.match = { ...store.match, ...joined };
      announce("You took a seat.");
      if (!store.player) await learnWhoIAm();
      // A new connection tells us which seat is ours.
      socket.restart();
    } catch (error) {
      errors.show(error instanceof ApiError ? error.message : "Could not join the match.");
    } finally {
      button.disabled = false;
      render();
    }
  }

  /** A visitor becomes a guest on their first action (taking a seat): show their name now. */
  async function learnWhoIAm() {
    try {
      const me = await api("/api/players/me/");
      store.player = { id: String(me.id), name: me.name, is_guest: me.is_guest };
      const who = document.getElementById("player-name");
      if (who) who.replaceChildren(me.name, " ", ...(me.is_guest ? [h("span", { class: "tag" }, "guest")] : []));
    } catch {
      // the socket's state frame still says which seat is ours
    }
  }

  document.getElementById("copy-invite").addEventListener("click", async () => {
    el.inviteLink.select();
    try {
      await navigator.clipboard.writeText(el.inviteLink.value);
      announce("Invitation link copied.");
    } catch {
      document.execCommand("copy");
    }
  });

  return { render: renderSeats };
}

// The match room's state, in one object that every part of the page reads and writes.
//
// The server is the only authority (docs/design.md §5): `match` is the match as the server
// last described it, kept up to date frame by frame; the rest is what this page adds to it.

import { isBot, markName } from "../players.js";

export class MatchStore {
  /**
   * @param {number} matchId
   * @param {object|null} player  who we are ({id, name, is_guest}), null for a visitor
   */
  constructor(matchId, player) {
    this.matchId = matchId;
    this.player = player;
    this.match = null; // the match object of the wire, once the first state arrived
    this.you = { seat: null };
    this.viewPly = null; // null: the live position; k: the position after k moves
    // Our move until the server acknowledges it: {move, ply, sends, unsure, timedOut, notice, timer}.
    // `unsure`: the connection dropped (or never carried it) or no answer came, so the next state
    // frame decides.
    this.pending = null;
    // The bot to move: {seat, ply, budgetMs, started, stats, queued}; queued: waiting for a free computer.
    this.thinking = null;
    this.earlyBotFrame = null; // a bot_queued/bot_thinking for a ply whose move frame has not arrived yet
    this.hint = null; // {ply, move} of the last hint, or {ply, asking: true} while it is asked for
    this.positions = null; // {matchId, ply, list}: positions after each ply, for boards that cannot replay
  }

  /**
   * The player in `seat`, as the room shows them.  Two seats with one name (two bots of one
   * profile) are told apart by their seat's colour, in every place the room names them.
   */
  seatPlayer(seat) {
    const entry = this.match && this.match.seats.find((s) => s.index === seat);
    const player = entry ? entry.player : null;
    if (!player || !player.name) return player;
    const namesakes = this.match.seats.filter((s) => s.player && s.player.name === player.name);
    if (namesakes.length < 2) return player;
    const colour = markName(this.match.game, seat).split(" ")[0];
    return { ...player, name: `${player.name} (${colour})` };
  }

  botToMove() {
    const m = this.match;
    return m && m.to_move !== null && m.to_move !== undefined && isBot(this.seatPlayer(m.to_move));
  }

  isOver() {
    return this.match.status === "finished" || this.match.status === "aborted";
  }

  /** Seated, the game running, and our seat to move (whatever position is being looked at). */
  yourTurn() {
    const m = this.match;
    return Boolean(m && m.status === "active" && this.you.seat !== null && m.to_move === this.you.seat);
  }

  /** The board takes a move: our turn, the live position shown, no move of ours on its way. */
  interactive() {
    return Boolean(this.yourTurn() && this.viewPly === null && !this.pending);
  }

  /** Our seat from the seat list, for the moment before the socket says it. */
  ownSeat() {
    const me = this.player;
    const seat = me && this.match.seats.find((s) => s.player && !isBot(s.player) && String(s.player.id) === String(me.id));
    return seat ? seat.index : null;
  }

  /** The thinking record for a bot to move whose search has not been heard of yet. */
  freshThinking() {
    return { seat: this.match.to_move, ply: this.match.ply, budgetMs: null, started: null };
  }
}

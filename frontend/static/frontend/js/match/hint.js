// "Hint": the best move of a short search, in matches created with hints, on your turn.
// The answer comes at once (200) or later as a `hint` frame while a worker searches (202).

import { ApiError, api } from "../api.js";
import { h } from "../dom.js";
import { announceHint } from "./announcements.js";

const CHECK_MS = 3000; // a safety net for a lost `hint` frame: read it this often
const CHECKS = 10; // then give the button back

export function createHint({ store, boardHost, errors, render }) {
  const $ = (id) => document.getElementById(id);

  function renderHint() {
    const { match, hint } = store;
    let button = $("hint-button");
    if (!button) {
      button = h("button", { type: "button", id: "hint-button", "data-testid": "hint-button", onclick: ask }, "Hint");
      $("actions").append(button, h("p", { id: "hint-box", class: "hint-box", role: "status", "data-testid": "hint-box" }));
    }
    const yourTurn = store.yourTurn() && store.viewPly === null;
    button.hidden = !(match.hints_allowed && yourTurn);
    button.disabled = Boolean(hint && hint.ply === match.ply);
    const box = $("hint-box");
    const shown = yourTurn && hint && hint.ply === match.ply && hint.move;
    box.hidden = !shown;
    box.textContent = shown ? `Hint: the computer (AI) would play ${boardHost.describeMove(hint.move)}.` : "";
  }

  async function ask() {
    store.hint = { ply: store.match.ply, asking: true };
    render();
    try {
      const answer = await api(`/api/matches/${store.matchId}/hint/`, { method: "POST" });
      if (answer.status === "done") apply(answer);
      else window.setTimeout(() => check(answer.ply, 1), CHECK_MS);
    } catch (error) {
      store.hint = null;
      errors.show(error instanceof ApiError ? error.message : "Could not get a hint.");
    }
    render();
  }

  /** Read the hint; give the button back when it is not coming. */
  async function check(ply, attempt) {
    const { hint } = store;
    if (!hint || hint.ply !== ply || hint.move || store.match.ply !== ply) return;
    let answer = null;
    try {
      answer = await api(`/api/matches/${store.matchId}/hint/`);
    } catch {
      answer = null;
    }
    if (answer && answer.status === "done") apply(answer);
    else if (answer && answer.status === "queued" && attempt < CHECKS) window.setTimeout(() => check(ply, attempt + 1), CHECK_MS);
    else if (store.hint && store.hint.ply === ply && !store.hint.move) {
      store.hint = null;
      render();
    }
  }

  /** The hint, from the API's answer or a `hint` frame: ours, for the current ply, once. */
  function apply(frame) {
    const { hint } = store;
    if (store.you.seat === null || frame.seat !== store.you.seat || frame.ply !== store.match.ply) return;
    if (hint && hint.ply === frame.ply && hint.move) return;
    store.hint = { ply: frame.ply, move: frame.move };
    announceHint(frame.move);
    render();
  }

  return { render: renderHint, apply };
}

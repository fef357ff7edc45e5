// A bot account's profile: a person challenges it to a game, then goes to the match once the
// bot accepts (docs/bots.md).  The server checks everything; this page only asks and waits.

import { api, describeError } from "./api.js";

const form = document.querySelector("[data-testid=challenge-form]");
const status = document.querySelector("[data-testid=challenge-status]");
const POLL_MS = 1000;

async function waitForAnswer(challenge) {
  for (;;) {
    const seen = await api(`/api/agents/challenges/${challenge.id}/`);
    if (seen.status === "accepted" && seen.match) {
      window.location.assign(`/matches/${seen.match}/`);
      return;
    }
    if (seen.status !== "pending") {
      status.textContent = `The bot did not take it (${seen.status}${seen.decline_reason ? `: ${seen.decline_reason}` : ""}).`;
      form.querySelector("button").disabled = false;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

// The seats of the chosen game, by the names its players know them by (White, Black; X, O...).
function showSeats() {
  const seats = JSON.parse(document.getElementById("challenge-seats").textContent)[form.elements.game.value] || [];
  form.elements.seat.replaceChildren(...seats.map((name, index) => new Option(name, String(index))));
}

if (form) {
  showSeats();
  form.elements.game.addEventListener("change", showSeats);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button");
    button.disabled = true;
    status.textContent = "Waiting for the bot to accept…";
    try {
      const body = { game: form.elements.game.value, seat: Number(form.elements.seat.value) };
      await waitForAnswer(await api(`/api/agents/${encodeURIComponent(form.dataset.bot)}/challenges/`, { method: "POST", body }));
    } catch (error) {
      status.textContent = describeError(error.body || { detail: String(error) });
      button.disabled = false;
    }
  });
}

// The tournaments page: the list, kept fresh, and the form that creates one (docs/tournaments.md).

import { api } from "./api.js";
import { h, pageData } from "./dom.js";
import { factsLine, statusLine } from "./tournament-words.js";

const page = pageData();
const $ = (id) => document.getElementById(id);
const REFRESH_MS = 15000;

function row(t) {
  return h(
    "li",
    { class: `tournament-row status-${t.status}`, "data-testid": `tournament-${t.id}` },
    h("a", { href: t.url, class: "tournament-name" }, t.name),
    h("span", { class: "muted" }, ` ${factsLine(t)}`),
    h("span", { class: "status" }, statusLine(t)),
  );
}

async function refresh() {
  try {
    const list = await api("/api/tournaments/");
    $("tournament-list").replaceChildren(...list.map(row));
    $("tournament-empty").hidden = list.length > 0;
  } catch {
    // The next refresh tries again; the list shown stays.
  }
  document.querySelector(".tournaments").dataset.ready = "true";
}

function setUpForm(form) {
  $("create-game").replaceChildren(...page.games.map((g) => h("option", { value: g.id }, g.name)));
  $("create-clock").replaceChildren(...page.clocks.map((c) => h("option", { value: c, selected: c === "3+2" }, `${c.replace("+", " min + ")} s`)));
  const kind = form.elements.kind;
  const show = () => {
    form.querySelector(".swiss-only").hidden = kind.value !== "swiss";
    form.querySelector(".arena-only").hidden = kind.value !== "arena";
  };
  kind.addEventListener("change", show);
  show();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = form.elements;
    const body = {
      name: data.name.value,
      kind: kind.value,
      game: data.game.value,
      clock: data.clock.value,
      entry: data.entry.value,
      rated: data.rated.checked,
      max_entrants: Number(data.max_entrants.value),
      starts_at: new Date(Date.now() + Number(data.starts_in.value) * 60000).toISOString(),
    };
    if (kind.value === "swiss") body.rounds = Number(data.rounds.value);
    if (kind.value === "arena") body.minutes = Number(data.minutes.value);
    $("create-error").textContent = "";
    try {
      const made = await api("/api/tournaments/", { method: "POST", body });
      window.location.assign(made.url);
    } catch (error) {
      $("create-error").textContent = error.message;
    }
  });
}

const form = $("create-form");
if (form) setUpForm(form);
refresh();
window.setInterval(refresh, REFRESH_MS);

// The researcher's page (frontend/research_views.py): API tokens through /api/players/me/tokens/,
// and export URLs built from the filters of docs/exports.md with a size estimate from
// /api/exports/estimate/.  The page never checks a filter itself: the estimate answers the
// same 400s as the exports, and those are shown next to their fields.

import { api, ApiError, describeError } from "./api.js";
import { announce, h, pageData } from "./dom.js";

const { urls } = pageData();
const CONFIRM_MS = 4000; // an armed "Confirm: revoke" goes back to "Revoke" after this long
const ESTIMATE_DELAY_MS = 250; // typing in a field asks once it pauses
const LIST_FILTERS = ["game", "bot", "pairing", "result"]; // several values, comma-separated
const ONE_VALUE_FILTERS = ["since", "until", "status", "source", "min_plies", "max", "purpose"];
const DEFAULTS = { status: "finished", purpose: "research" }; // left out of the URL: the server's own defaults

const $ = (id) => document.getElementById(id);

// --- tokens -------------------------------------------------------------------------

const DAY = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric" });

function day(iso) {
  return iso ? h("time", { datetime: iso }, DAY.format(new Date(iso))) : "never";
}

function showSecret(issued, verb) {
  $("token-secret-value").value = issued.token;
  $("token-secret-heading").textContent = `Your ${verb} token “${issued.label || "unnamed"}”`;
  $("token-secret").hidden = false;
  $("token-secret").focus();
  announce(`Token ${verb}. Copy its secret now: it is not shown again.`);
}

function tokenError(error) {
  $("token-error").textContent = error instanceof ApiError ? error.message : "The server could not be reached. Try again.";
}

async function tokenCall(path, options, done) {
  $("token-error").textContent = "";
  try {
    done(await api(path, options));
  } catch (error) {
    tokenError(error);
  }
  await loadTokens();
}

function revokeButton(token, name) {
  let armed = null;
  const button = h("button", { type: "button", class: "danger", "aria-label": `Revoke ${name}` }, "Revoke");
  const disarm = () => {
    window.clearTimeout(armed);
    armed = null;
    button.classList.remove("armed");
    button.textContent = "Revoke";
    button.setAttribute("aria-label", `Revoke ${name}`);
  };
  button.addEventListener("click", () => {
    if (!armed) {
      button.classList.add("armed");
      button.textContent = "Confirm: revoke";
      button.setAttribute("aria-label", `Confirm: revoke ${name}; it stops working at once`);
      announce(`Press again to revoke ${name}.`);
      armed = window.setTimeout(disarm, CONFIRM_MS);
      return;
    }
    disarm();
    tokenCall(`${urls.tokens}${token.id}/`, { method: "DELETE" }, () => {
      $("token-secret").hidden = true;
      $("tokens-heading").focus(); // the row, and the button that had the focus, are gone
      announce(`${name} revoked.`);
    });
  });
  return button;
}

function tokenRow(token) {
  const name = token.label ? `token “${token.label}”` : "unnamed token";
  const rotate = h("button", { type: "button", "aria-label": `Rotate ${name}` }, "Rotate");
  rotate.addEventListener("click", () =>
    tokenCall(`${urls.tokens}${token.id}/rotate/`, { method: "POST" }, (issued) => showSecret(issued, "rotated")),
  );
  return h(
    "tr",
    { "data-testid": "token-row", "data-token-id": token.id },
    h("th", { scope: "row" }, token.label || h("span", { class: "muted" }, "unnamed")),
    h("td", { "data-label": "Created" }, day(token.created_at)),
    h("td", { "data-label": "Last used" }, day(token.last_used_at)),
    h("td", { "data-label": "Expires" }, day(token.expires_at)),
    h("td", { class: "token-actions" }, rotate, revokeButton(token, name)),
  );
}

async function loadTokens() {
  let tokens;
  try {
    tokens = await api(urls.tokens);
  } catch (error) {
    tokenError(error);
    return;
  }
  $("token-rows").replaceChildren(...tokens.map(tokenRow));
  document.querySelector('[data-testid="token-table"]').hidden = tokens.length === 0;
  $("token-empty").hidden = tokens.length > 0;
}

$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const label = $("token-label").value.trim();
  tokenCall(urls.tokens, { method: "POST", body: { label } }, (issued) => {
    $("token-label").value = "";
    showSecret(issued, "new");
  });
});

// --- the export URL builder --------------------------------------------------------

const form = $("export-form");

/** The query string of the form's filters, lists comma-separated, empty filters left out. */
function query() {
  const data = new FormData(form);
  const parts = [];
  for (const name of LIST_FILTERS) {
    const values = data.getAll(name).map(String).filter(Boolean);
    if (values.length) parts.push(`${name}=${values.map(encodeURIComponent).join(",")}`);
  }
  for (const name of ONE_VALUE_FILTERS) {
    const value = String(data.get(name) ?? "").trim();
    if (value && value !== DEFAULTS[name]) parts.push(`${name}=${encodeURIComponent(value)}`);
  }
  return parts.join("&");
}

function absolute(path, search) {
  return `${window.location.origin}${path}${search ? `?${search}` : ""}`;
}

function shellQuote(text) {
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}

function showUrls(search) {
  const games = absolute(urls.games, search);
  const moves = absolute(urls.moves, search);
  $("url-games").value = games;
  $("url-moves").value = moves;
  $("download-games").href = games;
  $("download-moves").href = moves;
  const header = '-H "Authorization: Bearer $TOKEN"';
  $("curl-command").value = [
    `curl -fsS ${header} -o games.jsonl ${shellQuote(games)}`,
    `curl -fsS ${header} -o moves.csv ${shellQuote(moves)}`,
  ].join("\n");
}

const NUMBER = new Intl.NumberFormat();

function bytes(n) {
  const units = ["bytes", "kB", "MB", "GB", "TB"];
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${NUMBER.format(n)} bytes` : `${value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`;
}

function plural(n, one, many = `${one}s`) {
  return `${NUMBER.format(n)} ${n === 1 ? one : many}`;
}

function showFieldErrors(errors) {
  for (const slot of form.querySelectorAll("[data-error-for]")) {
    const messages = errors[slot.dataset.errorFor];
    slot.textContent = messages ? [].concat(messages).join(" ") : "";
    const box = form.querySelector(`[data-filter="${slot.dataset.errorFor}"]`);
    box.classList.toggle("field-invalid", Boolean(messages));
    for (const input of box.querySelectorAll("input, select")) {
      if (messages) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
  }
}

function showEstimate(figures) {
  const how = figures.exact ? "" : "about ";
  const out = $("estimate");
  out.classList.remove("estimate-error");
  out.replaceChildren(
    h("strong", {}, `${plural(figures.matches, "match", "matches")}, ${plural(figures.moves, "move")}`),
    h("span", {}, ` · games.jsonl ${how}${bytes(figures.bytes["games.jsonl"])}`),
    h("span", {}, ` · moves.csv ${how}${bytes(figures.bytes["moves.csv"])}`),
  );
  out.dataset.matches = figures.matches;
  out.dataset.moves = figures.moves;
}

let pending = null; // the estimate request in flight, aborted by a newer one
let timer = null;

async function estimate(search) {
  pending?.abort();
  pending = new AbortController();
  const out = $("estimate");
  try {
    const figures = await api(`${urls.estimate}${search ? `?${search}` : ""}`, { signal: pending.signal });
    showFieldErrors({});
    showEstimate(figures);
  } catch (error) {
    if (error.name === "AbortError") return;
    const body = error instanceof ApiError ? error.body : null;
    showFieldErrors(error.status === 400 && body && typeof body === "object" ? body : {});
    out.classList.add("estimate-error");
    out.replaceChildren(
      h("strong", {}, "No estimate: "),
      error instanceof ApiError ? describeError(body) || error.message : "the server could not be reached.",
    );
    delete out.dataset.matches;
    delete out.dataset.moves;
  }
}

function update({ now = false } = {}) {
  const search = query();
  showUrls(search);
  window.clearTimeout(timer);
  timer = window.setTimeout(() => estimate(search), now ? 0 : ESTIMATE_DELAY_MS);
}

form.addEventListener("input", () => update());
form.addEventListener("change", () => update());
form.addEventListener("submit", (event) => event.preventDefault());

// --- copying ---------------------------------------------------------------------

async function copy(field) {
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    field.select(); // a page without clipboard access: the text is selected for Ctrl+C
    if (!document.execCommand?.("copy")) {
      announce("Selected: press Ctrl+C (⌘C on a Mac) to copy.");
      return;
    }
  }
  announce("Copied.");
}

for (const button of document.querySelectorAll("[data-copy]")) {
  button.addEventListener("click", () => copy($(button.dataset.copy)));
}

loadTokens();
update({ now: true });

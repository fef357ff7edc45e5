// The account page's bot accounts (docs/bots.md): register one, give it tokens, revoke them, measure it.
// Everything goes through the API the programs use; the server checks names, caps and owners.

import { api, describeError } from "./api.js";
import { measurementPart } from "./measurements.js";

const section = document.querySelector("[data-testid=bot-accounts]");
const list = section?.querySelector("[data-testid=bot-list]");
const status = section?.querySelector("[data-testid=bot-status]");

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

function say(error) {
  status.textContent = describeError(error.body || { detail: String(error) });
}

async function showTokens(bot, into) {
  const tokens = await api(`/api/agents/${encodeURIComponent(bot.name)}/tokens/`);
  const rows = tokens.map((token) => {
    const row = element("li", `${token.label || "token"} · made ${token.created_at.slice(0, 10)} · expires ${token.expires_at.slice(0, 10)} `);
    const revoke = element("button", "Revoke", { type: "button" });
    revoke.addEventListener("click", async () => {
      try {
        await api(`/api/agents/${encodeURIComponent(bot.name)}/tokens/${token.id}/`, { method: "DELETE" });
        status.textContent = `Token revoked: ${bot.name}'s sockets that used it are closed.`;
        await showTokens(bot, into);
      } catch (error) { say(error); }
    });
    row.append(revoke);
    return row;
  });
  into.replaceChildren(...rows);
}

/** Whether the bot's games go into research exports: its owner's choice, off until made. */
function consentPart(bot) {
  const path = `/api/agents/${encodeURIComponent(bot.name)}/consent/`;
  const box = element("input", "", { type: "checkbox", "data-testid": "bot-research" });
  const label = element("label", "", { class: "bot-consent" });
  label.append(box, " Include its games in research exports (as an AI, under a pseudonym)");
  box.disabled = true;
  api(path)
    .then((consent) => { box.checked = consent.research; box.disabled = false; })
    .catch(say);
  box.addEventListener("change", async () => {
    box.disabled = true;
    try {
      const current = await api(path);
      const chosen = await api(path, { method: "PUT", body: { research: box.checked, training: current.training } });
      box.checked = chosen.research;
      status.textContent = chosen.research ? `${bot.name}'s games go into research exports from now on.` : `${bot.name}'s games stay out of research exports.`;
    } catch (error) { say(error); }
    box.disabled = false;
  });
  return label;
}

function botItem(bot) {
  const item = element("li", "", { "data-bot": bot.name });
  const link = element("a", bot.name, { href: bot.profile_url });
  const badge = element("span", `AI · by ${bot.owner}`, { class: "ai-badge", "data-testid": "ai-badge" });
  const tokens = element("ul", "", { class: "token-list", "data-testid": "token-list" });
  const issue = element("button", "New token", { type: "button" });
  const secret = element("p", "", { "data-testid": "token-secret", class: "token-secret" });
  issue.addEventListener("click", async () => {
    try {
      const made = await api(`/api/agents/${encodeURIComponent(bot.name)}/tokens/`, { method: "POST", body: { label: "" } });
      secret.replaceChildren(
        element("span", "Copy it now, it is shown only once: "),
        element("code", made.token, { "data-testid": "token-value" }),
      );
      await showTokens(bot, tokens);
    } catch (error) { say(error); }
  });
  item.append(link, " ", badge, " ", issue, secret, tokens, consentPart(bot), measurementPart(bot, say));
  showTokens(bot, tokens).catch(say);
  return item;
}

async function showBots() {
  const bots = await api("/api/agents/");
  list.replaceChildren(...(bots.length ? bots.map(botItem) : [element("li", "None yet.")]));
}

if (section) {
  section.querySelector("[data-testid=bot-register]").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    try {
      const bot = await api("/api/agents/", { method: "POST", body: { name: form.elements.name.value.trim() } });
      status.textContent = `${bot.name} is registered. Give it a token to let it connect.`;
      form.reset();
      await showBots();
    } catch (error) { say(error); }
  });
  showBots().catch(say);
}

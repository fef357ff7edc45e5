// The consent choices (research exports, training our bots): the guests' notice and the account
// page's section send them to PUT /api/players/me/consent/ (server/players/consent.py).

import { api } from "./api.js";

const URL = "/api/players/me/consent/";

async function save(form) {
  const status = form.querySelector("[data-consent-status]");
  const button = form.querySelector("button[type=submit]");
  const body = { research: form.elements.research.checked, training: form.elements.training.checked };
  button.disabled = true;
  status.textContent = "Saving…";
  try {
    const saved = await api(URL, { method: "PUT", body });
    status.textContent = describe(saved);
    const notice = form.closest("[data-consent-notice]");
    if (notice) {
      notice.hidden = true;
      announce(`Saved. ${describe(saved)}`);
    }
  } catch (error) {
    status.textContent = `Not saved: ${error.message}`;
  } finally {
    button.disabled = false;
  }
}

function describe({ research, training }) {
  const uses = [research && "research exports", training && "training our bots"].filter(Boolean);
  return uses.length ? `Saved: your games may be used for ${uses.join(" and ")}.` : "Saved: your games are used for neither.";
}

function announce(text) {
  const announcer = document.getElementById("announcer");
  if (announcer) announcer.textContent = text;
}

for (const form of document.querySelectorAll("[data-consent-form]")) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    save(form);
  });
}

// fetch wrapper for the JSON API under /api/ (docs/design.md §5).

export class ApiError extends Error {
  constructor(status, body) {
    super(describeError(body) || `Request failed (${status})`);
    this.status = status;
    this.body = body;
  }
}

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/** Turn a 400 body ({"detail": ...} or {"field": ["msg"]}) into one sentence. */
export function describeError(body) {
  if (!body || typeof body !== "object") return typeof body === "string" ? body : "";
  if (typeof body.detail === "string") return body.detail;
  const parts = [];
  for (const [field, messages] of Object.entries(body)) {
    const text = Array.isArray(messages) ? messages.map((m) => (typeof m === "string" ? m : JSON.stringify(m))).join(" ") : String(messages);
    parts.push(field === "non_field_errors" ? text : `${field}: ${text}`);
  }
  return parts.join("; ");
}

/**
 * Call the API: api("/api/matches/", {method: "POST", body: {...}}).
 * Resolves with the parsed JSON; rejects with ApiError on a non-2xx answer.
 */
export async function api(path, { method = "GET", body, signal } = {}) {
  const headers = { Accept: "application/json" };
  const init = { method, headers, credentials: "same-origin", signal };
  if (method !== "GET" && method !== "HEAD") {
    headers["Content-Type"] = "application/json";
    const token = cookie("csrftoken");
    if (token) headers["X-CSRFToken"] = token;
    init.body = JSON.stringify(body ?? {});
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = text; }
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const getGames = () => api("/api/games/");
export const getBots = (game) => api(`/api/bots/?game=${encodeURIComponent(game)}`);
export const getMatch = (id) => api(`/api/matches/${id}/`);
export const listMatches = (status, filters = {}) => {
  const query = new URLSearchParams({ status, ...filters });
  return api(`/api/matches/?${query}`);
};
export const createMatch = (game, seats, extra = {}) => api("/api/matches/", { method: "POST", body: { game, seats, ...extra } });
export const joinMatch = (id) => api(`/api/matches/${id}/join/`, { method: "POST", body: {} });

/** Lists may come bare or paginated ({"results": [...]}); give the items. */
export function items(data) {
  if (Array.isArray(data)) return data;
  if (data && Array.isArray(data.results)) return data.results;
  return [];
}

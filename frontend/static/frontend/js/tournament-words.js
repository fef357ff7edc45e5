// How a tournament is put in words, shared by the list and the tournament's page (docs/tournaments.md).

export const KIND_NAMES = { round_robin: "Round robin", swiss: "Swiss", arena: "Arena" };
export const ENTRY_NAMES = { people: "people", bots: "bots", open: "people and bots" };

/** "Swiss · Connect Four · 3+2 · 5 rounds · for people · rated". */
export function factsLine(t) {
  const length = t.kind === "arena" ? `${t.minutes} min` : t.rounds ? `${t.rounds} rounds` : "everyone meets everyone";
  return [KIND_NAMES[t.kind] || t.kind, t.game_name, t.clock, length, `for ${ENTRY_NAMES[t.entry] || t.entry}`, t.rated ? "rated" : "casual"].join(" · ");
}

function clockTime(iso) {
  return new Date(iso).toLocaleString([], { weekday: "short", hour: "2-digit", minute: "2-digit" });
}

/** Where it stands: "Starts Mon 14:05", "Round 2 of 5", "Ends 14:35", "Finished", "Cancelled: too few entrants". */
export function statusLine(t) {
  if (t.status === "scheduled") return `Starts ${clockTime(t.starts_at)} · ${t.entrants} of ${t.max_entrants} entered`;
  if (t.status === "running") {
    if (t.kind === "arena") return `Under way · ends ${clockTime(t.ends_at)} · ${t.entrants} playing`;
    return `Under way · round ${t.round} of ${t.rounds} · ${t.entrants} playing`;
  }
  if (t.status === "finished") return `Finished ${clockTime(t.finished_at)}`;
  return "Cancelled: fewer than two entrants at its start";
}

/** Points as players read them: 2.5 in a Swiss, 14 in an arena. */
export function pointsText(points) {
  return Number.isInteger(points) ? String(points) : points.toFixed(1).replace(".5", "½").replace(/^0½/, "½");
}

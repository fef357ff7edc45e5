// A bot's search figures in a few words: "depth 9 · 120k nodes", "opening book".

export function statsText(stats) {
  const parts = [];
  // A move no search chose says where it came from (the stats' `source`).
  if (stats.source === "book") parts.push("opening book");
  if (stats.source === "tablebase") parts.push(tableWords(stats.plies_to_end));
  if (typeof stats.depth === "number" && stats.depth > 0) parts.push(`depth ${stats.depth}`);
  if (typeof stats.nodes === "number" && stats.nodes > 0) parts.push(`${compactNumber(stats.nodes)} nodes`);
  if (typeof stats.iterations === "number") parts.push(`${compactNumber(stats.iterations)} playouts`);
  return parts.join(" · ");
}

function compactNumber(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return String(n);
}

function tableWords(plies) {
  if (typeof plies !== "number" || plies === 0) return "endgame table: a draw";
  const moves = Math.ceil(Math.abs(plies) / 2);
  return plies > 0 ? `endgame table: mates in ${moves}` : `endgame table: mated in ${moves} at best`;
}

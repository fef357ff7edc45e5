// A bot's search figures in a few words: "depth 9 · 120k nodes".

export function statsText(stats) {
  const parts = [];
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

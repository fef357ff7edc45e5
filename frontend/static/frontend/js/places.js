// Where each seat finished: the result's `places` (docs/wire.md), 1 for first, seats with
// equal returns sharing a place.  A game for three where one resigns is no draw: the other
// two share first, and the one who resigned is third.

/** The places by seat; for a result stored before results carried them, from its returns. */
export function placesOf(result) {
  if (!result) return [];
  if (Array.isArray(result.places)) return result.places;
  const returns = Array.isArray(result.returns) ? result.returns : [];
  return returns.map((mine) => 1 + returns.filter((other) => other > mine).length);
}

/** 1 → "1st", 2 → "2nd", 3 → "3rd", 11 → "11th". */
export function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
}

/** "1st", or "1st (shared)" when another seat finished level with `seat`. */
export function placeWords(places, seat) {
  const place = places[seat];
  if (place === undefined) return "";
  const shared = places.filter((p) => p === place).length > 1;
  return `${ordinal(place)}${shared ? " (shared)" : ""}`;
}

/** Everyone finished level: a draw, the one result without places to tell. */
export function allLevel(places) {
  return places.length > 0 && places.every((p) => p === places[0]);
}

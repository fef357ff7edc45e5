/** A match's game options in words for its lobby row and room: the ones switched on and the
 *  numbers set (backgammon: "cube · match to 7"); "" for a match without any. */
export function optionsWords(options) {
  return Object.entries(options || {})
    .filter(([, value]) => value === true || (typeof value === "number" && value > 0))
    .map(([name, value]) => (value === true ? name : `${name.replaceAll("_", " ")} ${value}`))
    .join(" · ");
}

// Board and piece themes: custom properties of the stylesheet ("themes" section of
// plyground.css), chosen on <html data-board-theme data-piece-theme> and remembered in
// localStorage.  Every piece theme keeps the seats' colour names (blue, orange, purple,
// green: the room says them) and their symbols (dot, diamond, square, triangle), so seats
// never differ by colour alone; the defaults are the Okabe–Ito colours, which stay apart
// for the common kinds of colour blindness.

export const BOARD_THEMES = [
  { id: "slate", name: "Slate (default)" },
  { id: "wood", name: "Wood" },
  { id: "contrast", name: "High contrast" },
];

export const PIECE_THEMES = [
  { id: "okabe-ito", name: "Colour-blind safe (default)" },
  { id: "deep", name: "Deep colours" },
  { id: "outlined", name: "Bold outlines" },
];

const KEYS = { board: "plyground.boardTheme", piece: "plyground.pieceTheme" };

function stored(key, themes) {
  let id = null;
  try {
    id = window.localStorage.getItem(key);
  } catch {
    id = null;
  }
  return themes.some((t) => t.id === id) ? id : themes[0].id;
}

function store(key, id) {
  try {
    window.localStorage.setItem(key, id);
  } catch {
    // not remembered; the theme still applies to this page
  }
}

/** Put the remembered themes on <html>: call it early, before the board is drawn. */
export function applyStoredThemes() {
  document.documentElement.dataset.boardTheme = stored(KEYS.board, BOARD_THEMES);
  document.documentElement.dataset.pieceTheme = stored(KEYS.piece, PIECE_THEMES);
}

/** The two pickers of the room's board tools. */
export function createThemePickers() {
  applyStoredThemes();
  picker(document.getElementById("board-theme"), BOARD_THEMES, KEYS.board, "boardTheme");
  picker(document.getElementById("piece-theme"), PIECE_THEMES, KEYS.piece, "pieceTheme");
}

function picker(select, themes, key, attribute) {
  if (!select) return;
  select.replaceChildren(...themes.map((t) => new Option(t.name, t.id)));
  select.value = document.documentElement.dataset[attribute];
  select.addEventListener("change", () => {
    document.documentElement.dataset[attribute] = select.value;
    store(key, select.value);
  });
}

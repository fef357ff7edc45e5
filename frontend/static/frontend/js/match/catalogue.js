// The game catalogue (GET /api/games/, docs/design.md §5): each game's display name and
// the file of its board module under boards/.

import { getGames } from "../api.js";

const BOARD_FILE = /^[a-z0-9][a-z0-9-]*\.js$/; // a file in boards/, never a path elsewhere

export function createCatalogue() {
  let games = null; // id -> {name, board}
  let loading = null;

  /** Read it once; a failed read (the connection dropped) is tried again on the next call. */
  function load() {
    if (games) return Promise.resolve();
    loading ||= getGames()
      .then((list) => { games = new Map(list.map((game) => [game.id, game])); })
      .finally(() => { loading = null; });
    return loading;
  }

  /** The game's display name, or null while the catalogue is not read or the game is not in it. */
  function name(id) {
    const game = games && games.get(id);
    return game ? game.name : null;
  }

  /** The board module's file name; a game without one gets the generic board. */
  function boardFile(id) {
    const game = games && games.get(id);
    return game && BOARD_FILE.test(game.board || "") ? game.board : "generic.js";
  }

  /** {num_players, has_chance, ...} of the game, or null while the catalogue is not read. */
  function info(id) {
    return (games && games.get(id)) || null;
  }

  return { load, name, boardFile, info };
}

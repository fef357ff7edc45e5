"""Chess: display name, seats, board module and seeded bot ladder (docs/design.md §2).

The ladder runs the generic alpha-beta on PeSTO's tapered tables (`games.chess.evaluation`)
with quiescence on captures; the Master runs the compiled engine (`games.chess.engine`, the
tables and the classic terms), or where it is not built the chess refinements of
`ai.alphabeta` on the same evaluation.
The Advanced and Master levels play from an opening book and the Master from endgame
tables where the system has them (`games.chess.tables`); without them they search.
Levels 1-3 search to a fixed depth, so their strength does not depend on the machine.
"""

from __future__ import annotations

from games.chances import WinningChances
from games.spec import GameSpec, SeatSpec, adaptive_bot, bot, random_bot

ID = "chess"

# Refinements of alpha-beta (`ai.alphabeta.AlphaBetaOptions`; measured in benchmarks/chess_search.py):
# the Advanced level's make quiescence cheaper (they prune and order captures only);
# the Master's add the forward pruning and extension that let it search deeper.
QUIESCENCE_SEARCH = {"delta_pruning": True, "see_pruning": True, "tactical_first": True}
# The Master runs the compiled engine (`games.chess.engine`) where it is built, the same
# refinements in C; these options are the Python search it falls back to.
# Its evaluation adds the classic terms to the tables (`Chess.evaluation("terms")`, the engine's own).
MASTER_SEARCH = {
    **QUIESCENCE_SEARCH,
    "check_extension": True,
    "null_move": True,
    "lmr": True,
    "engine": True,
    "evaluation": "terms",
}
# Files the system may provide (`games.chess.tables`; Debian's gnuchess-book and gaviotatb):
# the Advanced and Master levels open from the book, the Master ends from the tables.
BOOK = {"opening_book": True}
TABLES = {"tablebases": True}

SPEC = GameSpec(
    name="Chess",
    board="chess.js",
    order=70,
    seats=(SeatSpec("white", "white", mark="plain"), SeatSpec("black", "black", mark="plain")),
    # Lichess's map from centipawns to winning chances (fitted on its players' games), on our
    # scale of 10,000 centipawns a won game: PeSTO's pawn is near Stockfish's.  A pawn is 0.01.
    chances=WinningChances(slope=0.00368208 * 10_000, shown_as="pawns", unit=0.01),
    ladder=(
    # --- chess: alpha-beta on the tapered evaluation, captures searched to quiet positions ---
    random_bot(ID),
    bot(ID, 1, "Pawnstorm", "alphabeta", 200, "Looks one move ahead, grabs material and often "
         "plays on a whim.", max_depth=1, slip_rate=0.4),
    bot(ID, 2, "Knightly", "alphabeta", 400, "Looks two plies ahead, then follows the captures "
         "through; slips now and then.", max_depth=2, slip_rate=0.1),
    bot(ID, 3, "Bishopric", "alphabeta", 1000, "Looks three plies ahead and follows the captures "
         "through.", max_depth=3),
    bot(ID, 4, "Castellan", "alphabeta", 1500, "Plays known openings from a book, then alpha-beta as "
         "deep as a second and a half allows, captures searched to quiet positions, losing ones skipped.",
         search_options={**QUIESCENCE_SEARCH, **BOOK}),
    bot(ID, 5, "Grandmaster Gambit", "alphabeta", 3000, "Plays known openings from a book, then "
         "three seconds of a compiled alpha-beta engine, over a million positions a second, with what chess "
         "engines use: a transposition table, null-move pruning, late-move reductions, check extensions, "
         "and captures searched to quiet positions, losing ones skipped; with three pieces left it plays "
         "perfectly from endgame tables.",
         search_options={**MASTER_SEARCH, **BOOK, **TABLES}),
    adaptive_bot(ID, "Coach Check", "alphabeta", 1000, max_depth=3),
    ),
)  # fmt: skip

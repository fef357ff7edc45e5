"""Chess: display name, seats, board module and seeded bot ladder (docs/design.md §2).

The ladder is a first cut on the generic alpha-beta with the material evaluation of
`games.chess.rules`; the levels are tuned (and rated on Stockfish's scale) later.
"""

from __future__ import annotations

from games.spec import GameSpec, SeatSpec, adaptive_bot, bot, random_bot

ID = "chess"

SPEC = GameSpec(
    name="Chess",
    board="chess.js",
    seats=(SeatSpec("white", "white"), SeatSpec("black", "black")),
    ladder=(
    # --- chess: alpha-beta on material, captures searched to quiet positions ---
    random_bot(ID),
    bot(ID, 1, "Pawnstorm", "alphabeta", 200, "Looks one move ahead, grabs material and often "
         "plays on a whim.", max_depth=1, error_rate=0.4),
    bot(ID, 2, "Knightly", "alphabeta", 400, "Looks two plies ahead, then follows the captures "
         "through; slips now and then.", max_depth=2, error_rate=0.1),
    bot(ID, 3, "Bishopric", "alphabeta", 1000, "Looks three plies ahead and follows the captures "
         "through.", max_depth=3),
    bot(ID, 4, "Castellan", "alphabeta", 2000, "Alpha-beta as deep as two seconds allow, captures "
         "searched to quiet positions."),
    bot(ID, 5, "Grandmaster Gambit", "alphabeta", 4000, "Alpha-beta as deep as four seconds allow."),
    adaptive_bot(ID, "Coach Check", "alphabeta", 1000, max_depth=3),
    ),
)  # fmt: skip

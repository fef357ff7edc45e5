"""Chinese checkers, for three and for two: names, seats, board module, bot ladders (docs/design.md §2)."""

from __future__ import annotations

from games.chances import WinningChances
from games.spec import GameSpec, SeatSpec, adaptive_bot, bot, random_bot

ID = "chinese-checkers"
ID_2 = "chinese-checkers-2"

SPEC = GameSpec(
    name="Chinese checkers",
    board="chinese-checkers.js",
    order=50,
    seats=(
        SeatSpec("blue (dot)", "blue"),
        SeatSpec("orange (diamond)", "orange"),
        SeatSpec("purple (square)", "purple"),
    ),
    chances=WinningChances(slope=2.09),  # fitted by benchmarks/calibrate_chances.py (README)
    ladder=(
    # --- chinese checkers (three players): with two others moving in between, looking
    # deeper does not pay, playouts do (benchmarks/README.md, "Bot ladder and measured ratings") ---
    random_bot(ID),
    bot(ID, 1, "Hop", "maxn", 200, "Takes the move that gains the most ground half of "
         "the time; otherwise some other move.", max_depth=1, slip_rate=0.5),
    bot(ID, 2, "Skip", "maxn", 200, "Takes the move that gains the most ground on three "
         "moves in four.", max_depth=1, slip_rate=0.25),
    bot(ID, 3, "Leap", "maxn", 200, "Always takes the move that gains the most ground "
         "right now, long hops first.", max_depth=1),
    bot(ID, 4, "Vault", "mcts", 1000, "Monte Carlo tree search with max^n backups: a hundred "
         "short playouts a move, guided by distance to goal.", max_iterations=100,
         search_options={"rollout": "heuristic", "rollout_depth": 6, "progressive_bias": 2.0}),
    bot(ID, 5, "Comet", "mcts", 2500, "Monte Carlo tree search with max^n backups: thousands "
         "of distance-guided playouts in two and a half seconds.",
         search_options={"rollout": "heuristic", "rollout_depth": 6, "progressive_bias": 2.0}),
    adaptive_bot(ID, "Coach Star", "maxn", 500, max_depth=1),  # depth 1 is max^n at its best here
    ),
)  # fmt: skip

SPEC_2 = GameSpec(
    name="Chinese checkers (two players)",
    board="chinese-checkers.js",
    order=60,
    seats=(SeatSpec("blue (dot)", "blue"), SeatSpec("orange (diamond)", "orange")),
    chances=WinningChances(slope=3.55),  # fitted by benchmarks/calibrate_chances.py (README)
    ladder=(
    # --- chinese checkers for two: alpha-beta.  Depth pays at odd depths, and slips at depth
    # 3 are costly, so slips space the middle levels (benchmarks/README.md, "Bot ladder") ---
    random_bot(ID_2),
    bot(ID_2, 1, "Hop", "alphabeta", 200, "Takes the move that gains the most ground "
         "half of the time; otherwise some other move.", max_depth=1, slip_rate=0.5),
    bot(ID_2, 2, "Skip", "alphabeta", 200, "Always takes the move that gains the most "
         "ground right now, long hops first, without looking at your reply.", max_depth=1),
    bot(ID_2, 3, "Leap", "alphabeta", 500, "Looks three moves ahead (its move, your reply, "
         "its next) to set up hop chains, but slips on almost a third of its moves.", max_depth=3,
         slip_rate=0.3),
    bot(ID_2, 4, "Vault", "alphabeta", 1000, "Looks three moves ahead to set up hop chains "
         "and block yours; slips on one move in ten.", max_depth=3, slip_rate=0.1),
    bot(ID_2, 5, "Comet", "alphabeta", 3000, "Alpha-beta as deep as three seconds allow: "
         "five or six moves ahead."),
    adaptive_bot(ID_2, "Coach Star", "alphabeta", 500, max_depth=4),
    ),
)  # fmt: skip

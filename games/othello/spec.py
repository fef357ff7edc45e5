"""Othello: display name, seats, board module and seeded bot ladder (docs/design.md §2)."""

from __future__ import annotations

from games.chances import WinningChances
from games.spec import GameSpec, SeatSpec, adaptive_bot, bot, random_bot

ID = "othello"
EXACT_FROM_PLY = 42  # 18 empty squares (fewer after passes): solved within the Master's time (benchmarks/README.md)

SPEC = GameSpec(
    name="Othello",
    board="othello.js",
    order=30,
    seats=(SeatSpec("black", "black", mark="plain"), SeatSpec("white", "white", mark="plain")),
    chances=WinningChances(slope=8.09),  # fitted by benchmarks/calibrate_chances.py (README)
    ladder=(
    # --- othello: alpha-beta with a mobility/corner evaluation; MCTS low on the ladder ---
    random_bot(ID),
    bot(ID, 1, "Pebble", "alphabeta", 200, "Greedy: looks one move ahead, likes flipping "
         "many discs, and often plays on a whim.", max_depth=1, slip_rate=0.5, style="aggressive"),
    bot(ID, 2, "Marble", "mcts", 500, "Monte Carlo tree search: plays out hundreds of games "
         "with a corner-loving rollout policy.", search_options={"rollout": "heuristic"}),
    bot(ID, 3, "Onyx", "alphabeta", 700, "Looks three moves ahead and values corners.", max_depth=3),
    bot(ID, 4, "Jade", "alphabeta", 1000, "Alpha-beta four moves deep on mobility, corners, "
         "stability and parity.", max_depth=4),
    bot(ID, 5, "Obsidian", "alphabeta", 2000, "A compiled alpha-beta engine, two seconds a move, "
         "eight to ten moves deep on a pattern evaluation fitted to solved games; from 18 empty squares "
         "on it solves the game exactly when it can: then it plays perfectly.",
         search_options={"exact_endgame": EXACT_FROM_PLY, "engine": True}),
    adaptive_bot(ID, "Coach Disc", "alphabeta", 500, max_depth=4),
    ),
)  # fmt: skip

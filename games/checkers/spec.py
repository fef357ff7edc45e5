"""English draughts: display name, seats, board module and seeded bot ladder (docs/design.md §2)."""

from __future__ import annotations

from games.chances import WinningChances
from games.spec import GameSpec, SeatSpec, adaptive_bot, bot, random_bot

ID = "checkers"

SPEC = GameSpec(
    name="Checkers (English draughts)",
    board="checkers.js",
    order=80,
    seats=(SeatSpec("black", "black", mark="plain"), SeatSpec("white", "white", mark="plain")),
    chances=WinningChances(slope=4.94),  # fitted by benchmarks/calibrate_chances.py (README)
    ladder=(
    # --- checkers: alpha-beta on material, advance and the back row, quiescence on captures ---
    random_bot(ID),
    bot(ID, 1, "Button", "alphabeta", 200, "Looks two moves ahead and slips on half of its moves: "
         "takes what is offered, often leaves a piece hanging.", max_depth=2, slip_rate=0.5),
    bot(ID, 2, "Draughtsman", "alphabeta", 300, "Looks three moves ahead, follows captures to the end, "
         "and slips now and then.", max_depth=3, slip_rate=0.15),
    bot(ID, 3, "Crown", "alphabeta", 500, "Looks five moves ahead, follows captures to the end "
         "and seldom slips.", max_depth=5, slip_rate=0.05),
    bot(ID, 4, "Sentinel", "alphabeta", 1000, "Looks seven moves ahead with a transposition table; "
         "keeps its back row and heads for a king.", max_depth=7),
    bot(ID, 5, "Regent", "alphabeta", 3000, "Alpha-beta as deep as three seconds allow, captures "
         "followed to the end."),
    adaptive_bot(ID, "Coach Crown", "alphabeta", 500, max_depth=5),
    ),
)  # fmt: skip

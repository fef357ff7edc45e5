"""Connect Four: display name, seats, board module and seeded bot ladder (docs/design.md §2)."""

from __future__ import annotations

from games.chances import WinningChances
from games.spec import GameSpec, SeatSpec, adaptive_bot, bot, random_bot

ID = "connect4"

SPEC = GameSpec(
    name="Connect Four",
    board="connect4.js",
    order=20,
    seats=(SeatSpec("blue (dot)", "blue"), SeatSpec("orange (diamond)", "orange")),
    chances=WinningChances(slope=6.27),  # fitted by benchmarks/calibrate_chances.py (README)
    ladder=(
    # --- connect four: alpha-beta with iterative deepening ---
    random_bot(ID),
    bot(ID, 1, "Dot", "alphabeta", 200, "Looks two plies ahead and slips on half of its moves: "
         "finishes a line, often misses your open three.", slug="connect4-shallow", max_depth=2,
         slip_rate=0.5),
    bot(ID, 2, "Rook", "alphabeta", 300, "Looks three plies ahead and slips now and then: blocks "
         "what it sees, walks into deeper traps.", max_depth=3, slip_rate=0.15),
    bot(ID, 3, "Vega", "alphabeta", 500, "Looks four plies ahead with a threat-counting evaluation "
         "and seldom slips.", slug="connect4-medium", max_depth=4, slip_rate=0.05),
    bot(ID, 4, "Orion", "alphabeta", 1000, "Looks seven plies ahead with a threat-counting evaluation "
         "and a transposition table; rarely slips. Takes at least half a second, like a person would.",
         slug="connect4-deep", max_depth=7, slip_rate=0.05, min_think_ms=500),
    bot(ID, 5, "Polaris", "alphabeta", 4000, "Opens in the centre, searches up to four seconds a move "
         "with alpha-beta, and from 14 stones on solves the game exactly when it can: then it plays perfectly.",
         search_options={"exact_endgame": 14, "opening_book": True}),
    adaptive_bot(ID, "Coach Four", "alphabeta", 500),
    ),
)  # fmt: skip

"""Tic-tac-toe: display name, seats, board module and seeded bot ladder (docs/design.md §2)."""

from __future__ import annotations

from games.spec import GameSpec, SeatSpec, adaptive_bot, bot, random_bot

ID = "tictactoe"

SPEC = GameSpec(
    name="Tic-tac-toe",
    board="tictactoe.js",
    order=10,
    seats=(SeatSpec("X", "blue", mark="x"), SeatSpec("O", "orange", mark="o")),
    ladder=(
    # --- tic-tac-toe: alpha-beta; depth and slips make the levels.  Above a player who blocks
    # every threat the game is a draw, so the Master plays for wins among drawing moves.
    random_bot(ID),
    bot(ID, 1, "Pip", "alphabeta", 200, "Takes three in a row when it sees one; otherwise "
         "plays almost anywhere.", max_depth=1, temperature=3.0),
    bot(ID, 2, "Tess", "alphabeta", 200, "Takes a win when it sees one and likes good cells, "
         "but on most moves it overlooks your threats.", slug="tictactoe-shallow", max_depth=1, slip_rate=0.7),
    bot(ID, 3, "Milo", "alphabeta", 200, "Looks one move ahead: takes wins, blocks most threats, "
         "and slips on about a third of its moves.", max_depth=1, slip_rate=0.3),
    bot(ID, 4, "Ada", "alphabeta", 300, "Looks three moves ahead and sees most threats coming, "
         "but slips on more than half of its moves.", max_depth=3, slip_rate=0.6),
    bot(ID, 5, "Nova", "alphabeta", 500, "Searches the whole game tree, so it never loses, and "
         "among the moves that keep that promise it sets the traps you are most likely to fall into.",
         slug="tictactoe-perfect", search_options={"trap_model": "softmax:0.1"}),
    adaptive_bot(ID, "Coach Tic", "alphabeta", 300),
    ),
)  # fmt: skip

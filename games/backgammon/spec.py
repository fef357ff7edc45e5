"""Backgammon: display name, seats, board module and seeded bot ladder (docs/design.md §2)."""

from __future__ import annotations

from games.backgammon.cube import MAX_MATCH
from games.chances import WinningChances
from games.spec import GameOption, GameSpec, SeatSpec, adaptive_bot, bot, random_bot

ID = "backgammon"

SPEC = GameSpec(
    name="Backgammon",
    board="backgammon.js",
    order=40,
    seats=(SeatSpec("blue (dot)", "blue"), SeatSpec("orange (diamond)", "orange")),
    # Values are cubeless equity in points; without gammons equity is 2p - 1, whose slope at
    # even chances a logistic of slope 2 matches.  Shown as equity, as gnubg shows it.
    chances=WinningChances(slope=2.0, shown_as="equity"),
    ladder=(
    # --- backgammon: expectiminimax over the dice.  Luck narrows every gap, so the levels
    # are far apart: slips (another play in the better half of the root values) on every move
    # it can, 88%, 59% and 34% of the moves below a Master that never slips, spaced by what
    # each costs head to head (benchmarks/bg_slip_curve.py).  Dice's slips are drawn evenly
    # among its second choices (temperature 5) where the others' lean to the closest: room
    # the slip rates did not have.  The Master looks no further than its own play: looking
    # one roll ahead lost to that, as the network's small errors add up over the replies
    # (benchmarks/README.md, "Bot ladder and measured ratings").
    random_bot(ID),
    bot(ID, 1, "Dice", "expectimax", 200, "Knows which play leaves the best position, but plays "
         "another of its better plays whenever it has one, picked nearly at random.", max_depth=1,
        slip_rate=1.0, temperature=5.0),
    bot(ID, 2, "Checker", "expectimax", 200, "Plays the move that leaves the best position on "
         "about one move in eight; otherwise another of its better plays.", max_depth=1, slip_rate=0.88),
    bot(ID, 3, "Prime", "expectimax", 300, "Weighs each play by the position it leaves (pips, "
         "shots at its blots, made points, primes) and slips on three moves in five.",
        max_depth=1, slip_rate=0.59),
    bot(ID, 4, "Gammon", "expectimax", 300, "Plays the position it likes best on about two moves "
         "in three, but does not look past its own play.", max_depth=1, slip_rate=0.34),
    bot(ID, 5, "Backgammon Master", "expectimax", 2000, "Judges every play by the position it "
         "leaves, with a neural network fitted to GNU Backgammon's evaluations: its chances of a "
         "win, a gammon and a backgammon, for each side. It never slips. Looking a roll further "
         "ahead made it weaker: the network's small errors add up over your replies.", max_depth=1),
    # Depth 1 at full strength as well: the adaptive bot scales its depth with its strength,
    # and a roll of lookahead would make it weaker as it tries harder.
    adaptive_bot(ID, "Coach Pips", "expectimax", 500, max_depth=1),
    ),
    # The rules of each: games.backgammon.cube.  The bots decide the cube by Janowski's model (ai.cube).
    options=(
        GameOption("cube", "Play with the doubling cube: a money game.", False),
        GameOption("jacoby", "Jacoby rule: gammons count single until a double has been taken.", False),
        GameOption("match_to", "A match to this many points, with the cube and the Crawford rule "
                   "(0: a single game).", 0, 0, MAX_MATCH),
    ),
)  # fmt: skip

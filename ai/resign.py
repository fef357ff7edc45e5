"""A bot's resignations: answering a resignation offered to it, and offering one when its game is lost.

Where a game lets a seat resign for less than the most it could lose (backgammon: a single game,
a gammon or a backgammon, times the cube; `Game.resign_levels`), a bot weighs an offer by what it
is playing for (`Game.stake_value`: the evaluation, gammons and backgammons included, in the
units a finished game pays; in a backgammon match, the chance of winning the match, so that a
single game is accepted whenever it wins the match): it accepts when the offer gives it at least
what the position is worth to it, and declines otherwise, and play goes on.  It offers one
itself only when its position is hopeless: when resigning at some level costs it at most
`HOPELESS_COST` of what playing on is worth, which the other side, valuing the position alike,
should accept (a lost race with no chance of a gammon is worth -1 to the loser: it offers a
single game).
"""

from __future__ import annotations

from typing import Any, Final

from games.base import Game, Seat

# What a bot's own resignation may cost it, in the game's points (per unit of the cube), or in a
# match in its chance of winning the match: the evaluation's own precision near a settled result;
# a lost race's chance of winning is below 1 %.
HOPELESS_COST: Final = 0.02


def resigned_value(game: Game[Any], state: Any, resigner: Seat, level: str, seat: Seat) -> float:
    """What the game is worth to `seat` after `resigner`'s resignation at `level` were accepted."""
    return game.stake_value(game.apply(state, game.resign_move(state, resigner, level)), seat)


def accepts_resignation(game: Game[Any], state: Any, resigner: Seat, level: str) -> bool:
    """Whether the bot playing against `resigner` accepts its resignation at `level` in `state`: the
    offer is at least what the position is worth to the bot."""
    seat = 1 - resigner
    return resigned_value(game, state, resigner, level, seat) >= game.stake_value(state, seat)


def resignation_to_offer(game: Game[Any], state: Any, seat: Seat) -> str | None:
    """The level at which the bot in `seat` resigns `state`, or None while its game is not lost: the
    smallest loss the opponent should accept that costs the bot at most `HOPELESS_COST`."""
    worth = game.stake_value(state, seat)
    for level in game.resign_levels(state):
        value = resigned_value(game, state, seat, level, seat)
        if worth - HOPELESS_COST <= value <= worth:
            return level
    return None

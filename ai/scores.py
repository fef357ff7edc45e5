"""The negamax score scale, shared by alpha-beta and the game kernels it drives (docs/design.md §3).

A won terminal scores ``utility * WIN`` minus the plies it took, a lost one plus them:
wins sooner and losses later score higher.  Scores beyond `DECISIVE` are proven results.
"""

from __future__ import annotations

from typing import Final

from games.hooks import ScoreScale

INF: Final = float("inf")
WIN: Final = 1000.0  # a won terminal scores utility * WIN minus the plies it took
DECISIVE: Final = WIN / 5  # scores beyond this are proven results, not heuristics
MAX_PLY: Final = 128
COMPLETE: Final = 1000  # the TT depth of a subtree searched to the end of the game
NULL_WIDTH: Final = 1e-7  # a "null window" on a real-valued score scale

SCALE: Final = ScoreScale(win=WIN, decisive=DECISIVE, complete=COMPLETE, null_width=NULL_WIDTH)
"""The scale as a game kernel receives it (`games.hooks.KernelSetup`)."""

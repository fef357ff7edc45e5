"""The searchers, in one list (docs/design.md §3).

Each searcher module declares itself (``SEARCHER``, an `ai.searcher.Searcher`); this
list is the only place that names the modules.  A bot profile's algorithm, a
`SearchConfig`'s algorithm and the API's catalogue are checked against it, so adding
a searcher is its module, its line here and its tests: no migration, no other list.

Where a searcher does not play a game itself (`Searcher.plays`: chance nodes, three or
more seats), a full-width searcher that does stands in (`runs_as`: alpha-beta on dice
runs as expectimax, on three or more players as max^n).  A profile may use a searcher
for a game only where that is what it would mean (`Searcher.problem`); the admin
refuses the rest with the searcher's words.

>>> from games import registry
>>> ALGORITHMS["maxn"].label
'max^n'
>>> ALGORITHMS["maxn"].problem(registry.get("connect4"))
'max^n is for games of three or more players; Connect Four has 2'
>>> [a.id for a in ALGORITHMS.values() if a.supports(registry.get("backgammon"))]
['expectimax', 'mcts', 'random']
>>> runs_as(registry.get("backgammon"), "alphabeta")
'expectimax'
"""

from __future__ import annotations

from typing import Any

from ai import alphabeta, expectimax, maxn, mcts, opponents, random_mover, traps
from ai.searcher import Capability, Searcher
from games.base import Game

SEARCHERS: tuple[Searcher, ...] = (
    alphabeta.SEARCHER,
    expectimax.SEARCHER,
    mcts.SEARCHER,
    maxn.SEARCHER,
    random_mover.SEARCHER,
)
ALGORITHMS: dict[str, Searcher] = {s.id: s for s in SEARCHERS}
assert len(ALGORITHMS) == len(SEARCHERS), "each searcher has its own id"


def get(algorithm: str) -> Searcher:
    """The searcher `algorithm` names; `ValueError` listing the known ones."""
    try:
        return ALGORITHMS[algorithm]
    except KeyError:
        raise ValueError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}") from None


def with_capability(capability: Capability) -> list[Searcher]:
    return [s for s in SEARCHERS if s.can(capability)]


def full_width_for(game: Game[Any]) -> Searcher:
    """The first full-width searcher that plays `game` itself (every game has one)."""
    return next(s for s in with_capability(Capability.FULL_WIDTH) if s.plays(game))


def trap_model_problem(game: Game[Any], algorithm: Searcher, spec: Any) -> str:
    """Why a `trap_model` search option (`ai.traps`, `ai.opponents`) cannot work here, or ""."""
    if spec is None:
        return ""
    if not algorithm.takes_option("trap_model") or not traps.applies(game):
        return "trap_model is for alpha-beta in two-player games without dice"
    try:
        opponents.parse(spec)
    except (TypeError, ValueError) as exc:
        return f"trap_model: {exc}"
    return ""


def runs_as(game: Game[Any], algorithm: str) -> str:
    """The searcher that runs `algorithm` on `game`: itself, or a full-width stand-in."""
    searcher = get(algorithm)
    if searcher.plays(game) or not searcher.can(Capability.FULL_WIDTH):
        return algorithm
    return full_width_for(game).id

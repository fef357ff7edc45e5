"""Alpha-beta on a game's own encoding: the driver of a game's search kernel (docs/design.md §3).

A game may offer `Game.search_kernel()` (`games.hooks.SearchKernel`): the negamax of
`ai.alphabeta` rewritten on its internal encoding, node for node the same search,
only faster.  `KernelAlphaBeta` has the interface the iterative deepening of
`ai.alphabeta` drives (`search_root`, `principal_variation`, `nodes`, `depth_cut`,
`root_seat`) and hands the kernel what it needs for each pass: the transposition
table's slots, killers and history by move code, the clock as a ``stop`` callback, the
score scale and the play style's weights.  ``ai.alphabeta`` uses it by itself where the
game has a kernel that `supports` the position, unless ``options["fast"]`` is false.

>>> from games import registry
>>> game = next(g for g in registry.all() if g.search_kernel() is not None)
>>> state = game.initial_state()
>>> move, score = KernelAlphaBeta(game, game.search_kernel()).search_root(state, 2, game.legal_moves(state), False, {})
>>> move in game.legal_moves(state)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic

from ai.budget import Deadline, Timeout
from ai.evaluation import Evaluator
from ai.scores import MAX_PLY, SCALE
from ai.tt import TranspositionTable
from games.base import Game, Move, S, Seat
from games.hooks import NO_MOVE, KernelPass, KernelSetup, SearchKernel, StyleWeights


def _nothing() -> None:
    pass


def stop_at(deadline: Deadline | None) -> Callable[[], None]:
    """The kernel's ``stop`` callback: raises `Timeout` once `deadline` has passed."""
    if deadline is None:
        return _nothing
    expired = deadline.expired

    def stop() -> None:
        if expired():
            raise Timeout

    return stop


def style_weights(game: Game[S], evaluator: Evaluator[S]) -> StyleWeights:
    """The evaluator's style as a kernel reads it."""
    balanced = evaluator.style == "balanced" or getattr(game, "evaluate_terms", None) is None
    return StyleWeights(
        balanced=balanced,
        mine=evaluator.mine_weight,
        theirs=evaluator.theirs_weight,
        limit=evaluator.limit,
        draw_value=evaluator.draw_value,
    )


class KernelAlphaBeta(Generic[S]):
    """`ai.alphabeta.AlphaBeta` run by a game's kernel (ordering and PVS always on)."""

    def __init__(
        self,
        game: Game[S],
        kernel: SearchKernel,
        deadline: Deadline | None = None,
        evaluator: Evaluator[S] | None = None,
        tt: TranspositionTable | None = None,
        *,
        use_tt: bool = True,
    ) -> None:
        if game.num_players != 2 or game.has_chance:
            raise ValueError(f"alpha-beta needs a two-player game without chance; {game.name} is not one")
        self.game = game
        self.kernel = kernel
        self.deadline = deadline
        self.evaluate = evaluator or Evaluator(game)
        self.tt = (tt if tt is not None else TranspositionTable()) if use_tt else None
        self.killers: list[list[int]] = [[NO_MOVE, NO_MOVE] for _ in range(MAX_PLY + 1)]
        self.history: list[int] = [0] * kernel.move_codes
        self.nodes = 0
        self.root_seat: Seat = 0
        self.root_state: S = None  # type: ignore[assignment]  # what `iterate` searches, set before the first iteration
        self.exact_root = False  # every root move gets a full window (its exact value)
        self.depth_cut = False  # an iteration stopped somewhere at the depth limit
        self._stop = stop_at(deadline)
        self._style = style_weights(game, self.evaluate)

    def _start(self) -> KernelPass:
        tt = self.tt
        setup = KernelSetup(
            slots=tt.slots if tt is not None else None,
            table_mask=tt.mask if tt is not None else 0,
            table_age=tt.age if tt is not None else 0,
            killers=self.killers,
            history=self.history,
            stop=self._stop,
            style=self._style,
            scale=SCALE,
            root_seat=self.root_seat,
            nodes=self.nodes,
            depth_cut=self.depth_cut,
        )
        return self.kernel.start(setup)

    def _finish(self, run: KernelPass) -> None:
        tally = run.finish()
        self.nodes, self.depth_cut = tally.nodes, tally.depth_cut
        if self.tt is not None:
            self.tt.probes += tally.probes
            self.tt.hits += tally.hits
            self.tt.stores += tally.stores

    def negamax(self, state: S, seat: Seat, depth: int, alpha: float, beta: float, ply: int) -> float:
        """As `AlphaBeta.negamax` on a live `state` (for tests and callers that use it directly)."""
        if depth <= 0:  # the evaluation, as the generic quiescence gives it in a quiet position
            self.depth_cut = True
            return self.evaluate(state, seat)
        run = self._start()
        try:
            return run.negamax(state, depth, alpha, beta, ply)
        finally:
            self._finish(run)

    def search_root(
        self, state: S, depth: int, moves: list[Move], exact_all: bool, root_values: dict[Move, float]
    ) -> tuple[Move, float]:
        """One iteration over the root moves in order, as `AlphaBeta.search_root`."""
        run = self._start()
        try:
            return run.search_root(state, depth, moves, exact_all, root_values)
        finally:
            self._finish(run)

    def iterate(self, depth: int, moves: list[Move], values: dict[Move, float]) -> None:
        """One iteration of iterative deepening over the root moves (`ai.deepening`)."""
        self.search_root(self.root_state, depth, moves, self.exact_root, values)

    def principal_variation(self, state: S, first: Move, limit: int) -> list[Move]:
        """The best line: `first`, then the table's moves while they stay legal."""
        game, kernel, tt = self.game, self.kernel, self.tt
        pv = [first]
        state = game.apply(state, first)
        seen = set()
        while tt is not None and len(pv) < limit and not game.is_terminal(state):
            key = game.key(state)
            entry = tt.probe(key)
            if entry is None or entry[3] is None or key in seen:
                break
            move = kernel.move_text(state, entry[3])  # type: ignore[arg-type]  # the kernel stores its codes
            if move is None:
                break
            seen.add(key)
            pv.append(move)
            state = game.apply(state, move)
        return pv

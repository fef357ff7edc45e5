"""Alpha-beta in negamax form, with iterative deepening under a deadline.

- Principal variation search (null-window probes after the first move), fail-soft.
- A bounded transposition table (exact / lower / upper bounds, depth-preferred).
- Move ordering: the TT move, two killer moves per ply, the history heuristic,
  then the game's own `order_moves` hint (a stable sort keeps its order on ties).
- Quiescence search on the game's `noisy_moves` where `is_quiet` says so; a side in check
  (`Game.in_check`) never stands pat there: every legal move is searched.
- Optional refinements for games like chess, each off by default and driven by the game's
  hooks (`Game.in_check`, `null_move`, `is_tactical`, `capture_gain`, `exchange_value`,
  `gives_check`): check extension, null-move pruning (R = 2, never in check nor twice in a
  row), late-move reductions of quiet moves, delta pruning (never of a capture that checks)
  and SEE pruning in quiescence, tactical moves ordered before killers.
- Wins score higher the sooner they come, losses the later (``WIN - ply``).
- Games where a seat may move twice in a row (a forced pass) are handled: a
  child whose mover is the same seat is not negated.

Options: `AlphaBetaOptions` (``fast``: a game that offers a search kernel on its own
encoding is searched with it, `ai.kernel_search`, with the same results; it needs ``ordering``
and ``pvs``.  ``engine``: a game that offers a whole search engine of its own,
`Game.search_engine`, is searched by it instead, with its own evaluation, ordering and
pruning; where it has none, this search runs with the other options).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final, Generic

from ai import endgame, progress, traps
from ai.budget import Deadline, Timeout, collector_paused
from ai.deepening import by_value, deepen
from ai.evaluation import Evaluator
from ai.kernel_search import KernelAlphaBeta
from ai.scores import COMPLETE, DECISIVE, INF, MAX_PLY, NULL_WIDTH, SCALE, WIN
from ai.searcher import Capability, Searcher
from ai.tt import EXACT, LOWER, UPPER, TranspositionTable
from ai.types import SearchConfig, SearchOptions, SearchResult
from ai.weakening import is_weakened, weaken
from games.base import Game, Move, S, Seat
from games.hooks import SearchEngine


@dataclass(frozen=True)
class AlphaBetaOptions(SearchOptions):
    tt: bool = True  # a transposition table
    tt_size: int = 1 << 18  # its entries
    iterative: bool = True  # iterative deepening; otherwise one search at max_depth
    ordering: bool = True  # killer moves and the history heuristic
    pvs: bool = True  # principal variation search (null windows after the first move)
    fast: bool = True  # a game's own search kernel where it has one, with the same results
    engine: bool = False  # a game's own search engine where it has one (`Game.search_engine`), in place of this search
    opening_book: bool = False  # a book move where the game has a book (proven, or weighted by practice)
    tablebases: bool = False  # the endgame tables' best move where the game has tables holding the position
    exact_endgame: int | None = None  # solve exactly once this many stones are on the board
    evaluation: str | None = None  # one of the game's named evaluations (`Game.evaluation`) instead of `evaluate`
    trap_model: str | None = None  # among equal moves, the one an opponent so modelled is likeliest to get wrong
    # Chess-style refinements, each off by default (other searches stay node for node the same);
    # they read the optional Game hooks `in_check`, `null_move`, `is_tactical`, `capture_gain`, `exchange_value`,
    # `gives_check`.
    quiescence: bool = True  # search the game's noisy moves past the depth limit (where it says is_quiet is false)
    check_extension: bool = False  # a side in check is searched one ply deeper
    null_move: bool = False  # null-move pruning: pass, search shallower; still >= beta means cut
    lmr: bool = False  # late-move reductions: quiet moves late in the order get a shallower probe first
    delta_pruning: bool = False  # quiescence skips captures that cannot lift the evaluation to alpha
    see_pruning: bool = False  # quiescence skips captures that lose material in the exchange (out of check)
    tactical_first: bool = False  # tactical moves (captures) right after the table's move, before killers


QUIESCENCE_PLIES: Final = 8
NULL_MOVE_R: Final = 2  # a null move is searched this many plies shallower than a real one
NULL_MOVE_MIN_DEPTH: Final = 3
LMR_MIN_DEPTH: Final = 3
LMR_FULL_MOVES: Final = 3  # the first moves of a node are never reduced
LMR_DEEPER_AFTER: Final = 8  # moves after this many are reduced two plies, not one
CHECK_EVERY: Final = 0  # a mask on the node count: 0 checks the clock at every node (a node with dice can take ms)


def is_decisive(score: float) -> bool:
    return abs(score) > DECISIVE


def to_utility(score: float) -> float:
    """A search score on the game's utility scale (a win in 5 plies: 0.995)."""
    return score / WIN if is_decisive(score) else score


def plies_to_end(score: float) -> int:
    """For a decisive score: plies until the game ends (positive when winning)."""
    utility = round(abs(score) / WIN) or 1
    plies = round(utility * WIN - abs(score))
    return plies if score > 0 else -plies


class AlphaBeta(Generic[S]):
    """One search object per move; `tt` may be shared between searches of a match."""

    def __init__(
        self,
        game: Game[S],
        deadline: Deadline | None = None,
        evaluator: Evaluator[S] | None = None,
        tt: TranspositionTable | None = None,
        *,
        use_tt: bool = True,
        use_ordering: bool = True,
        use_pvs: bool = True,
        use_quiescence: bool = True,
        check_extension: bool = False,
        null_move: bool = False,
        lmr: bool = False,
        delta_pruning: bool = False,
        see_pruning: bool = False,
        tactical_first: bool = False,
    ) -> None:
        if game.num_players != 2 or game.has_chance:
            raise ValueError(f"alpha-beta needs a two-player game without chance; {game.name} is not one")
        self.game = game
        self.deadline = deadline
        self.evaluate = evaluator or Evaluator(game)
        self.tt = (tt if tt is not None else TranspositionTable()) if use_tt else None
        self.use_ordering = use_ordering
        self.use_pvs = use_pvs
        self.use_quiescence = use_quiescence
        self.check_extension = check_extension
        self.use_null_move = null_move
        self.use_lmr = lmr
        self.delta_pruning = delta_pruning
        self.see_pruning = see_pruning
        self.tactical_first = tactical_first
        self.null_at = [False] * (MAX_PLY + 2)  # the move into this ply was a null move
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 1)]
        self.history: dict[Move, int] = {}
        self.nodes = 0
        self.root_seat: Seat = 0
        self.depth_cut = False  # an iteration stopped somewhere at the depth limit
        self.root_state: S = None  # type: ignore[assignment]  # what `iterate` searches, set before the first iteration
        self.exact_root = False  # every root move gets a full window (its exact value)

    # --- scores -------------------------------------------------------------
    def terminal_score(self, state: S, seat: Seat, ply: int) -> float:
        """Value of a finished game for `seat`; sooner wins, later losses score higher."""
        utility = self.game.returns(state)[seat]
        if utility > 0:
            return utility * WIN - ply
        if utility < 0:
            return utility * WIN + ply
        # A draw: the style's contempt, from the searching seat's point of view.
        return self.evaluate.draw_value if seat == self.root_seat else -self.evaluate.draw_value

    def check_clock(self) -> None:
        if self.deadline is not None and self.deadline.expired():
            raise Timeout

    # --- ordering -----------------------------------------------------------
    def ordered_moves(self, state: S, ply: int, tt_move: Move | None) -> list[Move]:
        game = self.game
        moves = game.order_moves(state, game.legal_moves(state))
        if len(moves) < 2:
            return moves
        if not self.use_ordering:
            if tt_move in moves:
                moves.remove(tt_move)
                moves.insert(0, tt_move)
            return moves
        k0, k1 = self.killers[ply]
        history = self.history
        tactical = game.is_tactical if self.tactical_first else None

        def rank(move: Move) -> float:
            if move == tt_move:
                return 5e18
            if tactical is not None and tactical(state, move):
                return 4e18  # the game's order (most valuable victim first) is kept among them
            if move == k0:
                return 2e18
            if move == k1:
                return 1e18
            return history.get(move, 0)

        return sorted(moves, key=rank, reverse=True)  # stable: the game's order breaks ties

    def record_cutoff(self, move: Move, depth: int, ply: int) -> None:
        if not self.use_ordering:
            return
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        self.history[move] = self.history.get(move, 0) + depth * depth

    # --- the search ---------------------------------------------------------
    def child_score(self, state: S, child: S, seat: Seat, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Value of `child` for `seat` (the mover at its parent), searched within (alpha, beta)."""
        game = self.game
        if game.is_terminal(child):
            self.nodes += 1
            return self.terminal_score(child, seat, ply + 1)
        child_seat = game.to_move(child)
        if child_seat == seat:  # the same seat moves again (the other one passed)
            return self.negamax(child, child_seat, depth - 1, alpha, beta, ply + 1)
        return -self.negamax(child, child_seat, depth - 1, -beta, -alpha, ply + 1)

    def negamax(self, state: S, seat: Seat, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Fail-soft value of the live `state` for `seat`, the seat to move in it."""
        self.nodes += 1
        if not self.nodes & CHECK_EVERY:
            self.check_clock()
        game = self.game
        in_check = (self.check_extension or self.use_null_move or self.use_lmr) and game.in_check(state)
        if in_check and self.check_extension:
            depth += 1  # a check is answered at full depth, never left to the horizon
        if depth <= 0 or ply >= MAX_PLY:
            return self.quiesce(state, seat, alpha, beta, ply, 0)
        tt = self.tt
        tt_move = None
        key = None
        if tt is not None:
            key = game.key(state)
            entry = tt.probe(key)
            if entry is not None:
                e_depth, flag, score, tt_move = entry
                if e_depth >= depth:
                    if e_depth < COMPLETE:
                        self.depth_cut = True  # the stored value rests on a depth-limited search
                    if is_decisive(score):  # stored relative to the node: make it relative to the root
                        score = score - ply if score > 0 else score + ply
                    if flag == EXACT:
                        return score
                    if flag == LOWER and score >= beta:
                        return score
                    if flag == UPPER and score <= alpha:
                        return score
        if self.use_null_move and not in_check and beta < INF:
            null_score = self.null_move_score(state, seat, depth, beta, ply)
            if null_score is not None:
                return null_score
        alpha0 = alpha
        outer_cut, self.depth_cut = self.depth_cut, False
        best, best_move = -INF, None
        for i, move in enumerate(self.ordered_moves(state, ply, tt_move)):
            child = game.apply(state, move)
            reduction = self.reduction(state, child, move, i, depth, in_check, tt_move, ply) if self.use_lmr else 0
            if reduction:
                score = self.child_score(state, child, seat, depth - reduction, alpha, alpha + NULL_WIDTH, ply)
                if score <= alpha:  # the shallow probe confirms the move is no better: keep it
                    if score > best:
                        best, best_move = score, move
                    continue
            if i == 0 or not self.use_pvs:
                score = self.child_score(state, child, seat, depth, alpha, beta, ply)
            else:
                score = self.child_score(state, child, seat, depth, alpha, alpha + NULL_WIDTH, ply)
                if alpha < score < beta:
                    score = self.child_score(state, child, seat, depth, score, beta, ply)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self.record_cutoff(move, depth, ply)
                        break
        if tt is not None:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            stored = best
            if is_decisive(best):
                stored = best + ply if best > 0 else best - ply
            # A subtree searched to its end holds at any depth.
            tt.store(key, depth if self.depth_cut else COMPLETE, flag, stored, best_move)
        self.depth_cut = self.depth_cut or outer_cut
        return best

    def null_move_score(self, state: S, seat: Seat, depth: int, beta: float, ply: int) -> float | None:
        """Null-move pruning: if passing still holds `beta` in a shallower search, a real move
        would too (outside zugzwang, which the game guards against by refusing the pass).
        The score to cut with, or None to search the node normally."""
        if depth < NULL_MOVE_MIN_DEPTH or self.null_at[ply] or ply + 1 >= MAX_PLY:
            return None
        if self.evaluate(state, seat) < beta:
            return None  # a pass cannot help a side already below beta
        passed = self.game.null_move(state)
        if passed is None or self.game.is_terminal(passed):
            return None
        other = self.game.to_move(passed)
        self.null_at[ply + 1] = True
        try:
            score = -self.negamax(passed, other, depth - 1 - NULL_MOVE_R, -beta, -beta + NULL_WIDTH, ply + 1)
        finally:
            self.null_at[ply + 1] = False
        if score < beta:
            return None
        self.depth_cut = True  # a heuristic cut: the node's value rests on a depth-limited search
        return beta if is_decisive(score) else score  # a mate found after a pass is no proof

    def reduction(
        self, state: S, child: S, move: Move, i: int, depth: int, in_check: bool, tt_move: Move | None, ply: int
    ) -> int:
        """Plies a late quiet move's first probe is reduced by (late-move reductions); 0: none."""
        if i < LMR_FULL_MOVES or depth < LMR_MIN_DEPTH or in_check or move == tt_move:
            return 0
        game = self.game
        if move in self.killers[ply] or game.is_tactical(state, move):
            return 0
        if game.is_terminal(child) or game.in_check(child):
            return 0  # a move that checks is never reduced
        return 2 if i >= LMR_DEEPER_AFTER and depth >= LMR_MIN_DEPTH + 2 else 1

    def quiesce(self, state: S, seat: Seat, alpha: float, beta: float, ply: int, qply: int) -> float:
        game = self.game
        self.depth_cut = True
        stand_pat = self.evaluate(state, seat)
        if not self.use_quiescence or qply >= QUIESCENCE_PLIES or ply >= MAX_PLY:
            return stand_pat
        if game.in_check(state):
            return self.quiesce_evasions(state, seat, alpha, beta, ply, qply)
        if game.is_quiet(state):
            return stand_pat
        if stand_pat >= beta:
            return stand_pat
        best = stand_pat
        alpha = max(alpha, stand_pat)
        delta = self.delta_pruning
        see = self.see_pruning

        def worth_searching(move: Move, alpha: float) -> bool:
            if delta and stand_pat + game.capture_gain(state, move) <= alpha:
                # Even winning the piece outright cannot reach alpha, unless the capture checks:
                # a check may mate, which no material count bounds (asked last: it costs a move made).
                return game.gives_check(state, move)
            return not (see and game.exchange_value(state, move) < 0)  # the exchange loses material

        return self.quiesce_moves(state, game.noisy_moves(state), seat, alpha, beta, ply, qply, best, worth_searching)

    def quiesce_evasions(self, state: S, seat: Seat, alpha: float, beta: float, ply: int, qply: int) -> float:
        """Quiescence in check: no standing pat, for the static evaluation is no lower bound when the
        threat must be answered; every legal move is searched, none pruned.  (A side in check with no
        move has lost: that finished game is scored by the node that played into it, `quiesce_child`.)"""
        moves = self.game.order_moves(state, self.game.legal_moves(state))
        return self.quiesce_moves(state, moves, seat, alpha, beta, ply, qply, -INF)

    def quiesce_moves(
        self,
        state: S,
        moves: Iterable[Move],
        seat: Seat,
        alpha: float,
        beta: float,
        ply: int,
        qply: int,
        best: float,
        worth_searching: Callable[[Move, float], bool] | None = None,
    ) -> float:
        """The best of `best` and the quiescence values of `moves` (those `worth_searching` at the
        current alpha), stopping at a cutoff."""
        for move in moves:
            if worth_searching is not None and not worth_searching(move, alpha):
                continue
            score = self.quiesce_child(state, move, seat, alpha, beta, ply, qply)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def quiesce_child(self, state: S, move: Move, seat: Seat, alpha: float, beta: float, ply: int, qply: int) -> float:
        """Value for `seat` of `move` played in quiescence, searched within (alpha, beta)."""
        game = self.game
        child = game.apply(state, move)
        self.nodes += 1
        if not self.nodes & CHECK_EVERY:
            self.check_clock()
        if game.is_terminal(child):
            return self.terminal_score(child, seat, ply + 1)
        if game.to_move(child) == seat:
            return self.quiesce(child, seat, alpha, beta, ply + 1, qply + 1)
        return -self.quiesce(child, game.to_move(child), -beta, -alpha, ply + 1, qply + 1)

    def search_root(
        self, state: S, depth: int, moves: list[Move], exact_all: bool, root_values: dict[Move, float]
    ) -> tuple[Move, float]:
        """One iteration over the root moves in order; fills `root_values` as it goes.

        With `exact_all` every root move gets a full window (its exact value, for
        weakened play that picks among them); otherwise later moves get null windows.
        """
        seat = self.root_seat
        alpha, beta = -INF, INF
        best_move, best = moves[0], -INF
        for i, move in enumerate(moves):
            child = self.game.apply(state, move)
            if i == 0 or exact_all or not self.use_pvs:
                score = self.child_score(state, child, seat, depth, -INF if exact_all else alpha, beta, 0)
            else:
                score = self.child_score(state, child, seat, depth, alpha, alpha + NULL_WIDTH, 0)
                if score > alpha:
                    score = self.child_score(state, child, seat, depth, score, beta, 0)
            root_values[move] = score
            if score > best:
                best, best_move = score, move
                alpha = max(alpha, score)
        return best_move, best

    def iterate(self, depth: int, moves: list[Move], values: dict[Move, float]) -> None:
        """One iteration of iterative deepening over the root moves (`ai.deepening`)."""
        self.search_root(self.root_state, depth, moves, self.exact_root, values)

    def principal_variation(self, state: S, first: Move, limit: int) -> list[Move]:
        """The best line: `first`, then the TT moves while they stay legal."""
        game = self.game
        pv = [first]
        state = game.apply(state, first)
        seen = set()
        while self.tt is not None and len(pv) < limit and not game.is_terminal(state):
            key = game.key(state)
            entry = self.tt.probe(key)
            if entry is None or entry[3] is None or key in seen or entry[3] not in game.legal_moves(state):
                break
            seen.add(key)
            pv.append(entry[3])
            state = game.apply(state, entry[3])
        return pv


# The transposition table of the last search: freeing a full one takes milliseconds, so
# it is freed at the start of the next search (inside that search's budget), not after
# the deadline of its own.
_DISCARDED: list[TranspositionTable] = []


def search(
    game: Game[S],
    state: S,
    config: SearchConfig,
    deadline: Deadline,
    rng: random.Random,
    *,
    exact_root: bool = False,
) -> SearchResult:
    """Iterative deepening until `deadline`, `config.max_depth` or a proven result."""
    _DISCARDED.clear()
    with collector_paused():
        return _search(game, state, config, deadline, rng, exact_root)


def _search(
    game: Game[S], state: S, config: SearchConfig, deadline: Deadline, rng: random.Random, exact_root: bool
) -> SearchResult:
    options = config.options.carried_to(AlphaBetaOptions)
    engine = game.search_engine() if options.engine and not exact_root else None
    if engine is not None and engine.supports(game, state):
        return _engine_search(engine, state, config, deadline)
    tt = TranspositionTable(options.tt_size) if options.tt else None
    searcher: AlphaBeta[S] | KernelAlphaBeta[S]
    pruning = options.null_move or options.lmr or options.delta_pruning or options.see_pruning
    refined = pruning or options.check_extension or options.tactical_first or not options.quiescence
    kernel = game.search_kernel() if options.fast and options.ordering and options.pvs and not refined else None
    if kernel is not None and kernel.supports(game, state):
        searcher = KernelAlphaBeta(
            game, kernel, deadline, Evaluator(game, config.style, options.evaluation), tt, use_tt=tt is not None
        )
    else:
        searcher = AlphaBeta(
            game,
            deadline,
            Evaluator(game, config.style, options.evaluation),
            tt,
            use_tt=tt is not None,
            use_ordering=options.ordering,
            use_pvs=options.pvs,
            use_quiescence=options.quiescence,
            check_extension=options.check_extension,
            null_move=options.null_move,
            lmr=options.lmr,
            delta_pruning=options.delta_pruning,
            see_pruning=options.see_pruning,
            tactical_first=options.tactical_first,
        )
    searcher.root_seat = game.to_move(state)
    searcher.root_state, searcher.exact_root = state, exact_root
    moves = game.order_moves(state, game.legal_moves(state))
    result = SearchResult(move=moves[0], algorithm="alphabeta")
    max_depth = min(config.max_depth or MAX_PLY, MAX_PLY)
    depths = range(1, max_depth + 1) if options.iterative else [max_depth]

    def finished(depth: int, move: Move, score: float) -> bool:
        result.pv = searcher.principal_variation(state, move, depth)
        result.stats["score"] = round(score, 6)
        if is_decisive(score):
            result.stats["plies_to_end"] = plies_to_end(score)
        if not searcher.depth_cut:
            result.stats["complete"] = True  # every line reached the end: the values are exact
        # The whole tree was searched, or the result is proven: deeper changes nothing.
        return not searcher.depth_cut or (is_decisive(score) and not exact_root)

    def reorder(moves: list[Move], best: Move, values: dict[Move, float]) -> list[Move]:
        """The best move searched first next time, then the rest by this iteration's values."""
        return by_value(moves, best, values) if exact_root else [best] + [m for m in moves if m != best]

    root_values = deepen(
        searcher,
        result,
        moves,
        depths,
        utility=to_utility,
        reorder=reorder,
        finished=finished,
        trust_unfinished=not exact_root,
    )
    if result.pv == [result.move] and result.depth > 1:
        # A move an unfinished iteration preferred: its line is in the TT from that iteration.
        result.pv = searcher.principal_variation(state, result.move, result.depth)
    result.nodes = searcher.nodes
    result.stats["root_values"] = {m: round(to_utility(v), 6) for m, v in root_values.items()}
    if isinstance(searcher, KernelAlphaBeta):
        result.stats["kernel"] = searcher.kernel.name
    if tt is not None:
        result.stats["tt_hit_rate"] = round(tt.hits / tt.probes, 4) if tt.probes else 0.0
        _DISCARDED.append(tt)
    return result


def _engine_search(engine: SearchEngine, state: S, config: SearchConfig, deadline: Deadline) -> SearchResult:
    """The game's own engine: its move, value, depth, nodes and line, with the stats this search reports."""
    max_depth = min(config.max_depth or MAX_PLY, MAX_PLY)
    found = engine.search(state, SCALE, deadline.at, max_depth)
    progress.report(found.depth, found.nodes)  # once, at the end: the engine runs without the interpreter
    result = SearchResult(
        move=found.move,
        value=to_utility(found.score),
        depth=found.depth,
        nodes=found.nodes,
        pv=list(found.pv) or [found.move],
        algorithm="alphabeta",
    )
    result.stats["score"] = round(found.score, 6)
    if is_decisive(found.score):
        result.stats["plies_to_end"] = plies_to_end(found.score)
    result.stats["kernel"] = engine.name
    return result


def play(game: Game[S], state: S, config: SearchConfig, deadline: Deadline, rng: random.Random) -> SearchResult:
    """A bot's alpha-beta: its book, tables or exact endgame first, then the search, its traps, its slips."""
    options = config.options.carried_to(AlphaBetaOptions)
    weakened = is_weakened(config.slip_rate, config.temperature)
    if not weakened:
        exact = endgame.book_move(game, state, rng) if options.opening_book else None
        if not exact and options.tablebases:
            exact = endgame.table_move(game, state)
        if not exact and options.exact_endgame is not None:
            exact = endgame.exact_move(game, state, deadline, options.exact_endgame)
        if exact:
            return exact
    trap_model = options.trap_model if traps.applies(game) else None
    result = search(game, state, config, deadline, rng, exact_root=weakened or bool(trap_model))
    if not weakened and options.exact_endgame is not None:
        endgame.keep_proven(game, state, result)  # a draw the unfinished solve proved is not thrown
    if trap_model and not weakened:
        traps.prefer_traps(game, state, result, trap_model, deadline, rng)
    immediate_win = result.stats.get("plies_to_end") == 1
    weaken(result, config, result.stats.get("root_values", {}), game.max_utility, rng, immediate_win)
    return result


def _problem(game: Game[Any]) -> str:
    if game.num_players > 2:
        return f"alpha-beta is for two players; use max^n (or paranoid) for {game.name}"
    if game.has_chance:
        return f"{game.name} has dice: use expectimax or MCTS"
    return ""


SEARCHER = Searcher(
    id="alphabeta",
    label="alpha-beta",
    summary="Looks a fixed number of moves ahead, assuming the best reply (two players, no dice).",
    run=play,
    options=AlphaBetaOptions,
    capabilities=frozenset({Capability.LOOKS_AHEAD, Capability.FULL_WIDTH}),
    fit=_problem,
    how=(
        "It searches the tree of moves and replies (minimax) and prunes lines that cannot change its choice "
        "(alpha-beta pruning).",
        "It deepens the search one ply at a time until its time budget runs out, and plays the best move of the "
        "deepest search it finished.",
        "Where the search stops it scores positions with a heuristic evaluation: open lines, threats and the like.",
    ),
    words="searches the game tree with alpha-beta pruning, deepening one ply at a time while its "
    "time lasts, and assumes you answer with your best move",
)

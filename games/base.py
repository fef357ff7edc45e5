"""The Game API every game implements (docs/design.md §2).

A game is the textbook formal model: initial state, player to move, actions,
result, terminal test and utility, plus chance and n players.  States are
immutable, hashable values; moves are canonical strings.  Games never import
Django: they are usable as a plain library.

>>> from games import registry
>>> game = registry.get("tictactoe")
>>> state = game.play(game.initial_state(), "5")
>>> game.to_move(state)
1
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeAlias, TypeGuard, TypeVar

if TYPE_CHECKING:
    from games.hooks import Playout, SearchEngine, SearchKernel, Solver
    from games.records import GameRecord, PlayedMatch
    from games.spec import GameSpec

Seat: TypeAlias = int
Move: TypeAlias = str
State: TypeAlias = Any  # a state of some game, where the game is not known statically (the searchers)
S = TypeVar("S")  # one game's own immutable, hashable state type: `Game[S]`

CHANCE: Seat = -1
"""The pseudo-seat that plays chance events (dice); see `Game.chance_outcomes`."""


def is_seat_index(value: object, num_players: int = 2) -> TypeGuard[Seat]:
    """A JSON value holding a seat index (a real int: JSON true/false and 1.0 are refused)."""
    return type(value) is int and 0 <= value < num_players


class IllegalMove(ValueError):
    """A move that the rules do not allow here; the message says why."""


@dataclass(frozen=True)
class BookChoice:
    """A book move and its share of the weights of the position's book moves."""

    move: Move
    share: float


@dataclass(frozen=True)
class TableChoice:
    """A move an endgame table proves best, and the plies until the game ends after best play:
    positive when the mover wins, negative when it loses, 0 for a draw."""

    move: Move
    plies_to_end: int


@dataclass(frozen=True)
class PartsNode:
    """One point of entering a move part by part: the parts that may come next, each with the
    index of the node it leads to, and the legal move the parts so far make (None: not yet one)."""

    parts: tuple[tuple[str, int], ...]
    move: Move | None = None

    def to_json(self) -> dict[str, Any]:
        return {"parts": [list(part) for part in self.parts], "move": self.move}


def parts_json(nodes: Sequence[PartsNode] | None) -> list[dict[str, Any]] | None:
    """`Game.move_parts` as the wire carries it (docs/wire.md), or None."""
    return None if nodes is None else [node.to_json() for node in nodes]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, in words a player understands."""

    returns: tuple[float, ...]
    winner: Seat | None  # None for a draw or when several seats share first place
    reason: str  # e.g. "four in a row", "board full"
    ranking: tuple[Seat, ...] = ()  # best first; for games of more than two players
    # Points each seat scores, where they differ from `returns`: backgammon with the doubling cube
    # pays the cube's value times 1, 2 or 3, while `returns` stays on the searchers' scale.
    points: tuple[int, ...] = ()

    @property
    def places(self) -> tuple[int, ...]:
        """Where each seat finished, by seat (`places`)."""
        return places(self.returns)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "returns": list(self.returns),
            "winner": self.winner,
            "reason": self.reason,
            "ranking": list(self.ranking),
        }
        if self.points:
            data["points"] = list(self.points)
        return data


@dataclass(frozen=True)
class MatchEquities:
    """Match play: the seat on roll's chance of winning the match after each result of this game
    (win single, gammon, backgammon, lose single, gammon, backgammon), with the cube at its value
    (`now`) and doubled (`doubled`), from the game's match equity table."""

    now: tuple[float, float, float, float, float, float]
    doubled: tuple[float, float, float, float, float, float]


@dataclass(frozen=True)
class CubeInputs:
    """What a doubling-cube decision needs (`Game.cube_inputs`), for the seat on roll, the one who
    may double or has just doubled: its cubeless outcome probabilities (gammons include
    backgammons) and where the cube is.  `ai.cube` turns them into the decision.

    `offer`: True when the seat on roll decides whether to double (`act` doubles, `decline` rolls);
    False when the other seat answers a double (`act` takes, `decline` drops).  `centred`: the
    cube is in the middle (otherwise the seat on roll owns it).  `gammons_count`: False while the
    Jacoby rule holds (cube centred).  `forced`: a move the rules of a match settle by themselves.
    `match_play`: a match to N points, where a point is worth what the match score makes it, not a
    money game's unit; `match` then holds the seat on roll's match equities after each result.
    `looked_ahead`: whether the probabilities come from the look-ahead (False: the cheaper estimate,
    asked for or because the deadline cut the look-ahead short).
    """

    offer: bool
    act: Move
    decline: Move
    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    centred: bool
    gammons_count: bool = True
    forced: Move | None = None
    match_play: bool = False
    match: MatchEquities | None = None
    looked_ahead: bool = False


def places(returns: Sequence[float]) -> tuple[int, ...]:
    """Where each seat finished, by seat: 1 for first; seats with equal returns share a place.
    A game for three where one resigns is no draw: the other two share first.

    >>> places((0.5, 0.5, -1.0))
    (1, 1, 3)
    """
    return tuple(1 + sum(other > mine for other in returns) for mine in returns)


class Game(ABC, Generic[S]):
    """Rules of one game, generic in its state type.  Subclasses set the metadata and implement the model."""

    id: ClassVar[str]
    spec: ClassVar[GameSpec]  # display name, seats, board module, bot ladder (`games.spec`)
    num_players: ClassVar[int] = 2
    has_chance: ClassVar[bool] = False
    zero_sum: ClassVar[bool] = True
    max_utility: ClassVar[float] = 1.0  # |returns| never exceeds this
    max_length: ClassVar[int | None] = None  # the most plies a game can last, where bounded
    resignation_levels: ClassVar[tuple[str, ...]] = ()  # resigning for less than the match (`resign_levels`)

    @property
    def name(self) -> str:
        """The display name, from the spec (the one place it is written)."""
        return self.spec.name

    # --- options (`GameSpec.options`) ---------------------------------------
    @property
    def options(self) -> dict[str, bool | int]:
        """The option values this instance plays: the spec's defaults unless `with_options` set others."""
        return {option.name: option.default for option in self.spec.options}

    def with_options(self, options: Mapping[str, object]) -> Game[S]:
        """The game as a match's `options` configure it (names and values checked against the spec,
        `ValueError` naming what is wrong); the registered instance itself when they are the defaults."""
        if not isinstance(options, Mapping):
            raise ValueError("options are an object of option names and values")
        declared = {option.name: option for option in self.spec.options}
        unknown = sorted(set(options) - set(declared))
        if unknown:
            known = ", ".join(sorted(declared)) or "none"
            raise ValueError(f"{self.name} has no option {unknown[0]!r} (options: {known})")
        values = {name: option.default for name, option in declared.items()}
        values.update({name: declared[name].check(value) for name, value in options.items()})
        if values == self.options:
            return self
        return self.configured(values)

    def configured(self, values: dict[str, bool | int]) -> Game[S]:
        """The game playing these checked option values; games that declare options implement it."""
        raise ValueError(f"{self.name} has no options")

    # --- the formal model -------------------------------------------------
    @abstractmethod
    def initial_state(self) -> S: ...

    @abstractmethod
    def to_move(self, state: S) -> Seat:
        """Seat index to move, or `CHANCE`.  Undefined on terminal states."""

    @abstractmethod
    def legal_moves(self, state: S) -> list[Move]:
        """Canonical move strings; empty on terminal states."""

    @abstractmethod
    def apply(self, state: S, move: Move) -> S:
        """Play `move` without validating it.  For search loops; `play` validates."""

    @abstractmethod
    def is_terminal(self, state: S) -> bool: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """How a terminal state ended; raises ValueError on a live one."""

    @abstractmethod
    def to_json(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def from_json(self, data: dict[str, Any]) -> S: ...

    # --- derived, shared by every game ------------------------------------
    def play(self, state: S, move: Move) -> S:
        """Validate and play `move`; raise `IllegalMove` saying why otherwise."""
        if not isinstance(move, str):
            raise IllegalMove(f"a move is a string, not {type(move).__name__}")
        if self.is_terminal(state):
            raise IllegalMove("the game is over")
        move = self.canonical_move(state, move)
        if move not in self.legal_moves(state):
            raise IllegalMove(self.why_illegal(state, move))
        return self.apply(state, move)

    def canonical_move(self, state: S, move: Move) -> Move:
        """`move` as the game stores and shows it.  A game whose notation has several wordings of one
        move refines this, raising `IllegalMove` for text that names no legal move (docs/design.md §2)."""
        return move

    def why_illegal(self, state: S, move: Move) -> str:
        """A message explaining why `move` is not legal; games refine it."""
        return f"{move!r} is not a legal move here"

    def returns(self, state: S) -> list[float]:
        """One utility per seat; zero-sum games sum to 0."""
        return list(self.outcome(state).returns)

    def chance_outcomes(self, state: S) -> list[tuple[Move, float]]:
        """(move, probability) pairs when `to_move(state) == CHANCE`."""
        raise ValueError(f"{self.name} has no chance events")

    def key(self, state: S) -> Hashable:
        """A hashable position key for transposition tables."""
        return state

    def ply(self, state: S) -> int:
        """Moves played so far, chance events included."""
        raise NotImplementedError

    # --- optional search hooks (docs/design.md §2) --------------------------------
    def evaluate(self, state: S, seat: Seat) -> float:
        """Heuristic value for `seat` in (-max_utility, max_utility); 0 if unknown."""
        return 0.0

    def evaluation(self, name: str) -> Callable[[S, Seat], float] | None:
        """Another evaluation, on `evaluate`'s scale, that a bot's search options may name; None if unknown."""
        return None

    def order_moves(self, state: S, moves: Sequence[Move]) -> list[Move]:
        """Moves most likely good first; the default keeps the given order."""
        return list(moves)

    def is_quiet(self, state: S) -> bool:
        """False where the evaluation is unreliable and quiescence should search on."""
        return True

    def noisy_moves(self, state: S) -> list[Move]:
        """Moves quiescence search examines in a position that is not quiet."""
        return []

    # Hooks of alpha-beta's optional refinements (`ai.alphabeta.AlphaBetaOptions`), off unless asked for.
    def in_check(self, state: S) -> bool:
        """The seat to move is under a threat that must be answered now: quiescence searches every reply
        instead of standing pat; with the refinements, check extension and no null move."""
        return False

    def null_move(self, state: S) -> S | None:
        """`state` with the turn passed to the other seat, for null-move pruning; None where passing
        would mislead the search (in check, or positions prone to zugzwang)."""
        return None

    def is_tactical(self, state: S, move: Move) -> bool:
        """`move` changes the material balance (a capture, a promotion): never reduced, searched early."""
        return False

    def gives_check(self, state: S, move: Move) -> bool:
        """`move` puts the other seat in check (`in_check`): it may mate, so delta pruning never skips it."""
        return False

    def capture_gain(self, state: S, move: Move) -> float:
        """The most the noisy `move` can raise `evaluate` for the mover, safety margin included (delta pruning)."""
        return 2 * self.max_utility

    def exchange_value(self, state: S, move: Move) -> float:
        """What the noisy `move` wins (below 0: loses) once the exchanges it starts are played out,
        statically, on `evaluate`'s scale; quiescence may skip losing ones (SEE pruning)."""
        return 0.0

    def rollout_move(self, state: S, rng: random.Random) -> Move:
        """A fast playout move for MCTS; uniform random by default."""
        if self.to_move(state) == CHANCE:
            outcomes = self.chance_outcomes(state)
            return rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        return rng.choice(self.legal_moves(state))

    # --- optional fast paths on the game's own encoding (`games.hooks`) -------
    def fast_playout(self) -> Playout | None:
        """A whole MCTS rollout in one call; None: the searcher plays `rollout_move` ply by ply."""
        return None

    def search_kernel(self) -> SearchKernel | None:
        """Alpha-beta's negamax on the game's encoding, node for node the generic one; or None."""
        return None

    def search_engine(self) -> SearchEngine | None:
        """A whole alpha-beta search on the game's own encoding and evaluation (compiled), or None."""
        return None

    def new_solver(self) -> Solver | None:
        """A solver of exact values, with tables of its own; None where the game has none."""
        return None

    def opening_move(self, state: S) -> Move | None:
        """A proven best move from the game's opening book, where it has one for `state`."""
        return None

    def book_move(self, state: S, rng: random.Random) -> BookChoice | None:
        """A move from the game's opening book of practice (not proof) for `state`, drawn with `rng`
        by the book's weights, so a seeded search plays it again; None out of book or without one."""
        return None

    def cube_inputs(
        self, state: S, look_ahead: bool = True, stop: Callable[[], bool] | None = None
    ) -> CubeInputs | None:
        """Where the seat to move faces a doubling-cube decision, what deciding it needs; else None.
        `look_ahead=False` asks for the cheaper estimate a small budget affords (a game may have one);
        a look-ahead that `stop()` cuts short (the move's deadline) gives that cheaper estimate too,
        with `CubeInputs.looked_ahead` false."""
        return None

    def table_move(self, state: S) -> TableChoice | None:
        """The best move by the game's endgame tables, where they hold `state` and every reply; else None."""
        return None

    def resign_levels(self, state: S) -> tuple[str, ...]:
        """What a seat may offer to resign in `state` short of the whole match, for the opponent to
        accept or decline (backgammon: ``"single"``, ``"gammon"``, ``"backgammon"``, each times the
        cube); () where none is open now, and always in games without them (`resignation_levels`)."""
        return ()

    def resign_move(self, state: S, seat: Seat, level: str) -> Move:
        """The move that records `seat`'s accepted resignation at `level` (one of `resign_levels`):
        applied like any move, so the record replays it; it ends the game on the board."""
        raise ValueError(f"{self.id} has no resignation levels")

    def stake_value(self, state: S, seat: Seat) -> float:
        """What `state` is worth to `seat` in what the seat is playing for, where that is more than
        this game's points (backgammon in a match: the chance of winning the match, every result
        weighed by the score it leaves); the evaluation by default.  Resignations are weighed by it
        (`ai.resign`), a finished game by its result."""
        return self.evaluate(state, seat)

    def resign_match_move(self, state: S, seat: Seat) -> Move | None:
        """The move that records `seat`'s plain resignation, unasked, where the game counts it for
        points (backgammon: the most the opponent could win, a backgammon times the cube, or in a
        match to N the match); applied like any move, it ends the match.  None where resigning is a
        forfeit of the match (every other game, and between two games)."""
        return None

    def resignation_terms(self, state: S, seat: Seat, level: str) -> tuple[int, str]:
        """What `seat`'s resignation at `level` would pay were it accepted now: the points, and how they
        are counted (``"resigned a gammon: 2 points x cube 2 = 4"``)."""
        raise ValueError(f"{self.id} has no resignation levels")

    def claimable_draw(self, state: S) -> str | None:
        """Why a player may claim a draw in `state` now (chess: "threefold repetition"), or None.

        For games whose rules let a player end a live game as a draw by claiming it; the
        server ends the match on a claim (docs/design.md §2).  None by default: no such rule.
        """
        return None

    def move_parts(self, state: S) -> list[PartsNode] | None:
        """How the legal moves are entered part by part, where a move is several picks (backgammon:
        a checker per die, in any order the rules allow), or None where each move is picked whole.

        A graph of `PartsNode`s, the first the position before any part: the browser offers the
        parts of the node it is at and sends the node's `move` once it has one, so it never
        re-derives the rules.  Parts are strings in the game's own notation (docs/wire.md).
        """
        return None

    # --- notation players read ------------------------------------------------
    def move_notation(self, state: S, move: Move) -> str:
        """`move`, played in `state`, as players write it (chess: SAN, ``Nf3``).

        The default is the canonical move itself; a game refines this only where its
        players write moves differently from how they travel.
        """
        return move

    def position_notation(self, state: S) -> str | None:
        """`state` in the text other tools read a position from (chess: FEN), or None.

        None by default: the game has no such notation.  Research exports carry the position
        before each move for the games whose initial state has one (docs/exports.md).
        """
        return None

    # --- notation other tools read --------------------------------------------
    def standard_notation(self, moves: Sequence[Move]) -> tuple[str, str] | None:
        """``(format name, text)``: a game record in the notation researchers' tools read.

        `moves` are canonical moves with chance events left out; None where the game has
        no such notation, or the moves do not fit it.
        """
        return None

    def match_record(self, played: PlayedMatch) -> GameRecord:
        """The file a player downloads of a played match (`games.records`): the game's own notation
        where it has one (chess: PGN), else the plain record every game has."""
        from games.records import plain_record  # records builds on this module

        return plain_record(self, played)

    def __repr__(self) -> str:
        return f"<Game {self.id}>"

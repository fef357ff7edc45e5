"""Bot-against-bot games played straight through `ai.choose_move` (no server, no database).

Shared by `games_strength.py`, `ladder_quick.py` and `rate_direct.py`.  A seeded bot profile
(`server.bots.seed.PROFILES`, plain data: no Django needed) becomes a
`ProfileBot` with the profile's own search settings; its budget may be capped
(`cap_ms`) or scaled (`scale`) to make a run affordable.  As on the server, each
move gets its own seed and MCTS keeps its tree between the moves of a game.
"""

from __future__ import annotations

import gzip
import json
import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ai
from games.base import CHANCE, Game, Move, Seat, State
from server.bots.seed import PROFILES

Record = dict[str, Any]  # one finished game, as a line of a ``--log`` file


def _log_lines(path: Path) -> tuple[list[str], bool]:
    """A log's lines, and whether it read to its end (a gzip member a killed run cut short does not)."""
    if path.suffix != ".gz":
        return path.read_text().splitlines(), True
    lines: list[str] = []
    try:
        with gzip.open(path, "rt", encoding="utf-8") as file:
            lines.extend(line.rstrip("\n") for line in file)
    except (EOFError, OSError, zlib.error):
        return lines, False
    return lines, True


def read_log(path: Path | None) -> list[Record]:
    """The games of a log; a line cut short by a killed run is left out (and played again).

    A log whose name ends in ``.gz`` is read and appended to compressed (one gzip member an
    append), so a long run's log can be kept in the repository and resumed from as it is.
    """
    if path is None or not path.exists():
        return []
    records = []
    for line in _log_lines(path)[0]:
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records


def append_line(path: Path, line: str) -> None:
    """One line appended to a log, compressed when its name ends in ``.gz``."""
    with gzip.open(path, "at", encoding="utf-8") if path.suffix == ".gz" else path.open("a") as file:
        file.write(line + "\n")


class GameLog:
    """Finished games appended to a JSON-lines file as they end, so a stopped run resumes.

    The file is opened for each game: a run of hours must not go on writing into a file
    that was replaced under it (a checkout, a copy), where its games would be lost.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        if not (path and path.exists() and path.stat().st_size):
            return
        if path.suffix == ".gz":
            lines, whole = _log_lines(path)
            if not whole:  # a member cut short would hide every game appended after it
                with gzip.open(path, "wt", encoding="utf-8") as file:
                    file.writelines(line + "\n" for line in lines)
        elif not path.read_bytes().endswith(b"\n"):
            with path.open("a") as file:
                file.write("\n")  # after a line cut short

    def append(self, record: Record) -> None:
        if self.path:
            append_line(self.path, json.dumps(record))


SEARCH_FIELDS = ("algorithm", "max_depth", "max_iterations", "slip_rate", "temperature", "style")


def ladder(game_id: str) -> dict[int, dict[str, Any]]:
    """The listed levels 0..5 of a game's seeded profiles (the adaptive bot left out)."""
    specs = [p for p in PROFILES if p["game"] == game_id and not p.get("adaptive")]
    return {p["level"]: p for p in sorted(specs, key=lambda p: p["level"])}


def budget_ms(spec: dict[str, Any], cap_ms: int | None = None, scale: float = 1.0) -> int:
    budget = max(20, round(spec["time_budget_ms"] * scale))
    return min(budget, cap_ms) if cap_ms else budget


def search_config(
    spec: dict[str, Any], seed: int, cap_ms: int | None = None, scale: float = 1.0, match_id: str | None = None
) -> ai.SearchConfig:
    """The `ai.SearchConfig` the server builds from a profile (`BotProfile.search_fields`)."""
    settings = {k: spec[k] for k in SEARCH_FIELDS if spec.get(k) is not None}
    options = dict(spec.get("search_options") or {})
    if match_id is not None:
        options["match_id"] = match_id  # MCTS tree reuse between the moves of a match, as the server does
    return ai.SearchConfig(
        time_budget_ms=budget_ms(spec, cap_ms, scale),
        opponent_model=spec.get("opponent_model") or None,
        seed=seed,
        options=options,
        **settings,
    )


@dataclass
class Tally:
    """Search figures of one bot over a run."""

    moves: int = 0
    ms: float = 0.0
    nodes: int = 0
    depth: int = 0

    def add(self, result: ai.SearchResult) -> None:
        if result.stats.get("forced"):
            return
        self.moves += 1
        self.ms += result.elapsed_ms
        self.nodes += result.nodes
        self.depth += result.depth

    def merge(self, other: Tally) -> None:
        self.moves += other.moves
        self.ms += other.ms
        self.nodes += other.nodes
        self.depth += other.depth


@dataclass
class ProfileBot:
    spec: dict[str, Any]
    cap_ms: int | None = None
    scale: float = 1.0
    tally: Tally = field(default_factory=Tally)

    @property
    def name(self) -> str:
        return f"L{self.spec['level']} {self.spec['slug']}"

    def move(self, game: Game, state: State, seed: int, match_id: str) -> Move:
        config = search_config(self.spec, seed, self.cap_ms, self.scale, match_id)
        result = ai.choose_move(game, state, config)
        self.tally.add(result)
        return result.move


@dataclass
class RandomBot:
    name: str = "random"
    tally: Tally = field(default_factory=Tally)

    def move(self, game: Game, state: State, seed: int, match_id: str) -> Move:
        return random.Random(seed).choice(game.legal_moves(state))


@dataclass
class GreedyBot:
    """One ply: the move whose resulting position `evaluate` likes best for the mover (ties at random)."""

    name: str = "greedy"
    tally: Tally = field(default_factory=Tally)

    def move(self, game: Game, state: State, seed: int, match_id: str) -> Move:
        rng = random.Random(seed)
        seat = game.to_move(state)
        best: list[Move] = []
        top = -float("inf")
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            value = game.returns(child)[seat] * 2 if game.is_terminal(child) else game.evaluate(child, seat)
            if value > top:
                top, best = value, [move]
            elif value == top:
                best.append(move)
        return rng.choice(best)


def play(
    game: Game, bots: list[Any], seed: int, opening_plies: int = 0, opening_seed: int = 0
) -> tuple[list[float], int]:
    """One game, bot `i` in seat `i`; dice drawn from a seeded generator.  Returns (returns, plies).

    The first `opening_plies` moves are random (from `opening_seed`): bots without slips
    would otherwise play the same game every time, and a hundred copies of it measure nothing.
    """
    rng = random.Random(seed)
    opening = random.Random(opening_seed)
    state = game.initial_state()
    plies = 0
    while not game.is_terminal(state):
        seat = game.to_move(state)
        if plies < opening_plies and seat != CHANCE and len(game.legal_moves(state)) > 1:
            state = game.apply(state, opening.choice(game.legal_moves(state)))
            plies += 1
            continue
        if seat == CHANCE:
            outcomes = game.chance_outcomes(state)
            move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            move = bots[seat].move(game, state, rng.randrange(2**31), f"bench:{seed}:{seat}")
        state = game.apply(state, move)
        plies += 1
    return game.returns(state), plies


def play_capped(
    game: Game, choose: Callable[[State, int], Move], opening_seed: int, opening_plies: int, max_plies: int
) -> tuple[State, int]:
    """A two-player game without dice: the first `opening_plies` moves random (from `opening_seed`),
    then `choose(state, ply)`, until the end or `max_plies`.  Returns the last position and the plies."""
    opening = random.Random(opening_seed)
    state = game.initial_state()
    plies = 0
    while not game.is_terminal(state) and plies < max_plies:
        move = opening.choice(game.legal_moves(state)) if plies < opening_plies else choose(state, plies)
        state = game.apply(state, move)
        plies += 1
    return state, plies


def first_place_points(returns: list[float], seat: Seat) -> float:
    """1 for sole first place, 1/k when k seats share it, 0 otherwise."""
    top = max(returns)
    if returns[seat] != top:
        return 0.0
    return 1.0 / sum(1 for r in returns if r == top)


def pairwise_score(returns: list[float], mine: list[Seat], theirs: list[Seat]) -> float:
    """The share of (mine, theirs) seat pairs where mine finished ahead (a tie counts half)."""
    total = 0.0
    for a in mine:
        for b in theirs:
            total += 1.0 if returns[a] > returns[b] else 0.5 if returns[a] == returns[b] else 0.0
    return total / (len(mine) * len(theirs))


def interval(score: float, n: int) -> float:
    """Half-width of a normal 95% interval for a mean score over `n` games (0.5 used when 0 or 1)."""
    p = min(max(score, 0.05), 0.95)
    return 1.96 * (p * (1 - p) / max(n, 1)) ** 0.5


def in_benchmarks(name: str) -> Path:
    """`name` as given when absolute, else under benchmarks/ (where ``results/`` is)."""
    path = Path(name)
    return path if path.is_absolute() else Path(__file__).resolve().parent / path


def paired_match(
    game: Game, specs: tuple[dict[str, Any], dict[str, Any]], games: int, seed: int, cap_ms: int | None,
    log_name: str | None, label: str, opening_plies: int = 6,
) -> None:  # fmt: skip
    """The first profile against the second, each random opening twice with the colours swapped;
    each game appended to `log_name` (a stopped run resumes) and the first's score printed."""
    log = GameLog(in_benchmarks(log_name) if log_name else None)
    records = read_log(log.path)
    score = sum((r["result"] + 1) / 2 for r in records)
    for number in range(len(records), games):
        bots = [ProfileBot(spec, cap_ms=cap_ms) for spec in specs]
        seat = number % 2  # the first profile's seat
        seated = bots if seat == 0 else bots[::-1]
        opening = seed + number // 2
        returns, _ = play(game, seated, seed=seed + number, opening_plies=opening_plies, opening_seed=opening)
        score += (returns[seat] + 1) / 2
        log.append({"game": number, "seat": seat, "result": returns[seat]})
        share = score / (number + 1)
        print(f"game {number + 1}: {returns[seat]:+.0f}; {label} {share:.1%} +- {interval(share, number + 1):.1%}",
              flush=True)  # fmt: skip

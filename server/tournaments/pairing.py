"""The pairing rules of the three kinds of tournament, as plain functions on entrant ids.

No database here: the services hand in who is playing and what happened so far, and get
pairs back, so each rule is tested on its own (docs/tournaments.md states them for players).

- Round robin: Berger tables (`berger_rounds`), the tables FIDE publishes.
- Swiss: the Monrad (Danish) system with no rematch while avoidable (`swiss_round`).
- Arena: the waiting players re-paired by rank, never twice running against the same
  opponent while another is waiting (`arena_pairs`).

A pair is `(white, black)`: white takes seat 0 (the seat that moves first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

EntrantId = int
Pair = tuple[EntrantId, EntrantId]
# How many partial pairings the Swiss search tries before it allows rematches: far above what
# a field of the allowed size needs, and a bound on a pathological one.
SWISS_SEARCH_STEPS = 200_000


# --- round robin ---------------------------------------------------------------------


def berger_rounds(entrants: Sequence[EntrantId]) -> list[list[Pair]]:
    """Every round of a round robin by Berger's tables; an odd field gets one bye a round.

    `entrants` in seed order.  With n entrants (n rounded up to even, the extra one a bye
    that nobody plays) there are n - 1 rounds; each pair meets once, and each entrant's
    whites and blacks differ by at most one.  The entrant who sits out a round of an odd
    field is left out of that round's pairs.

    >>> berger_rounds([1, 2, 3, 4])
    [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    """
    players: list[EntrantId | None] = list(entrants)
    if len(players) % 2:
        players.append(None)  # the bye
    n = len(players)
    if n < 2:
        return []
    last = players[-1]
    ring = players[:-1]  # Berger's table: the last entrant stays, the others move round
    rounds: list[list[Pair]] = []
    for r in range(n - 1):
        pairs: list[tuple[EntrantId | None, EntrantId | None]] = []
        first = ring[0]
        # The fixed entrant alternates colours: black in odd rounds (counted from 0), white in even ones.
        pairs.append((first, last) if r % 2 == 0 else (last, first))
        for k in range(1, n // 2):
            pairs.append((ring[k], ring[n - 1 - k]))
        rounds.append([(w, b) for w, b in pairs if w is not None and b is not None])
        # Berger's rotation: each round the ring turns by n/2 - 1 places.
        shift = n // 2 - 1
        ring = ring[-shift:] + ring[:-shift] if shift else ring
    return rounds


# --- Swiss -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SwissEntrant:
    """One entrant as the Swiss pairing sees it, in its ranking's order."""

    id: EntrantId
    score: int  # in half points
    rating: int
    colours: str = ""  # "w" and "b", one a round played, in order ("" for a bye or a round missed)
    had_bye: bool = False
    opponents: frozenset[EntrantId] = field(default_factory=frozenset)

    @property
    def colour_balance(self) -> int:
        """Whites minus blacks."""
        return self.colours.count("w") - self.colours.count("b")


@dataclass(frozen=True)
class SwissRound:
    pairs: list[Pair]
    bye: EntrantId | None
    rematches: int  # pairs that met before: 0 unless no pairing without one exists


def swiss_round(entrants: Sequence[SwissEntrant]) -> SwissRound:
    """The next round by the Monrad system, with no rematch while one can be avoided.

    1. Rank by score, then rating (then id, for a stable order).
    2. An odd field: the lowest-ranked entrant who has had no bye sits out, scoring a win.
    3. From the top, the highest unpaired entrant meets the next highest they have not met;
       if that leaves the rest impossible to pair without a rematch, the next candidate is
       tried (a search back through the choices). Only when no pairing avoids every rematch
       are rematches allowed, and then the same order decides.
    4. Colours (`colours_for`): nobody has one colour three times running (pairs that would
       force it are avoided where the rest allows); then the one with more blacks gets white;
       else the one whose last game was black; else the higher-ranked one takes the colour opposite to their last
       (white in the first round on odd boards, black on even ones).
    """
    ranked = sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))
    bye: EntrantId | None = None
    if len(ranked) % 2:
        without = [e for e in ranked if not e.had_bye]
        sitting = without[-1] if without else ranked[-1]
        bye = sitting.id
        ranked = [e for e in ranked if e.id != sitting.id]
    matched = (
        _monrad(ranked, allow_rematch=False, strict_colours=True)
        or _monrad(ranked, allow_rematch=False, strict_colours=False)
        or _monrad(ranked, allow_rematch=True, strict_colours=False)
        or []
    )
    pairs = [colours_for(a, b, board) for board, (a, b) in enumerate(matched)]
    rematches = sum(1 for a, b in matched if b.id in a.opponents)
    return SwissRound(pairs, bye, rematches)


def _monrad(
    ranked: list[SwissEntrant], allow_rematch: bool, strict_colours: bool
) -> list[tuple[SwissEntrant, SwissEntrant]] | None:
    """Top-down pairing with backtracking; with `allow_rematch`, an opponent met before is tried
    only after every new one (so a forced rematch stays the exception).  `strict_colours` leaves
    out pairs of two entrants who both had the same colour twice running (one of them would get
    it a third time)."""
    steps = 0

    def pair_from(rest: list[SwissEntrant]) -> list[tuple[SwissEntrant, SwissEntrant]] | None:
        nonlocal steps
        if not rest:
            return []
        top, others = rest[0], rest[1:]
        order = (
            sorted(range(len(others)), key=lambda i: others[i].id in top.opponents)
            if allow_rematch
            else range(len(others))
        )
        for i in order:
            candidate = others[i]
            steps += 1
            if steps > SWISS_SEARCH_STEPS:
                return None
            if not allow_rematch and candidate.id in top.opponents:
                continue
            if strict_colours and _due(top) is not None and _due(top) == _due(candidate):
                continue
            tail = pair_from(others[:i] + others[i + 1 :])
            if tail is not None:
                return [(top, candidate), *tail]
        return None

    return pair_from(ranked)


def colours_for(a: SwissEntrant, b: SwissEntrant, board: int) -> Pair:
    """(white, black) for `a` (ranked higher) and `b`: no colour three times running, then colour
    balance, then alternation."""
    due_a, due_b = _due(a), _due(b)
    if due_a != due_b:
        if due_a is not None:
            return (a.id, b.id) if due_a == "w" else (b.id, a.id)
        return (b.id, a.id) if due_b == "w" else (a.id, b.id)
    if a.colour_balance != b.colour_balance:
        return (a.id, b.id) if a.colour_balance < b.colour_balance else (b.id, a.id)
    last_a, last_b = _last_colour(a), _last_colour(b)
    if last_a != last_b and last_a and last_b:
        return (a.id, b.id) if last_a == "b" else (b.id, a.id)
    if last_a:
        return (a.id, b.id) if last_a == "b" else (b.id, a.id)
    if last_b:
        return (b.id, a.id) if last_b == "b" else (a.id, b.id)
    return (a.id, b.id) if board % 2 == 0 else (b.id, a.id)


def _due(entrant: SwissEntrant) -> str | None:
    """The colour an entrant must have next: the other one after the same colour twice running."""
    last_two = entrant.colours[-2:]
    if last_two == "ww":
        return "b"
    if last_two == "bb":
        return "w"
    return None


def _last_colour(entrant: SwissEntrant) -> str:
    return entrant.colours[-1:] if entrant.colours else ""


# --- arena -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ArenaEntrant:
    """One waiting entrant as the arena pairing sees it."""

    id: EntrantId
    points: int
    rating: int
    last_opponent: EntrantId | None = None


def arena_pairs(waiting: Sequence[ArenaEntrant], others_playing: bool = False) -> list[Pair]:
    """Pairs among the entrants waiting now: neighbours in rank (points, then rating).

    From the top, each unpaired entrant meets the nearest below them in rank who was not
    their last opponent (nor has them as theirs).  If only their last opponent is left, they
    wait while `others_playing` (someone new comes free when a game ends) and play again
    otherwise.  An odd one out waits for the next game to end.  Colours: the lower-ranked of
    the two takes white, so the leader does not always move first.

    >>> arena_pairs([ArenaEntrant(1, 10, 1500, last_opponent=2), ArenaEntrant(2, 9, 1500, 1), ArenaEntrant(3, 0, 1500)])
    [(3, 1)]
    """
    ranked = sorted(waiting, key=lambda e: (-e.points, -e.rating, e.id))
    free = list(ranked)
    pairs: list[Pair] = []
    while len(free) >= 2:
        top = free.pop(0)
        fresh = [e for e in free if e.id != top.last_opponent and e.last_opponent != top.id]
        if not fresh and others_playing:
            continue  # only their last opponent is free: wait for a game to end
        partner = fresh[0] if fresh else free[0]
        free.remove(partner)
        pairs.append((partner.id, top.id))
    return pairs


def arena_points(results: Sequence[int]) -> list[int]:
    """Points of each game of one entrant, in the order played, lichess's way.

    `results` in half points (2 win, 1 draw, 0 loss).  A win is 2 points and a draw 1; after
    two wins in a row the entrant is "on fire" and each game counts double until one is not
    won (the streak ends with that game, which still counts double if a draw).

    >>> arena_points([2, 2, 2, 1, 2, 0, 2])
    [2, 2, 4, 2, 2, 0, 2]
    """
    points: list[int] = []
    streak = 0
    for result in results:
        on_fire = streak >= 2
        points.append(result * (2 if on_fire else 1))
        streak = streak + 1 if result == 2 else 0
    return points


def on_fire(results: Sequence[int]) -> bool:
    """Whether the next game counts double (the last two results were wins)."""
    return len(results) >= 2 and results[-1] == 2 and results[-2] == 2


def buchholz(opponents: Sequence[EntrantId], scores: Mapping[EntrantId, int]) -> int:
    """The sum of the opponents' scores (half points); a bye adds nothing."""
    return sum(scores.get(o, 0) for o in opponents)


def sonneborn_berger(games: Sequence[tuple[EntrantId, int]], scores: Mapping[EntrantId, int]) -> int:
    """Sum over games of the opponent's score times this entrant's result, in quarter points.

    `games` are (opponent, result in half points): a win adds the opponent's whole score, a
    draw half of it, a loss nothing.  Returned as result * score (half points squared) so it
    stays a whole number; callers divide by 4 to show it.
    """
    return sum(result * scores.get(opponent, 0) for opponent, result in games)

"""Backgammon's evaluation: outcome probabilities, and the equity they make in the game's points.

In the spirit of gnubg's and TD-Gammon's five outputs, a position gets, for one side,
P(win), P(win a gammon), P(win a backgammon), P(lose a gammon), P(lose a backgammon)
(gammons include backgammons), and its equity is what a single game pays on average:

    equity = P(win) - P(lose) + P(win gammon) - P(lose gammon) + P(win bg) - P(lose bg)

which lies in [-3, 3], the scale of the game's returns (``max_utility = 3``), so a
search compares a position's estimate with a finished game's points directly.

Two models:

- **Race** (the armies have passed each other, no more hitting): each side's number of
  rolls to bear off.  A side with every checker home has it exactly, from the one-sided
  bear-off database (`games.backgammon.bearoff`, as gnubg's); a side not yet home is
  estimated from the same database: its outside checkers gathered on the 6-point, a normal
  of that board's mean and variance plus the rolls to cover the pips they have to come
  (mean pips / 8.17, the mean pips of a roll, doubles counting four dice; variance pips ×
  18.47 / 8.17³, the renewal-theory variance), rounded to whole rolls.  A side wins if it
  needs no more rolls than the other (one fewer when the other rolls first): with both
  sides home, exactly gnubg's 0-ply race chances.  The loser is gammoned if the winner
  finishes before the loser has borne off its first checker (the database's first-off
  counts, the same way), and backgammoned if before it has even left the winner's home
  board (a normal of those pips).
- **Contact**: a network with one hidden layer (`games.backgammon.network`), as
  TD-Gammon's and gnubg's, gives the five probabilities for the side about to roll from
  each side's checkers point by point and a few counts of each side (`network_inputs`:
  pips, blots, made points, primes, anchors, and the shots at a side's blots: how many
  of the opponent's 36 rolls hit one, `hitting_rolls`, and the pips they take,
  `pips_hit`), and the counts gnubg's own contact network reads (`blockade_features`: how
  well each side's points contain the other's checkers, how freely its own move, its
  timing, its anchors...).  Its weights were fitted to GNU Backgammon's 0-ply cubeless
  outputs on positions of its own play (``benchmarks/bg_net.py``, which prints the fit's
  error); what the rules settle (no gammon once a checker is off...) is applied after it.

Both are symmetric by construction: the model is the same for either side (the network
always speaks for the side to roll), so the equity of one seat is minus the other's.  A
live position's value is clipped to ``HEURISTIC_LIMIT`` so that no estimate reaches what
the search treats as a proven result (``ai.weakening``: 0.95 × max_utility).
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from games.backgammon import bearoff
from games.backgammon.network import contact_network

CHECKERS: Final = 15
BAR: Final = 25
OFF: Final = 0

ROLL_PIPS: Final = 49 / 6  # mean pips of a roll (8.17): 36 rolls, doubles played four times
ROLL_VARIANCE_PER_PIP: Final = 18.4722 / ROLL_PIPS**3  # variance of rolls needed, per pip to cover
VARIANCE_FLOOR: Final = 0.05  # even a sure count gets a little spread: no division by zero
MAX_ROLLS: Final = 60  # more rolls than any side needs (15 checkers on the bar: 375 pips, ~46 rolls)
HEURISTIC_LIMIT: Final = 2.7  # 0.9 × max_utility: below the 0.95 that counts as proven

Side = tuple[int, ...]  # 26 counts in the side's own numbering: [0] off, [1..24] points, [25] bar


@dataclass(frozen=True, slots=True)
class Probabilities:
    """One side's outcome probabilities; gammons include backgammons (gnubg's convention)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    def flipped(self) -> Probabilities:
        """The same position seen by the other side."""
        return Probabilities(1 - self.win, self.lose_gammon, self.lose_backgammon, self.win_gammon, self.win_backgammon)


def equity(p: Probabilities) -> float:
    """Points a single game pays on average, in [-3, 3]."""
    return 2 * p.win - 1 + p.win_gammon - p.lose_gammon + p.win_backgammon - p.lose_backgammon


def race_started(me: Side, op: Side) -> bool:
    """True when no checker of either side can meet one of the other's again."""
    if op[BAR]:
        return False
    mine = next((p for p in range(25, 0, -1) if me[p]), 0)  # my rearmost checker
    theirs = next((p for p in range(1, 25) if op[25 - p]), 25)  # their rearmost, in my numbering
    return mine < theirs


def side_probabilities(me: Side, op: Side, my_roll: bool) -> Probabilities:
    """The outcome probabilities for `me` (both sides in their own numbering); `my_roll`: I roll next."""
    if race_started(me, op):
        return race_probabilities(me, op, my_roll)
    return roller_probabilities(me, op) if my_roll else roller_probabilities(op, me).flipped()


# --- contact: the network -------------------------------------------------------------


def network_inputs(roller: Side, other: Side) -> list[float]:
    """The contact network's inputs: each side (in its own numbering) as TD-Gammon's units
    -- a point holds at least 1, 2, 3 checkers, then (n - 3) / 2 for the rest --, its bar
    / 2 and checkers off / 15; then each side's `side_features` (pips, blots, points,
    primes, the shots at its blots...), which a small network would have to learn; then
    each side's `blockade_features` (added last, so a network of the first inputs alone
    still reads them as before)."""
    inputs: list[float] = []
    for side in (roller, other):
        for n in side[1:25]:
            inputs += UNITS[n] if n < 4 else (1.0, 1.0, 1.0, (n - 3) / 2)
        inputs += (side[BAR] / 2, side[OFF] / CHECKERS)
    inputs += side_features(roller, other)
    inputs += side_features(other, roller)
    inputs += blockade_features(roller, other)
    inputs += blockade_features(other, roller)
    return inputs


UNITS: Final = ((0.0, 0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.0, 0.0), (1.0, 1.0, 1.0, 0.0))
NETWORK_INPUTS: Final = 2 * (24 * 4 + 2) + 2 * 13 + 2 * 18


def roller_probabilities(roller: Side, other: Side) -> Probabilities:
    """The contact network's outcome probabilities for the side about to roll, with what the
    rules settle applied: no gammon once the loser has borne a checker off, no backgammon
    unless it still has one on the bar or in the winner's home board, and gammons never
    more likely than the wins they are part of."""
    win, wg, wbg, lg, lbg = contact_network().outputs(network_inputs(roller, other))
    wg = 0.0 if other[OFF] else min(wg, win)
    wbg = min(wbg, wg) if _stuck_back(other) else 0.0
    lg = 0.0 if roller[OFF] else min(lg, 1 - win)
    lbg = min(lbg, lg) if _stuck_back(roller) else 0.0
    return Probabilities(win, wg, wbg, lg, lbg)


def _stuck_back(loser: Side) -> bool:
    """A checker on the bar or in the winner's home board (the loser's points 19-24)."""
    return any(loser[p] for p in range(19, 26))


# --- race ---------------------------------------------------------------------------


def _normal_cdf(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2))


def _pips(side: Side) -> int:
    return sum(map(operator.mul, POINTS, side))  # point 0 (off) counts nothing


POINTS: Final = range(26)

# A count of rolls as P(it takes at least k rolls), k = 0 .. MAX_ROLLS (index MAX_ROLLS: 0).
AtLeast = npt.NDArray[np.float64]
_BEYOND: Final = np.zeros(MAX_ROLLS + 1 - bearoff.WIDTH)  # a table's counts never reach that far


def _home_board(side: Side) -> bearoff.Home | None:
    """The side's home board (its 1- to 6-points), when every checker not yet off is on it."""
    return None if any(side[7:]) else side[1:7]


def _table(at_least: npt.NDArray[np.float32]) -> AtLeast:
    return np.concatenate((at_least, _BEYOND))


def _normal(mean: float, variance: float) -> AtLeast:
    """A normal of (mean, variance) rounded to a whole count of at least one roll."""
    spread = math.sqrt(variance)
    at_least = np.ones(MAX_ROLLS + 1)
    for k in range(2, MAX_ROLLS + 1):  # P(count >= k) = 1 - P(count <= k - 1)
        at_least[k] = 1.0 - _normal_cdf((k - 0.5 - mean) / spread)
        if at_least[k] < 1e-12:
            at_least[k:] = 0.0
            break
    return at_least


def _rolls_to_finish(side: Side) -> AtLeast:
    """The rolls `side` needs to bear off every checker: exact from the bear-off database
    (`games.backgammon.bearoff`) once all are home, else `_brought_home`'s estimate."""
    db = bearoff.database()
    return _rolls_from(side, db.off_at_least, db.off_means, db.off_vars)


def _rolls_to_save_gammon(side: Side) -> AtLeast:
    """The rolls `side` needs to bring every checker home and bear one off: exact from the
    database's first-off counts when all 15 are home, else `_brought_home`'s estimate."""
    db = bearoff.database()
    return _rolls_from(side, db.first_at_least, db.first_means, db.first_vars)


def _rolls_from(
    side: Side, at_least: npt.NDArray[np.float32], means: npt.NDArray[np.float64], variances: npt.NDArray[np.float64]
) -> AtLeast:
    """One of the database's counts for `side`: its home board's row, or a side not yet home
    estimated from its gathered board's mean and variance plus the rolls to bring the rest in."""
    home = _home_board(side)
    if home is not None:
        return _table(at_least[bearoff.index(home)])
    row, outside = _brought_home(side)
    return _normal(means[row] + outside / ROLL_PIPS, variances[row] + outside * ROLL_VARIANCE_PER_PIP)


def _brought_home(side: Side) -> tuple[int, int]:
    """A side not yet home as the database's board with every outside checker on the 6-point (its
    row), and the pips those checkers have to come (`outside`): its count is estimated as a normal
    of the board's mean and variance plus those of covering `outside` pips.  On the 400 races of
    tests/data, P(win) is off gnubg 0-ply's by 0.002 on average this way, by 0.026 with normals of
    the effective pip count (pips + 1.5 a checker) for both sides, by 0.007 with those for the
    sides not home only (biased: a side home exactly against another's rough normal)."""
    outside = sum((p - 6) * side[p] for p in range(7, 26))
    board = (*side[1:6], side[6] + sum(side[7:26]))
    return bearoff.index(board), outside


def _rolls_to_save_backgammon(side: Side) -> AtLeast | None:
    """The rolls `side` needs to leave the other side's home board; None if out."""
    back = sum((p - 18) * side[p] for p in range(19, 26))
    if not back:
        return None
    return _normal(back / ROLL_PIPS + 0.5, back * ROLL_VARIANCE_PER_PIP + VARIANCE_FLOOR)


def _first(mine: AtLeast, theirs: AtLeast, my_roll: bool) -> float:
    """P(I finish my count of rolls before they finish theirs).

    My k-th roll comes before their k-th when I roll first: then I need them to need at
    least k rolls, otherwise at least k + 1.  Exact when both counts are exact.
    """
    exactly = mine[:-1] - mine[1:]  # P(I need exactly k rolls)
    return float(exactly @ (theirs[:-1] if my_roll else theirs[1:]))


def _off_next_roll(side: Side) -> bool:
    """Whether every roll bears off the last checkers of `side` (in a race, where nothing blocks):
    one within 3 pips (2-1 is the smallest roll), or two on the 1- and 2-points at most."""
    left = [p for p in range(1, 26) for _ in range(side[p])] if side[OFF] >= CHECKERS - 2 else []
    return (len(left) == 1 and left[0] <= 3) or (len(left) == 2 and sum(left) <= 3)


def _race_wins(me: Side, op: Side, my_roll: bool) -> tuple[float, float, float]:
    """(P(win), P(win gammon), P(win backgammon)) for `me` in a race."""
    finish = _rolls_to_finish(me)
    win = _first(finish, _rolls_to_finish(op), my_roll)
    if op[OFF]:
        return win, 0.0, 0.0
    gammon = min(win, _first(finish, _rolls_to_save_gammon(op), my_roll))
    escape = _rolls_to_save_backgammon(op)
    backgammon = 0.0 if escape is None else min(gammon, _first(finish, escape, my_roll))
    return win, gammon, backgammon


def race_probabilities(me: Side, op: Side, my_roll: bool) -> Probabilities:
    if me[OFF] == CHECKERS or op[OFF] == CHECKERS:
        raise ValueError("the game is over: its outcome, not an estimate")
    roller, other = (me, op) if my_roll else (op, me)
    if _off_next_roll(roller):  # settled (the normal model gave its gammons 95-99 %)
        gammon = not other[OFF]
        certain = Probabilities(1.0, float(gammon), float(gammon and _stuck_back(other)), 0.0, 0.0)
        return certain if my_roll else certain.flipped()
    win, win_gammon, win_backgammon = _race_wins(me, op, my_roll)
    lose, lose_gammon, lose_backgammon = _race_wins(op, me, not my_roll)
    # Where a count is a normal, the two sides' chances are fitted separately: share the
    # probability they both claim (with both counts exact, win + lose is 1 already).
    total = win + lose
    return Probabilities(
        win / total,
        win_gammon / total,
        win_backgammon / total,
        lose_gammon / total,
        lose_backgammon / total,
    )


# --- shots --------------------------------------------------------------------------
#
# The opponent's 21 distinct rolls, doubles first: roll i is bit i of a mask, and a
# non-double stands for two of the 36 rolls.
ROLL_DICE: Final = tuple((d, d) for d in range(1, 7)) + tuple((a, b) for a in range(1, 7) for b in range(a + 1, 7))
DOUBLE_BITS: Final = (1 << 6) - 1


def _rolls_with_die(die: int) -> int:
    return sum(1 << i for i, roll in enumerate(ROLL_DICE) if die in roll)


def _paths(distance: int) -> tuple[tuple[int, int], ...]:
    """Every way one checker covers `distance` pips with the dice combined: (roll bit, points it
    must land on first, as a mask of offsets from the start).  A non-double goes through either
    die's point, so it has two entries, either one enough; a double lands on every step."""
    paths = []
    for i, (a, b) in enumerate(ROLL_DICE):
        if a != b and a + b == distance:
            paths += [(1 << i, 1 << a), (1 << i, 1 << b)]
        elif a == b and distance % a == 0 and 2 <= distance // a <= 4:
            paths.append((1 << i, sum(1 << (a * k) for k in range(1, distance // a))))
    return tuple(paths)


def _rolls_over(distance: int) -> tuple[int, ...]:
    """For each pattern of closed points on the way (bits 1 to `distance` - 1 of the index,
    offsets from the start), the rolls (mask) that carry one checker `distance` pips."""
    direct = _rolls_with_die(distance) if distance <= 6 else 0
    paths = _paths(distance)
    table = []
    for blocked in range(1 << distance):
        rolls = direct
        for bit, stops in paths:
            if not blocked & stops:
                rolls |= bit
        table.append(rolls)
    return tuple(table)


TABLE_REACH: Final = 12  # up to 12 pips, every pattern of closed points on the way is tabled
SHOT_TABLE: Final = tuple(_rolls_over(d) for d in range(TABLE_REACH + 1))  # [distance][closed points]
LONG_PATHS: Final = tuple(_paths(d) for d in range(25))  # beyond 12 pips only doubles reach


def _shot_rolls(blocked: int, start: int, distance: int) -> int:
    """The rolls (mask) that take a checker from my point `start` to a blot `distance` pips
    further, when `blocked` (a mask over my points) is where it may not land on the way."""
    ahead = blocked >> start
    if distance <= TABLE_REACH:
        return SHOT_TABLE[distance][ahead & ((1 << distance) - 1)]
    rolls = 0
    for bit, stops in LONG_PATHS[distance]:
        if not ahead & stops:
            rolls |= bit
    return rolls


def _count(rolls: int) -> int:
    """Of the 36 rolls, how many a mask of distinct rolls stands for."""
    return (rolls & DOUBLE_BITS).bit_count() + 2 * (rolls >> 6).bit_count()


def hitting_rolls(me: Side, op: Side) -> int:
    """How many of the opponent's 36 rolls hit at least one of my blots.

    Both sides in their own numbering: the opponent's point q is my 25 - q, its bar my 0,
    and it moves up my numbers.  A roll hits when one checker reaches a blot with one die,
    or with both dice through a point I have not made (either order), or on a double with
    two to four steps, every stop open.  Checkers on the bar enter first: with one there,
    the other die goes to any checker, the entered one included; with two or more a
    non-double only enters (it hits by entering on a blot); a double has 4 - n steps left
    after entering n.  Having to play both dice, or the larger one, is not checked: it
    rarely forbids a hit (0.3% of played positions count one roll too many,
    tests/games/backgammon/test_evaluation.py).
    """
    return _shots(op[BAR], *_gathered(me, op))[0]


def pips_hit(me: Side, op: Side) -> int:
    """The pips the opponent's 36 rolls take from me by hitting: a hit blot on my point p
    goes back to the bar, 25 - p pips; each roll counted once, hitting the blot that
    costs me the most."""
    return _shots(op[BAR], *_gathered(me, op))[1]


def _gathered(me: Side, op: Side) -> tuple[int, list[int], list[int]]:
    """My made points as a mask, my blots, the opponent's points in my numbering."""
    blocked = sum(1 << p for p in range(1, 25) if me[p] >= 2)
    return blocked, [p for p in range(1, 25) if me[p] == 1], [25 - q for q in range(1, 25) if op[q]]


def _shots(on_bar: int, blocked: int, blots: list[int], starts: list[int]) -> tuple[int, int]:
    """(`hitting_rolls`, `pips_hit`) from the parts `side_features` gathers (`_gathered`)."""
    covered = lost = 0
    for blot in blots:  # from my bar's far end: the costliest blot first
        if on_bar:
            rolls = _rolls_from_bar(on_bar, blocked, blot, starts)
        else:
            rolls = 0
            for start in starts:
                if start < blot:
                    rolls |= _shot_rolls(blocked, start, blot - start)
        lost += _count(rolls & ~covered) * (25 - blot)
        covered |= rolls
    return _count(covered), lost


def _rolls_from_bar(on_bar: int, blocked: int, blot: int, starts: list[int]) -> int:
    """The rolls (mask) that hit my `blot` when the opponent has `on_bar` checkers to enter
    first (on my points 1-6)."""
    steps = 4 - on_bar  # of a double, left to play once every checker there is in
    dice = doubles = 0  # the single dice, and the doubles in `steps` steps, that hit from the board
    for start in starts:
        if start < blot:
            distance = blot - start
            if distance <= 6:
                dice |= 1 << distance
            if steps > 0:
                for bit, stops in DOUBLE_PATHS[steps][distance]:
                    if not blocked >> start & stops:
                        doubles |= bit
    rolls = 0
    for i, (a, b) in enumerate(ROLL_DICE):
        if a == b:
            hit = a == blot or (not blocked >> a & 1 and (doubles >> i & 1 or _steps_hit(blocked, blot, a, steps)))
        elif on_bar > 1:
            hit = blot in (a, b)
        else:  # enter with one die (on the blot, or then hit it with the other from anywhere)
            hit = (not blocked >> a & 1 and (a == blot or dice >> b & 1 or a + b == blot)) or (
                not blocked >> b & 1 and (b == blot or dice >> a & 1 or a + b == blot)
            )
        if hit:
            rolls |= 1 << i
    return rolls


def _double_paths(steps: int, distance: int) -> tuple[tuple[int, int], ...]:
    """(roll bit, stops as offsets) of the doubles that cover `distance` in at most `steps` steps."""
    return tuple(
        (1 << (die - 1), sum(1 << (die * k) for k in range(1, distance // die)))
        for die in range(1, 7)
        if distance % die == 0 and distance // die <= steps
    )


DOUBLE_PATHS: Final = tuple(tuple(_double_paths(steps, d) for d in range(25)) for steps in range(4))


def _steps_hit(blocked: int, blot: int, entry: int, steps: int) -> bool:
    """Whether a checker entered on my point `entry` hits `blot` in `steps` more steps of `entry`'s die."""
    point = entry
    for _ in range(steps):
        point += entry
        if point == blot:
            return True
        if point > 24 or blocked >> point & 1:
            return False
    return False


# --- contact ------------------------------------------------------------------------


def side_features(me: Side, op: Side) -> tuple[float, ...]:
    """`me`'s counts against `op` (both in their own numbering), the network's hand-made inputs."""
    # The opponent's point q is my 25 - q, and its checkers move towards my 24: my blot at p
    # can be hit from any of them below p, directly from those 1-6 pips below.
    lowest, reach, starts = 25, [False] * 31, []
    if op[BAR]:
        lowest, reach[1:7] = 0, SIX
    for q in range(1, 25):
        if op[q]:
            below = 25 - q
            lowest = min(lowest, below)
            reach[below + 1 : below + 7] = SIX
            starts.append(below)
    made = home = anchors = back = run = prime = direct = stacked = blocked = 0
    blots = []  # those that can be hit: with a checker of theirs below
    for p in range(1, 25):
        n = me[p]
        if n >= 2:
            made += 1
            blocked |= 1 << p
            if p <= 6:
                home += 1
            elif p >= 19:
                anchors += 1
            run += 1
            if run > prime:
                prime = run
            if n > 3:
                stacked += n - 3
        else:
            run = 0
            if n == 1 and p > lowest:
                blots.append(p)
                direct += reach[p]
        if p >= 19:
            back += n
    shots, lost = _shots(op[BAR], blocked, blots, starts)
    return (
        _pips(me) / 100,
        float(me[BAR]),
        float(len(blots)),
        float(direct),
        float(made),
        float(home),
        float(prime - 1 if prime > 1 else 0),
        float(anchors),
        float(back + me[BAR]),
        me[OFF] / CHECKERS,
        stacked / CHECKERS,
        shots / 36,
        lost / (36 * 25),
    )


SIX: Final = [True] * 6


# --- contact: what gnubg's contact network also reads -----------------------------------


def _escape_rolls(closed: int) -> int:
    """Of the 36 rolls, those that carry a checker both dice's pips onto an open point through an
    open one, when `closed` (bit d - 1: the point d pips ahead) holds what is closed ahead of it."""
    rolls = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if not closed >> (a + b - 1) & 1 and not (closed >> (a - 1) & 1 and closed >> (b - 1) & 1):
                rolls += 1
    return rolls


ESCAPES: Final = tuple(_escape_rolls(closed) for closed in range(1 << 12))


def _escapes(closed: int, point: int) -> int:
    """The rolls that let the other side's checker on its point `point` (25: its bar) get past the
    blocker's points, `closed` holding them as bit p - 1 for the blocker's own point p."""
    return ESCAPES[(closed >> (25 - point)) & 0xFFF]


def blockade_features(me: Side, op: Side) -> tuple[float, ...]:
    """`me`'s counts of contact that GNU Backgammon's contact network reads beside the points
    (its documented inputs, each side's as its own): how well my points hold the opponent's
    checkers in (the rolls its rearmost escapes with, the least over its far points, squared
    too), how freely mine move against its points, the pips I still have to bring past its
    rearmost checker and those already past, my timing (the pips I can play before breaking
    my board), my rearmost checker and anchors, my checkers' spread beyond their mean, what
    entering against its board costs, how far apart my points are, and back-game counts."""
    mine = sum(1 << (p - 1) for p in range(1, 25) if me[p] >= 2)
    theirs = sum(1 << (p - 1) for p in range(1, 25) if op[p] >= 2)
    op_back = next((p for p in range(25, 0, -1) if op[p]), 0)  # its rearmost, its numbering
    past = 24 - op_back  # my checkers on points up to this one have passed it
    behind = sum((p - past) * me[p] for p in range(max(past + 1, 1), 26))
    free = sum(p * me[p] for p in range(1, past + 1))
    back_escapes = _escapes(mine, op_back) if op_back else 36
    held = min((_escapes(mine, n) for n in range(16, op_back + 1)), default=36)
    contain = min(_escapes(mine, n) for n in range(16, 25))
    mobility = sum((p - 6) * me[p] * _escapes(theirs, p) for p in range(7, 26) if me[p])
    count = sum(me[1:26])
    mean = -(-sum((p - 1) * me[p] for p in range(1, 26)) // count) if count else 0
    far = [(p - 1 - mean, me[p]) for p in range(mean + 2, 26) if me[p]]
    spread = -(-sum(d * d * n for d, n in far) // sum(n for _, n in far)) if far else 0
    closed_home = [op[p] >= 2 for p in range(1, 7)]
    return (
        behind / 167,
        free / 100,
        back_escapes / 36,
        (36 - held) / 36,
        ((36 - held) / 36) ** 2,
        (36 - contain) / 36,
        ((36 - contain) / 36) ** 2,
        mobility / 3600,
        spread / 400,
        _entering_loss(me[BAR], closed_home) / (36 * ROLL_PIPS),
        (36 - (sum(closed_home) - 6) ** 2) / 36,
        _timing(me, past) / 100,
        *_anchors(me),
        _backbone(me),
        *_back_game(me),
    )


def _entering_loss(on_bar: int, closed: list[bool]) -> float:
    """The pips of rolls lost to the opponent's closed home points, with `on_bar` to enter."""
    if not on_bar:
        return 0.0
    loss = 0
    for i in range(6):
        for j in range(i, 6):
            weight = 1 if i == j else 2
            if i == j:
                lost = 4 * (i + 1) if closed[i] else 0
            elif closed[i] and closed[j]:
                lost = i + j + 2
            elif on_bar > 1 and (closed[i] or closed[j]):
                lost = (i + 1) if closed[i] else (j + 1)
            else:
                lost = 0
            loss += weight * lost
    return loss


def _timing(me: Side, past: int) -> int:
    """The pips I can play before I must break my home board: checkers outside it count whole
    (back ones beyond the opponent's reach only those over a point held), home ones only those
    over two on a point, less what filling the home points short of two takes."""
    pips, spare = 24 * me[BAR], me[BAR]
    for p in range(24, max(past, 11) + 1, -1):
        n = me[p]
        if n and n != 2:
            extra = n - 2 if n > 2 else 1
            spare += extra
            pips += (p - 1) * extra
    for p in range(min(24, max(past, 11) + 1), 6, -1):
        spare += me[p]
        pips += (p - 1) * me[p]
    for p in range(6, 0, -1):
        n = me[p]
        if n > 2:
            pips += (p - 1) * (n - 2)
            spare += n - 2
        elif n < 2 and spare >= 2 - n:
            pips -= (p - 1) * (2 - n)
            spare -= 2 - n
    return max(pips, 0)


def _anchors(me: Side) -> tuple[float, float, float]:
    """My rearmost checker, my rearmost point held (from it), and my most forward anchor (the
    lowest of my points 19-24, else my highest of 13-18; 12 pips when none), in gnubg's scale."""
    back = next((p for p in range(25, 0, -1) if me[p]), 0)
    anchor = next((p for p in range(min(back, 24), 0, -1) if me[p] >= 2), 0)
    forward = next((25 - p for p in range(19, anchor + 1) if me[p] >= 2), 0)
    if not forward:
        forward = next((25 - p for p in range(18, 12, -1) if me[p] >= 2), 0)
    return (back - 1) / 24, (anchor - 1) / 24, forward / 6 if forward else 2.0


def _backbone(me: Side) -> float:
    """How far my points are from my rearmost point held: 1 less the share of them within reach
    of it (within 6 pips wholly, to 11 less and less), weighed by that point's checkers."""
    rearmost = weight = total = 0
    for p in range(24, 1, -1):
        if me[p] >= 2:
            if not rearmost:
                rearmost = p
                continue
            gap = rearmost - p
            weight += (11 if gap <= 6 else 13 - gap if gap <= 11 else 0) * me[rearmost]
            total += me[rearmost]
    return 1 - weight / (total * 11) if total else 0.0


def _back_game(me: Side) -> tuple[float, float]:
    """A back game (two or more points held in the opponent's home board): my checkers there
    and on the bar, less 3, / 4; a single such anchor: those checkers / 8."""
    anchors = sum(me[p] >= 2 for p in range(19, 25))
    back = sum(me[19:26])
    if anchors > 1:
        return (back - 3) / 4, 0.0
    if anchors == 1:
        return 0.0, back / 8
    return 0.0, 0.0


WIN_FEATURES: Final = (
    "pips/100", "bar", "exposed blots", "direct-shot blots", "made points", "home points",
    "prime-1", "anchors", "back checkers", "off/15", "stacked/15", "shots/36", "pips hit/900",
)  # fmt: skip

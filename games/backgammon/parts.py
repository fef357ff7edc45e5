"""A backgammon play entered die by die: the graph of single-die steps the browser offers.

A play moves up to four checkers, one die each, in whatever order the player picks them;
the rules' own step generator (`rules._steps`) and the legal plays (`rules.legal_plays`,
with the rules that every die that can be played must be, the larger one when only one
can) decide which steps are offered: a step is offered where some legal play can still be
completed after it.  Each node of the graph is a position and the dice left, so two
orders of the same steps meet again; a node whose position is a legal play's names it.

A step is written ``die:from/to``, in the mover's numbering, ``*`` after a hit:
``6:13/7``, ``4:bar/21*``, ``5:3/off``.

>>> from games.backgammon.rules import BackgammonState
>>> state = BackgammonState(turn=0, dice=(6, 5))
>>> graph = play_parts(state)
>>> sorted(part for part, _ in graph[0].parts)[:3]
['5:13/8', '5:8/3', '6:13/7']
>>> graph[dict(graph[0].parts)["6:24/18"]].move is None  # half a play
True
"""

from __future__ import annotations

from games.backgammon.rules import BAR, OFF, PASS, BackgammonState, Point, Side, _step, _steps, legal_plays, sides
from games.base import PartsNode

Dice = tuple[int, ...]  # the dice left, smallest first


def play_parts(state: BackgammonState) -> list[PartsNode] | None:
    """The steps of every legal play of `state` as a graph (node 0: no step yet); None without a choice to enter."""
    plays = legal_plays(state)
    if not plays or PASS in plays:
        return None
    seat = state.turn
    endings = {sides(after, seat): play for play, after in plays.items()}
    a, b = state.dice
    dice = (a,) * 4 if a == b else tuple(sorted((a, b)))
    me, op = sides(state, seat)
    return _Walk(endings).graph(me, op, dice)


def step_text(die: int, frm: Point, to: Point, hit: bool) -> str:
    """``6:13/7*``: the die, the checker's point, where it lands (bar, off), and a hit."""
    name = {BAR: "bar", OFF: "off"}
    return f"{die}:{name.get(frm, frm)}/{name.get(to, to)}{'*' if hit else ''}"


class _Walk:
    """Walks the steps from the start, keeping the nodes from which a legal play is reached."""

    def __init__(self, endings: dict[tuple[Side, Side], str]) -> None:
        self.endings = endings
        self.index: dict[tuple[Side, Side, Dice], int | None] = {}  # None: no legal play from there
        self.nodes: list[PartsNode] = []

    def graph(self, me: Side, op: Side, dice: Dice) -> list[PartsNode]:
        self.nodes.append(PartsNode(()))  # node 0 is the start, whatever its index would be
        self.index[(me, op, dice)] = 0
        parts = self._parts(me, op, dice)
        self.nodes[0] = PartsNode(parts, self.endings.get((me, op)))
        return self.nodes

    def _node(self, me: Side, op: Side, dice: Dice) -> int | None:
        key = (me, op, dice)
        if key not in self.index:
            parts = self._parts(me, op, dice)
            move = self.endings.get((me, op))
            if not parts and move is None:
                self.index[key] = None
            else:
                self.index[key] = len(self.nodes)
                self.nodes.append(PartsNode(parts, move))
        return self.index[key]

    def _parts(self, me: Side, op: Side, dice: Dice) -> tuple[tuple[str, int], ...]:
        parts = []  # a legal play's position may be another's on the way (3/1/off is 3/off; 3/off 1/off goes on)
        for die in sorted(set(dice)):
            rest = list(dice)
            rest.remove(die)
            for frm, to, hit in _steps(me, op, die):
                after = _step(me, op, frm, to, hit)
                target = self._node(*after, tuple(rest))
                if target is not None:
                    parts.append((step_text(die, frm, to, hit), target))
        return tuple(parts)

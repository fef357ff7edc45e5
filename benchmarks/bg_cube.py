"""The bots' cube decisions against GNU Backgammon 2-ply, on money positions where a double is considered.

Positions: gnubg 0-ply plays both sides of money games (a little noise, so the games
differ); every position before a roll where the seat on roll wins 60 % to 95 % of the
time by gnubg's 0-ply cubeless evaluation is one where a double is considered.  Every
other one is taken with the cube on 2 and the roller owning it (a redouble), the rest
with the cube centred.

For each, gnubg 2-ply's cubeful equities (no double, double/take, double/drop) decide
double or not and take or drop; ours come from `ai.cube` on the evaluation's cubeless
probabilities (what every bot but the random mover plays).  Printed: agreement for each
decision with its 95 % interval (Wilson), what gnubg's equities say the disagreements
cost (in units of the cube, per decision and in all), and for comparison the same model
on gnubg's own 0-ply probabilities (what is left when our evaluation is taken out), and for
the race positions among them our 0-ply P(win) against gnubg 0-ply's and how many of their
decisions agree.  ``--judged FILE`` keeps the judged positions; with ``--reevaluate`` our side
is computed again by the evaluation as it stands (gnubg's verdicts kept), so a change of the
evaluation is measured on the same positions.

    .venv/bin/python benchmarks/bg_cube.py --positions 200 --seed 1

Needs gnubg (``apt-get install -y gnubg``); see `benchmarks.gnubg_bridge`.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import cube  # noqa: E402
from benchmarks.gnubg_bridge import CubeEquities, Gnubg, Outputs  # noqa: E402
from games import registry  # noqa: E402
from games.backgammon import CENTRED, DOUBLE, TAKE, Backgammon, BackgammonState, sides  # noqa: E402
from games.backgammon.evaluation import race_probabilities, race_started  # noqa: E402
from games.base import CHANCE, CubeInputs  # noqa: E402

CONSIDERED = (0.60, 0.95)  # the roller's cubeless chances of winning where a double is considered
NOISE = 0.03  # gnubg's play while generating positions: its "casual" noise is 0.05
GAME: Backgammon = registry.get("backgammon").with_options({"cube": True})  # type: ignore[assignment]


@dataclass
class Tally:
    agreed: int = 0
    total: int = 0
    lost: float = 0.0  # gnubg's equity given away where we disagree, in units of the cube

    def add(self, same: bool, cost: float) -> None:
        self.total += 1
        self.agreed += same
        self.lost += 0.0 if same else cost

    def line(self, name: str) -> str:
        low, high = wilson(self.agreed, self.total)
        wrong = self.total - self.agreed
        return (
            f"{name:<24} {self.agreed}/{self.total} = {100 * self.agreed / self.total:.1f} % "
            f"(95 % interval {100 * low:.1f}-{100 * high:.1f});  disagreements cost "
            f"{self.lost:.3f} in all, {self.lost / max(wrong, 1):.3f} each, {self.lost / self.total:.4f} a decision"
        )


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95 % interval for a proportion."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def positions(gnubg: Gnubg, wanted: int, rng: random.Random) -> list[BackgammonState]:
    """Positions before a roll, from gnubg's self-play, where the roller's cubeless chances are `CONSIDERED`."""
    found: list[BackgammonState] = []
    while len(found) < wanted:
        state = GAME.initial_state()
        while not GAME.is_terminal(state) and len(found) < wanted:
            before_roll = not state.dice and state.ply > 1 and state.cube_action == ""
            if before_roll and considered(gnubg.evaluate(state)):
                found.append(replace(state, cube=2, owner=state.turn) if len(found) % 2 else state)
            if GAME.to_move(state) == CHANCE:
                outcomes = GAME.chance_outcomes(state)
                state = GAME.apply(state, rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0])
            elif state.dice:
                state = GAME.apply(state, gnubg.move(state, 0, NOISE))
            else:
                state = GAME.apply(state, GAME.legal_moves(state)[-1])  # "roll": self-play keeps the cube still
    return found


def considered(outputs: Outputs) -> bool:
    return CONSIDERED[0] <= outputs.win <= CONSIDERED[1]


def double_cost(judge: CubeEquities, double: bool) -> float:
    """What a cube action gives away by the judge's equities, the opponent answering best."""
    doubled = min(judge.double_take, judge.double_drop)
    return max(doubled, judge.no_double) - (doubled if double else judge.no_double)


def gnubg_inputs(state: BackgammonState, outputs: Outputs, offer: bool) -> CubeInputs:
    """`ai.cube`'s inputs from gnubg's own 0-ply cubeless outputs instead of our evaluation."""
    act, decline = ("double", "roll") if offer else ("take", "drop")
    return CubeInputs(offer, act, decline, outputs.win, outputs.win_gammon, outputs.win_backgammon,
                      outputs.lose_gammon, outputs.lose_backgammon, centred=state.owner == CENTRED)  # fmt: skip


@dataclass
class Judged:
    """One position with what deciding it takes: gnubg's verdict, gnubg's 0-ply outputs and our inputs
    (each costly to compute, none depending on the cube model, so a file of them re-judges the model fast)."""

    state: BackgammonState
    judge: CubeEquities
    outputs: Outputs
    offer: CubeInputs
    answer: CubeInputs

    def to_json(self) -> dict[str, object]:
        return {"state": GAME.to_json(self.state), "judge": asdict(self.judge), "outputs": asdict(self.outputs),
                "offer": asdict(self.offer), "answer": asdict(self.answer)}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Judged:
        return cls(GAME.from_json(data["state"]), CubeEquities(**data["judge"]), Outputs(**data["outputs"]),
                   CubeInputs(**data["offer"]), CubeInputs(**data["answer"]))  # fmt: skip


def judged(wanted: int, seed: int, plies: int, look_ahead: bool) -> list[Judged]:
    rng = random.Random(seed)
    found: list[Judged] = []
    with Gnubg() as gnubg:
        for state in positions(gnubg, wanted, rng):
            offer = GAME.cube_inputs(state, look_ahead)
            answer = GAME.cube_inputs(GAME.apply(state, DOUBLE), look_ahead)
            assert offer is not None and answer is not None
            found.append(Judged(state, gnubg.cube(state, plies), gnubg.evaluate(state), offer, answer))
    return found


def load_or_judge(path: str, wanted: int, seed: int, plies: int, look_ahead: bool) -> list[Judged]:
    """The judged positions of `path` (a JSON file this script wrote with the same arguments), or judged now
    and written there."""
    key = {"positions": wanted, "seed": seed, "plies": plies, "look_ahead": look_ahead}
    if path and Path(path).exists():
        data = json.loads(Path(path).read_text())
        if data["key"] != key:
            raise SystemExit(f"{path} holds {data['key']}, not {key}")
        return [Judged.from_json(item) for item in data["positions"]]
    found = judged(wanted, seed, plies, look_ahead)
    if path:
        Path(path).write_text(json.dumps({"key": key, "positions": [item.to_json() for item in found]}))
    return found


def ours_again(item: Judged, look_ahead: bool) -> Judged:
    """`item` with our inputs from the evaluation as it is now."""
    offer = GAME.cube_inputs(item.state, look_ahead)
    answer = GAME.cube_inputs(GAME.apply(item.state, DOUBLE), look_ahead)
    assert offer is not None and answer is not None
    return replace(item, offer=offer, answer=answer)


@dataclass
class Races:
    """Our race positions' P(win) against gnubg 0-ply's: ours from the position itself (0-ply)."""

    errors: list[float] = field(default_factory=list)
    agreed: list[int] = field(default_factory=list)  # of the two decisions, how many agree with gnubg's

    def add(self, item: Judged, agreed: int) -> None:
        me, theirs = sides(item.state, item.state.turn)
        op = (theirs[0], *theirs[24:0:-1], theirs[25])  # in its own numbering
        if race_started(me, op):
            self.errors.append(abs(race_probabilities(me, op, True).win - item.outputs.win))
            self.agreed.append(agreed)

    def line(self) -> str:
        n = len(self.errors)
        if not n:
            return "races: none"
        return (f"races: {n} positions, our 0-ply P(win) off gnubg 0-ply's by {sum(self.errors) / n:.4f} "
                f"on average, by > 0.12 in {sum(e > 0.12 for e in self.errors)}; "
                f"decisions agreed {sum(self.agreed)} of {2 * n}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", type=int, default=2, help="gnubg's lookahead for the reference decisions")
    parser.add_argument("--verbose", action="store_true", help="print every disagreement")
    parser.add_argument(
        "--no-look-ahead",
        action="store_true",
        help="ours from the position's own evaluation (what bots with budgets under "
        f"{cube.LOOK_AHEAD_MIN_BUDGET_MS} ms decide by), not one roll ahead",
    )
    parser.add_argument(
        "--efficiencies",
        default="",
        help="also the agreement at these cube efficiencies (comma-separated), on the same positions: "
        "tune on one seed, check on another",
    )
    parser.add_argument(
        "--judged",
        default="",
        help="a JSON file of the judged positions: read if it exists (the model judged again in seconds), else written",
    )
    parser.add_argument(
        "--reevaluate",
        action="store_true",
        help="with --judged: our probabilities computed again by the evaluation as it is now (gnubg's kept)",
    )
    args = parser.parse_args()
    look_ahead = not args.no_look_ahead
    others = [float(x) for x in args.efficiencies.split(",") if x]
    by_efficiency = {x: (Tally(), Tally()) for x in others}
    ours_double, ours_take, model_double, model_take = Tally(), Tally(), Tally(), Tally()
    confusion = {(ours, theirs): 0 for ours in (True, False) for theirs in (True, False)}
    verdicts = {"double": 0, "no double": 0, "too good": 0, "take": 0, "drop": 0}
    started = time.perf_counter()
    found = load_or_judge(args.judged, args.positions, args.seed, args.plies, look_ahead)
    if args.reevaluate:
        found = [ours_again(item, look_ahead) for item in found]
    races = Races()
    for item in found:
        judge, state = item.judge, item.state
        too_good = judge.no_double > judge.double_drop
        verdicts["double" if judge.double else "too good" if too_good else "no double"] += 1
        verdicts["take" if judge.take else "drop"] += 1
        doubles, takes = cube.decide(item.offer).move == DOUBLE, cube.decide(item.answer).move == TAKE
        take_cost = abs(judge.double_take - judge.double_drop)
        for x, (double_tally, take_tally) in by_efficiency.items():
            double_x = cube.decide(item.offer, x).move == DOUBLE
            double_tally.add(double_x == judge.double, double_cost(judge, double_x))
            take_x = cube.decide(item.answer, x).move == TAKE
            take_tally.add(take_x == judge.take, take_cost)
        confusion[doubles, judge.double] += 1
        ours_double.add(doubles == judge.double, double_cost(judge, doubles))
        ours_take.add(takes == judge.take, take_cost)
        model_double.add(
            (cube.decide(gnubg_inputs(state, item.outputs, True)).move == DOUBLE) == judge.double,
            double_cost(judge, not judge.double),
        )
        model_take.add((cube.decide(gnubg_inputs(state, item.outputs, False)).move == TAKE) == judge.take, take_cost)
        races.add(item, (doubles == judge.double) + (takes == judge.take))
        if args.verbose and (doubles != judge.double or takes != judge.take):
            print(f"  {GAME.to_json(state)}\n    gnubg {judge}; ours double={doubles} take={takes}; {item.offer}")
    print(f"ours {'one roll ahead' if look_ahead else 'from the position itself (0-ply)'}; "
          f"{len(found)} positions (cube centred or owned by the roller at 2, half each), seed {args.seed}; "
          f"gnubg {args.plies}-ply says: {verdicts}")  # fmt: skip
    print(ours_double.line("double / no double"))
    print(ours_take.line("take / drop"))
    print(f"  we double where gnubg does not: {confusion[True, False]}; not where it does: {confusion[False, True]}")
    for x, (double_tally, take_tally) in by_efficiency.items():
        print(f"cube efficiency {x}:")
        print(double_tally.line("  double / no double"))
        print(take_tally.line("  take / drop"))
    print("the same model on gnubg's 0-ply probabilities:")
    print(model_double.line("  double / no double"))
    print(model_take.line("  take / drop"))
    print(races.line())
    print(f"{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()

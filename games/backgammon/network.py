"""A network with one hidden layer, as TD-Gammon's and GNU Backgammon's: its weights, and its outputs.

outputs = sigmoid(tanh(x W1 + b1) W2 + b2), five sigmoids read as P(win), P(win a
gammon), P(win a backgammon), P(lose a gammon), P(lose a backgammon) for the side about
to roll.  What the inputs are (`evaluation.network_inputs`) and what the rules settle
after it are the evaluation's business; this module only holds the arithmetic.  The
weights of the contact network live beside it in ``contact_network.json``, fitted by
``benchmarks/bg_net.py`` to GNU Backgammon's 0-ply cubeless outputs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

CONTACT_WEIGHTS: Final = Path(__file__).with_name("contact_network.json")

Matrix = npt.NDArray[np.float64]
Outputs = tuple[float, float, float, float, float]


class Network:
    def __init__(self, w1: Matrix, b1: Matrix, w2: Matrix, b2: Matrix) -> None:
        hidden = w1.shape[1]
        if b1.shape != (hidden,) or w2.shape != (hidden, 5) or b2.shape != (5,):
            raise ValueError(f"weights of shapes {w1.shape}, {b1.shape}, {w2.shape}, {b2.shape} do not fit together")
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2

    @property
    def inputs(self) -> int:
        return int(self.w1.shape[0])

    @classmethod
    def load(cls, path: Path) -> Network:
        data = json.loads(path.read_text())
        return cls(*(np.array(data[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2")))

    def save(self, path: Path, digits: int = 5) -> None:
        """Written rounded to `digits` significant digits: what is saved is what plays."""
        data = {k: _rounded(getattr(self, k), digits).tolist() for k in ("w1", "b1", "w2", "b2")}
        path.write_text(json.dumps(data, separators=(",", ":")) + "\n")

    def outputs(self, inputs: Sequence[float]) -> Outputs:
        hidden = np.tanh(np.asarray(inputs, dtype=np.float64) @ self.w1 + self.b1)
        win, wg, wbg, lg, lbg = (1.0 / (1.0 + np.exp(-(hidden @ self.w2 + self.b2)))).tolist()
        return win, wg, wbg, lg, lbg


def _rounded(values: Matrix, digits: int) -> Matrix:
    return np.array([float(f"{v:.{digits}g}") for v in values.ravel()]).reshape(values.shape)


@cache
def contact_network() -> Network:
    return Network.load(CONTACT_WEIGHTS)

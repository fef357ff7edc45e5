"""The network's arithmetic and its weights file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from games.backgammon.evaluation import NETWORK_INPUTS
from games.backgammon.network import Network, contact_network


def small_network(seed: int = 1) -> Network:
    rng = np.random.default_rng(seed)
    return Network(rng.normal(size=(6, 4)), rng.normal(size=4), rng.normal(size=(4, 5)), rng.normal(size=5))


def test_outputs_are_the_sigmoids_of_one_tanh_layer() -> None:
    net = small_network()
    x = [0.5, -1.0, 0.0, 2.0, 1.0, 0.25]
    expected = 1 / (1 + np.exp(-(np.tanh(np.array(x) @ net.w1 + net.b1) @ net.w2 + net.b2)))
    assert net.outputs(x) == pytest.approx(expected.tolist(), abs=1e-12)
    assert all(0 < p < 1 for p in net.outputs(x))


def test_weights_that_do_not_fit_together_are_refused() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        Network(np.zeros((6, 4)), np.zeros(3), np.zeros((4, 5)), np.zeros(5))
    with pytest.raises(ValueError, match="do not fit"):
        Network(np.zeros((6, 4)), np.zeros(4), np.zeros((4, 4)), np.zeros(5))


def test_saved_weights_play_as_they_were_trained_to_five_digits(tmp_path: Path) -> None:
    net = small_network()
    net.save(tmp_path / "net.json")
    loaded = Network.load(tmp_path / "net.json")
    x = [0.5, -1.0, 0.0, 2.0, 1.0, 0.25]
    assert loaded.outputs(x) == pytest.approx(net.outputs(x), abs=1e-3)
    loaded.save(tmp_path / "again.json")  # rounding again changes nothing
    assert (tmp_path / "again.json").read_text() == (tmp_path / "net.json").read_text()


def test_the_shipped_contact_network_reads_the_evaluations_inputs() -> None:
    assert contact_network().inputs == NETWORK_INPUTS

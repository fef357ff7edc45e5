"""The Connect Four solver's tables stay bounded: a bot worker serves match after match in one process."""

from __future__ import annotations

from games.connect4 import CONNECT4
from games.connect4 import solver as solver_module
from games.connect4.solver import Connect4Solver

# A middle-game position of the published test set (Test_L2_R1): thousands of nodes to solve.
POSITION = "13633551437347572"


def test_the_tables_never_outgrow_their_limits(monkeypatch):
    monkeypatch.setattr(solver_module, "TT_LIMIT", 200)
    monkeypatch.setattr(solver_module, "ORDERS_LIMIT", 50)
    solver = Connect4Solver(compiled=False)  # the Python search's tables (the compiled one's is fixed in size)
    state = CONNECT4.from_moves(POSITION)
    score = solver.solve_state(state)
    assert solver.nodes > 5000  # enough work to fill the tables many times over
    assert len(solver.lower) <= 201 and len(solver.upper) <= 201 and len(solver.orders) <= 51
    assert score == Connect4Solver().solve_state(state)  # clearing costs time, never the exact answer


def test_the_limits_keep_a_worker_small():
    # About 100 bytes a bound entry and 500 a move order: at most ~75 MB together.
    assert solver_module.TT_LIMIT * 2 * 100 + solver_module.ORDERS_LIMIT * 500 <= 80 * 2**20

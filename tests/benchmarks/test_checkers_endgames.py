"""`benchmarks/checkers_endgames.py` runs and tallies: two positions of one king against one (a
draw, and a win: a lone king in the single corner can be trapped), a few seconds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_two_positions_are_played_and_counted() -> None:
    run = subprocess.run(
        [sys.executable, "benchmarks/checkers_endgames.py", "--positions", "2", "--pieces", "2", "--kings-only",
         "--budget-ms", "50"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )  # fmt: skip
    lines = run.stdout.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("  W:WK17:BK5: proven 0") and lines[1].startswith("  B:WK29:BK1: proven 1 (11 quiet")
    assert re.search(r"wins converted [01] of 1, draws held 1 of 1; \d+ of \d+ moves kept the value", lines[-1])

"""`benchmarks/ladder_quick.py --log`: a game already in the log is not played again, and
`--summary` tabulates the log as a run does (tic-tac-toe, two games: well under a second)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ladder_quick(*args: str) -> str:
    run = subprocess.run(
        [sys.executable, "benchmarks/ladder_quick.py", "--game", "tictactoe", "--steps", "1", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout


def test_a_resumed_run_plays_only_the_games_not_in_the_log(tmp_path: Path) -> None:
    log = tmp_path / "ladder.jsonl"
    ladder_quick("--games", "1", "--log", str(log))
    first = json.loads(log.read_text())
    assert (first["game"], first["step"], first["index"], first["seats"]) == ("tictactoe", 1, 0, "UL")
    # Mark the logged game: were it played again, its record would be replaced.
    first["plies"] = 99
    log.write_text(json.dumps(first) + "\n")

    out = ladder_quick("--games", "2", "--log", str(log))
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert "1 games already in" in out
    assert [(r["index"], r["seats"]) for r in records] == [(0, "UL"), (1, "LU")]
    assert records[0]["plies"] == 99
    table = out.split("\n# ")[0].split("\n", 1)[1]  # after the run's heading, before its wall time
    row = f"| 2 | {sum(r['score'] for r in records) / 2:.0%} |"
    assert row in table
    assert ladder_quick("--summary", "--log", str(log)).strip() == table.strip()


def test_a_gzipped_log_is_resumed_and_tabulated_as_a_plain_one(tmp_path: Path) -> None:
    plain, packed = tmp_path / "ladder.jsonl", tmp_path / "ladder.jsonl.gz"
    ladder_quick("--games", "1", "--log", str(packed))
    # A run killed while it appended leaves its last gzip member cut short, mid-line.
    packed.write_bytes(packed.read_bytes() + gzip.compress(b'{"game": "tictac')[:-8])

    out = ladder_quick("--games", "2", "--log", str(packed))
    assert "1 games already in" in out
    with gzip.open(packed, "rt") as file:
        lines = file.read().splitlines()
    assert [json.loads(line)["index"] for line in lines] == [0, 1]
    # The same games as a plain log (games played twice may end differently: bots keep time budgets).
    plain.write_text("\n".join(lines) + "\n")
    assert ladder_quick("--summary", "--log", str(packed)) == ladder_quick("--summary", "--log", str(plain))

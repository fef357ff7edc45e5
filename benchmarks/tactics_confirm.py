"""Keep the tactical positions whose best move Stockfish confirms: ``tests/data/chess_tactics.epd``.

Not in CI. Needs Debian's engine: ``apt-get install -y stockfish`` (``/usr/games/stockfish``).
The source is the Win At Chess suite (Reinfeld 1958, 300 positions, public domain) in
``tests/data/chess/win-at-chess.epd``. Stockfish searches each position to ``--depth``
(one thread, ``--hash`` MB cleared between positions, MultiPV 2); a position is kept when
Stockfish's first line starts with one of the ``bm`` moves (and with none of the ``am``
moves). Each kept line is the source EPD with ``acd`` (the depth Stockfish reached), ``ce``
(its score in centipawns for the side to move; ``dm`` as well when it sees a mate), ``pv``
(the first moves of its line), ``c1`` (the score of its second-best move, how unique the
solution is) and the ``id``. Run it niced: ``nice -n 19``.

    .venv/bin/python benchmarks/tactics_confirm.py [--depth 20] [--hash 64] [--limit N] [--resume]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "data" / "chess" / "win-at-chess.epd"
OUTPUT = ROOT / "tests" / "data" / "chess_tactics.epd"
STOCKFISH_PATHS = ("stockfish", "/usr/games/stockfish")
MATE_SCORE = 32_000  # how a mate is written in ``ce``, the convention of EPD files
PV_MOVES = 6


def centipawns(score: chess.engine.PovScore, board: chess.Board) -> int:
    pov = score.pov(board.turn)
    return int(pov.score(mate_score=MATE_SCORE))


def confirmed_line(engine: chess.engine.SimpleEngine, line: str, depth: int) -> tuple[str | None, str]:
    """The annotated EPD if Stockfish confirms a ``bm`` move, else None; and what it played."""
    board, operations = chess.Board.from_epd(line)
    best = set(operations.get("bm") or [])  # type: ignore[arg-type]
    avoid = set(operations.get("am") or [])  # type: ignore[arg-type]
    infos = engine.analyse(board, chess.engine.Limit(depth=depth), multipv=2, game=operations["id"])
    first = infos[0]
    move = first["pv"][0]
    played = board.san(move)
    if move not in best or move in avoid:
        return None, played
    annotated: dict[str, object] = dict(operations)
    annotated["acd"] = int(first.get("depth", depth))
    annotated["ce"] = centipawns(first["score"], board)
    mate = first["score"].pov(board.turn).mate()
    if mate is not None:
        annotated["dm"] = mate
    annotated["pv"] = first["pv"][:PV_MOVES]
    if len(infos) > 1:
        annotated["c1"] = f"second best {board.san(infos[1]['pv'][0])} {centipawns(infos[1]['score'], board)}"
    return board.epd(**annotated), played  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--hash", type=int, default=64, help="MB")
    parser.add_argument("--limit", type=int, default=0, help="only the first N positions")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--resume", action="store_true", help="keep the output's lines, go on after its last id")
    args = parser.parse_args()
    path = next((p for p in map(shutil.which, STOCKFISH_PATHS) if p), None)
    if path is None:
        sys.exit("Stockfish not found: apt-get install -y stockfish")
    lines = [line for line in SOURCE.read_text().splitlines() if line.strip()]
    if args.limit:
        lines = lines[: args.limit]
    kept: list[str] = []
    if args.resume and args.output.exists():
        # Keep what a stopped run confirmed, and go on after the last position it looked at.
        kept = [line for line in args.output.read_text().splitlines() if line.strip()]
        last = str(chess.Board.from_epd(kept[-1])[1]["id"]) if kept else ""
        lines = [line for line in lines if str(chess.Board.from_epd(line)[1]["id"]) > last]
    one, five, _ = os.getloadavg()
    print(f"# {len(lines)} positions, depth {args.depth}, MultiPV 2, 1 thread, {args.hash} MB; "
          f"load average {one:.1f} / {five:.1f}")  # fmt: skip
    rejected = []
    started = time.time()
    # Written line by line, so that a run stopped early leaves the positions confirmed so far.
    with chess.engine.SimpleEngine.popen_uci(path) as engine, args.output.open("w") as output:
        output.writelines(f"{epd}\n" for epd in kept)
        engine.configure({"Threads": 1, "Hash": args.hash})
        for line in lines:
            annotated, played = confirmed_line(engine, line, args.depth)
            name = str(chess.Board.from_epd(line)[1]["id"])
            if annotated is None:
                rejected.append(f"{name} ({played})")
            else:
                kept.append(annotated)
                output.write(f"{annotated}\n")
                output.flush()
    one, five, _ = os.getloadavg()
    print(f"kept {len(kept)} ({len(lines)} looked at) in {args.output}; {time.time() - started:.0f} s wall, "
          f"load average {one:.1f} / {five:.1f} at the end")  # fmt: skip
    print(f"not confirmed (Stockfish's move): {', '.join(rejected) or 'none'}")


if __name__ == "__main__":
    main()

"""The opening book: its format, its look-ups, and its entries re-solved by the Python solver.

Built here for a part of the game (every position with 24 stones that one 20-stone middle game
leads to), as the full book is built (`python -m games.connect4.book build`): the same code.
"""

from __future__ import annotations

import random

import pytest

from games.connect4 import CONNECT4, _solver, book
from games.connect4.solver import Connect4Solver

# A drawn middle game of 20 stones (the first 20 moves of a Test_L2_R1 line).
PREFIX = "56117611221335622473"
PLY = 24


@pytest.fixture(scope="module")
def part() -> book.Book:
    return book.build(PLY, PREFIX)


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def test_it_holds_each_live_position_once_for_it_and_its_mirror(part):
    keys = [part.key_at(i) >> 2 for i in range(len(part))]
    assert keys == sorted(set(keys)) and len(keys) == sum(1 for _ in book.positions(PLY, PREFIX)) > 100
    for moves, current, mask in book.positions(PLY, PREFIX):
        mirrored = CONNECT4.from_moves("".join(str(8 - int(c)) for c in moves))
        assert part.value(current, mask) == part.value(mirrored.current, mirrored.mask) is not None


def test_a_sample_of_entries_re_solved_by_the_python_solver(part):
    python = Connect4Solver(compiled=False)
    for current, mask, value in book.sample(part, 25, seed=1):
        assert python.solve(current, mask, PLY, weak=True) * value >= 0
        assert sign(python.solve(current, mask, PLY)) == value


def test_keys_split_back_into_positions():
    rng = random.Random(2)
    for moves, current, mask in rng.sample(list(book.positions(PLY, PREFIX)), 30):
        assert book.split_key(current + mask) == (current, mask), moves
        assert book.symmetric_key(current + mask) == _solver.symmetric_key(current + mask)


def test_the_solver_reads_it_as_bounds(part):
    start = CONNECT4.from_moves(PREFIX)
    plain, with_book = _solver.Kernel(), _solver.Kernel()
    with_book.set_book(part.entries, part.ply)
    exact = Connect4Solver(compiled=False).solve_state(start)
    assert with_book.solve(start.current, start.mask, start.moves, -1, 1) == sign(exact)
    assert plain.solve(start.current, start.mask, start.moves, -1, 1) == sign(exact)
    assert with_book.nodes < plain.nodes  # the search stops where the book answers
    # Exact scores need more than signs: the book bounds them, the search finds them.
    for kernel in (plain, with_book):
        kernel.reset()
        assert kernel.solve(start.current, start.mask, start.moves, -11, 11) == exact


def test_stored_and_loaded_unchanged(part, tmp_path):
    path = tmp_path / "book.xz"
    book.save(part, path)
    assert book.load(path) == part
    assert book.load(tmp_path / "absent.xz") is None
    path.write_bytes(__import__("lzma").compress(b"not a book"))
    with pytest.raises(ValueError, match="not a Connect Four book"):
        book.load(path)

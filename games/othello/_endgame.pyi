"""Types of the compiled endgame solver and midgame search (games/othello/_endgame.c)."""

from collections.abc import Sequence
from typing import Any

class Kernel:
    nodes: int
    def __init__(self, table_size: int = ...) -> None: ...
    def solve(self, mover: int, other: int, alpha: int, beta: int, deadline: float | None = ..., /) -> int: ...
    def reset(self) -> None: ...

class Engine:
    nodes: int
    def __init__(self, table_size: int = ..., solver_table_size: int = ...) -> None: ...
    def search(
        self,
        mover: int,
        other: int,
        deadline: float | None = ...,
        max_depth: int = ...,
        max_nodes: int = ...,
        solve_empties: int = ...,
    ) -> tuple[int, int, int, list[int]] | None: ...
    def clear(self) -> None: ...

def set_weights(patterns: Sequence[tuple[int, Sequence[int]]], tables: Sequence[Any], /) -> None: ...
def evaluate(mover: int, other: int, /) -> int: ...

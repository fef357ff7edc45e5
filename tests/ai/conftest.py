"""Fixtures of the search tests (their helpers are in `tests/ai/trees.py`)."""

from __future__ import annotations

import pytest

from tests.ai.trees import TreeGame


@pytest.fixture
def tree_game() -> type[TreeGame]:
    return TreeGame

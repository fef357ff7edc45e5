"""The composition root (server.config) hands the games what the installation configures."""

from __future__ import annotations

from django.conf import settings

from games.chess import tables


def test_the_chess_tables_are_the_settings_files() -> None:
    assert tables.book_path() == settings.CHESS_BOOK_PATH
    assert tables.gaviota_path() == settings.CHESS_GAVIOTA_PATH

"""Bridges: existing engines play on Plyground as bot accounts, without code (docs/bots.md, "Bridges").

- `plyground_bot.bridges.uci`: chess engines speaking UCI (Stockfish);
- `plyground_bot.bridges.gtp`: Othello engines speaking GTP (GRhino's ``gtp-rhino``);
- `plyground_bot.bridges.gnubg`: GNU Backgammon, through its embedded Python.

Each runs as ``python -m plyground_bot.bridges.<protocol> --token <bot token> ...``.
"""

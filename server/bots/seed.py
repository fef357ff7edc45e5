"""The bot profiles every installation starts with; `manage.py seed_bots` keeps them current."""

from __future__ import annotations

from typing import Any

LEVEL_NAMES = {1: "Beginner", 2: "Casual", 3: "Intermediate", 4: "Advanced", 5: "Master"}


def _bot(
    game: str, level: int, name: str, algorithm: str, budget: int, description: str, slug: str = "", **settings: Any
) -> dict[str, Any]:
    """A profile; slugs are public and stable (links, exports), so an existing one is kept as is."""
    slug = slug or (f"{game}-{LEVEL_NAMES[level].lower()}" if level else f"{game}-random")
    return dict(slug=slug, game=game, name=name, level=level, algorithm=algorithm,
                time_budget_ms=budget, description=description, **settings)  # fmt: skip


def _random(game: str) -> dict[str, Any]:
    """Level 0 and the rating anchor (Elo 0): a first opponent for learning the rules."""
    return _bot(game, 0, "Random mover", "random", 100, "Plays a uniformly random legal move.")


def _adaptive(game: str, name: str, algorithm: str, budget: int, **settings: Any) -> dict[str, Any]:
    spec = _bot(game, 3, name, algorithm, budget,
                "Adapts to you: it plays stronger after you win and eases off after you lose, within a match "
                "and across matches, so that you score about half against it.", adaptive=True, **settings)  # fmt: skip
    spec["slug"] = f"{game}-adaptive"
    return spec


# Levels differ in what makes a bot strong: how deep it looks, how long it thinks, how
# often it slips, and which search it runs.  Ratings are measured by `manage.py calibrate`.
PROFILES: list[dict[str, Any]] = [
    # --- tic-tac-toe: alpha-beta; depth and slips make the levels.  Above a player who blocks
    # every threat the game is a draw, so the Master plays for wins among drawing moves.
    _random("tictactoe"),
    _bot("tictactoe", 1, "Pip", "alphabeta", 200, "Takes three in a row when it sees one; otherwise "
         "plays almost anywhere.", max_depth=1, temperature=3.0),
    _bot("tictactoe", 2, "Tess", "alphabeta", 200, "Takes a win when it sees one and likes good cells, "
         "but on most moves it overlooks your threats.", slug="tictactoe-shallow", max_depth=1, error_rate=0.7),
    _bot("tictactoe", 3, "Milo", "alphabeta", 200, "Looks one move ahead: takes wins, blocks most threats, "
         "and slips on about a third of its moves.", max_depth=1, error_rate=0.3),
    _bot("tictactoe", 4, "Ada", "alphabeta", 300, "Looks three moves ahead and sees most threats coming, "
         "but slips on more than half of its moves.", max_depth=3, error_rate=0.6),
    _bot("tictactoe", 5, "Nova", "alphabeta", 500, "Searches the whole game tree, so it never loses, and "
         "among the moves that keep that promise it sets the traps you are most likely to fall into.",
         slug="tictactoe-perfect", search_options={"trap_model": "softmax:0.1"}),
    _adaptive("tictactoe", "Coach Tic", "alphabeta", 300),
    # --- connect four: alpha-beta with iterative deepening ---
    _random("connect4"),
    _bot("connect4", 1, "Dot", "alphabeta", 200, "Looks two plies ahead and slips on half of its moves: "
         "finishes a line, often misses your open three.", slug="connect4-shallow", max_depth=2,
         error_rate=0.5),
    _bot("connect4", 2, "Rook", "alphabeta", 300, "Looks three plies ahead and slips now and then: blocks "
         "what it sees, walks into deeper traps.", max_depth=3, error_rate=0.15),
    _bot("connect4", 3, "Vega", "alphabeta", 500, "Looks four plies ahead with a threat-counting evaluation "
         "and seldom slips.", slug="connect4-medium", max_depth=4, error_rate=0.05),
    _bot("connect4", 4, "Orion", "alphabeta", 1000, "Looks seven plies ahead with a threat-counting evaluation "
         "and a transposition table; rarely slips. Takes at least half a second, like a person would.",
         slug="connect4-deep", max_depth=7, error_rate=0.05, min_think_ms=500),
    _bot("connect4", 5, "Polaris", "alphabeta", 4000, "Opens in the centre, searches up to four seconds a move "
         "with alpha-beta, and from 14 stones on solves the game exactly when it can: then it plays perfectly.",
         search_options={"exact_endgame": 14, "opening_book": True}),
    _adaptive("connect4", "Coach Four", "alphabeta", 500),
    # --- othello: alpha-beta with a mobility/corner evaluation; MCTS low on the ladder ---
    _random("othello"),
    _bot("othello", 1, "Pebble", "alphabeta", 200, "Greedy: looks one move ahead, likes flipping "
         "many discs, and often plays on a whim.", max_depth=1, error_rate=0.5, style="aggressive"),
    _bot("othello", 2, "Marble", "mcts", 500, "Monte Carlo tree search: plays out hundreds of games "
         "with a corner-loving rollout policy.", search_options={"rollout": "heuristic"}),
    _bot("othello", 3, "Onyx", "alphabeta", 700, "Looks three moves ahead and values corners.", max_depth=3),
    _bot("othello", 4, "Jade", "alphabeta", 1000, "Alpha-beta four moves deep on mobility, corners, "
         "stability and parity.", max_depth=4),
    _bot("othello", 5, "Obsidian", "alphabeta", 2000, "Alpha-beta as deep as two seconds allow."),
    _adaptive("othello", "Coach Disc", "alphabeta", 500, max_depth=4),
    # --- backgammon: expectiminimax over the dice.  Luck narrows every gap, so the levels
    # are far apart: slips (any other legal play) on 85%, 65%, 45% and 20% of the moves
    # below a Master that looks one roll ahead.
    _random("backgammon"),
    _bot("backgammon", 1, "Dice", "expectimax", 200, "Knows which play leaves the best position, but on "
         "most moves plays some other legal move instead.", max_depth=1, error_rate=0.85),
    _bot("backgammon", 2, "Checker", "expectimax", 200, "Plays the move that leaves the best position a "
         "third of the time; otherwise another legal move.", max_depth=1, error_rate=0.65),
    _bot("backgammon", 3, "Prime", "expectimax", 300, "Weighs each play by the position it leaves (pips, "
         "blots, made points, primes) and slips on almost half of its moves.", max_depth=1, error_rate=0.45),
    _bot("backgammon", 4, "Gammon", "expectimax", 300, "Plays the position it likes best on four moves in "
         "five, but does not look past its own play.", max_depth=1, error_rate=0.2),
    _bot("backgammon", 5, "Backgammon Master", "expectimax", 2000, "Expectiminimax one roll ahead: for each "
         "play it averages over all 21 rolls of yours and assumes your best reply to each.", max_depth=2),
    _adaptive("backgammon", "Coach Pips", "expectimax", 500, max_depth=2),
    # --- chinese checkers (three players): with two others moving in between, looking
    # deeper does not pay (max^n or paranoid depth 2 against depth 1: 40%); playouts do ---
    _random("chinese-checkers"),
    _bot("chinese-checkers", 1, "Hop", "maxn", 200, "Takes the move that gains the most ground half of "
         "the time; otherwise some other move.", max_depth=1, error_rate=0.5),
    _bot("chinese-checkers", 2, "Skip", "maxn", 200, "Takes the move that gains the most ground on three "
         "moves in four.", max_depth=1, error_rate=0.25),
    _bot("chinese-checkers", 3, "Leap", "maxn", 200, "Always takes the move that gains the most ground "
         "right now, long hops first.", max_depth=1),
    _bot("chinese-checkers", 4, "Vault", "mcts", 1000, "Monte Carlo tree search with max^n backups: a hundred "
         "short playouts a move, guided by distance to goal.", max_iterations=100,
         search_options={"rollout": "heuristic", "rollout_depth": 6, "progressive_bias": 2.0}),
    _bot("chinese-checkers", 5, "Comet", "mcts", 2500, "Monte Carlo tree search with max^n backups: thousands "
         "of distance-guided playouts in two and a half seconds.",
         search_options={"rollout": "heuristic", "rollout_depth": 6, "progressive_bias": 2.0}),
    _adaptive("chinese-checkers", "Coach Star", "maxn", 500, max_depth=1),  # depth 1 is max^n at its best here
    # --- chinese checkers for two: alpha-beta.  Depth pays at odd depths (3 over 2: 95%,
    # 4 over 3: 60%), and slips at depth 3 are costly, so slips space the middle levels ---
    _random("chinese-checkers-2"),
    _bot("chinese-checkers-2", 1, "Hop", "alphabeta", 200, "Takes the move that gains the most ground "
         "half of the time; otherwise some other move.", max_depth=1, error_rate=0.5),
    _bot("chinese-checkers-2", 2, "Skip", "alphabeta", 200, "Always takes the move that gains the most "
         "ground right now, long hops first, without looking at your reply.", max_depth=1),
    _bot("chinese-checkers-2", 3, "Leap", "alphabeta", 500, "Looks three moves ahead (its move, your reply, "
         "its next) to set up hop chains, but slips on almost a third of its moves.", max_depth=3,
         error_rate=0.3),
    _bot("chinese-checkers-2", 4, "Vault", "alphabeta", 1000, "Looks three moves ahead to set up hop chains "
         "and block yours; slips on one move in ten.", max_depth=3, error_rate=0.1),
    _bot("chinese-checkers-2", 5, "Comet", "alphabeta", 3000, "Alpha-beta as deep as three seconds allow: "
         "five or six moves ahead."),
    _adaptive("chinese-checkers-2", "Coach Star", "alphabeta", 500, max_depth=4),
]  # fmt: skip

# Every seeded setting is written, so re-seeding resets a profile's search to the catalogue's.
SETTING_DEFAULTS: dict[str, Any] = dict(
    max_depth=None, max_iterations=None, error_rate=0.0, temperature=0.0, style="balanced", opponent_model="",
    search_options={}, min_think_ms=0, adaptive=False,
)  # fmt: skip


def seed_profiles(bot_profile_model) -> int:
    """Create or update the seeded profiles; measured ratings and admins' listing choices are kept.

    Works with a migration's historical model too: fields it does not have yet are skipped.
    """
    known = {f.name for f in bot_profile_model._meta.get_fields()}
    for spec in PROFILES:
        settings = {**SETTING_DEFAULTS, **spec}
        defaults = {k: v for k, v in settings.items() if k in known and k not in ("slug", "listed")}
        profile, created = bot_profile_model.objects.update_or_create(slug=spec["slug"], defaults=defaults)
        if created and "listed" in known:
            profile.listed = spec.get("listed", True)
            profile.save(update_fields=["listed"])
    return len(PROFILES)

"""The compiled parts: setuptools builds them with `pip install .` (or `-e .`); the rest is in pyproject.toml.

Each extension is optional: without a C compiler the install still succeeds and the pure-Python
code it speeds up runs instead (games/connect4/solver.py and games/othello/endgame.py fall back to
their own searches; without games/chess/_engine.c or games/othello/_endgame.c the chess and Othello
Masters run the Python search).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.connect4._solver",
            sources=["games/connect4/_solver.c"],
            depends=["games/_kernel.h"],
            extra_compile_args=["-O3", "-std=c11"],
            optional=True,
        ),
        Extension(
            "games.othello._endgame",
            sources=["games/othello/_endgame.c"],
            depends=["games/_kernel.h"],
            extra_compile_args=["-O3", "-std=c11"],
            optional=True,
        ),
        Extension(
            "games.chess._engine",
            sources=["games/chess/_engine.c"],
            depends=["games/_kernel.h"],
            extra_compile_args=["-O3", "-std=c11"],
            optional=True,
        ),
    ]
)

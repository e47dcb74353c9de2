"""The optional C board of Invaders (runner/games/invaders/rules/_board.c); everything else is pyproject.toml.

`optional=True`: without a compiler (or Python headers) the build carries on and td-runner plays on the pure
Python rules, only slower. The source's SHA-256 is compiled in, so a stale build (a .so older than an edited
.c, e.g. in an editable install) is detected: runner/games/invaders/board.py ignores it with a warning.
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

SOURCE = "runner/games/invaders/rules/_board.c"
DIGEST = hashlib.sha256((Path(__file__).resolve().parent / SOURCE).read_bytes()).hexdigest()

setup(
    ext_modules=[
        Extension(
            "runner.games.invaders.rules._board",
            [SOURCE],
            define_macros=[("BOARD_SOURCE_SHA256", f'"{DIGEST}"')],
            optional=True,
        )
    ]
)

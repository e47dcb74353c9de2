"""The optional C extensions; everything else is pyproject.toml.

* runner/games/invaders/rules/_board.c: the Invaders board and a turn's hot path;
* runner/bots/_pipes.c: the usual turn of persistent bots (write the requests, wait for whole answer lines).

`optional=True`: without a compiler (or Python headers) the build carries on and td-runner runs on the pure
Python code, only slower. Each source's SHA-256 is compiled in, so a stale build (a .so older than an edited
.c, e.g. in an editable install) is detected: runner/compiled.py ignores it with a warning.
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent

#: (module, source, the macro that carries the source's digest)
EXTENSIONS = (
    ("runner.games.invaders.rules._board", "runner/games/invaders/rules/_board.c", "BOARD_SOURCE_SHA256"),
    ("runner.bots._pipes", "runner/bots/_pipes.c", "PIPES_SOURCE_SHA256"),
)


def extension(module: str, source: str, macro: str) -> Extension:
    digest = hashlib.sha256((ROOT / source).read_bytes()).hexdigest()
    return Extension(module, [source], define_macros=[(macro, f'"{digest}"')], optional=True)


setup(ext_modules=[extension(*entry) for entry in EXTENSIONS])

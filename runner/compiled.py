"""Optional C extensions (setup.py builds them where a compiler is): load one, or say why the Python code runs.

Each extension mirrors Python code that stays the reference and the fallback. `TD_RUNNER_PURE_PYTHON=1` in the
environment forces the Python code (for tests, or if a build misbehaves). A build from another version of its
source (its compiled-in SHA-256 differs from the .c on disk, e.g. an editable install after an edit) is ignored
with a warning: rebuild with `pip install -e .` or `python setup.py build_ext --inplace`.
"""

from __future__ import annotations

import importlib
import os
import warnings
from pathlib import Path
from types import ModuleType

try:  # CPython's own SHA-256: hashlib would load OpenSSL (~5 ms of every command's start) for two small files
    from _sha256 import sha256
except ImportError:  # a Python built without it
    from hashlib import sha256

PURE_ENV = "TD_RUNNER_PURE_PYTHON"


def pure_forced() -> bool:
    """Whether the environment asks for the pure Python code (TD_RUNNER_PURE_PYTHON set, and not to 0)."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def source_digest(path: Path) -> str | None:
    """SHA-256 of a C source on disk (what setup.py compiles into its module), None if it is not there."""
    try:
        return sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def load_compiled(name: str, source: Path, what: str) -> ModuleType | None:
    """The built extension `name` (compiled from `source`), or None: not built, or stale (with a warning that
    the Python code of `what` runs instead)."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    digest = source_digest(source)
    if digest is not None and digest != module.SOURCE_SHA256:
        warnings.warn(f"{source} changed since it was built; running {what} in pure Python "
                      "(rebuild: pip install -e . or python setup.py build_ext --inplace)", stacklevel=3)
        return None
    return module

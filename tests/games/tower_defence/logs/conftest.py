"""Editable copies of a small official trace for the match-log tool tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

#: 38 round folders (Round 000..037), a multi-missile cell in Round 024, endGameState in Round 037.
SMALL_TRACE = "gr-g1-vs-r11"


@pytest.fixture
def log_pair(conformance_root: Path, tmp_path: Path) -> tuple[Path, Path]:
    """Two identical, writable copies of SMALL_TRACE: (tmp/a, tmp/b)."""
    source = conformance_root / SMALL_TRACE
    return shutil.copytree(source, tmp_path / "a"), shutil.copytree(source, tmp_path / "b")


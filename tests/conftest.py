"""Shared fixtures: the official conformance traces, unpacked once per test session."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

CONFORMANCE_DIR = Path(__file__).parent / "games" / "tower_defence" / "data" / "conformance"
TRACE_NAMES = sorted(p.name.removesuffix(".tar.gz") for p in CONFORMANCE_DIR.glob("*.tar.gz"))


@pytest.fixture(scope="session")
def conformance_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding every official trace unpacked: <root>/<trace name>/Round 000/..."""
    assert TRACE_NAMES, f"no conformance traces found in {CONFORMANCE_DIR}"
    root = tmp_path_factory.mktemp("conformance")
    for name in TRACE_NAMES:
        with tarfile.open(CONFORMANCE_DIR / f"{name}.tar.gz") as archive:
            archive.extractall(root, filter="data")
    return root

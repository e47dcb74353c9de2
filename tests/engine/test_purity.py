"""The rules and the renderers are pure: no files, processes, clocks or randomness (STYLE: where I/O may happen)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import runner

FORBIDDEN = {"os", "subprocess", "time", "random", "pathlib", "io", "shutil", "socket", "threading", "datetime"}
PURE_PACKAGES = ("engine", "protocol", "games")
PACKAGE_ROOT = Path(runner.__file__).parent


def imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module.split(".")[0])
    return modules


@pytest.mark.parametrize(
    "path",
    [p for package in PURE_PACKAGES for p in sorted((PACKAGE_ROOT / package).glob("*.py"))],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_pure_modules_import_no_io(path: Path) -> None:
    assert not imported_modules(path) & FORBIDDEN

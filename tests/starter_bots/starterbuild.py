"""Building the starter bots for tests, in a private copy of starter-bots/, with `td-runner build` as a user would.

A language whose toolchain is missing is skipped with the reason; a build that fails with the toolchain
present is a test failure.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import attrs
import pytest

from runner.cli import main

REPO = Path(__file__).resolve().parents[2]
STARTER_BOTS = REPO / "starter-bots"

#: Starter bot folder -> the programs its build and launch need.
TOOLCHAINS: dict[str, tuple[str, ...]] = {
    "python3": (),
    "javascript": ("node",),
    "java": ("javac", "jar", "java"),
    "cplusplus": ("g++",),
    "golang": ("go",),
    "rust": ("cargo",),
}
LANGUAGES = tuple(TOOLCHAINS)

#: Large build leftovers not needed to run a built bot; left out of per-match copies.
BUILD_LEFTOVERS = shutil.ignore_patterns("target", "__pycache__")


@attrs.frozen
class BuiltBots:
    """Built copies of starter-bots/ (`root/<language>`), and why a language could not be built."""

    root: Path
    missing: dict[str, str]

    def folder(self, language: str) -> Path:
        """The built folder of `language`; skips the calling test when its toolchain is absent."""
        if language in self.missing:
            pytest.skip(self.missing[language])
        return self.root / language

    def copy(self, language: str, destination: Path) -> Path:
        """A fresh copy of a built bot: the runner writes state files into bot folders, so concurrent
        matches must never share one."""
        return Path(shutil.copytree(self.folder(language), destination, ignore=BUILD_LEFTOVERS))


def _missing_tool(language: str) -> str | None:
    for tool in TOOLCHAINS[language]:
        if shutil.which(tool) is None:
            name = {
                "go": "go toolchain",
                "cargo": "cargo (rust toolchain)",
                "g++": "g++",
            }.get(tool, tool)
            return f"{name} not installed"
    return None


def build_all(root: Path) -> BuiltBots:
    """Copy starter-bots/ into `root` and build each one whose toolchain is installed (`td-runner build`)."""
    missing: dict[str, str] = {}
    for language in (*LANGUAGES, "reference"):
        shutil.copytree(STARTER_BOTS / language, root / language, ignore=BUILD_LEFTOVERS)
    for language in LANGUAGES:
        reason = _missing_tool(language)
        if reason is not None:
            missing[language] = reason
            continue
        out, err = io.StringIO(), io.StringIO()  # the user's way: `td-runner build` (build.sh, cargo, go, ...)
        code = main(["build", "--verbose", str(root / language)], out=out, err=err)
        assert code == 0, f"td-runner build {language} failed:\n{out.getvalue()}{err.getvalue()}"
    return BuiltBots(root, missing)

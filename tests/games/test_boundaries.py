"""The lines the architecture draws, as tests.

1. Each game's rules and protocol are pure: no files, processes, clocks or randomness (STYLE: where I/O may
   happen). Pure folders: `engine/`, `rules/`, `protocol/` of every game, and the interface itself.
2. Nothing outside `runner/games/<name>/` imports that game's package; only the registry
   (`runner/games/__init__.py`) names game packages, and it imports them by name, lazily.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import runner

FORBIDDEN = {"os", "subprocess", "time", "random", "pathlib", "io", "shutil", "socket", "threading", "datetime"}
PURE_FOLDERS = ("engine", "rules", "protocol")
PACKAGE_ROOT = Path(runner.__file__).parent
GAMES_ROOT = PACKAGE_ROOT / "games"
GAME_NAMES = sorted(p.name for p in GAMES_ROOT.iterdir() if (p / "__init__.py").is_file())


def imported(path: Path) -> list[tuple[str, bool]]:
    """(module, is top level) for every absolute import; imports under `if TYPE_CHECKING:` are skipped."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(node)
        for guard in ast.walk(tree)
        if isinstance(guard, ast.If) and "TYPE_CHECKING" in ast.unparse(guard.test)
        for node in ast.walk(guard)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.extend((alias.name, True) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, True))
    return found


def imported_modules(path: Path) -> set[str]:
    return {module.split(".")[0] for module, _ in imported(path)}


def _pure_modules() -> list[Path]:
    paths = [GAMES_ROOT / "interface.py"]
    for name in GAME_NAMES:
        for folder in PURE_FOLDERS:
            paths.extend(sorted((GAMES_ROOT / name / folder).rglob("*.py")))
    return paths


@pytest.mark.parametrize("path", _pure_modules(), ids=lambda p: str(p.relative_to(GAMES_ROOT)))
def test_pure_modules_import_no_io(path: Path) -> None:
    assert not imported_modules(path) & FORBIDDEN


def test_every_game_has_pure_rules() -> None:
    """The purity test above must not pass by finding nothing to check."""
    for name in GAME_NAMES:
        assert any((GAMES_ROOT / name / folder).is_dir() for folder in PURE_FOLDERS), name


def _crossings(root: Path = PACKAGE_ROOT) -> list[str]:
    """`runner/<module> imports <game module>` for every import of a game from outside its folder."""
    names = sorted(p.name for p in (root / "games").iterdir() if (p / "__init__.py").is_file())
    out = []
    for path in root.rglob("*.py"):
        relative = path.relative_to(root)
        if relative.parts == ("games", "__init__.py"):
            continue  # the registry
        home = relative.parts[1] if relative.parts[0] == "games" and len(relative.parts) > 2 else None
        for module, _ in imported(path):
            for name in names:
                package = f"runner.games.{name}"
                if (module == package or module.startswith(package + ".")) and home != name:
                    out.append(f"runner/{relative} imports {module}")
    return sorted(out)


def test_no_module_outside_a_game_imports_it() -> None:
    assert _crossings() == []


def test_the_boundary_test_sees_a_crossing(tmp_path: Path) -> None:
    """A core module importing a game is caught, and a game importing itself is not (the check is not vacuous)."""
    game = tmp_path / "games" / "tower_defence"
    game.mkdir(parents=True)
    (game / "__init__.py").write_text("from runner.games.tower_defence.engine import state\n", encoding="utf-8")
    (tmp_path / "games" / "__init__.py").write_text("import runner.games.tower_defence\n", encoding="utf-8")
    (tmp_path / "probe.py").write_text("from runner.games.tower_defence.engine.state import GameState\n",
                                       encoding="utf-8")
    assert _crossings(tmp_path) == ["runner/probe.py imports runner.games.tower_defence.engine.state"]


def test_registry_names_every_game_folder() -> None:
    from runner.games import GAMES

    registered = {module.rsplit(".", 1)[1] for module in GAMES.values()}
    assert {"tower_defence"} <= registered <= set(GAME_NAMES)

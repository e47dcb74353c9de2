"""A regular install holds every file the runner opens at run time, and plays from outside the repository.

Tests run from the work tree (editable install or PYTHONPATH), where every file is at hand: only a built wheel
shows what a user gets. The wheel is built once per session as a user or packager would (`python -m build`:
the sdist, then the wheel from it), from a copy of the tracked files, so a work tree's stale build/ or
egg-info cannot leak in. What it must hold is derived from git, never kept by hand: every tracked file under
runner/ but the docs (*.md), a symlinked folder (runner/schema -> ../schema) counted as the files it holds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BOTS = REPO / "starter-bots"


def tracked_files() -> list[str]:
    """The repository's tracked paths (a symlink is one path)."""
    if not (REPO / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout: the tracked files are unknown")
    listing = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True, check=True)
    return [name for name in listing.stdout.decode().split("\0") if name]


def expected_in_wheel(tracked: list[str]) -> set[str]:
    """Every tracked file under runner/ but *.md, a symlinked folder replaced by the tracked files it holds."""
    files = set()
    for name in tracked:
        if not name.startswith("runner/") or name.endswith(".md"):
            continue
        path = REPO / name
        if path.is_symlink() and path.is_dir():
            target = path.resolve().relative_to(REPO).as_posix() + "/"
            files.update(name + "/" + other.removeprefix(target) for other in tracked
                         if other.startswith(target) and not other.endswith(".md"))
        else:
            files.add(name)
    return files


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `python -m build` makes from the tracked files (sdist first, then the wheel from the sdist)."""
    pytest.importorskip("build", reason="the test extras install `build` (pip install -e '.[test]')")
    source = tmp_path_factory.mktemp("source")
    for name in tracked_files():
        copy = source / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, copy, follow_symlinks=False)
    dist = tmp_path_factory.mktemp("dist")
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (found,) = dist.glob("*.whl")
    return found


def test_expected_files_are_derived_from_git() -> None:
    expected = expected_in_wheel(tracked_files())
    # the kinds the issue named, so a broken derivation cannot pass by expecting nothing
    for name in ("runner/games/invaders/koth_js/host.js", "runner/games/warzone/maps/td-harbour.map",
                 "runner/replay/viewer.html", "runner/games/warzone/html_board.js",
                 "runner/schema/bot.schema.json", "runner/schema/invaders/log-record.schema.json"):
        assert name in expected
    assert not any(name.endswith(".md") for name in expected)


def test_wheel_holds_every_file_the_runner_opens(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    missing = sorted(expected_in_wheel(tracked_files()) - names)
    assert missing == [], f"{wheel.name} lacks {len(missing)} files (pyproject.toml package-data): {missing}"


def test_schemas_are_package_data_and_the_code_finds_them_there(wheel: Path) -> None:
    """The schemas ship inside the package (found by every kind of install), not as data-files under the
    install prefix (lost by `pip install --user` or `--target`)."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert not [name for name in names if ".data/" in name]
    from runner import schemas

    assert (schemas.SCHEMA_DIR / "bot.schema.json").is_file()


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, dict[str, str]]:
    """The wheel installed into a fresh venv (no PYTHONPATH, so the work tree is out of reach): its python,
    its td-runner, and the environment to run them in."""
    venv = tmp_path_factory.mktemp("installed") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSAFEPATH")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    python, runner = str(venv / "bin" / "python"), str(venv / "bin" / "td-runner")
    done = _run([python, "-m", "pip", "install", "-q", str(wheel)], venv.parent, env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return python, runner, env


def test_installed_wheel_plays_from_outside_the_repository(installed, tmp_path: Path) -> None:
    """Play from a folder outside the repository with copies of the starter bots: Warzone on the default map
    (a shipped map), the koth-js samples to the end (the node host); each log verifies."""
    python, runner, env = installed
    venv = Path(python).parents[1]
    play = tmp_path / "play"
    play.mkdir()
    where = _run([python, "-c", "import runner; print(runner.__file__)"], play, env)
    assert where.stdout.startswith(str(venv)), where.stdout + where.stderr

    # setup.py's optional C extensions (the Invaders board, runner/games/invaders/rules/_board.c, and the usual
    # persistent turn, runner/bots/_pipes.c) are built wherever a C compiler is
    compiled = _run([python, "-c", "from runner.games.invaders import board; from runner.bots import persistent; "
                     "print(board._COMPILED is not None, persistent._PIPES is not None)"], play, env)
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    built = str(shutil.which(compiler) is not None)
    assert compiled.stdout.split() == [built, built], compiled.stdout + compiled.stderr

    for folder in ("invaders/koth-turret", "invaders/koth-army", "warzone/python3", "warzone/reference"):
        shutil.copytree(BOTS / folder, play / folder.replace("/", "-"))

    checked = _run([runner, "validate", "warzone-python3/bot.json"], play, env)  # the bot schema is found
    assert checked.returncode == 0 and "missing" not in checked.stdout, checked.stdout + checked.stderr

    played = _run([runner, "match", "--game", "warzone", "--quiet", "--max-turns", "3", "--output", "out",
                   "--name", "warzone", "warzone-python3", "warzone-reference"], play, env)
    assert played.returncode == 0 and played.stderr == "", played.stdout + played.stderr
    assert json.loads((play / "out" / "warzone" / "game-config.json").read_text())["map"] == "td-harbour"
    verified = _run([runner, "verify", "out/warzone"], play, env)
    assert verified.returncode == 0, verified.stdout + verified.stderr

    if shutil.which("node") is not None:  # koth-js: the node host that ships inside the package
        played = _run([runner, "match", "--game", "invaders", "--quiet", "--output", "out", "--name", "koth",
                       "invaders-koth-turret", "invaders-koth-army"], play, env)
        assert played.returncode == 0 and played.stderr == "", played.stdout + played.stderr
        summary = json.loads((play / "out" / "koth" / "match.json").read_text())
        assert summary["end_reason"] == "life" and summary["rounds"] == 12630, summary
        assert all(player["events"] == [] for player in summary["players"])
        verified = _run([runner, "verify", "out/koth"], play, env)
        assert verified.returncode == 0, verified.stdout + verified.stderr


#: game -> options of a short match
SHORT = {"tower-defence": ["--max-rounds", "3"], "lanes": [], "warzone": ["--max-turns", "2"],
         "invaders": ["--max-turns", "30"]}
#: starter language -> the program its build needs
TOOLCHAINS = {"c": "cc", "go": "go", "rust": "cargo"}


@pytest.mark.parametrize("language", list(TOOLCHAINS))
def test_installed_wheel_writes_starters_that_build_and_play_the_packaged_reference(
        installed, tmp_path: Path, language: str) -> None:
    """For every game, `td-runner new` from the installed package writes the starter in C, Go and Rust,
    `td-runner build` builds it, and `td-runner watch BOT` with no opponent rebuilds it and plays the
    reference bot that ships inside the package (the repository's starter-bots/ is out of reach), from a
    folder outside the repository, with no fault and no refused answer."""
    if shutil.which(TOOLCHAINS[language]) is None:
        pytest.skip(f"{TOOLCHAINS[language]} is not installed: the {language} starters cannot be built")
    python, runner, env = installed
    for game, options in SHORT.items():
        bot = f"{game}-{language}"
        written = _run([runner, "new", bot, "--game", game, "--language", language], tmp_path, env)
        assert written.returncode == 0, written.stdout + written.stderr
        built = _run([runner, "build", bot], tmp_path, env, timeout=300)
        assert built.returncode == 0, built.stdout + built.stderr
        watched = _run([runner, "watch", bot, "--game", game, "--runs", "1", "--output", f"runs-{game}", *options],
                       tmp_path, env, timeout=300)
        assert watched.returncode == 0, watched.stdout + watched.stderr
        assert "  built (build.sh: sh build.sh, " in watched.stdout, watched.stdout
        assert "  vs reference: won-drew-lost " in watched.stdout and "faults 0  invalid 0" in watched.stdout, \
            watched.stdout
        reference = json.loads((tmp_path / f"runs-{game}" / "reference" / "bot.json").read_text())
        assert reference["author"].startswith("td-runner")

"""`td-runner new`: for every game, the starter in each language builds (`td-runner build`) and plays a match
against a copy of the packaged reference bot with no fault and no refused answer, from a folder outside the
repository; a language whose toolchain is missing is skipped with the reason. Unknown game or language and a
folder that is not empty are one-line errors. (tests/packaging/test_wheel.py does the same from a wheel.)"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from runner.bundled import copy_reference, reference_bot
from runner.cli import main
from runner.commands.new import LANGUAGES
from runner.games import GAMES

REPO = Path(__file__).resolve().parents[2]
#: language -> the program its build needs
TOOLCHAINS = {"python": None, "c": "cc", "go": "go", "rust": "cargo"}
#: game -> options that keep its match short (Lanes' starter loses in one turn anyway)
SHORT = {"tower-defence": ["--max-rounds", "8"], "lanes": [], "warzone": ["--max-turns", "5"],
         "invaders": ["--max-turns", "300"]}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="session")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder outside the repository, where the starters are written and built (once per session)."""
    folder = tmp_path_factory.mktemp("starters")
    assert REPO not in folder.parents
    return folder


@pytest.fixture(scope="session")
def built(outside: Path):
    """`built(game, language)`: the starter written and built once per session, or a skip with the reason."""
    done: dict[tuple[str, str], Path] = {}

    def get(game: str, language: str) -> Path:
        tool = TOOLCHAINS[language]
        if tool is not None and shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed: the {language} starters cannot be built")
        if (game, language) not in done:
            folder = outside / f"{game}-{language}"
            code, out, err = run("new", str(folder), "--game", game, "--language", language)
            assert code == 0, err
            code, out, err = run("build", str(folder))
            assert code == 0, out + err
            assert f"{folder}: " in out + err and ("built (" in out or "nothing to build" in out), out + err
            done[(game, language)] = folder
        return done[(game, language)]

    return get


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("game", list(GAMES))
def test_a_new_starter_builds_and_plays_the_packaged_reference_cleanly(
        game: str, language: str, built, outside: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = built(game, language)
    monkeypatch.chdir(tmp_path)  # played from outside the repository, as a student would
    reference = copy_reference(game, tmp_path / "reference")
    code, out, err = run("match", "--game", game, str(bot), str(reference), *SHORT[game], "--quiet",
                         "--output", str(tmp_path / "logs"), "--name", "m")
    assert code == 0, out + err
    match = json.loads((tmp_path / "logs" / "m" / "match.json").read_text(encoding="utf-8"))
    mine = match["players"][0]
    assert mine["language"] == ("python3" if language == "python" else "custom")
    faults = {key: mine[key] for key in ("timeouts", "crashes", "invalid_commands")}
    assert faults == {"timeouts": 0, "crashes": 0, "invalid_commands": 0}, (match["players"], err)
    assert err == "", err  # no bot that never answered, no warning


def test_the_starter_holds_source_build_files_and_a_one_screen_readme(tmp_path: Path) -> None:
    code, out, err = run("new", str(tmp_path / "mine"), "--game", "invaders", "--language", "c")
    assert code == 0, err
    names = sorted(str(p.relative_to(tmp_path / "mine")) for p in (tmp_path / "mine").rglob("*") if p.is_file())
    assert names == ["Makefile", "README.md", "bot.c", "bot.json", "build.sh"]
    data = json.loads((tmp_path / "mine" / "bot.json").read_text())
    assert data["persistent"] is True and data["botLanguage"] == "custom" and data["nickName"] == "mine"
    readme = (tmp_path / "mine" / "README.md").read_text()
    assert "{{" not in readme and "fflush(stdout)" in readme and len(readme.splitlines()) <= 45
    assert "td-runner build" in out and "td-runner watch --game invaders" in out
    code, out, err = run("new", str(tmp_path / "rusty"), "--game", "lanes", "--language", "rust")
    assert code == 0
    assert (tmp_path / "rusty" / "src" / "main.rs").is_file() and (tmp_path / "rusty" / "Cargo.toml").is_file()
    assert (tmp_path / "rusty" / "build.sh").stat().st_mode & 0o111


@pytest.mark.parametrize("argv, message", [
    (["--game", "chess", "--language", "c"], "unknown game 'chess'"),
    (["--game", "lanes", "--language", "cobol"],
     "--language cobol: no starter in that language; the languages are: python, c, go, rust"),
])
def test_an_unknown_game_or_language_is_one_line(tmp_path: Path, argv: list[str], message: str) -> None:
    code, out, err = run("new", str(tmp_path / "mine"), *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "mine").exists()


def test_a_folder_that_is_not_empty_is_refused(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    code, out, err = run("new", str(tmp_path / "mine"), "--game", "lanes", "--language", "go")
    assert code == 2 and err.strip() == f"error: {tmp_path / 'mine'}: exists and is not empty; give a new folder"
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["notes.txt"]
    (tmp_path / "empty").mkdir()
    assert run("new", str(tmp_path / "empty"), "--game", "lanes", "--language", "go")[0] == 0


def test_every_game_has_a_packaged_reference_bot() -> None:
    for game in GAMES:
        assert (reference_bot(game) / "bot.json").is_file()

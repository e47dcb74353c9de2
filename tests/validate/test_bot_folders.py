"""`td-runner validate BOT_DIR` refuses what `td-runner match` refuses (load_bot's checks), one line per problem."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import pytest

from runner.bots.definition import load_bot
from runner.cli import main
from runner.errors import UserError

REPO = Path(__file__).resolve().parents[2]
BOT = {"author": "me", "email": "me@example.invalid", "nickName": "Me", "botLocation": "/"}


def _run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["validate", *map(str, argv)], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _bot(folder: Path, files: tuple[str, ...] = ("bot.py",), **fields: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = {**BOT, "botFileName": "bot.py", "botLanguage": "python3", **fields}
    (folder / "bot.json").write_text(json.dumps({key: value for key, value in data.items() if value is not None}))
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("print('hi')\n")
    return folder


def _match_refuses(folder: Path) -> str:
    with pytest.raises(UserError) as caught:
        load_bot(folder)
    return str(caught.value)


def test_a_good_bot_folder_is_valid(tmp_path: Path) -> None:
    assert _run(_bot(tmp_path / "bot")) == (0, "", "1 file valid\n")


@pytest.mark.parametrize(
    ("fields", "files", "problem"),
    [
        ({"botLocation": "/target"}, ("bot.py",), "bot folder {folder}/target (botLocation '/target') does not exist"),
        ({}, (), "bot file {folder}/bot.py does not exist"),
        ({"botFileName": None}, (), "$: missing key 'botFileName'"),
        ({"botLanguage": "custom", "command": ["no-such-interpreter-td", "{file}"]}, ("bot.py",),
         "bot {folder} needs `no-such-interpreter-td` which is not installed (command: no-such-interpreter-td bot.py)"),
        ({"botLanguage": "rust", "botFileName": "bot"}, (),
         "bot file {folder}/bot does not exist (build the bot first: td-runner build {folder})"),
    ],
    ids=["missing-bot-location", "missing-bot-file", "no-bot-file-name", "missing-interpreter", "unbuilt"],
)  # fmt: skip
def test_what_match_refuses_validate_reports(tmp_path: Path, fields: dict, files: tuple[str, ...], problem: str) -> None:
    folder = _bot(tmp_path / "bot", files, **fields)
    line = f"{folder / 'bot.json'}: {problem.format(folder=folder)}"
    assert _run(folder) == (1, line + "\n", "1 of 1 file invalid (1 problem)\n")
    assert _match_refuses(folder) == line  # the same words as `match`


def test_every_problem_is_its_own_line(tmp_path: Path) -> None:
    folder = _bot(tmp_path / "bot", (), botLocation="/target", botLanguage="custom", command=["no-such-interpreter-td"])
    code, out, err = _run(folder)
    assert (code, err) == (1, "1 of 1 file invalid (2 problems)\n")
    assert out.splitlines() == [
        f"{folder / 'bot.json'}: bot folder {folder / 'target'} (botLocation '/target') does not exist",
        f"{folder / 'bot.json'}: bot {folder} needs `no-such-interpreter-td` which is not installed "
        "(command: no-such-interpreter-td)",
    ]
    assert _match_refuses(folder) == out.splitlines()[0] + " (and 1 more)"


def test_python_requirements_without_a_venv(tmp_path: Path) -> None:
    folder = _bot(tmp_path / "bot", ("bot.py", "requirements.txt"))
    (folder / "requirements.txt").write_text("numpy-td-runner-test>=1\n./vendor/pkg\n")
    code, out, _ = _run(folder)
    assert code == 1
    assert out == (
        f"{folder / 'bot.json'}: {folder / 'requirements.txt'} needs numpy-td-runner-test, ./vendor/pkg, which "
        f"td-runner's Python ({sys.executable}) lacks: run `td-runner build {folder}` to install them in "
        f"{folder / '.venv'}\n"
    )


def test_a_bot_json_file_is_checked_against_the_schema_only(tmp_path: Path) -> None:
    # a bot.json on its own (a file, not its folder) says nothing about the folder around it
    folder = _bot(tmp_path / "bot", ())
    assert _run(folder / "bot.json") == (0, "", "1 file valid\n")
    assert _run(folder)[0] == 1


def test_unbuilt_starter_bot_is_invalid_until_built(tmp_path: Path) -> None:
    folder = Path(shutil.copytree(REPO / "starter-bots" / "golang", tmp_path / "golang"))
    (folder / "bot").unlink(missing_ok=True)  # a local build of the checkout
    code, out, _ = _run(folder)
    assert (code, out) == (1, f"{folder / 'bot.json'}: bot file {folder / 'bot'} does not exist "
                              f"(build the bot first: td-runner build {folder})\n")  # fmt: skip
    if shutil.which("go") is None:
        pytest.skip("go not installed: the starter bot cannot be built")
    assert main(["build", str(folder)], out=io.StringIO(), err=io.StringIO()) == 0
    assert _run(folder) == (0, "", "1 file valid\n")


def test_a_games_language_is_known(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node not installed (koth-js bots run in node)")
    folder = Path(shutil.copytree(REPO / "starter-bots" / "invaders" / "koth-army", tmp_path / "koth-army"))
    assert _run(folder) == (0, "", "1 file valid\n")
    assert _run(folder, "--game", "invaders") == (0, "", "1 file valid\n")
    code, out, _ = _run(folder, "--game", "tower-defence")  # as `match --game tower-defence` would refuse it
    assert code == 1 and "koth-js" in out and out.count("\n") == 1


def test_runner_config_in_the_working_folder_adds_languages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _bot(tmp_path / "bot", botLanguage="pypy-td")
    monkeypatch.chdir(tmp_path)
    assert _run(folder)[0] == 1
    (tmp_path / "game-runner-config.json").write_text(json.dumps({"languages": {"pypy-td": [sys.executable, "{file}"]}}))
    assert _run(folder) == (0, "", "1 file valid\n")


def test_a_bot_json_in_a_games_own_language_validates_as_a_file(tmp_path: Path) -> None:
    """koth-js (Invaders' own language) is valid in a bot.json checked alone, as in its folder; cobol is not."""
    source = REPO / "starter-bots" / "invaders" / "koth-turret" / "bot.json"
    assert main(["validate", str(source)], io.StringIO(), io.StringIO()) == 0
    data = json.loads(source.read_text()) | {"botLanguage": "cobol"}
    (tmp_path / "bot.json").write_text(json.dumps(data))
    out = io.StringIO()
    assert main(["validate", str(tmp_path / "bot.json")], out, io.StringIO()) == 1
    assert "$.botLanguage" in out.getvalue()

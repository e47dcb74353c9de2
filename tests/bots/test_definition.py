"""load_bot: every bad bot folder is one UserError line naming the file and the problem (spec 8.2, 8.3)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from botfolders import write_bot_json

from runner.bots.definition import load_bot
from runner.bots.languages import DEFAULT_LANGUAGES, LaunchTemplate, expand
from runner.errors import UserError


def error_of(folder: Path, languages=None) -> str:
    with pytest.raises(UserError) as caught:
        load_bot(folder, languages)
    message = str(caught.value)
    assert "\n" not in message
    return message


def python_folder(tmp_path: Path, **fields) -> Path:
    folder = write_bot_json(tmp_path / "bot", **{"botFileName": "bot.py", "botLanguage": "python3", **fields})
    (folder / "bot.py").write_text("print('hi')\n")
    return folder


def test_a_good_python_bot_runs_with_the_runners_interpreter(tmp_path: Path) -> None:
    folder = python_folder(tmp_path, nickName="Nick", author="Ann", email="ann@example.invalid")
    bot = load_bot(folder)
    assert bot.argv == (sys.executable, "bot.py")
    assert (bot.player_dir, bot.bot_dir) == (folder, folder)
    assert (bot.nick_name, bot.author, bot.email, bot.language, bot.file_name) == (
        "Nick", "Ann", "ann@example.invalid", "python3", "bot.py",
    )
    assert bot.core_count is None


def test_missing_bot_folder(tmp_path: Path) -> None:
    assert error_of(tmp_path / "nowhere") == f"bot folder {tmp_path / 'nowhere'} does not exist"


def test_bot_folder_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert error_of(tmp_path / "file") == f"bot folder {tmp_path / 'file'} is not a folder"


def test_missing_bot_json(tmp_path: Path) -> None:
    assert error_of(tmp_path) == f"{tmp_path / 'bot.json'}: no such file (a bot folder needs a bot.json)"


def test_invalid_json(tmp_path: Path) -> None:
    (tmp_path / "bot.json").write_text('{"author": "x",\n "email" "y"}')
    assert error_of(tmp_path) == (
        f"{tmp_path / 'bot.json'}: not valid JSON: Expecting ':' delimiter (line 2 column 10)"
    )


def test_json_that_is_not_an_object(tmp_path: Path) -> None:
    (tmp_path / "bot.json").write_text("[1, 2]")
    assert error_of(tmp_path) == f"{tmp_path / 'bot.json'}: expected a JSON object, found list"


def test_missing_key(tmp_path: Path) -> None:
    folder = python_folder(tmp_path, botFileName=None)
    assert error_of(folder) == f"{folder / 'bot.json'}: $: missing key 'botFileName'"


def test_wrong_type(tmp_path: Path) -> None:
    folder = python_folder(tmp_path, nickName=5)
    assert error_of(folder) == f"{folder / 'bot.json'}: $.nickName: 5 is not of type 'string'"


def test_unknown_language_suggests_a_close_one(tmp_path: Path) -> None:
    folder = python_folder(tmp_path, botLanguage="pyhton3")
    message = error_of(folder)
    assert message.startswith(f"{folder / 'bot.json'}: botLanguage 'pyhton3' is not one of c, c#core, c++, custom, ")
    assert message.endswith(" (did you mean 'python3'?)")


def test_csharp_is_refused_like_the_official_runner(tmp_path: Path) -> None:
    folder = python_folder(tmp_path, botLanguage="c#")
    assert error_of(folder) == (
        f"{folder / 'bot.json'}: botLanguage 'c#' is not supported: "
        "use 'c#core' for a .NET Core bot (the official runner refuses 'c#' too)"
    )


def test_missing_interpreter_names_the_bot_and_the_command(tmp_path: Path) -> None:
    folder = python_folder(tmp_path, botLanguage="javascript", botFileName="bot.py")
    languages = {"javascript": ["no-such-node-xyz", "--flag", "{file}"]}
    assert error_of(folder, languages) == (
        f"{folder / 'bot.json'}: bot {folder} needs `no-such-node-xyz` which is not installed "
        "(command: no-such-node-xyz --flag bot.py)"
    )


def test_missing_bot_file(tmp_path: Path) -> None:
    folder = python_folder(tmp_path, botFileName="main.py")
    assert error_of(folder) == f"{folder / 'bot.json'}: bot file {folder / 'main.py'} does not exist"


def test_compiled_bot_that_is_not_executable(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botFileName="bot", botLanguage="c++")
    (folder / "bot").write_text("not built\n")
    assert error_of(folder) == (
        f"{folder / 'bot.json'}: bot file {folder / 'bot'} is not executable (chmod +x it; command: ./bot)"
    )


@pytest.mark.parametrize("location", ["", "/", "/sub", "sub", "/sub/"])
def test_bot_location_forms(tmp_path: Path, location: str) -> None:
    folder = python_folder(tmp_path, botLocation=location)
    target = folder / "sub" if "sub" in location else folder
    target.mkdir(exist_ok=True)
    (target / "bot.py").write_text("")
    assert load_bot(folder).bot_dir == target


def test_bot_location_without_a_separator_is_a_subfolder_never_a_sibling(tmp_path: Path) -> None:
    """The official runner joins "-build" to "bot-build", a sibling: a folder outside the bot's (issue 31)."""
    folder = python_folder(tmp_path, botLocation="-build")
    (tmp_path / "bot-build").mkdir()
    (tmp_path / "bot-build" / "bot.py").write_text("")
    assert "bot/-build (botLocation '-build') does not exist" in error_of(folder)
    (folder / "-build").mkdir()
    (folder / "-build" / "bot.py").write_text("")
    assert load_bot(folder).bot_dir == folder / "-build"


def test_missing_bot_location_folder(tmp_path: Path) -> None:
    folder = python_folder(tmp_path, botLocation="/target")
    assert error_of(folder) == (
        f"{folder / 'bot.json'}: bot folder {folder / 'target'} (botLocation '/target') does not exist"
    )


def test_custom_command_with_placeholders(tmp_path: Path) -> None:
    folder = write_bot_json(
        tmp_path / "bot", botLanguage="custom", botFileName="bot.py", arguments={"coreCount": 2},
        command=["{python}", "-u", "{dir}/{file}", "--cores={cores}", "{literal}"],
    )  # fmt: skip
    (folder / "bot.py").write_text("")
    bot = load_bot(folder)
    assert bot.argv == (sys.executable, "-u", f"{folder}/bot.py", "--cores=2", "{literal}")
    assert bot.core_count == 2


def test_custom_needs_a_command(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botLanguage="custom")
    assert error_of(folder) == f"{folder / 'bot.json'}: $: missing key 'command'"


def test_runner_config_can_add_a_language(tmp_path: Path) -> None:
    folder = python_folder(tmp_path, botLanguage="pypy")
    bot = load_bot(folder, {"pypy": [sys.executable, "-X", "dev", "{file}"]})
    assert bot.argv == (sys.executable, "-X", "dev", "bot.py")


def test_cores_placeholder_without_core_count(tmp_path: Path) -> None:
    folder = python_folder(tmp_path)
    assert error_of(folder, {"python3": [sys.executable, "{file}", "-j{cores}"]}) == (
        f"{folder / 'bot.json'}: the launch command for python3 uses {{cores}} but arguments.coreCount is missing"
    )


def test_haskell_runtime_options_only_with_core_count(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botFileName="bot", botLanguage="haskell")
    (folder / "bot").write_text("#!/bin/sh\n")
    os.chmod(folder / "bot", 0o755)
    assert load_bot(folder).argv == ("./bot",)
    write_bot_json(folder, botFileName="bot", botLanguage="haskell", arguments={"coreCount": 4})
    assert load_bot(folder).argv == ("./bot", "+RTS", "-N4", "-RTS")


@pytest.mark.parametrize(
    ("language", "argv"),
    [
        ("java", ("java", "-jar", "b.jar")),
        ("kotlin", ("java", "-jar", "b.jar")),
        ("scala", ("java", "-jar", "b.jar")),
        ("c#core", ("dotnet", "b.jar")),
        ("javascript", ("node", "b.jar")),
        ("python2", ("python2", "b.jar")),
        ("python3", (sys.executable, "b.jar")),
        ("php", ("php", "b.jar")),
        ("golang", ("go", "run", "/abs/bot/b.jar")),
        ("rust", ("./b.jar",)),
        ("c++", ("./b.jar",)),
        ("lisp", ("./b.jar",)),
        ("haskell", ("./b.jar",)),
    ],
)
def test_launch_table(language: str, argv: tuple[str, ...]) -> None:
    assert expand(DEFAULT_LANGUAGES[language], file="b.jar", directory="/abs/bot", cores=None) == argv


def test_launch_table_file_names_with_spaces_stay_one_argument() -> None:
    template = LaunchTemplate(("java", "-jar", "{file}"))
    assert expand(template, file="my bot.jar", directory="/x", cores=None) == ("java", "-jar", "my bot.jar")

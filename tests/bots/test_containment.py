"""Every path a bot.json names stays inside its folder (issue 31): `botLocation` in both escaping forms,
`botFileName`, a custom command's files, build.sh and requirements.txt through symlinks. Each is refused
by `td-runner validate`, `match` and `build` with one line naming the field, before anything of the other
folder is run; the folder's own subfolders and links inside it keep working."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from botfolders import write_bot_json

from runner.bots.definition import load_bot
from runner.bots.limits import Limits
from runner.bots.outcome import TurnStatus
from runner.bots.process import run_turn
from runner.cli import main

NOTHING = 'open("command.txt", "w").write("")\n'
VICTIM_CODE = 'open("command.txt", "w").write("")\nopen("/dev/null", "w").write("victim ran")\n'


def cli(*args: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(arg) for arg in args], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    folder = write_bot_json(tmp_path / "victim", botFileName="bot.py", botLanguage="python3")
    (folder / "bot.py").write_text(VICTIM_CODE)
    return folder


def escaping(tmp_path: Path, victim: Path, form: str) -> Path:
    """A bot whose botLocation names the victim's folder: `/../victim`, or `/` + 30 `../` + its absolute path."""
    location = "/../victim" if form == "relative" else "/" + "../" * 30 + str(victim).lstrip("/")
    folder = write_bot_json(tmp_path / "attacker", botLocation=location, botFileName="bot.py", botLanguage="python3")
    (folder / "bot.py").write_text(NOTHING)
    return folder


@pytest.mark.parametrize("form", ["relative", "absolute"])
def test_an_escaping_bot_location_is_refused_by_validate_match_and_build(tmp_path: Path, victim: Path, form: str) -> None:
    attacker = escaping(tmp_path, victim, form)
    location = json.loads((attacker / "bot.json").read_text())["botLocation"]
    code, out, err = cli("validate", attacker)
    assert code == 1
    assert out.splitlines() == [f"{attacker / 'bot.json'}: $.botLocation: {location!r} leads outside the bot folder"]
    code, out, err = cli("match", attacker, victim, "--max-rounds", "1", "--output", tmp_path / "logs")
    assert code == 2 and not (tmp_path / "logs").exists()
    assert err.splitlines() == [f"error: {attacker / 'bot.json'}: $.botLocation: {location!r} leads outside the bot folder"]
    code, out, err = cli("build", attacker)
    assert code == 2 and "$.botLocation" in err and len(err.splitlines()) == 1
    code, out, err = cli("tournament", attacker, victim, "--max-rounds", "1", "--output", tmp_path / "tour")
    assert code == 0  # a tournament goes on: the folder that cannot start forfeits every match, and says why
    (warning,) = [line for line in err.splitlines() if "$.botLocation" in line]
    assert warning.startswith("warning: tiny (attacker) cannot start, it loses every match: ")
    assert warning.endswith(f"bot.json: $.botLocation: {location!r} leads outside the bot folder")
    rows = json.loads((tmp_path / "tour" / "standings.json").read_text())["rows"]
    assert [row["cannot_start"] for row in rows] == [0, 2]


def test_bot_file_command_and_build_files_leading_outside_are_refused(tmp_path: Path, victim: Path) -> None:
    linked = write_bot_json(tmp_path / "linked", botFileName="bot.py", botLanguage="python3")
    (linked / "bot.py").symlink_to(victim / "bot.py")  # a link out of the folder
    assert load_error(linked) == "$.botFileName: 'bot.py' leads outside the bot folder"
    upward = write_bot_json(tmp_path / "upward", botFileName="../victim/bot.py", botLanguage="python3")
    assert load_error(upward) == "$.botFileName: '../victim/bot.py' leads outside the bot folder"
    custom = write_bot_json(tmp_path / "custom", botLanguage="custom", command=["{python}", "../victim/bot.py"])
    assert load_error(custom) == "$.command[1]: '../victim/bot.py' leads outside the bot folder"
    program = write_bot_json(tmp_path / "program", botLanguage="custom", command=["../victim/run"])
    assert load_error(program) == "$.command[0]: '../victim/run' leads outside the bot folder"
    script = write_bot_json(tmp_path / "script", botFileName="bot.py", botLanguage="python3")
    (script / "bot.py").write_text(NOTHING)
    (tmp_path / "elsewhere.sh").write_text("echo ran elsewhere > ran.txt\n")
    (script / "build.sh").symlink_to(tmp_path / "elsewhere.sh")
    assert load_error(script) == "build.sh is a link that leads outside the bot folder"
    code, out, err = cli("build", script)
    assert code == 2 and not (script / "ran.txt").exists()
    assert err.splitlines() == [f"error: {script / 'bot.json'}: build.sh is a link that leads outside the bot folder"]
    (script / "build.sh").unlink()
    (script / "requirements.txt").symlink_to("/etc/shadow" if os.path.exists("/etc/shadow") else "/etc/passwd")
    assert load_error(script) == "requirements.txt is a link that leads outside the bot folder"


def load_error(folder: Path) -> str:
    code, out, err = cli("validate", folder)
    assert code == 1, out + err
    (line,) = out.splitlines()
    return line.removeprefix(f"{folder / 'bot.json'}: ")


def test_paths_inside_the_folder_keep_working(tmp_path: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botLocation="/src/../src", botFileName="bot.py", botLanguage="python3")
    (folder / "src").mkdir()
    (folder / "src" / "real.py").write_text(NOTHING)
    (folder / "src" / "bot.py").symlink_to("real.py")  # a link that stays inside
    assert cli("validate", folder)[0] == 0
    assert run_turn(load_bot(folder), {"state.json": "{}"}, Limits(timeout_ms=10_000)).status is TurnStatus.OK


def test_a_folder_changed_after_its_check_is_refused_at_launch(tmp_path: Path, victim: Path) -> None:
    folder = write_bot_json(tmp_path / "bot", botLocation="/sub", botFileName="bot.py", botLanguage="python3")
    (folder / "sub").mkdir()
    (folder / "sub" / "bot.py").write_text(NOTHING)
    bot = load_bot(folder)
    (folder / "sub" / "bot.py").unlink()
    (folder / "sub" / "bot.py").symlink_to(victim / "bot.py")  # swapped after the check
    outcome = run_turn(bot, {"state.json": "{}"}, Limits(timeout_ms=10_000))
    assert outcome.status is TurnStatus.FAILED_TO_START
    assert "bot.py now leads outside" in outcome.detail

"""Tiny bots and an in-process CLI for the tournament tests (a uniquely named module: tests/ has no packages)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from runner.cli import main

REPO = Path(__file__).resolve().parents[2]

#: A Tower Defence bot that answers at once: an energy building in row ROW every round (ROW 0: nothing).
TD_BOT = 'ROW = {row}\nopen("command.txt", "w").write(f"0,{{ROW}},2\\n" if ROW else "")\n'
CRASHER = 'import sys\nprint("about to fail")\nsys.exit(3)\n'
#: A Tower Defence bot that is slow but never times out under a long --timeout-ms: 0.3 s a turn, then nothing.
SLOW_BOT = 'import time\ntime.sleep(0.3)\nopen("command.txt", "w").write("")\n'
#: A match the slow bot cannot finish within 1 s (30 rounds: 9 s or more), under a 10 s limit per turn.
SLOW_MATCH = ("--max-rounds", "30", "--timeout-ms", "10000", "--match-timeout", "1")


def write_bot(folder: Path, nick: str, code: str, *, author: str | None = None, **extra) -> str:
    folder.mkdir(parents=True)
    data = {"author": author or nick, "email": "tests@example.invalid", "nickName": nick, "botLocation": "/",
            "botFileName": "bot.py", "botLanguage": "python3", **extra}
    (folder / "bot.json").write_text(json.dumps(data))
    (folder / "bot.py").write_text(code)
    return str(folder)


def copy_starter(source: str, folder: Path, nick: str, author: str) -> str:
    """A starter bot copied under another nickName and author (so its content hash differs)."""
    shutil.copytree(REPO / source, folder, ignore=shutil.ignore_patterns("__pycache__"))
    data = json.loads((folder / "bot.json").read_text())
    data.update(nickName=nick, author=author)
    (folder / "bot.json").write_text(json.dumps(data))
    return str(folder)


@pytest.fixture
def td_bots(tmp_path: Path) -> list[str]:
    """Four Tower Defence bots: Tiny0 does nothing, Tiny1..3 build energy (so they beat Tiny0 on score)."""
    return [write_bot(tmp_path / "bots" / f"tiny{n}", f"Tiny{n}", TD_BOT.format(row=n)) for n in range(4)]


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out, err)
    return code, out.getvalue(), err.getvalue()


def games(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines() if line.strip()]


def write_sh_bot(folder: Path, nick: str, command: str, *, author: str | None = None) -> str:
    """A Tower Defence bot in `sh` (it starts in about a millisecond, where Python takes 20-40 ms): it
    writes `command` (such as `0,1,2`: an energy building at x 0, y 1) every round; "" does nothing."""
    folder.mkdir(parents=True)
    data = {"author": author or nick, "email": f"{nick.lower()}@example.invalid", "nickName": nick,
            "botLocation": "/", "botFileName": "bot.sh", "botLanguage": "custom", "command": ["sh", "bot.sh"]}
    (folder / "bot.json").write_text(json.dumps(data))
    (folder / "bot.sh").write_text(f"printf '{command}\\n' > command.txt\n" if command else ": > command.txt\n")
    return str(folder)

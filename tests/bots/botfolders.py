"""Tiny real bots made on the fly: a folder with bot.json and a Python script (imported by the tests)."""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

BOT_JSON = {"author": "tests", "email": "tests@example.invalid", "nickName": "tiny", "botLocation": ""}


def write_bot_json(folder: Path, **fields: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = {**BOT_JSON, **fields}
    (folder / "bot.json").write_text(json.dumps({k: v for k, v in data.items() if v is not None}))
    return folder


@pytest.fixture
def python_bot(tmp_path: Path) -> Callable[..., Path]:
    """`python_bot(code)` -> a bot folder whose bot.py runs `code` (python3, the launch table default)."""

    def make(code: str, name: str = "bot") -> Path:
        folder = write_bot_json(tmp_path / name, botFileName="bot.py", botLanguage="python3")
        (folder / "bot.py").write_text(textwrap.dedent(code))
        return folder

    return make


def isolation_modes() -> list[Any]:
    """Limits for each isolation mode this machine offers (sandbox only where bubblewrap works)."""
    from runner.bots.isolation import check_isolation
    from runner.bots.limits import Limits
    from runner.errors import UserError

    modes = []
    for name, limits in (
        ("pid-namespace", Limits(pid_namespace=True)),
        ("process-group", Limits(pid_namespace=False)),
        ("sandbox", Limits(sandbox=True)),
    ):
        try:
            check_isolation(limits)
            marks: tuple[Any, ...] = ()
        except UserError as exc:
            marks = (pytest.mark.skip(reason=str(exc)),)
        modes.append(pytest.param(limits, id=name, marks=marks))
    return modes


def processes_with(text: str) -> list[int]:
    """Pids (not ours) whose environment or command line contains `text`: a bot's leftovers."""
    needle = text.encode()
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        for part in ("environ", "cmdline"):
            try:
                with open(f"/proc/{entry.name}/{part}", "rb") as handle:
                    if needle in handle.read():
                        found.append(int(entry.name))
                        break
            except OSError:
                pass
    return found

"""--sandbox with the interpreter under /tmp (a venv made there): the sandbox's private /tmp must not hide it.

Before the fix every python3 turn of such a runner failed with `bwrap: execvp /tmp/.../bin/python: No such
file or directory`. The program and what it needs are bound read-only; the rest of /tmp stays private.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from botfolders import write_bot_json

from runner.bots import isolation, sandbox
from runner.bots.definition import load_bot
from runner.bots.limits import Limits
from runner.bots.outcome import TurnStatus
from runner.bots.process import run_turn
from runner.errors import UserError

REPO = Path(__file__).resolve().parent.parent.parent
SANDBOX = Limits(sandbox=True, timeout_ms=20_000)

#: The bot reports its interpreter and what it can see and write of /tmp.
PROBE = """
import json, os, sys
def seen(path):
    try:
        return sorted(os.listdir(path))
    except OSError as exc:
        return type(exc).__name__
try:
    open("/tmp/scratch", "w").write("mine")
    scratch = open("/tmp/scratch").read()
except OSError as exc:
    scratch = type(exc).__name__
print(json.dumps({"executable": sys.executable, "prefix": sys.prefix, "scratch": scratch,
                  "place": seen(os.path.dirname(sys.prefix)), "venv": seen(sys.prefix)}))
open("command.txt", "w").write("1,2,3")
"""


@pytest.fixture(scope="module")
def place() -> Iterator[Path]:
    """A folder under /tmp holding a venv (`venv`), a file the bot must not see, and the bot folders."""
    try:
        isolation.check_isolation(SANDBOX)
    except UserError as exc:
        pytest.skip(str(exc))
    folder = Path(tempfile.mkdtemp(prefix="td-sandbox-paths-", dir="/tmp"))
    try:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", folder / "venv"],
                       check=True, capture_output=True)
        (folder / "secret.txt").write_text("the opponent's plans\n")
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def probe_bot(place: Path, name: str, **bot_json: object) -> Path:
    folder = write_bot_json(place / name, **bot_json)
    (folder / "bot.py").write_text(PROBE)
    return folder


def check_probe(output: str, place: Path) -> None:
    seen = json.loads(output.splitlines()[-1])
    assert seen["executable"] == str(place / "venv" / "bin" / "python")
    assert seen["prefix"] == str(place / "venv")  # pyvenv.cfg was read: the venv, not just its interpreter
    assert seen["scratch"] == "mine"  # a private, writable /tmp
    assert "secret.txt" not in seen["place"] and "venv" in seen["place"]
    assert "pyvenv.cfg" in seen["venv"]


def test_a_program_in_a_venv_under_tmp_runs_sandboxed(place: Path) -> None:
    folder = probe_bot(place, "custom", botLanguage="custom", command=[str(place / "venv/bin/python"), "bot.py"])
    outcome = run_turn(load_bot(folder), {"state.json": "{}"}, SANDBOX)
    assert (outcome.status, outcome.command, outcome.events) == (TurnStatus.OK, "1,2,3", ())
    check_probe(outcome.output, place)
    assert not Path("/tmp/scratch").exists() or Path("/tmp/scratch").read_text() != "mine"


#: Run by the venv's interpreter, as td-runner would be when installed in that venv: one python3 turn
#: sandboxed, and one with the read-only binds taken away (what the runner did before).
AS_RUNNER = """
import json, sys
from runner.bots import sandbox
from runner.bots.definition import load_bot
from runner.bots.limits import Limits
from runner.bots.process import run_turn
bot = load_bot(sys.argv[1])
limits = Limits(sandbox=True, timeout_ms=20_000)
fixed = run_turn(bot, {"state.json": "{}"}, limits)
sandbox.runtime_dirs = lambda programs, extra=(), protected=(): []
before = run_turn(bot, {"state.json": "{}"}, limits)
print(json.dumps([[o.status.name, o.command, o.output] for o in (fixed, before)]))
"""


def test_python3_bots_of_a_runner_installed_in_a_venv_under_tmp(place: Path) -> None:
    folder = probe_bot(place, "python3", botLanguage="python3", botFileName="bot.py")
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run([place / "venv/bin/python", "-c", textwrap.dedent(AS_RUNNER), folder],
                         capture_output=True, text=True, env=environment, check=False)
    assert run.returncode == 0, run.stderr
    (status, command, output), (status_before, _, output_before) = json.loads(run.stdout)
    assert (status, command) == ("OK", "1,2,3")
    check_probe(output, place)
    assert status_before == "CRASH" and "execvp" in output_before, output_before  # the issue, reproduced without the binds


def test_the_binds_never_open_all_of_tmp(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "executable", "/tmp/python3")
    for name in ("prefix", "base_prefix", "exec_prefix", "base_exec_prefix"):
        monkeypatch.setattr(sys, name, "/tmp")
    assert not [path for path in sandbox.runtime_dirs(()) if path.startswith("/tmp")]  # /tmp/python3: absent
    program = Path("/tmp") / f"td-bin-{os.getpid()}" / "bin" / "tool"
    program.parent.mkdir(parents=True)
    try:
        program.write_text("")
        assert [path for path in sandbox.runtime_dirs([str(program)]) if path.startswith("/tmp")] == [
            str(program.parent.parent)]
        bare = Path("/tmp/bin/tool")  # its prefix would be /tmp itself: never bound
        assert "/tmp" not in sandbox.runtime_dirs([str(bare)])
    finally:
        shutil.rmtree(program.parent.parent)


def test_a_relative_program_binds_nothing_of_the_runners_working_directory(monkeypatch, tmp_path: Path) -> None:
    """`"command": ["./league.sqlite"]` names the bot's own file; resolved against the runner's working
    directory (a league's folder, say), it would have bound that folder's file into the sandbox."""
    (tmp_path / "league.sqlite").write_text("secret")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "tool").write_text("")
    monkeypatch.chdir(tmp_path)
    bound = sandbox.runtime_dirs(["./league.sqlite", "bin/tool"])
    assert not [path for path in bound if path.startswith(str(tmp_path))]


def test_a_hidden_folder_inside_the_bots_own_is_empty_to_it(tmp_path: Path) -> None:
    """E.g. `match bot other --output bot/logs`: the log folder sits in the bot's folder, and stays hidden."""
    try:
        isolation.check_isolation(SANDBOX)
    except UserError as exc:
        pytest.skip(str(exc))
    folder = write_bot_json(tmp_path / "bot", botLanguage="python3", botFileName="bot.py")
    (folder / "logs").mkdir()
    (folder / "logs" / "other-answer.txt").write_text("the opponent's move")
    (folder / "bot.py").write_text("import os\nprint(sorted(os.listdir('logs')))\nopen('command.txt', 'w').write('1,1,1')\n")
    limits = Limits(sandbox=True, timeout_ms=20_000, hidden_paths=(str(folder / "logs"),))
    outcome = run_turn(load_bot(folder), {"state.json": "{}"}, limits)
    assert (outcome.status, outcome.command, outcome.output.strip()) == (TurnStatus.OK, "1,1,1", "[]")
    assert (folder / "logs" / "other-answer.txt").is_file()

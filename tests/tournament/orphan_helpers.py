"""A real run killed with SIGKILL, and every process it left behind found (for the league's and the
tournament's kill tests; a uniquely named module: tests/ has no packages).

Each run is tagged with a token: in the environment of the run (inherited by its workers and, outside the
sandbox, by its bots) and in the bots' file name (so a sandboxed bot, whose environment is cleared, still
shows it in its command line). Processes of other tests on the machine carry other tokens.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOKEN_ENV = "TD_ORPHAN_TEST"

#: A Tower Defence bot that sleeps SLEEP s a turn, then builds in row ROW: a process per turn, or one for the
#: match (bot.json's "persistent") answering each round number on stdin.
SLOW_BOT = 'import time\ntime.sleep({sleep})\nopen("command.txt", "w").write("0,{row},2\\n")\n'
SLOW_PERSISTENT_BOT = ('import sys, time\nfor line in sys.stdin:\n    time.sleep({sleep})\n'
                       '    print(f"C;{{int(line)}};0,{row},2", flush=True)\n')


def new_token() -> str:
    return uuid.uuid4().hex


def slow_bot(folder: Path, nick: str, token: str, row: int, sleep_s: float, persistent: bool = False) -> Path:
    folder.mkdir(parents=True)
    data = {"author": nick, "email": "tests@example.invalid", "nickName": nick, "botLocation": "/",
            "botFileName": f"slow_{token}.py", "botLanguage": "python3", "persistent": persistent}
    (folder / "bot.json").write_text(json.dumps(data))
    code = SLOW_PERSISTENT_BOT if persistent else SLOW_BOT
    (folder / f"slow_{token}.py").write_text(code.format(sleep=sleep_s, row=row))
    return folder


def start(arguments: list[str], token: str, logs: Path) -> subprocess.Popen[bytes]:
    """`td-runner ARGUMENTS` in its own session, tagged with `token`, stdout and stderr into files in `logs`
    (files, not pipes: orphans holding a pipe cannot block anyone)."""
    env = {**os.environ, TOKEN_ENV: token, "PYTHONPATH": os.pathsep.join(
        p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)}
    logs.mkdir(parents=True, exist_ok=True)
    with open(logs / "stdout", "wb") as out, open(logs / "stderr", "wb") as err:
        return subprocess.Popen([sys.executable, "-m", "runner", *arguments], cwd=REPO, env=env, stdout=out,
                                stderr=err, start_new_session=True)


def tagged(token: str) -> dict[int, str]:
    """Every live process carrying `token` (environment or command line): pid -> its command line."""
    found = {}
    needle = f"{TOKEN_ENV}={token}".encode()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as handle:
                environ = handle.read().split(b"\0")
            with open(f"/proc/{entry.name}/cmdline", "rb") as handle:
                cmdline = handle.read()
        except OSError:
            continue  # gone meanwhile
        if needle in environ or token.encode() in cmdline:
            found[int(entry.name)] = cmdline.replace(b"\0", b" ").decode(errors="replace").strip()
    return found


def workers_of(process: subprocess.Popen[bytes], token: str) -> list[int]:
    """The worker processes of `process` (its children, not a child of theirs between fork and exec)."""
    found = []
    for pid, line in tagged(token).items():
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        if int(stat[stat.rindex(b")") + 2:].split()[1]) == process.pid and "runner.tournament.worker" in line:
            found.append(pid)
    return found


def bots_of(token: str) -> dict[int, str]:
    return {pid: line for pid, line in tagged(token).items() if f"slow_{token}.py" in line}


def wait_for(condition, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def kill_9(process: subprocess.Popen[bytes], token: str, limit_s: float) -> tuple[float, dict[int, str]]:
    """SIGKILL `process` alone (not its workers); the seconds until no process carrying `token` is left
    (watched up to `limit_s` + 2 s), and what was still alive at `limit_s`."""
    os.kill(process.pid, signal.SIGKILL)
    killed = time.monotonic()
    process.wait(timeout=10)
    left_at_limit: dict[int, str] | None = None
    while True:
        left = tagged(token)
        elapsed = time.monotonic() - killed
        if left_at_limit is None and elapsed >= limit_s:
            left_at_limit = left
        if not left:
            return elapsed, left_at_limit or {}
        if elapsed > limit_s + 2:
            return elapsed, left_at_limit or left
        time.sleep(0.01)


def end_all(process: subprocess.Popen[bytes], token: str) -> None:
    """Whatever happened, leave nothing of this run running."""
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)
    for pid in tagged(token):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def kill_mid_match(arguments: list[str], token: str, logs: Path, matches: Path) -> None:
    """Start `td-runner ARGUMENTS` (two workers), wait until two matches are in flight in `matches`, kill -9 the
    command alone, and check what issue 31.7 asks: nothing of the run alive 1 s later, no traceback printed."""
    process = start(arguments, token, logs)
    try:
        partials = lambda: list(matches.glob(".*.partial")) if matches.is_dir() else []  # noqa: E731
        wait_for(lambda: len(partials()) == 2 and len(bots_of(token)) >= 2, 60, "two matches in flight")
        gone_after, left = kill_9(process, token, limit_s=1.0)
        assert not left, f"alive 1 s after the kill ({gone_after:.2f} s until none): {left}"
    finally:
        end_all(process, token)
    stderr = (logs / "stderr").read_text()
    assert "Traceback" not in stderr and "Error" not in stderr, stderr

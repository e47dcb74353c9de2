"""A spy bot in a real `--sandbox` match and in a real sandboxed build (issue 31): it tries to read a league
database, a league's `bots/` folder, another player's submission, /etc/shadow, /root and $HOME, to write
outside its folder, to reach the network and to see the machine's processes. Each must fail, while the
bot still plays and can write its own folder.

Everything the spy looks for lives under /var/tmp, not /tmp: the sandbox's private /tmp would hide a place
under /tmp whatever else it showed, so only a place elsewhere tests what the sandbox binds. A first match
without the sandbox shows that every target is really there to be read.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from runner.bots import sandbox
from runner.bots.build import _rust_toolchain
from runner.bots.isolation import check_isolation
from runner.bots.limits import Limits
from runner.bots.staging import STAGE_MARK
from runner.cli import main
from runner.errors import UserError

HERE = Path(__file__).resolve().parent
NOTHING = 'open("command.txt", "w").write("")\n'


@attrs.frozen
class Place:
    root: Path
    spy: Path
    victim: Path
    database: Path
    snapshot: Path  # a league's DIR/bots/<hash>/bot.py
    listener: socket.socket

    def targets(self, *, writes: bool) -> dict:
        home = os.path.expanduser("~")
        read = [str(self.database), str(self.snapshot), str(self.victim / "bot.py"), "/etc/shadow", "/etc/gshadow"]
        write = [str(self.root / "outside.txt"), str(self.victim / "bot.py"), str(self.database),
                 f"/etc/td-spy-{os.getpid()}", f"/usr/td-spy-{os.getpid()}", f"{home}/td-spy-{os.getpid()}",
                 f"/dev/td-spy-{os.getpid()}"]
        return {"read": read, "list": [str(self.snapshot.parent.parent), str(self.victim.parent), "/root", home,
                                       "/etc/ssl/private"],
                "write": write if writes else [], "port": self.listener.getsockname()[1]}

    def fingerprint(self) -> dict[str, str]:
        """What must not change: the files the spy tries to write."""
        return {str(path): hashlib.sha256(path.read_bytes()).hexdigest()
                for path in (self.database, self.snapshot, self.victim / "bot.py")}


def _write_bot(folder: Path, nick: str, code: str, **extra: object) -> Path:
    folder.mkdir(parents=True)
    data = {"author": nick, "email": "spy@example.invalid", "nickName": nick, "botLocation": "/",
            "botFileName": "bot.py", "botLanguage": "python3", **extra}
    (folder / "bot.json").write_text(json.dumps(data))
    (folder / "bot.py").write_text(code)
    return folder


@pytest.fixture
def place() -> Iterator[Place]:
    try:
        check_isolation(Limits(sandbox=True))
    except UserError as exc:
        pytest.skip(str(exc))
    root = Path(tempfile.mkdtemp(prefix="td-spy-", dir="/var/tmp"))
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    try:
        league = root / "league"
        snapshot = _write_bot(league / "bots" / "0123abcd", "Victim", "# the victim's secret strategy\n" + NOTHING)
        database = league / "league.sqlite"
        with sqlite3.connect(database) as db:
            db.execute("CREATE TABLE players (name TEXT, token_hash TEXT)")
            db.execute("INSERT INTO players VALUES ('victim', 'f00d')")
        db.close()
        victim = _write_bot(root / "submissions" / "victim", "Victim", "# the victim's secret strategy\n" + NOTHING)
        spy = _write_bot(root / "submissions" / "spy", "Spy", (HERE / "spy.py").read_text())
        (spy / "build.sh").write_text("python3 bot.py build\n")
        yield Place(root, spy, victim, database, snapshot / "bot.py", listener)
    finally:
        listener.close()
        shutil.rmtree(root, ignore_errors=True)


def run(*args: object) -> tuple[int, str, str]:
    import io

    out, err = io.StringIO(), io.StringIO()
    code = main([str(arg) for arg in args], out, err)
    return code, out.getvalue(), err.getvalue()


def play(place: Place, *options: str) -> dict:
    """A two-round match, spy against victim; the spy's report. Asserts the spy played every round."""
    log = place.root / "logs"
    code, out, err = run("match", place.spy, place.victim, "--max-rounds", "2", "--output", log, "--quiet", *options)
    assert code == 0, out + err
    (folder,) = log.iterdir()
    shutil.rmtree(log)
    report = json.loads((place.spy / "spy-report.json").read_text())
    (place.spy / "spy-report.json").unlink()
    return report


def check_contained(report: dict, place: Place, before: dict[str, str], toolchain: tuple[str, ...] = ()) -> None:
    """Every attempt failed but the spy's own write; nothing outside its folder changed. `toolchain`: what a
    build sees besides a bot's runtime."""
    assert (report["uid"], report["gid"]) == (65534, 65534)  # unprivileged inside, though the test may be root
    assert not [path for path, result in report["read"].items() if result.startswith("ok")], report["read"]
    for folder, result in report["list"].items():  # at most the mount points on the way to what is bound
        shown = result.removeprefix("ok: ").split() if result.startswith("ok") else []
        assert all(is_on_the_way(os.path.join(folder, name), place, toolchain) for name in shown), (folder, result)
    assert not [path for path, result in report["write"].items() if result.startswith("ok")], report["write"]
    assert not report["network"].startswith("ok"), report["network"]
    assert report["processes"] == []  # its own PID namespace's /proc: not the runner's, not the test's
    assert report["own"] == "ok: written"
    assert place.fingerprint() == before
    for path in report["write"]:
        if path not in before:
            assert not os.path.exists(path), f"{path} was created"


def is_on_the_way(path: str, place: Place, toolchain: tuple[str, ...]) -> bool:
    """Whether `path` is a folder the sandbox creates to reach what it binds (the spy's own folder, its
    Python's installation, a build's toolchain): a mount point, or the bound folder itself. A build runs in
    a staging copy of the spy's folder beside it (runner/bots/staging.py): that copy is its own folder."""
    staged = f".{place.spy.name}{STAGE_MARK}"
    if os.path.dirname(path) == str(place.spy.parent) and os.path.basename(path).startswith(staged):
        return True
    bound = [str(place.spy), *sandbox.runtime_dirs([sys.executable]), *toolchain]
    return any(inner == path or inner.startswith(path + os.sep) for inner in bound)


def test_the_targets_are_real_without_the_sandbox(place: Place) -> None:
    (place.spy / "targets.json").write_text(json.dumps(place.targets(writes=False)))
    report = play(place)
    readable = [path for path, result in report["read"].items() if result.startswith("ok")]
    assert {str(place.database), str(place.snapshot), str(place.victim / "bot.py")} <= set(readable)
    if os.geteuid() == 0:
        assert "/etc/shadow" in readable and report["list"]["/root"].startswith("ok")
    assert report["list"][str(place.victim.parent)] == "ok: spy victim"
    assert report["network"] == "ok: connected"


def test_a_spy_in_a_sandboxed_match_reaches_nothing_and_still_plays(place: Place) -> None:
    (place.spy / "targets.json").write_text(json.dumps(place.targets(writes=True)))
    before = place.fingerprint()
    log = place.root / "logs"
    code, out, err = run("match", place.spy, place.victim, "--max-rounds", "2", "--output", log, "--quiet",
                         "--sandbox")
    assert code == 0, out + err
    (folder,) = log.iterdir()
    seats = json.loads((folder / "match.json").read_text())["players"]
    spy = next(seat for seat in seats if seat["bot_dir"] == str(place.spy))
    assert (spy["crashes"], spy["timeouts"], spy["invalid_commands"]) == (0, 0, 0)  # it played every round
    check_contained(json.loads((place.spy / "spy-report.json").read_text()), place, before)


def test_a_spy_in_a_sandboxed_build_reaches_nothing(place: Place) -> None:
    (place.spy / "targets.json").write_text(json.dumps(place.targets(writes=True)))
    before = place.fingerprint()
    code, out, err = run("build", "--sandbox", place.spy)
    assert code == 0, out + err
    assert "built (build.sh" in out
    check_contained(json.loads((place.spy / "spy-report.json").read_text()), place, before, _rust_toolchain())


def test_a_sandboxed_build_gets_the_network_only_when_asked(place: Place) -> None:
    (place.spy / "targets.json").write_text(json.dumps(place.targets(writes=False)))
    assert run("build", "--sandbox", "--network", place.spy)[0] == 0
    assert json.loads((place.spy / "spy-report.json").read_text())["network"] == "ok: connected"
    assert run("build", "--sandbox", place.spy)[0] == 0
    assert json.loads((place.spy / "spy-report.json").read_text())["network"] != "ok: connected"

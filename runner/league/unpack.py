"""Unpacking an uploaded bot (`.zip` or `.tar.gz`): the league's security boundary with the outside world.

The archive is read, checked and written by a child process (`unpack_child.py`, standard library only)
under a memory limit (256 MiB of address space) and a time limit (10 s of CPU, TIME_LIMIT_S of wall time):
whatever an archive holds, the process that calls `unpack` (the league, the web server) only waits for a
one-line answer, so no archive can make it grow or stall. The child's checks are listed in its docstring.
The target is a fresh folder the caller renames into place only when the whole bot is there; on any refusal
the caller removes it, so nothing is left behind.

A refusal is an `UploadRefused` with one line that can be shown to the player as it is (it names archive
members, never a path of the server).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import attrs

from runner.league import unpack_child

TIME_LIMIT_S = 10.0  # wall time of one unpack, start-up included
CHILD = Path(unpack_child.__file__)


class UploadRefused(Exception):
    """An upload that is not taken; the message is the reason, for the player (HTTP 4xx) and the organiser."""

    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.status = status


@attrs.frozen
class Caps:
    upload_bytes: int = 20 << 20
    unpacked_bytes: int = 200 << 20
    files: int = 2000


def unpack(source: bytes | Path, target: Path, caps: Caps) -> Path:
    """Unpack the archive `source` (its bytes, or a file holding them) into the new folder `target` (which
    must not exist); the bot folder, which is `target` (a single top folder in the archive
    is taken off). UploadRefused on any problem; the caller removes `target` then."""
    size = len(source) if isinstance(source, bytes) else source.stat().st_size
    if size > caps.upload_bytes:
        raise UploadRefused(f"the upload is {size} bytes; this league takes at most {caps.upload_bytes}", 413)
    target.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-I", "-S", str(CHILD), str(target), json.dumps(attrs.asdict(caps))]
    if isinstance(source, Path):
        command.append(str(source))
    try:
        done = subprocess.run(command, input=source if isinstance(source, bytes) else b"", capture_output=True,
                              timeout=TIME_LIMIT_S, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
                              close_fds=True)
    except subprocess.TimeoutExpired:  # run() has killed the child
        raise UploadRefused(f"the archive took more than {TIME_LIMIT_S:.0f} s to unpack", 413) from None
    try:
        answer = json.loads(done.stdout.decode("utf-8").splitlines()[-1])
    except (ValueError, IndexError):  # killed (CPU limit) or out of memory before it could answer
        raise UploadRefused("the archive could not be unpacked within the league's memory and time limits", 413) from None
    if not answer.get("ok"):
        raise UploadRefused(str(answer.get("reason", "refused")), int(answer.get("status", 400)))
    return target

"""Taking a player's upload into the submissions folder: checked, unpacked aside, renamed into place whole.

`accept` is what `POST /submit` does once the token named the player. The archive is unpacked (by a child
process under memory and time limits, see `unpack`) into a hidden folder inside the submissions folder
(hidden folders are not players; the same file system, so the final rename is atomic), its bot.json checked
as `td-runner validate --game` checks it (only what no build can change when the league will build it: a
Python bot's packages, a Go binary or a jar are the build's to make), and only then is it renamed to
`submissions/<player>/` (the player's previous folder moved aside first and removed after). Uploads of one player are taken one at a
time (a lock file), so two at once cannot swap each other's folders away.

Each upload taken leaves a receipt, `submissions/.uploads/<player>/<time>-<id>.json` (its content hash), which
the league turns into exactly one version, or records as superseded when a later upload of the player
replaced the folder before the league read it (see `submissions.settle_receipts`). Any refusal removes
everything it wrote, and no refusal names a path of the server.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import shutil
import sys
import time
from pathlib import Path

from runner.bots.definition import read_bot_json
from runner.bots.recipes import plan_build
from runner.errors import UserError
from runner.league.unpack import Caps, UploadRefused, unpack
from runner.tournament.entrants import content_hash
from runner.validate import validate_bot_folder

RECEIPTS = ".uploads"  # submissions/.uploads/<player>/: receipts of uploads the league has not yet settled


def accept(data: bytes | Path, submissions: Path, player: str, game: str, caps: Caps) -> str:
    """Install the uploaded bot (its bytes, or a file holding them) as the player's folder; the receipt's id.
    UploadRefused (nothing left on disk; status 4xx, or 500 when the server's disk failed) on any problem."""
    upload_id = f"{time.time_ns():020d}-{secrets.token_hex(4)}"
    scratch = submissions / f".upload-{player}-{upload_id}"
    try:
        scratch.mkdir()
        bot = unpack(data, scratch / "bot", caps)
        report = validate_bot_folder(bot, game, before_build=_has_build(bot))
        if report.unreadable or report.problems:
            reason = report.unreadable or "; ".join(str(problem) for problem in report.problems)
            raise UploadRefused(private(reason, bot, submissions), 422)
        digest = content_hash(bot)
        with player_lock(submissions, player):
            _swap(bot, submissions / player)
            _write_receipt(submissions / RECEIPTS / player, upload_id, digest)
    except OSError as exc:
        raise UploadRefused(f"the upload could not be stored: {exc.strerror or type(exc).__name__}", 500) from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return upload_id


def _has_build(bot: Path) -> bool:
    """Whether the league will build the upload (then its files are checked once built, not now)."""
    try:
        return plan_build(bot, read_bot_json(bot)) is not None
    except UserError:
        return False  # the check below says what is wrong


def _swap(bot: Path, final: Path) -> None:
    """`bot` becomes `final`; the folder it replaces is moved aside first and removed after (a reader sees the
    old folder or the new one, and at worst for a moment none)."""
    old = final.with_name(f".replaced-{final.name}-{secrets.token_hex(6)}")
    if os.path.lexists(final):  # a folder, or the link to the league's copy of an upload stored once
        final.rename(old)
    try:
        bot.rename(final)
    except OSError:
        if os.path.lexists(old):
            old.rename(final)
        raise
    if old.is_symlink():
        old.unlink()  # the link only: the league's copy stays, its version's snapshot
    else:
        shutil.rmtree(old, ignore_errors=True)


def _write_receipt(folder: Path, upload_id: str, digest: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f".{upload_id}.partial"
    partial.write_text(json.dumps({"id": upload_id, "hash": digest, "time": time.time()}))
    partial.rename(folder / f"{upload_id}.json")


class player_lock:
    """An exclusive lock on `submissions/.uploads/<player>.lock`: one upload's swap, or the league reading
    that player's folder and receipts together."""

    def __init__(self, submissions: Path, player: str) -> None:
        self.path = submissions / RECEIPTS / f"{player}.lock"

    def __enter__(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.handle = open(self.path, "a")
        fcntl.flock(self.handle, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.handle, fcntl.LOCK_UN)
        self.handle.close()


def private(text: str, *folders: Path) -> str:
    """A checker's or a build's words with the server's paths taken out (the player sees them): the bot's
    `folders` (paths inside them made relative), and td-runner's Python (as `python3`)."""
    for folder in folders:
        for form in dict.fromkeys((str(folder), os.path.abspath(folder), os.path.realpath(folder))):
            text = text.replace(form + os.sep, "").replace(form, "the bot folder")
    return text.replace(sys.executable, "python3")

"""Taking a player's upload into the submissions folder: checked, unpacked aside, renamed into place whole.

`accept` is what `POST /submit` does once the token named the player. The archive is unpacked into a hidden
folder inside the submissions folder (hidden folders are not players; the same file system, so the final
rename is atomic), its bot.json checked as `td-runner validate --game` checks it, and only then is it renamed
to `submissions/<player>/` (the player's previous folder moved aside first and removed after). The league
sees the new content as a new version and builds it. Any refusal removes everything it wrote.
"""

from __future__ import annotations

import secrets
import shutil
from pathlib import Path

from runner.league.unpack import Caps, UploadRefused, unpack
from runner.validate import validate_bot_folder


def accept(data: bytes, submissions: Path, player: str, game: str, caps: Caps) -> None:
    """Install the uploaded bot as the player's folder; UploadRefused (nothing left on disk) on any problem."""
    scratch = submissions / f".upload-{player}-{secrets.token_hex(6)}"
    try:
        bot = unpack(data, scratch / "archive", caps)
        report = validate_bot_folder(bot, game)
        if report.unreadable or report.problems:
            reason = report.unreadable or "; ".join(str(problem) for problem in report.problems)
            raise UploadRefused(reason.replace(str(bot) + "/", "").replace(str(bot), "the bot folder"), 422)
        final = submissions / player
        old = submissions / f".replaced-{player}-{secrets.token_hex(6)}"
        if final.exists():
            final.rename(old)
        bot.rename(final)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        for leftover in submissions.glob(f".replaced-{player}-*"):
            shutil.rmtree(leftover, ignore_errors=True)

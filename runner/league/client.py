"""`td-runner league submit URL --token TOKEN BOT_DIR`: pack a bot folder and upload it to a league."""

from __future__ import annotations

import io
import tarfile
import urllib.error
import urllib.request
from pathlib import Path

from runner.bots.definition import read_bot_json
from runner.errors import UserError
from runner.tournament.entrants import SKIPPED_DIRS

#: Not sent: caches, version control, and a bot's own virtual environment (the league builds its own).
LEFT_OUT = SKIPPED_DIRS | {".venv", "node_modules", "target"}
TIMEOUT_S = 120


def pack_bot(folder: Path) -> bytes:
    """The folder as .tar.gz bytes, bot.json at the top, LEFT_OUT folders skipped."""
    read_bot_json(folder)  # a folder without bot.json is the user's mistake: one line, nothing sent

    def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        return None if set(Path(info.name).parts) & LEFT_OUT else info

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for entry in sorted(folder.iterdir()):
            archive.add(entry, arcname=entry.name, filter=keep)
    return buffer.getvalue()


def submit(url: str, token: str, folder: Path) -> tuple[int, str]:
    """POST the packed folder to URL/submit; (HTTP status, the server's text)."""
    data = pack_bot(folder)
    target = url.rstrip("/") + "/submit"
    request = urllib.request.Request(target, data=data, method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/gzip"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            return response.status, response.read().decode("utf-8", errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", errors="replace") or exc.reason
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UserError(f"{target}: cannot reach the league: {reason}") from None

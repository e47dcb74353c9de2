"""A league's built replays, `DIR/replays/<match id>.html.gz`: made off the serving path, never on a request.

The worker that played a league match writes its page, gzip-compressed, beside the match's partial log
folder (`packed_beside`: runner/tournament/task.py, when the task asks for it); the recorder moves it into
place once the match is recorded (`place_replay`, runner/league/recorder.py). A match that has none
(recorded before replays were built by workers, or whose build failed) gets one from `build_missing_replays`,
which `league run` runs in a background process at low priority (`start_backfill`). The web server serves
the `.html.gz` files as they are, with `Content-Encoding: gzip`.

The match log folder itself is left exactly as `td-runner match` writes it: `verify` checks it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from runner.replay.html import write_html_replay

#: The league folder's replay folder, and a built replay's file ending.
REPLAYS = "replays"
SUFFIX = ".html.gz"
DATABASE = "league.sqlite"  # (runner/league/store.py; read here read-only, by name, to stay a leaf module)

#: The background builder's niceness (added to the league's): matches and pages go first.
NICENESS = 15
#: Seconds between the background builder's looks for matches without a replay, and how long a match recorded
#: while it runs is left to its worker's replay (the recorder moves it into place right after the commit).
RESCAN_S = 30.0
GRACE_S = 30.0


def replay_file(folder: Path, match_id: int) -> Path:
    """Where a recorded match's replay is kept: `DIR/replays/<match id>.html.gz`."""
    return Path(folder) / REPLAYS / f"{int(match_id)}{SUFFIX}"


def packed_beside(log: Path) -> Path:
    """Where a worker writes the replay of the match it played into `log`: beside it (`matches/.x.partial`
    -> `matches/.x.partial.html.gz`), not inside, so the log folder stays as `td-runner match` makes it."""
    log = Path(log)
    return log.parent / f"{log.name}{SUFFIX}"


def place_replay(folder: Path, match_id: int, partial: Path) -> bool:
    """Move the replay a worker built beside `partial` into place for recorded match `match_id`; False when
    there is none or it cannot be moved (the background builder makes it later)."""
    built = packed_beside(partial)
    if not built.is_file():
        return False
    target = replay_file(folder, match_id)
    try:
        target.parent.mkdir(exist_ok=True)
        os.replace(built, target)
    except OSError:
        with contextlib.suppress(OSError):
            built.unlink()
        return False
    return True


def build_missing_replays(folder: Path, stop: Callable[[], bool] = lambda: False,
                          skip: set[int] | None = None, recorded_before: float | None = None) -> int:
    """Build `DIR/replays/<id>.html.gz` for every recorded match with a log and no replay yet, newest first
    (the ones people open); the number built. An uncompressed `<id>.html` of an earlier td-runner (built on a
    page request, by a page template a bot's name could break: issue 31) is rebuilt from the log, then
    removed. `stop` is asked between matches; `skip`: match ids not to try (and where failures are added);
    `recorded_before`: a time.time(); matches recorded since are left to their worker's replay."""
    folder = Path(folder)
    skip = set() if skip is None else skip
    replays = folder / REPLAYS
    for stale in replays.glob(f".*{SUFFIX}.tmp") if replays.is_dir() else ():  # a build killed half-way
        with contextlib.suppress(OSError):
            stale.unlink()
    built = 0
    for match_id, log in _recorded(folder, time.time() if recorded_before is None else recorded_before):
        if stop():
            break
        target = replay_file(folder, match_id)
        if match_id in skip or target.is_file():
            continue
        try:
            replays.mkdir(exist_ok=True)
            write_html_replay(folder / log, target, public=True)
        except Exception:  # noqa: BLE001 - any log no replay can be made of (its page then says it has none):
            skip.add(match_id)  # tried once per run, not every pass; the other matches still get theirs
            continue
        with contextlib.suppress(OSError):
            (replays / f"{match_id}.html").unlink()
        built += 1
    return built


def _recorded(folder: Path, before: float) -> list[tuple[int, str]]:
    """(match id, log path in the folder) of the matches recorded before `before`, newest first."""
    database = folder / DATABASE
    if not database.is_file():
        return []
    try:
        connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)
        try:
            return [(row[0], row[1]) for row in connection.execute(
                "SELECT id, log FROM matches WHERE log IS NOT NULL AND finished < ? ORDER BY id DESC", (before,))]
        finally:
            connection.close()
    except sqlite3.Error:
        return []


class Backfill:
    """The background builder's process; `stop()` ends it (it also ends by itself when the league dies)."""

    def __init__(self, process: multiprocessing.process.BaseProcess) -> None:
        self.process = process

    def stop(self, timeout: float = 5.0) -> None:
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout)
            if self.process.is_alive():
                self.process.kill()
                self.process.join(timeout)


def start_backfill(folder: Path) -> Backfill:
    """Start `build_missing_replays` over `folder` in a low-priority process that looks again every RESCAN_S
    seconds (a worker whose build failed leaves a gap) until stopped or the calling process dies."""
    context = multiprocessing.get_context("spawn")  # not fork: the league process holds threads and sockets
    process = context.Process(target=_backfill_main, args=(str(folder), os.getpid()), name="td-runner replays",
                              daemon=True)
    process.start()
    return Backfill(process)


def _backfill_main(folder: str, parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group: the league stops us
    _die_with_parent()
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    orphaned = lambda: os.getppid() != parent  # noqa: E731 (the league died: stop)
    failed: set[int] = set()
    before = time.time()  # the first pass: every match recorded before the league started
    while not orphaned():
        build_missing_replays(Path(folder), orphaned, failed, before)
        deadline = time.monotonic() + RESCAN_S
        while time.monotonic() < deadline and not orphaned():
            time.sleep(0.5)
        before = time.time() - GRACE_S


def _die_with_parent() -> None:
    """Linux: have the kernel send SIGTERM when the league process dies (kill -9 included)."""
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG

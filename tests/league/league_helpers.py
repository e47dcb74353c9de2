"""Bots, submissions folders and checks shared by the league tests (a uniquely named module: tests/ has no
packages)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sqlite3
import threading
from pathlib import Path

from runner.cli import main
from runner.league.recorder import starting_ratings, stored_matches
from runner.league.ratings import recompute
from runner.league.store import connect

REPO = Path(__file__).resolve().parents[2]

#: A Tower Defence bot that answers at once: an energy building in row ROW, column COL (ROW 0: nothing).
TD_BOT = 'ROW, COL = {row}, {col}\nopen("command.txt", "w").write(f"{{COL}},{{ROW}},2\\n" if ROW else "")\n'


def write_bot(folder: Path, nick: str, code: str, *, language: str = "python3", author: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = {"author": author or nick, "email": "tests@example.invalid", "nickName": nick, "botLocation": "/",
            "botFileName": "bot.py", "botLanguage": language}
    (folder / "bot.json").write_text(json.dumps(data))
    (folder / "bot.py").write_text(code)
    return folder


def td_submissions(root: Path, count: int = 4) -> Path:
    """`count` Tower Defence players: tiny0 does nothing, the others build energy (so they beat tiny0)."""
    folder = root / "submissions"
    for n in range(count):
        write_bot(folder / f"tiny{n}", f"Tiny{n}", TD_BOT.format(row=n, col=0))
    return folder


def copy_starter(source: str, folder: Path, nick: str, author: str) -> Path:
    """A starter bot copied under another nickName and author (so its content hash differs)."""
    shutil.copytree(REPO / source, folder, ignore=shutil.ignore_patterns("__pycache__"))
    data = json.loads((folder / "bot.json").read_text())
    data.update(nickName=nick, author=author)
    (folder / "bot.json").write_text(json.dumps(data))
    return folder


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(arg) for arg in args], out, err)
    return code, out.getvalue(), err.getvalue()


def database(folder: Path) -> sqlite3.Connection:
    return connect(folder, readonly=True)


def check_consistent(folder: Path) -> int:
    """Every recorded match once, with its log in place and no other log; the stored ratings equal to the
    ones recomputed from the stored matches. The number of matches."""
    db = database(folder)
    try:
        matches = db.execute("SELECT id, task, log, unfinished FROM matches ORDER BY id").fetchall()
        tasks = [row["task"] for row in matches]
        assert len(tasks) == len(set(tasks)), "a scheduled match recorded twice"
        assert [row["id"] for row in matches] == list(range(1, len(matches) + 1))
        logs = {row["log"] for row in matches if row["log"]}
        # (hidden .partial folders are matches in flight when the league was killed: removed by its next start)
        on_disk = {f"matches/{entry.name}" for entry in (folder / "matches").iterdir()
                   if not entry.name.startswith(".")} if (folder / "matches").is_dir() else set()
        assert on_disk == logs, f"logs on disk {sorted(on_disk - logs)} unrecorded, {sorted(logs - on_disk)} missing"
        for row in matches:
            seats = db.execute("SELECT COUNT(*) FROM seats WHERE match_id = ?", (row["id"],)).fetchone()[0]
            assert seats >= 2
        sides = json.loads(db.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()[0])["game"]
        from runner.tournament.schedule import SIDED_GAMES

        again = recompute(starting_ratings(db), stored_matches(db), SIDED_GAMES.get(sides))
        stored = {(row["version_id"], row["role"]): (row["mu"], row["sigma"], row["games"])
                  for row in db.execute("SELECT * FROM ratings")}
        assert {key: (r.mu, r.sigma, r.games) for key, r in again.items()} == stored
        return len(matches)
    finally:
        db.close()


@contextlib.contextmanager
def running_league(folder: Path, given: dict, workers: int = 1, max_matches: int | None = None):
    """A league playing in a thread of this process (`open_league`), its log lines collected; stopped, its
    pool and database closed on leaving. Yields (league, lines, thread)."""
    from runner.league.run import open_league
    from runner.tournament.local import LocalPool

    pool = LocalPool(workers)
    lines: list[str] = []
    league = open_league(folder, given, pool, lines.append)
    stop = threading.Event()
    thread = threading.Thread(target=league.run, args=(max_matches, stop))
    thread.start()
    try:
        yield league, lines, thread
    finally:
        stop.set()
        thread.join(timeout=30)
        pool.stop()
        pool.close()
        league.close()

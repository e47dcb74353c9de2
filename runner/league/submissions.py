"""The submissions folder: each subfolder holding a bot.json is a player; its content is the player's version.

`scan` reads the folder as it is now (names and content hashes); `Registrar.sync` turns that into rows:
a new folder is a new player, a new content a new version (snapshotted under `DIR/bots/<hash>/`, so later
edits never change a played match), a folder gone retires its player. Each new version is checked as
`td-runner validate BOT_DIR --game GAME` checks it and built as `td-runner build` builds it, once; until it
passes both, the player's previous version goes on playing (a broken resubmission does not cost a player its
place), and a version that fails is kept with its reason and never scheduled.
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import attrs

from runner.bots.build import plan_build, run_build
from runner.bots.definition import read_bot_json
from runner.errors import UserError
from runner.league.ratings import Rating, successor
from runner.league.store import (ACTIVE, BUILD_FAILED, BUILDING, INVALID, PENDING, REPLACED, RETIRED, add_event,
                                 transaction)
from runner.tournament.entrants import content_hash, copy_bot
from runner.validate import validate_bot_folder

BOTS = "bots"
BUILD_OUTPUT_CAP = 64 * 1024  # characters of a build's output kept for the player's page
SWAP_GRACE_S = 0.2


@attrs.frozen
class Submission:
    """One player folder as found: its content hash, or why it cannot be read."""

    name: str
    folder: Path
    hash: str | None
    problem: str | None = None


def scan(folder: Path, ignored: tuple[str, ...]) -> dict[str, Submission]:
    """Every player folder of `folder` (hidden ones are uploads in progress: skipped)."""
    found: dict[str, Submission] = {}
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        raise UserError(f"{folder}: cannot read the submissions folder: {exc.strerror or exc}") from None
    for entry in entries:
        if entry.name.startswith(".") or not entry.is_dir() or not (entry / "bot.json").is_file():
            continue
        try:
            found[entry.name] = Submission(entry.name, entry, content_hash(entry, ignored))
        except OSError as exc:  # a folder removed or made unreadable while it was read
            found[entry.name] = Submission(entry.name, entry, None, f"cannot read: {exc.strerror or exc}")
    return found


@attrs.frozen
class NewVersion:
    """A version registered by `sync` that still has to be checked and built."""

    version: int
    player: str
    snapshot: Path


class Registrar:
    """Keeps the players and versions tables in step with the submissions folder (the league's thread only);
    builds run on a helper thread and come back through `finished_builds`."""

    def __init__(self, connection: sqlite3.Connection, folder: Path, submissions: Path, game: str,
                 roles: tuple[str, ...], ignored: tuple[str, ...], log: Callable[[str], None],
                 build_timeout_s: float | None = None, sandbox: bool = False, build_network: bool = False) -> None:
        self.connection = connection
        self.folder = folder  # the league folder
        self.submissions = submissions
        self.build_timeout_s = build_timeout_s
        self.sandbox = sandbox
        self.build_network = build_network  # sandboxed builds only; unsandboxed ones have the machine's
        self.game = game
        self.roles = roles
        self.ignored = ignored
        self.log = log
        self._builds: list[tuple[int, str, str | None, str]] = []  # (version, player, problem, output)
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def sync(self, submissions: Mapping[str, Submission]) -> list[NewVersion]:
        """Record what changed in the submissions folder; the new versions are returned to be checked."""
        db = self.connection
        added: list[NewVersion] = []
        known = {row["name"]: row for row in db.execute(
            "SELECT p.*, EXISTS (SELECT 1 FROM versions v WHERE v.player_id = p.id) AS submitted FROM players p")}
        gone = [name for name, row in known.items()
                if name not in submissions and row["retired"] is None and row["submitted"]]
        if gone:  # an upload swaps a player's folder with two renames: look again before retiring anyone
            time.sleep(SWAP_GRACE_S)
        for name in gone:
            row = known[name]
            if (self.submissions / name / "bot.json").is_file():
                continue
            with transaction(db):
                db.execute("UPDATE players SET retired = ? WHERE id = ?", (time.time(), row["id"]))
                db.execute("UPDATE versions SET status = ?, reason = ? WHERE player_id = ? AND status IN (?, ?, ?)",
                           (RETIRED, "the player's folder was removed", row["id"], ACTIVE, PENDING, BUILDING))
                add_event(db, "retired", name, f"{name}: folder removed, the player is retired")
            self.log(f"{name}: folder removed, retired")
        for name, found in submissions.items():
            if found.hash is None:
                continue
            row = known.get(name)
            with transaction(db):
                if row is None:
                    player_id = db.execute("INSERT INTO players (name, created) VALUES (?, ?)",
                                           (name, time.time())).lastrowid
                else:
                    player_id = row["id"]
                    if row["retired"] is not None:
                        db.execute("UPDATE players SET retired = NULL WHERE id = ?", (player_id,))
                        add_event(db, "returned", name, f"{name}: folder back, the player plays again")
                latest = db.execute("SELECT * FROM versions WHERE player_id = ? ORDER BY number DESC LIMIT 1",
                                    (player_id,)).fetchone()
                if latest is not None and latest["hash"] == found.hash:
                    if latest["status"] == RETIRED:
                        db.execute("UPDATE versions SET status = ?, reason = NULL WHERE id = ?", (ACTIVE, latest["id"]))
                    continue
                added.append(self._register(player_id, name, found, latest["number"] + 1 if latest else 1))
        return added

    def _register(self, player_id: int, name: str, found: Submission, number: int) -> NewVersion:
        db = self.connection
        snapshot = self.folder / BOTS / found.hash  # type: ignore[operator]
        if not snapshot.is_dir():
            partial = self.folder / BOTS / f".{found.hash}.partial"
            shutil.rmtree(partial, ignore_errors=True)
            partial.parent.mkdir(parents=True, exist_ok=True)
            copy_bot(found.folder, partial)
            partial.rename(snapshot)
        try:
            data = read_bot_json(snapshot)
        except UserError:
            data = {}
        nick = data.get("nickName") if isinstance(data.get("nickName"), str) else ""
        language = data.get("botLanguage") if isinstance(data.get("botLanguage"), str) else ""
        version = db.execute(
            "INSERT INTO versions (player_id, number, hash, created, nick, language, status) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (player_id, number, found.hash, time.time(), nick, language, PENDING)).lastrowid
        for role in self.roles:
            previous = db.execute(
                "SELECT r.mu, r.sigma, r.games FROM ratings r JOIN versions v ON v.id = r.version_id "
                "WHERE v.player_id = ? AND r.role = ? AND r.games > 0 ORDER BY v.number DESC LIMIT 1",
                (player_id, role)).fetchone()
            start = successor(Rating(previous["mu"], previous["sigma"]) if previous else None)
            db.execute("INSERT INTO ratings (version_id, role, mu0, sigma0, mu, sigma) VALUES (?, ?, ?, ?, ?, ?)",
                       (version, role, start.mu, start.sigma, start.mu, start.sigma))
        add_event(db, "version", name, f"{name}: version {number} ({found.hash}) submitted")
        self.log(f"{name}: version {number} ({found.hash})")
        return NewVersion(version, name, snapshot)

    def unsettled(self) -> list[NewVersion]:
        """Versions a stopped league left pending or building: checked (and built) again."""
        rows = self.connection.execute(
            "SELECT v.id, v.hash, p.name FROM versions v JOIN players p ON p.id = v.player_id "
            "WHERE v.status IN (?, ?) ORDER BY v.id", (PENDING, BUILDING))
        return [NewVersion(row["id"], row["name"], self.folder / BOTS / row["hash"]) for row in rows]

    def check(self, new: NewVersion) -> None:
        """Validate the snapshot now; build it on a helper thread when it needs a build."""
        report = validate_bot_folder(new.snapshot, self.game)
        if report.unreadable or report.problems:
            reason = report.unreadable or "; ".join(str(problem) for problem in report.problems)
            reason = reason.replace(str(new.snapshot) + "/", "").replace(str(new.snapshot), "the bot folder")
            self._settle(new.version, new.player, INVALID, reason, None)
            return
        try:
            plan = plan_build(new.snapshot, read_bot_json(new.snapshot))
        except UserError as exc:
            self._settle(new.version, new.player, INVALID, str(exc), None)
            return
        if plan is None:
            self._settle(new.version, new.player, ACTIVE, None, None)
            return
        self.connection.execute("UPDATE versions SET status = ? WHERE id = ?", (BUILDING, new.version))

        def build() -> None:
            result = run_build(plan, timeout_s=self.build_timeout_s, sandbox=self.sandbox, network=self.build_network)
            with self._lock:
                self._builds.append((new.version, new.player, result.problem, result.output))

        thread = threading.Thread(target=build, daemon=True, name=f"td-build-{new.version}")
        self._threads.append(thread)
        thread.start()

    def finished_builds(self) -> int:
        """Record the builds that ended since the last call; how many."""
        with self._lock:
            done, self._builds = self._builds, []
        for version, player, problem, output in done:
            kept = output[-BUILD_OUTPUT_CAP:]
            if problem is None:
                self._settle(version, player, ACTIVE, None, kept)
            else:
                self._settle(version, player, BUILD_FAILED, problem, kept)
        return len(done)

    def building(self) -> bool:
        return any(thread.is_alive() for thread in self._threads)

    def _settle(self, version: int, player: str, status: str, reason: str | None, output: str | None) -> None:
        db = self.connection
        with transaction(db):
            row = db.execute("SELECT v.player_id, v.number, p.retired FROM versions v JOIN players p ON p.id = v.player_id "
                             "WHERE v.id = ?", (version,)).fetchone()
            if status == ACTIVE and row["retired"] is not None:
                status, reason = RETIRED, "the player's folder was removed"
            newer = db.execute("SELECT 1 FROM versions WHERE player_id = ? AND number > ?",
                               (row["player_id"], row["number"])).fetchone()
            if status == ACTIVE and newer is not None:
                status, reason = REPLACED, "a newer version was submitted"
            db.execute("UPDATE versions SET status = ?, reason = ?, build_output = COALESCE(?, build_output) WHERE id = ?",
                       (status, reason, output, version))
            if status == ACTIVE:
                db.execute("UPDATE versions SET status = ?, reason = ? WHERE player_id = ? AND id != ? AND status = ?",
                           (REPLACED, f"replaced by version {row['number']}", row["player_id"], version, ACTIVE))
            what = {ACTIVE: "plays", INVALID: "refused", BUILD_FAILED: "build failed"}.get(status, status)
            add_event(db, status.replace(" ", "_"), player, f"{player}: version {row['number']} {what}"
                      + (f": {reason}" if reason else ""))
        self.log(f"{player}: version {row['number']} {what}" + (f": {reason}" if reason else ""))

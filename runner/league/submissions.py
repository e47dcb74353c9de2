"""The submissions folder: each subfolder holding a bot.json is a player; its content is the player's version.

`scan` reads the folder as it is now (names and content hashes); `Registrar.sync` turns that into rows:
a new folder is a new player, a new content a new version (snapshotted under `DIR/bots/<hash>/`, so later
edits never change a played match), a folder gone retires its player. Each new version is checked as
`td-runner validate BOT_DIR --game GAME` checks it and built as `td-runner build` builds it, once; until it
passes both, the player's previous version goes on playing (a broken resubmission does not cost a player its
place), and a version that fails is kept with its reason and never scheduled.

A version with a build is built before it is checked, and checked against what the build made (a Python bot
with a requirements.txt gets its venv, then plays): the build runs in a staging copy of the snapshot and
only a whole result is moved into it. What builds leave in a player's folder (`.venv`, `node_modules`:
BYPRODUCTS) is no part of a version: neither hashed nor copied. No reason or build output a player sees
names a path of the server.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import attrs

from runner.bots.recipes import plan_build
from runner.bots.staging import clean_stages, run_staged
from runner.bots.definition import VENV, read_bot_json
from runner.errors import UserError
from runner.league.ratings import Rating, successor
from runner.league.store import (ACTIVE, BUILD_FAILED, BUILDING, INVALID, PENDING, REPLACED, RETIRED, add_event,
                                 transaction)
from runner.league import seals
from runner.league.upload import RECEIPTS, player_lock, private
from runner.tournament.entrants import content_hash, copy_bot, make_read_only
from runner.validate import validate_bot_folder

BOTS = "bots"
BUILD_OUTPUT_CAP = 64 * 1024  # characters of a build's output kept for the player's page
SWAP_GRACE_S = 0.2
HASH = re.compile(r"[0-9a-f]{16}")


@attrs.frozen
class Submission:
    """One player folder as found: its content hash, or why it cannot be read."""

    name: str
    folder: Path
    hash: str | None
    problem: str | None = None


def stored_upload(entry: Path) -> str | None:
    """The hash of the snapshot a player folder links to (`DIR/bots/<hash>`: an upload stored once), else None."""
    if not entry.is_symlink():
        return None
    target = Path(os.readlink(entry))
    if target.parent.name == BOTS and HASH.fullmatch(target.name):
        return target.name
    return None


#: What a build makes in a bot folder that no version is made of: a player's `td-runner build` in the
#: submissions folder must not make a new version (the league builds each version itself).
BYPRODUCTS = (VENV, "node_modules")


def scan(folder: Path, ignored: tuple[str, ...]) -> dict[str, Submission]:
    """Every player folder of `folder` (hidden ones are uploads in progress or staged builds: skipped); its
    hash leaves out `ignored` and the BYPRODUCTS of builds."""
    ignored = (*ignored, *BYPRODUCTS)
    found: dict[str, Submission] = {}
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        raise UserError(f"{folder}: cannot read the submissions folder: {exc.strerror or exc}") from None
    for entry in entries:
        if entry.name.startswith("."):
            continue
        stored = stored_upload(entry)
        if stored is not None:  # an upload the league keeps once, as its snapshot: named by its hash
            found[entry.name] = Submission(entry.name, entry, stored)
            continue
        if not entry.is_dir() or not (entry / "bot.json").is_file():
            continue
        try:
            found[entry.name] = Submission(entry.name, entry, content_hash(entry, ignored))
        except OSError as exc:  # a folder removed or made unreadable while it was read
            found[entry.name] = Submission(entry.name, entry, None, f"cannot read: {exc.strerror or exc}")
    return found


class FolderMoved(Exception):
    """A player's folder changed while the league copied it: the copy is not what the hash names."""


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
        self.ignored = ignored  # what a snapshot's seal leaves out (the files the runner writes)
        self.source_ignored = (*ignored, *BYPRODUCTS)  # what a player folder's hash leaves out
        self.log = log
        clean_stages(folder / BOTS)  # staged builds a killed league left
        self._builds: list[tuple[int, str, str, str | None, str]] = []  # (version, player, status, reason, output)
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self.look_again = False  # a folder changed while it was read: the loop scans again soon

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
            try:
                if self._receipts(name):
                    with player_lock(self.submissions, name):  # no upload swaps the folder meanwhile
                        self._take_upload(name, found, known.get(name), added)
                else:
                    self._take(name, found, known.get(name), added, owned=False)
            except FolderMoved:  # changed while it was read: read again on the next pass
                self.look_again = True
        for name in set(self._receipt_players()) - set(submissions):
            with player_lock(self.submissions, name):
                if not os.path.lexists(self.submissions / name):  # gone, not in the middle of an upload's swap
                    self._settle_receipts(name, None, None)
        return added

    def _take_upload(self, name: str, found: Submission, row: sqlite3.Row | None, added: list[NewVersion]) -> None:
        """A player folder with upload receipts: taken (stored once when it is the upload), receipts settled."""
        if stored_upload(found.folder) is not None:
            raw = found.hash
        else:
            if content_hash(found.folder, self.source_ignored) != found.hash:
                raise FolderMoved(name)
            raw = content_hash(found.folder)  # as `accept` wrote it: nothing left out
        owned = any(receipt.get("hash") == raw for receipt in self._receipts(name).values())
        self._take(name, found, row, added, owned=owned)
        self._settle_receipts(name, found, raw)

    def _take(self, name: str, found: Submission, row: sqlite3.Row | None, added: list[NewVersion], *,
              owned: bool) -> None:
        db = self.connection
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
                return
            added.append(self._register(player_id, name, found, latest["number"] + 1 if latest else 1, owned))

    def _register(self, player_id: int, name: str, found: Submission, number: int, owned: bool) -> NewVersion:
        db = self.connection
        snapshot = self.folder / BOTS / found.hash  # type: ignore[operator]
        if not snapshot.is_dir():
            if owned and stored_upload(found.folder) is None:
                self._store_upload(found.folder, found.hash)  # type: ignore[arg-type]
            else:
                self._snapshot(found.folder, found.hash)  # type: ignore[arg-type]
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

    def _snapshot(self, source: Path, digest: str) -> Path:
        """`DIR/bots/<digest>/` copied from `source` aside, checked to hold what `digest` names (a folder
        swapped or edited during the copy would not: FolderMoved), then renamed into place whole."""
        snapshot = self.folder / BOTS / digest
        partial = self.folder / BOTS / f".{digest}.{secrets.token_hex(4)}.partial"
        partial.parent.mkdir(parents=True, exist_ok=True)
        try:
            copy_bot(source, partial, leave_out=BYPRODUCTS)
            if content_hash(partial, self.source_ignored) != digest:
                raise FolderMoved(str(source))
            partial.rename(snapshot)
        except FileNotFoundError:
            raise FolderMoved(str(source)) from None
        except OSError:
            if not snapshot.is_dir():
                raise
        finally:
            shutil.rmtree(partial, ignore_errors=True)
        return snapshot

    def _store_upload(self, source: Path, digest: str) -> None:
        """An uploaded folder moved to `DIR/bots/<digest>/` and a link to it left in its place: the upload is
        stored once. The league owns an uploaded folder (a new upload replaces it whole), so nothing edits
        it in place; on another file system, or if it moved, it is copied as any folder is."""
        snapshot = self.folder / BOTS / digest
        partial = self.folder / BOTS / f".{digest}.{secrets.token_hex(4)}.partial"
        partial.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.rename(source, partial)
        except OSError:  # another file system: two copies after all
            self._snapshot(source, digest)
            return
        if content_hash(partial, self.source_ignored) != digest:
            os.rename(partial, source)
            raise FolderMoved(str(source))
        for name in BYPRODUCTS:  # the league builds every version itself
            shutil.rmtree(partial / name, ignore_errors=True)
        partial.rename(snapshot)
        os.symlink(os.path.abspath(snapshot), source)

    def _receipts(self, name: str) -> dict[Path, dict]:
        """The player's upload receipts not yet settled, oldest first (an unreadable one as {})."""
        found = {}
        for receipt in sorted((self.submissions / RECEIPTS / name).glob("*.json")):
            try:
                found[receipt] = json.loads(receipt.read_text())
            except (OSError, ValueError):
                found[receipt] = {}
        return found

    def _receipt_players(self) -> list[str]:
        try:
            return [entry.name for entry in (self.submissions / RECEIPTS).iterdir() if entry.is_dir()]
        except OSError:
            return []

    def _settle_receipts(self, name: str, found: Submission | None, raw: str | None) -> None:
        """Each upload receipt of `name` becomes an event: the version it is (its content is the folder's,
        `raw` as `accept` hashed it), or superseded (a later upload, or a change of the folder, replaced it
        before the league read it). The caller holds the player's upload lock."""
        receipts = self._receipts(name)
        if not receipts:
            return
        db = self.connection
        number = None
        if found is not None:
            row = db.execute("SELECT v.number FROM versions v JOIN players p ON p.id = v.player_id WHERE p.name = ? "
                             "AND v.hash = ? ORDER BY v.number DESC LIMIT 1", (name, found.hash)).fetchone()
            if row is None:
                return  # not registered (yet): the next pass
            number = row["number"]
        with transaction(db):
            for receipt, data in receipts.items():
                upload = receipt.stem
                if number is not None and data.get("hash") == raw:
                    add_event(db, "upload", name, f"{name}: upload {upload} is version {number}")
                elif number is None:
                    add_event(db, "superseded", name, f"{name}: upload {upload} not played: the player's folder "
                              "was removed before the league read it")
                else:
                    add_event(db, "superseded", name, f"{name}: upload {upload} superseded: a later upload (or a "
                              "change of the folder) replaced it before the league read it")
        for receipt in receipts:
            receipt.unlink(missing_ok=True)

    def heal(self, version: int, *, full: bool = False) -> bool:
        """Check an active version's snapshot against its seal; True when it may be played now. A snapshot
        deleted or changed is copied again from the player's folder when that still holds the same content
        (then checked and built again, as a new version is), else the version becomes invalid with the
        reason and is never scheduled again."""
        db = self.connection
        row = db.execute("SELECT v.id, v.number, v.hash, p.name FROM versions v JOIN players p ON p.id = v.player_id "
                         "WHERE v.id = ?", (version,)).fetchone()
        snapshot = self.folder / BOTS / row["hash"]
        problem = seals.check(snapshot, self.ignored, full=full)
        if problem is None:
            return True
        name, number = row["name"], row["number"]
        source = self.submissions / name
        try:  # an upload stored once has no other copy to take again
            same = (stored_upload(source) is None and (source / "bot.json").is_file()
                    and content_hash(source, self.source_ignored) == row["hash"])
        except OSError:
            same = False
        if same:
            damaged = snapshot.with_name(f".{snapshot.name}.damaged-{secrets.token_hex(4)}")
            try:
                snapshot.rename(damaged)
            except FileNotFoundError:
                pass
            shutil.rmtree(damaged, ignore_errors=True)
            seals.unseal(snapshot)
            try:
                self._snapshot(source, row["hash"])
            except (FolderMoved, OSError):
                same = False
        if not same:
            reason = f"{problem}, and the player's folder no longer holds it"
            with transaction(db):
                db.execute("UPDATE versions SET status = ?, reason = ? WHERE id = ?", (INVALID, reason, version))
                add_event(db, "invalid", name, f"{name}: version {number} refused: {reason}")
            self.log(f"{name}: version {number} refused: {reason}")
            return False
        with transaction(db):
            db.execute("UPDATE versions SET status = ?, reason = NULL WHERE id = ?", (PENDING, version))
            add_event(db, "healed", name, f"{name}: version {number}: {problem}; copied again from the player's folder")
        self.log(f"{name}: version {number}: {problem}; copied again from the player's folder")
        self.check(NewVersion(version, name, snapshot))
        status = db.execute("SELECT status FROM versions WHERE id = ?", (version,)).fetchone()[0]
        return status == ACTIVE

    def unsettled(self) -> list[NewVersion]:
        """Versions a stopped league left pending or building: checked (and built) again."""
        rows = self.connection.execute(
            "SELECT v.id, v.hash, p.name FROM versions v JOIN players p ON p.id = v.player_id "
            "WHERE v.status IN (?, ?) ORDER BY v.id", (PENDING, BUILDING))
        return [NewVersion(row["id"], row["name"], self.folder / BOTS / row["hash"]) for row in rows]

    def check(self, new: NewVersion) -> None:
        """Check a new version; one with a build is built first (on a helper thread, in a staging copy of its
        snapshot: runner/bots/staging.py) and checked against what the build made, as it will be played. Before
        the build only what no build can change is checked (bot.json itself, an interpreter on PATH)."""
        reason = self._refusal(new.snapshot, before_build=True)  # bot.json itself, paths leading out, ...
        plan = None
        if reason is None:
            try:
                plan = plan_build(new.snapshot, read_bot_json(new.snapshot))
            except UserError as exc:
                reason = private(str(exc), new.snapshot)
        if reason is None and plan is None:
            reason = self._refusal(new.snapshot, before_build=False)
        if reason is not None or plan is None:
            self._settle(new.version, new.player, INVALID if reason else ACTIVE, reason, None)
            return
        self.connection.execute("UPDATE versions SET status = ? WHERE id = ?", (BUILDING, new.version))

        def build() -> None:
            result = run_staged(plan, timeout_s=self.build_timeout_s, sandbox=self.sandbox, network=self.build_network)
            problem = private(result.problem, new.snapshot) if result.problem else None
            status = BUILD_FAILED if problem else ACTIVE
            if problem is None:
                problem = self._refusal(new.snapshot, before_build=False)
                status = INVALID if problem else ACTIVE
            with self._lock:
                self._builds.append((new.version, new.player, status, problem, private(result.output, new.snapshot)))

        thread = threading.Thread(target=build, daemon=True, name=f"td-build-{new.version}")
        self._threads.append(thread)
        thread.start()

    def _refusal(self, snapshot: Path, *, before_build: bool) -> str | None:
        """Why `td-runner validate --game` refuses the snapshot (all of it, with no path of the server), or None."""
        report = validate_bot_folder(snapshot, self.game, before_build=before_build)
        if not (report.unreadable or report.problems):
            return None
        return private(report.unreadable or "; ".join(str(problem) for problem in report.problems), snapshot)

    def finished_builds(self) -> int:
        """Record the builds that ended since the last call; how many."""
        with self._lock:
            done, self._builds = self._builds, []
        for version, player, status, problem, output in done:
            self._settle(version, player, status, problem, output[-BUILD_OUTPUT_CAP:])
        return len(done)

    def building(self) -> bool:
        return any(thread.is_alive() for thread in self._threads)

    def _settle(self, version: int, player: str, status: str, reason: str | None, output: str | None) -> None:
        db = self.connection
        with transaction(db):
            row = db.execute("SELECT v.player_id, v.number, v.hash, p.retired FROM versions v "
                             "JOIN players p ON p.id = v.player_id WHERE v.id = ?", (version,)).fetchone()
            if status == ACTIVE and row["retired"] is not None:
                status, reason = RETIRED, "the player's folder was removed"
            newer = db.execute("SELECT 1 FROM versions WHERE player_id = ? AND number > ?",
                               (row["player_id"], row["number"])).fetchone()
            if status == ACTIVE and newer is not None:
                status, reason = REPLACED, "a newer version was submitted"
            db.execute("UPDATE versions SET status = ?, reason = ?, build_output = COALESCE(?, build_output) WHERE id = ?",
                       (status, reason, output, version))
            if status == ACTIVE:
                try:
                    make_read_only(self.folder / BOTS / row["hash"])  # seats share its files (`give_seat`)
                    seals.seal(self.folder / BOTS / row["hash"], self.ignored)  # what it holds, its build included
                except OSError:  # gone already: `heal` finds it so before it is scheduled
                    pass
                db.execute("UPDATE versions SET status = ?, reason = ? WHERE player_id = ? AND id != ? AND status = ?",
                           (REPLACED, f"replaced by version {row['number']}", row["player_id"], version, ACTIVE))
            what = {ACTIVE: "plays", INVALID: "refused", BUILD_FAILED: "build failed"}.get(status, status)
            add_event(db, status.replace(" ", "_"), player, f"{player}: version {row['number']} {what}"
                      + (f": {reason}" if reason else ""))
        self.log(f"{player}: version {row['number']} {what}" + (f": {reason}" if reason else ""))

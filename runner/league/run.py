"""`league run`: keep a pool of workers busy with matches chosen from the ratings, until stopped.

The loop runs on one thread and is the database's only writer. Each pass it takes in what changed in the
submissions folder (watchdog tells it; a slow rescan catches anything missed), records the events the web
server left in its inbox (runner/league/inbox.py), records the builds that ended, records the matches that
finished, and tops the pool up to its width with new matches from
matchmaking. A match whose worker died is handed out again (the same seats and seed, at most
`RETRIES` times); `matches.task` keeps it from being recorded twice.
"""

from __future__ import annotations

import functools
import random
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from runner.bots.definition import read_bot_json
from runner.errors import UserError
from runner.league.inbox import ingest
from runner.league.matchmaking import Candidate, pick
from runner.league.ratings import Rating, RatingBook
from runner.league.recorder import MATCHES, Seating, clean_orphans, load_book, record_match
from runner.league.settings import LeagueRules, claim, prepare_rules
from runner.league.store import ACTIVE, connect, get_meta, set_meta, transaction
from runner.league.submissions import BOTS, Registrar, scan
from runner.tournament.orphans import await_orphans
from runner.tournament.pool import Pool
from runner.tournament.records import describe
from runner.tournament.run import _runtime_files
from runner.tournament.task import SEATS, MatchResult, MatchTask

RETRIES = 2  # a match whose worker died is played again this many times, then given up (an event says so)
QUIET_S = 0.5  # a submissions folder is read again once it has been still this long after a change
RESCAN_S = 30.0  # and at least this often, in case a change was not reported (network folders)


@attrs.define
class InFlight:
    seating: Seating
    task: MatchTask
    partial: Path
    attempts: int = 1


@attrs.define
class RunStats:
    """What one `league run` did (the CLI's last line, the benchmark's figures)."""

    played: int = 0
    failed: int = 0
    cpu_seconds: float = 0.0  # the league process's own CPU (matches run in workers)
    wall_seconds: float = 0.0
    cpu_at_first: float | None = None  # the process CPU when the first match was recorded (start-up excluded)
    cpu_at_last: float = 0.0

    @property
    def steady_cpu_per_match(self) -> float | None:
        """The league's CPU per match after its start-up (first scan, validations, imports)."""
        if self.cpu_at_first is None or self.played < 2:
            return None
        return (self.cpu_at_last - self.cpu_at_first) / (self.played - 1)


class _FolderWatch:
    """watchdog on the submissions folder: any event marks it changed (debounced by the loop)."""

    def __init__(self, folder: Path) -> None:
        self.changed_at: float | None = time.monotonic()  # read once at the start
        self.observer = None
        try:
            from watchdog.events import FileSystemEventHandler
            from watchdog.observers import Observer
        except ImportError:  # a dependency; without it the periodic rescan still works
            return
        watch = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: object) -> None:
                if getattr(event, "event_type", "") not in ("opened", "closed_no_write"):
                    watch.changed_at = time.monotonic()

        self.observer = Observer()
        self.observer.schedule(Handler(), str(folder), recursive=True)
        self.observer.daemon = True
        self.observer.start()

    def close(self) -> None:
        if self.observer is not None:
            self.observer.stop()
            self.observer.join(timeout=5)


class League:
    """One league folder being played (see the module docstring)."""

    def __init__(self, folder: Path, rules: LeagueRules, db: sqlite3.Connection, pool: Pool,
                 log: Callable[[str], None]) -> None:
        self.folder = folder
        self.rules = rules
        self.db = db
        self.pool = pool
        self.log = log
        self.submissions = Path(rules.settings.submissions)
        cap = rules.options.get("max_turns") if rules.sides else None
        self.turn_cap = cap if isinstance(cap, int) else None
        game = rules.game
        ignored = tuple(sorted(set(_runtime_files(game, rules.config, rules.options, len(rules.seats)))))
        self.ignored = ignored
        self.registrar = Registrar(db, folder, self.submissions, game.name, rules.roles, ignored, log,
                                   rules.settings.build_timeout_s, rules.settings.sandbox, rules.settings.build_network)
        self.book: RatingBook = load_book(db, rules.sides)
        self.in_flight: dict[int, InFlight] = {}
        self.meetings: dict[tuple[int, int], int] = {}
        self.seat_counts: dict[int, list[int]] = {}
        for row in db.execute("SELECT match_id, position, version_id FROM seats ORDER BY match_id, position"):
            self._count_seat(row["version_id"], row["position"])
        for row in db.execute("SELECT a.version_id AS a, b.version_id AS b, COUNT(*) AS n FROM seats a JOIN seats b "
                              "ON a.match_id = b.match_id AND a.version_id < b.version_id GROUP BY a.version_id, b.version_id"):
            self.meetings[(row["a"], row["b"])] = row["n"]
        self.stats = RunStats()
        self.on_pass: list[Callable[[], None]] = []  # called each pass (the CLI watches its web server)
        (folder / MATCHES).mkdir(parents=True, exist_ok=True)
        await_orphans(folder / MATCHES)  # a worker of a killed run may still write there (for half a second)
        removed = clean_orphans(db, folder)
        if removed:
            log(f"removed {removed} match folder(s) left unrecorded by the last run")
        shutil.rmtree(folder / BOTS / ".partial", ignore_errors=True)
        shutil.rmtree(folder / BOTS / SEATS, ignore_errors=True)  # seats of matches a killed run was playing
        self.pool.add_bots(self._snapshots())
        self._last_scan = 0.0
        for unsettled in self.registrar.unsettled():
            self.registrar.check(unsettled)
        self._heal(full=True)  # every active snapshot read whole once per start

    # the loop ---------------------------------------------------------------------------------------------

    def run(self, max_matches: int | None, stop: threading.Event) -> RunStats:
        """Play until `stop` is set or `max_matches` have been recorded in this run; matches in flight when
        stopped are dropped whole (the caller stops the pool)."""
        started, cpu = time.monotonic(), time.process_time()
        watch = _FolderWatch(self.submissions)
        try:
            while not stop.is_set():
                if max_matches is not None and self.stats.played >= max_matches:
                    break
                self._take_submissions(watch)
                ingest(self.db, self.folder, self.log)
                for call in self.on_pass:
                    call()
                if self.registrar.finished_builds():
                    self.pool.add_bots(self._snapshots())
                self._fill(max_matches)
                if not self.in_flight:
                    stop.wait(0.2)
                    continue
                got = self.pool.next_result(0.2)
                if got is not None:
                    self._finished(*got)
        finally:
            watch.close()
            self.stats.cpu_seconds = time.process_time() - cpu
            self.stats.wall_seconds = time.monotonic() - started
        return self.stats

    def _take_submissions(self, watch: _FolderWatch) -> None:
        now = time.monotonic()
        changed = watch.changed_at is not None and now - watch.changed_at >= QUIET_S
        if not changed and now - self._last_scan < RESCAN_S:
            return
        watch.changed_at = None
        self._last_scan = now
        for new in self.registrar.sync(scan(self.submissions, self.ignored)):
            self.registrar.check(new)
            for role in self.rules.roles:
                self.book.add(new.version, role, _start(self.db, new.version, role))
        if self.registrar.look_again:  # a folder changed while it was read
            self.registrar.look_again = False
            watch.changed_at = time.monotonic()
        self._heal()
        self.pool.add_bots(self._snapshots())

    def _heal(self, versions: list[int] | None = None, *, full: bool = False) -> bool:
        """Check the snapshots of `versions` (default: every active one) against their seals and heal them
        (`Registrar.heal`); True when all may be played now."""
        if versions is None:
            versions = [row[0] for row in self.db.execute("SELECT id FROM versions WHERE status = ?", (ACTIVE,))]
        return all([self.registrar.heal(version, full=full) for version in versions])

    def _snapshots(self) -> dict[str, Path]:
        return {row["hash"]: self.folder / BOTS / row["hash"]
                for row in self.db.execute("SELECT DISTINCT hash FROM versions")}

    def _fill(self, max_matches: int | None) -> None:
        width = self.pool.workers or 2 * max(1, len(self.rules.seats))
        while len(self.in_flight) < width:
            if max_matches is not None and self.stats.played + len(self.in_flight) >= max_matches:
                return
            if not self._schedule():
                return

    def _schedule(self) -> bool:
        """Hand out one match; False when matchmaking finds none (too few active players)."""
        rules = self.rules
        number = int(get_meta(self.db, "scheduled") or 0) + 1
        rng = random.Random(f"{rules.settings.seed}:{number}")
        candidates = self._candidates()
        versions = pick(candidates, rules.seats, rules.sides, self.meetings, rng)
        if versions is None:
            return False
        missing = [version for version in set(versions)
                   if not (self.folder / BOTS / self._hash_of(version) / "bot.json").is_file()]
        if missing:  # a snapshot deleted since the last look: healed, and matchmaking asked again
            self._heal(missing)
            return True
        seed = rng.randrange(2**31)
        with transaction(self.db):
            set_meta(self.db, "scheduled", str(number))
        roles = rules.sides or ("",) * len(rules.seats)
        rows = {row["id"]: row for row in self.db.execute(
            f"SELECT v.id, v.hash, p.name FROM versions v JOIN players p ON p.id = v.player_id "
            f"WHERE v.id IN ({','.join('?' * len(versions))})", versions)}
        task = MatchTask(f"{number:08d}", number, 0, seed, rules.game.name, rules.seats,
                         tuple(rows[v]["hash"] for v in versions), tuple(rows[v]["name"] for v in versions),
                         rules.options, rules.config, rules.limits, rules.startup_ms, rules.settings.match_timeout_s,
                         html_replay=True)
        flight = InFlight(Seating(number, tuple(versions), tuple(roles)), task, self._partial(number))
        self.in_flight[number] = flight
        self.pool.submit(task, flight.partial)
        return True

    def _hash_of(self, version: int) -> str:
        return self.db.execute("SELECT hash FROM versions WHERE id = ?", (version,)).fetchone()[0]

    def _partial(self, number: int) -> Path:
        partial = self.folder / MATCHES / f".{number:08d}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        return partial

    def _candidates(self) -> list[Candidate]:
        busy: dict[int, int] = {}
        for flight in self.in_flight.values():
            for version in flight.seating.versions:
                busy[version] = busy.get(version, 0) + 1
        found = []
        rows = self.db.execute("SELECT v.id, p.name, v.hash FROM versions v JOIN players p ON p.id = v.player_id "
                               "WHERE v.status = ? AND p.retired IS NULL ORDER BY v.id", (ACTIVE,))
        for row in rows:
            author = _author(self.folder / BOTS / row["hash"])
            first, second = self.seat_counts.get(row["id"], [0, 0])[:2]
            for role in self.rules.roles:
                rating = self.book.get(row["id"], role)
                found.append(Candidate(row["id"], row["name"], author, role, rating.mu, rating.sigma, rating.games,
                                       first, second, busy.get(row["id"], 0)))
        return found

    def _finished(self, result: MatchResult, partial: Path) -> None:
        flight = self.in_flight.get(int(result.match_id))
        if flight is None:
            return
        if result.record is None:
            shutil.rmtree(partial, ignore_errors=True)
            if not result.interrupted and not self._heal(list(set(flight.seating.versions))):
                del self.in_flight[flight.seating.number]  # a snapshot went missing under it: not the match's fault
                self.log(f"match {flight.seating.number} withdrawn: a bot's snapshot is being copied again or refused")
                return
            if result.interrupted or flight.attempts > RETRIES:
                del self.in_flight[flight.seating.number]
                self.stats.failed += 1
                self.log(f"match {flight.seating.number} not played: {result.problem}")
                return
            flight.attempts += 1  # the worker died: the same match again, on whichever worker is free
            self.log(f"match {flight.seating.number}: {result.problem}; played again")
            flight.partial = self._partial(flight.seating.number)
            self.pool.submit(flight.task, flight.partial)
            return
        del self.in_flight[flight.seating.number]
        self._heal(list(set(flight.seating.versions)))  # a bot that wrote through its seat's shared files
        match_id = record_match(self.db, self.book, self.folder, result.record, flight.seating, partial,
                                self.rules.sides, self.turn_cap)
        versions = flight.seating.versions
        for position, version in enumerate(versions):
            self._count_seat(version, position)
        for index, a in enumerate(versions):
            for b in versions[index + 1:]:
                key = (min(a, b), max(a, b))
                self.meetings[key] = self.meetings.get(key, 0) + 1
        self.stats.played += 1
        self.log(f"match {match_id}: {describe(result.record)}")
        self.stats.cpu_at_last = time.process_time()
        if self.stats.cpu_at_first is None:
            self.stats.cpu_at_first = self.stats.cpu_at_last

    def drop_in_flight(self) -> int:
        """After the pool was stopped: forget the matches in flight and remove their partial logs."""
        dropped = len(self.in_flight)
        for flight in self.in_flight.values():
            shutil.rmtree(flight.partial, ignore_errors=True)
        self.in_flight.clear()
        return dropped

    def close(self) -> None:
        self.db.close()

    def _count_seat(self, version: int, position: int) -> None:
        counts = self.seat_counts.setdefault(version, [0] * max(2, len(self.rules.seats)))
        if position < len(counts):
            counts[position] += 1


def open_league(folder: Path, given: Mapping[str, Any], pool: Pool, log: Callable[[str], None]) -> League:
    """The league in `folder` (created with the settings `given` when new), ready to `run` on `pool`; for
    scripts, tests and benchmarks (the CLI adds its own checks). `league.close()` closes its database."""
    db = connect(folder, create=True)
    with transaction(db):
        settings = claim(db, given, folder)
    return League(folder, prepare_rules(settings), db, pool, log)


def _start(db: sqlite3.Connection, version: int, role: str) -> Rating:
    """A version's stored starting rating (the registrar wrote it)."""
    row = db.execute("SELECT mu, sigma FROM ratings WHERE version_id = ? AND role = ?", (version, role)).fetchone()
    return Rating(row["mu"], row["sigma"]) if row else Rating()


@functools.lru_cache(maxsize=4096)
def _author(snapshot: Path) -> str:
    """bot.json's author (a snapshot never changes: read once)."""
    try:
        author = read_bot_json(snapshot).get("author")
    except UserError:
        return ""
    return author if isinstance(author, str) else ""

"""A whole tournament: settings in, matches played (here or on Dask), `games.jsonl` and standings out.

The tournament folder holds `tournament.json` (the settings, so `--resume` alone can continue and a different
command cannot mix its games in), `bots/<hash>/` (the snapshot every match plays from), `matches/` (every
match log), `games.jsonl` (one line per finished match) and the standings files.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import attrs

from runner.bots.isolation import check_isolation
from runner.bots.limits import Limits
from runner.bots.persistent import STARTUP_MS
from runner.errors import UserError
from runner.games import get_game
from runner.games.interface import Game
from runner.tournament.entrants import Entrant, load_entrants, snapshot
from runner.tournament.records import GameRecord, append_record, counted, read_records, write_schedule
from runner.tournament.schedule import FORMATS, SIDED_GAMES, Format, ScheduledMatch, build_schedule
from runner.tournament.standings import Standings, compute_standings, write_standings
from runner.tournament.task import MatchResult, MatchTask, forfeit_record

SETTINGS_FILE = "tournament.json"
MATCHES, BOTS = "matches", "bots"


@attrs.frozen
class TournamentSettings:
    """What decides which matches are played and how; stored as tournament.json."""

    game: str
    bots: tuple[str, ...]
    format: str = "round-robin"
    baseline: str | None = None
    games_per_pair: int = 1
    seed: int = 0
    table_size: int | None = None
    defenders: tuple[str, ...] = ()
    invaders: tuple[str, ...] = ()
    options: dict[str, Any] = attrs.field(factory=dict)  # the game's option values (Option.dest -> value)
    game_config: str | None = None
    timeout_ms: int | None = None
    startup_ms: int | None = None
    sandbox: bool = False
    match_timeout_s: float | None = None

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        for key in ("bots", "defenders", "invaders"):
            data[key] = list(data[key])
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentSettings:
        names = {field.name for field in attrs.fields(cls)}
        values = {key: value for key, value in data.items() if key in names}
        for key in ("bots", "defenders", "invaders"):
            values[key] = tuple(values.get(key, ()))
        return cls(**values)


@attrs.frozen
class Prepared:
    """The checked tournament: entrants, config, limits and the schedule (nothing played yet)."""

    settings: TournamentSettings
    game: Game
    entrants: tuple[Entrant, ...]
    config: Any
    options: dict[str, Any]
    limits: Limits
    fingerprint: str
    schedule: tuple[ScheduledMatch, ...]

    @property
    def by_hash(self) -> dict[str, Entrant]:
        return {entrant.hash: entrant for entrant in self.entrants}

    @property
    def sides(self) -> tuple[str, str] | None:
        return SIDED_GAMES.get(self.game.name)

    def task(self, match: ScheduledMatch) -> MatchTask:
        names = tuple(self.by_hash[bot_hash].name for bot_hash in match.bots)
        return MatchTask(match.match_id, match.index, match.round, match.seed, self.game.name, match.seats,
                         match.bots, names, self.options, self.config, self.limits,
                         self.settings.startup_ms or STARTUP_MS,
                         self.settings.match_timeout_s)


class Reporter(Protocol):
    """What a tournament tells its caller as it goes (the CLI draws a progress bar and a line per match)."""

    def started(self, total: int, done: int, workers: int) -> None: ...

    def finished(self, record: GameRecord, done: int, total: int) -> None: ...

    def failed(self, match_id: str, problem: str) -> None: ...


def prepare(settings: TournamentSettings) -> Prepared:
    """Check every input and build the schedule; UserError (one line) on any problem."""
    game = get_game(settings.game)
    if settings.format not in FORMATS:
        raise UserError(f"--format must be one of {', '.join(FORMATS)}, got {settings.format!r}")
    config, values, limits = configure_matches(game, settings)
    seat_count = _seat_count(game, settings)
    sides = SIDED_GAMES.get(game.name)
    if (settings.defenders or settings.invaders) and sides is None:
        raise UserError(f"--defender and --invader are for invaders tournaments, not {game.name}")
    folders = list(dict.fromkeys([*settings.bots, *settings.defenders, *settings.invaders]))
    entrants = load_entrants(folders, _runtime_files(game, config, values, seat_count), None, game.languages)
    by_folder = {entrant.folder: entrant for entrant in entrants}
    baseline = None
    if settings.baseline is not None:
        if settings.baseline not in by_folder:
            raise UserError(f"--baseline {settings.baseline} is not one of the bot folders given")
        baseline = by_folder[settings.baseline].hash
    role_lists = None
    if sides is not None and (settings.defenders or settings.invaders):
        firsts = [by_folder[f].hash for f in (settings.defenders or settings.bots)]
        seconds = [by_folder[f].hash for f in (settings.invaders or settings.bots)]
        role_lists = (tuple(firsts), tuple(seconds))
    fingerprint = _fingerprint(game, config, values, limits, settings)
    fmt = Format(settings.format, settings.games_per_pair, settings.seed, baseline, seat_count, role_lists)
    schedule = build_schedule(game.name, game.seats(seat_count), entrants, fmt, fingerprint)
    json_options = {key: value for key, value in values.items() if _is_json(value)}
    return Prepared(settings, game, tuple(entrants), config, json_options, limits, fingerprint, tuple(schedule))


def configure_matches(game: Game, settings: Any) -> tuple[Any, dict[str, Any], Limits]:
    """What every match of a tournament or a league plays with, checked (UserError, one line): the game's
    config, every option's value (defaults filled in) and the bots' limits. `settings` has the fields
    options, game_config, timeout_ms, startup_ms, match_timeout_s and sandbox (TournamentSettings,
    LeagueSettings)."""
    values = {option.dest: option.default for option in game.options}
    values.update({key: value for key, value in settings.options.items() if value is not None})
    config = game.configure(Path(settings.game_config) if settings.game_config else None, values)
    timeout_ms = settings.timeout_ms if settings.timeout_ms is not None else game.timeout_ms
    if timeout_ms <= 0:
        raise UserError(f"--timeout-ms must be positive, got {timeout_ms}")
    if settings.startup_ms is not None and settings.startup_ms <= 0:
        raise UserError(f"--startup-ms must be positive, got {settings.startup_ms}")
    if settings.match_timeout_s is not None and not 0 < settings.match_timeout_s < math.inf:  # nan: False
        raise UserError(f"--match-timeout must be a positive number of seconds, got {settings.match_timeout_s:g}")
    limits = Limits(timeout_ms=timeout_ms, sandbox=settings.sandbox)
    check_isolation(limits)
    return config, values, limits


def _seat_count(game: Game, settings: TournamentSettings) -> int:
    counts = game.player_counts
    if settings.table_size is None:
        if 2 in counts:
            wanted = 2 if len(counts) == 1 else min(max(counts), max(2, len(settings.bots)), 4)
            return wanted if wanted in counts else counts[0]
        return counts[0]
    if settings.table_size not in counts:
        raise UserError(f"--table-size {settings.table_size}: {game.name} plays with "
                        f"{', '.join(map(str, counts))} seats")
    if settings.table_size > len(settings.bots):
        raise UserError(f"--table-size {settings.table_size} needs at least that many bots, got {len(settings.bots)}")
    return settings.table_size


def _runtime_files(game: Game, config: Any, options: Mapping[str, Any], seats: int) -> tuple[str, ...]:
    """The files the runner writes into a bot folder each turn (its answer file, its input files): left out
    of the content hash, so playing a bot with `td-runner match` does not make it a new bot."""
    names = {game.answer_file.name}
    try:
        session = game.new_session(config, game.seats(seats), 0, options)
        for turn_input in session.inputs().values():
            names.update(turn_input.files)
    except Exception:  # a game that cannot set up a probe session: only the answer file is known
        pass
    return tuple(sorted(names))


def _fingerprint(game: Game, config: Any, options: Mapping[str, Any], limits: Limits,
                 settings: TournamentSettings) -> str:
    digest = hashlib.sha256()
    for name, content in sorted(game.match_files(config, options).items()):
        digest.update(name.encode() + b"\0" + (content.encode() if isinstance(content, str) else content))
    data = {"game": game.name, "config": game.config_json(config), "files": digest.hexdigest(),
            "options": {key: value for key, value in sorted(options.items()) if _is_json(value)},
            "timeout_ms": limits.timeout_ms, "sandbox": limits.sandbox, "startup_ms": settings.startup_ms}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _is_json(value: object) -> bool:
    return isinstance(value, (str, int, float, bool, type(None)))


def claim_folder(folder: Path, settings: TournamentSettings | None, *, changed: bool = False) -> TournamentSettings:
    """The settings to run in `folder`: those given (checked against a tournament already there), or, with
    None (`--resume` and no bots), the stored ones. `changed`: the given settings are the stored ones with
    entrants added or replaced (`with_entrants`), and take their place."""
    path = folder / SETTINGS_FILE
    stored = None
    if path.is_file():
        try:
            stored = TournamentSettings.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError) as exc:
            raise UserError(f"{path}: not a tournament settings file: {exc}") from None
    if settings is None:
        if stored is None:
            raise UserError(f"{folder} holds no tournament to resume ({SETTINGS_FILE} is missing); give the bots")
        return stored
    if changed and stored is not None and stored != settings:
        _write_settings(path, settings)
        return settings
    if stored is not None and stored != settings:
        changed = [key for key, value in settings.to_json().items() if stored.to_json().get(key) != value]
        raise UserError(f"{folder} holds another tournament ({', '.join(changed)} differ); use another "
                        "--output, or --resume alone to continue that one")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if stored is None:
            path.write_text(json.dumps(settings.to_json(), indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{folder}: cannot create the tournament folder: {exc.strerror or exc}") from None
    return settings


def _write_settings(path: Path, settings: TournamentSettings) -> None:
    """tournament.json rewritten with new settings, its other keys (`superseded`) kept."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(settings.to_json())
    _write_json(path, data)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    partial.replace(path)


def with_entrants(stored: TournamentSettings, add: Sequence[str],
                  replace: Sequence[tuple[str, str]]) -> TournamentSettings:
    """`--add BOT_DIR` and `--replace OLD=NEW` applied to a tournament's settings. Nothing else changes, so
    the fingerprint, and with it the id of every match between the other bots, stays: only the new bots'
    matches are new. A replaced bot keeps its place in the list (Warzone's tables are drawn by place)."""
    def same(a: str, b: str) -> bool:
        return os.path.normpath(a) == os.path.normpath(b)

    def swap(folders: Sequence[str], old: str, new: str) -> tuple[str, ...]:
        return tuple(new if same(folder, old) else folder for folder in folders)

    bots, defenders, invaders, baseline = stored.bots, stored.defenders, stored.invaders, stored.baseline
    for old, new in replace:
        if not any(same(old, bot) for bot in bots):
            raise UserError(f"--replace {old}={new}: {old} is not a bot of this tournament ({', '.join(bots)})")
        if not same(old, new) and any(same(new, bot) for bot in bots):
            raise UserError(f"--replace {old}={new}: {new} is already a bot of this tournament")
        bots, defenders, invaders = swap(bots, old, new), swap(defenders, old, new), swap(invaders, old, new)
        baseline = new if baseline is not None and same(baseline, old) else baseline
    for folder in add:
        if any(same(folder, bot) for bot in bots):
            raise UserError(f"--add {folder}: already a bot of this tournament")
        bots = (*bots, folder)
    return attrs.evolve(stored, bots=bots, defenders=defenders, invaders=invaders, baseline=baseline)


def check_addable(prepared: Prepared) -> None:
    """Warzone's tables are drawn from the whole field: one more bot changes every table, so `--add` would
    play every match again (a replaced bot keeps its place, and only its tables change)."""
    seats = len(prepared.schedule[0].seats) if prepared.schedule else 2
    if seats > 2 and prepared.sides is None:
        raise UserError(f"--add: {prepared.game.name} tables are drawn from the whole field, so a new bot "
                        "changes every table; run a new tournament (--replace OLD=NEW works)")


def mark_superseded(folder: Path, prepared: Prepared, records: Sequence[GameRecord]) -> None:
    """List in tournament.json's `superseded` the bots whose matches games.jsonl holds but the schedule no
    longer has (replaced, or their files changed): their logs stay under matches/ and their lines in
    games.jsonl, out of the standings (`records.counted`)."""
    current = {entrant.hash for entrant in prepared.entrants}
    old: dict[str, str] = {}
    for record in records:
        for seat in record.seats:
            if seat.hash not in current:
                old.setdefault(seat.hash, seat.bot)
    path = folder / SETTINGS_FILE
    if not path.is_file():
        return
    data = json.loads(path.read_text(encoding="utf-8"))
    listed = [item for item in data.get("superseded", []) if item.get("hash") not in current]
    known = {item.get("hash") for item in listed}
    marked = listed + [{"hash": digest, "name": name} for digest, name in sorted(old.items()) if digest not in known]
    if marked != data.get("superseded", []):
        data["superseded"] = marked
        _write_json(path, data)


def standings_of(prepared: Prepared, records: Sequence[GameRecord]) -> Standings:
    """The standings of the current schedule's matches (superseded ones left out), in its order."""
    cap = prepared.options.get("max_turns") if prepared.sides else None
    records = counted(list(records), [match.match_id for match in prepared.schedule])
    return compute_standings(prepared.game.name, records, sides=prepared.sides,
                             turn_cap=cap if isinstance(cap, int) else None, scheduled=len(prepared.schedule))


def run_tournament(prepared: Prepared, folder: Path, backend_for: Any, reporter: Reporter) -> Standings:
    """Play every scheduled match not yet in games.jsonl; the standings are rewritten after each one.

    `backend_for(bot_dirs)` returns the backend (local pool or Dask) given each bot's snapshot folder.
    A KeyboardInterrupt (Ctrl-C, SIGTERM) leaves every finished match recorded and propagates.
    """
    records = read_records(folder)
    done_ids = {record.match for record in records}
    todo = [match for match in prepared.schedule if match.match_id not in done_ids]
    total = len(prepared.schedule)
    done = total - len(todo)
    by_hash = prepared.by_hash
    bot_dirs = {entrant.hash: snapshot(entrant, folder / BOTS) for entrant in prepared.entrants if entrant.can_start}
    backend = backend_for(bot_dirs)
    reporter.started(total, done, getattr(backend, "workers", None) or 0)
    matches_dir = folder / MATCHES
    matches_dir.mkdir(exist_ok=True)
    write_schedule(folder, [match.match_id for match in prepared.schedule],
                   [{"hash": e.hash, "name": e.name, "folder": e.folder} for e in prepared.entrants])
    mark_superseded(folder, prepared, records)
    finished: dict[str, GameRecord] = {record.match: record for record in records}

    def keep(record: GameRecord) -> None:
        nonlocal done
        append_record(folder, record)
        finished[record.match] = record
        done += 1
        write_standings(folder, standings_of(prepared, list(finished.values())))
        reporter.finished(record, done, total)

    jobs = []
    for match in todo:
        task = prepared.task(match)
        problems = {seat: by_hash[bot_hash].problem for seat, bot_hash in zip(match.seats, match.bots)
                    if not by_hash[bot_hash].can_start}
        if problems:
            keep(forfeit_record(task, problems))  # type: ignore[arg-type]
            continue
        partial = matches_dir / f".{_log_name(match)}.partial"
        shutil.rmtree(partial, ignore_errors=True)  # left by an interrupted run: played again
        jobs.append((task, partial))

    def collect(result: MatchResult, partial: Path) -> None:
        match = next(m for m in todo if m.match_id == result.match_id)
        if result.record is None:
            shutil.rmtree(partial, ignore_errors=True)
            if not result.interrupted:
                reporter.failed(result.match_id, result.problem or "no result")
            return
        final = matches_dir / _log_name(match)
        log = None
        if partial.is_dir():  # no log when a bot could not start on the worker (a forfeit)
            shutil.rmtree(final, ignore_errors=True)
            partial.rename(final)
            log = f"{MATCHES}/{final.name}"
        keep(attrs.evolve(result.record, log=log))

    if jobs:
        backend.run(jobs, collect)
    standings = standings_of(prepared, list(finished.values()))
    write_standings(folder, standings)
    return standings


def _log_name(match: ScheduledMatch) -> str:
    return f"{match.index:04d}-{match.match_id}"

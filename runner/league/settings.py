"""What a league is: its game and the options every match plays with, stored in the league on first use.

Everything that changes what a match means (game, game options, rules file, time limits, sandbox, table
size, seed) is fixed when the league starts, so ratings compare like with like: running an existing league
with another value is one error line. How it runs (workers, a Dask cluster, the web address, a match count)
may change from run to run.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from runner.bots.limits import Limits
from runner.bots.persistent import STARTUP_MS
from runner.errors import UserError
from runner.games import DEFAULT_GAME, get_game
from runner.games.interface import Game
from runner.league.store import get_meta, set_meta
from runner.tournament.run import configure_matches
from runner.tournament.schedule import SIDED_GAMES

SETTINGS_KEY = "settings"


@attrs.frozen
class LeagueSettings:
    game: str
    submissions: str  # the folder of player subfolders (absolute)
    options: dict[str, Any] = attrs.field(factory=dict)  # the game's option values given (Option.dest -> value)
    game_config: str | None = None
    timeout_ms: int | None = None
    startup_ms: int | None = None
    sandbox: bool = False
    match_timeout_s: float | None = None
    table_size: int | None = None
    seed: int = 0
    # uploads (`POST /submit`) and builds
    max_upload_mb: float = 20
    max_unpacked_mb: float = 200
    max_files: int = 2000
    build_timeout_s: float = 600
    build_network: bool = False  # sandboxed builds may download (`--build-network`)
    uploads_per_hour: int = 20  # accepted uploads per player per hour (`POST /submit`)

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LeagueSettings:
        names = {field.name for field in attrs.fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in names})


@attrs.frozen
class LeagueRules:
    """The settings checked and made ready to play: the game, its config, limits and seats."""

    settings: LeagueSettings
    game: Game
    config: Any
    options: dict[str, Any]  # every option's value (defaults filled in), JSON values only
    limits: Limits
    seats: tuple[str, ...]  # the seat names of one match
    sides: tuple[str, str] | None  # sided games: the roles, which are also the seat names

    @property
    def startup_ms(self) -> int:
        return self.settings.startup_ms or STARTUP_MS

    @property
    def roles(self) -> tuple[str, ...]:
        """The rating roles: one per side, or the single '' of games without sides."""
        return self.sides or ("",)


def prepare_rules(settings: LeagueSettings) -> LeagueRules:
    """Check every setting (UserError, one line) and build the config once."""
    game = get_game(settings.game)
    config, values, limits = configure_matches(game, settings)
    counts = game.player_counts
    if settings.table_size is not None and settings.table_size not in counts:
        raise UserError(f"--table-size {settings.table_size}: {game.name} plays with "
                        f"{', '.join(map(str, counts))} seats")
    size = settings.table_size or (2 if 2 in counts else counts[0])
    options = {key: (str(value) if isinstance(value, Path) else value) for key, value in values.items()
               if isinstance(value, (str, int, float, bool, type(None), Path))}
    return LeagueRules(settings, game, config, options, limits, game.seats(size), SIDED_GAMES.get(game.name))


def claim(connection: sqlite3.Connection, given: Mapping[str, Any], folder: Path) -> LeagueSettings:
    """The league's settings. A new league takes `given` (LeagueSettings fields the user set; `game` and
    `submissions` needed); an existing one keeps its own, and any field given must equal it (`league run DIR`
    alone continues a league as it was)."""
    text = get_meta(connection, SETTINGS_KEY)
    if text:
        stored = LeagueSettings.from_json(json.loads(text))
        current = stored.to_json()
        changed = [key for key, value in given.items() if current.get(key) != value]
        if changed:
            was = ", ".join(f"{key} is {current.get(key)!r}, not {given[key]!r}" for key in changed)
            raise UserError(f"{folder} is a league with other settings ({was}); use another folder, or "
                            f"leave those options out to continue it")
        return stored
    if "submissions" not in given:
        raise UserError(f"{folder} holds no league yet: give --submissions FOLDER (and --game NAME) to start one")
    settings = LeagueSettings(**{"game": DEFAULT_GAME, **given})
    set_meta(connection, SETTINGS_KEY, json.dumps(settings.to_json(), sort_keys=True))
    return settings


def stored_settings(folder: Path) -> LeagueSettings | None:
    """The settings of the league in `folder`, or None (no league there, or unreadable)."""
    from runner.league.store import DATABASE, connect

    if not (folder / DATABASE).is_file():
        return None
    try:
        db = connect(folder, readonly=True)
    except UserError:
        return None
    try:
        text = get_meta(db, SETTINGS_KEY)
    except sqlite3.Error:
        return None
    finally:
        db.close()
    return LeagueSettings.from_json(json.loads(text)) if text else None

"""Warzone as the core sees it: the static facts and entry points of `runner.games.interface.Game`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.games.interface import (
    AnswerFile, AnswerLines, BotMode, FileReport, FolderLog, GameDefaults, Option,
)
from runner.games.warzone import logs
from runner.games.warzone.loading import LoadedConfig, load_config
from runner.games.warzone.protocol.config import DEFAULT_MAP, render_config
from runner.games.warzone.rules.setup import check_setup
from runner.games.warzone.session import ORDERS_CAP_BYTES, WarzoneSession
from runner.games.warzone.tools import MAP_TOOL

SEAT_NAMES = "ABCDEF"


def _non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


class WarzoneGame(GameDefaults):
    """COMP 345 Warzone on Domination/Conquest maps, 2-6 per-turn bots writing orders.txt (spec warzone.md)."""

    name = "warzone"
    title = "Warzone"
    summary = "Risk-like Warzone (COMP 345) on .map files: 2-6 bots, deploy/advance/cards, 60/70 battles"
    player_counts = (2, 3, 4, 5, 6)
    # bot.json "persistent": true opts into the core's frames: the same files and orders.txt on stdin and stdout
    # (docs/rules/warzone.md "Persistent bots")
    bot_modes = frozenset({BotMode.PER_TURN, BotMode.PERSISTENT})
    default_mode = BotMode.PER_TURN
    persistent_frames = True
    answer_file = AnswerFile(name="orders.txt", cap_bytes=ORDERS_CAP_BYTES + 1, lines=AnswerLines.ALL)
    timeout_ms = 2000
    log = FolderLog(turn_folder="Turn {turn:03d}", answer="orders.txt", output="BotOutput.txt")
    options = (
        Option("--map", "map", "the .map file to play on (Domination or Conquest dialect), or the name of a "
               f"shipped map (`td-runner warzone-map --list`); default {DEFAULT_MAP}, or the config file's map",
               metavar="FILE|NAME"),
        Option("--max-turns", "max_turns", "turn limit, 0 for none (default 100)", type=_non_negative_int, metavar="N"),
        Option("--map-validation", "map_validation", "how map problems are treated (default strict)",
               choices=("strict", "lenient")),
    )
    verify_options: tuple[Option, ...] = ()
    file_kinds = logs.KINDS
    log_forgives = ("seconds", "wall_seconds")  # spec 4.7: timing fields are not compared
    end_reasons: Mapping[str, str] = {
        "conquest": "one player is left; every other player lost their last territory",
        "max_turns": "the turn limit was reached: a draw, ranked by territories, then armies plus pool",
    }
    tools = (MAP_TOOL,)
    console_prompt = None  # decision: no console players (an order list is many lines; the core reads one)

    def seats(self, player_count: int) -> tuple[str, ...]:
        if player_count not in self.player_counts:
            raise UserError(f"warzone needs 2 to 6 bots, not {player_count}")
        return tuple(SEAT_NAMES[:player_count])

    def configure(self, config_file: Path | None, options: Mapping[str, Any]) -> LoadedConfig:
        return load_config(config_file, options)

    def config_json(self, config: LoadedConfig) -> dict[str, Any]:
        return render_config(config.config)

    def config_problems(self, data: Any) -> list[Any]:
        return logs.config_problems(data)

    def new_session(self, config: LoadedConfig, seats: Sequence[str], seed: int,
                    options: Mapping[str, Any]) -> WarzoneSession:
        """A match; `options["names"]` (seat -> name), when the core passes it, is shown to bots."""
        if reason := check_setup(config.warmap, seats):
            raise UserError(reason)
        names = options.get("names") if isinstance(options.get("names"), Mapping) else None
        return WarzoneSession(config.warmap, config.config.rules, seats, seed, names=names,
                              details={"map_sha256": config.map_sha256, "map_name": config.warmap.name})

    def match_files(self, config: LoadedConfig, options: Mapping[str, Any]) -> dict[str, bytes]:
        return {logs.MAP_FILE: config.map_bytes}

    def log_session(self, record: Any) -> WarzoneSession:
        return logs.session_of_log(record)

    def validate(self, path: Path, kind: str | None, options: Mapping[str, Any]) -> list[FileReport] | None:
        if Path(path).is_dir() or kind == logs.LOG_KIND:  # a whole log: the core's check
            return super().validate(path, kind, options)
        return logs.validate(path, kind, lenient=bool(options.get("lenient")))

    @property
    def board_view(self) -> Any:
        """The board of the core's HTML replay (html_record.py), loaded only by a replay."""
        from runner.games.warzone.html_record import VIEW

        return VIEW

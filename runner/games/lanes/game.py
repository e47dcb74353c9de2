"""Lanes behind the core's `Game` interface: static facts, the --max-turns option, config, log tools.

The log tools are the core's; what reads Lanes' own files (spec 11 traces, commands.txt) is in `logs.py`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from runner.config import read_json_file
from runner.errors import UserError
from runner.games.interface import AnswerFile, AnswerLines, BotMode, FileReport, FolderLog, GameDefaults, Option, positive_int
from runner.games.lanes.protocol.commands import MAX_BYTES
from runner.games.lanes.protocol.config_json import parse_config, render_config
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.session import SEATS, LanesSession

if TYPE_CHECKING:
    from pathlib import Path
    from types import ModuleType


def _logs() -> ModuleType:
    """The log tools (trace files, the replay): imported when a log is read, not for a match (a tenth of the
    game's import)."""
    from runner.games.lanes import logs

    return logs


class LanesGame(GameDefaults):
    """Two players, two lanes, turns of 100 timesteps (docs/rules/lanes.md)."""

    name = "lanes"
    title = "Lanes (two-lane tower defence)"
    summary = "two players build towers on their own lane and send soldiers down the other's; turns of 100 timesteps"
    player_counts = (2,)
    # spec 10.1: a fresh process per turn; bot.json "persistent": true opts into the core's frames instead
    # (the same files and commands.txt, on stdin and stdout: docs/rules/lanes.md "Persistent bots")
    bot_modes = frozenset({BotMode.PER_TURN, BotMode.PERSISTENT})
    default_mode = BotMode.PER_TURN
    uses_seed = False  # no randomness: every seed plays the same match
    persistent_frames = True
    # spec 10.5 E02: one byte more than 64 KiB is read, so "larger than 65536 bytes" can be told apart
    answer_file = AnswerFile(name="commands.txt", cap_bytes=MAX_BYTES + 1, lines=AnswerLines.ALL)
    timeout_ms = 5000  # spec 10.1.3
    log = FolderLog(turn_folder="Turn {turn:03d}", answer="commands.txt", output="BotOutput.txt")
    options = (
        Option(
            "--max-turns",
            "max_turns",
            "end the game after N turns; more HP wins (default 100, or the config file's max_turns)",
            type=positive_int,
            metavar="N",
        ),
    )

    file_kinds = ("lanes-state", "lanes-config", "lanes-commands", "lanes-log")
    end_reasons = {"hp": "a player's HP reached 0", "max_turns": "the turn limit was reached"}

    def seats(self, player_count: int) -> tuple[str, ...]:
        if player_count != 2:
            raise UserError(f"lanes is played by 2 bots (P1, P2), not {player_count}")
        return SEATS

    def configure(self, config_file: Path | None, options: Mapping[str, Any]) -> LanesConfig:
        config = LanesConfig() if config_file is None else parse_config(read_json(config_file), str(config_file))
        if options.get("max_turns") is not None:
            config = attrs.evolve(config, max_turns=positive_int(str(options["max_turns"])))
        return config

    def config_json(self, config: LanesConfig) -> dict[str, Any]:
        return render_config(config)

    def new_session(
        self, config: LanesConfig, seats: Sequence[str], seed: int, options: Mapping[str, Any]
    ) -> LanesSession:
        # spec 8 / D24: the game has no randomness, so the seed is not used
        if len(seats) != 2:
            raise UserError(f"lanes is played by 2 bots, not {len(seats)}")
        return LanesSession(config, tuple(seats))

    def config_problems(self, data: Any) -> list[Any]:
        from runner.schemas import Problem

        try:
            parse_config(data)
        except UserError as error:
            return [Problem("", str(error))]
        return []

    def is_log(self, path: Path) -> bool:
        return _logs().is_trace(path)  # a spec 11 trace file; a log the core wrote names its game itself

    def open_foreign_log(self, path: Path) -> Any:
        return _logs().open_trace(self, path)

    def detect_kind(self, path: Path, data: Any) -> str | None:
        return _logs().detect_kind(path, data)  # state.json and config files by content: other games share the names

    def validate(self, path: Path, kind: str | None, options: Mapping[str, Any]) -> list[FileReport] | None:
        """A commands.txt is Lanes' own check; anything else the core's (schemas, then the config's values)."""
        logs = _logs()
        if kind == logs.COMMANDS or (kind is None and logs.detect_kind(path, None) == logs.COMMANDS):
            return [logs.commands_report(path)]
        return super().validate(path, kind, options)

    @property
    def board_view(self) -> Any:
        """The board of the core's HTML replay (html_record.py), loaded only by a replay; a spec 11 trace gets it
        too, read into the core's record (`open_foreign_log`)."""
        from runner.games.lanes.html_record import VIEW

        return VIEW


def read_json(path: Path) -> Any:
    """A JSON config file's data; UserError in one line when it cannot be read or parsed."""
    return read_json_file(path, "game config")

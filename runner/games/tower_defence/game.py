"""Tower Defence (Entelect Challenge 2018) behind the `Game` interface: seats, bot protocol, options, log tools.

Everything here is static facts or thin glue: the rules are in engine/, the exact bytes in protocol/, the
official log layout and its tools in logs/.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from runner.errors import UserError
from runner.games.interface import (
    AnswerFile,
    AnswerLines,
    BotMode,
    Check,
    FileReport,
    FolderLog,
    GameDefaults,
    Option,
    non_negative_int,
)
from runner.games.tower_defence.engine.config import GameConfig
from runner.games.tower_defence.engine.state import PLAYERS, CommandOrder
from runner.games.tower_defence.session import STATE_FILE, TEXT_MAP_FILE, TowerDefenceSession

#: A persistent bot's answer: `C;<round>;<command>` (the 2019 Entelect convention; td-runner extension).
_ANSWER_LINE = re.compile(r"C;(-?\d+);(.*)", re.DOTALL)


def _order(text: str) -> CommandOrder:
    try:
        return CommandOrder.parse(text)
    except ValueError as exc:
        raise UserError(f"--order: {exc}") from None


@attrs.frozen
class TowerDefence(GameDefaults):
    """The `Game` of Tower Defence; one instance, `runner.games.tower_defence.GAME`."""

    name: str = "tower-defence"
    title: str = "Tower Defence"
    summary: str = "Entelect Challenge 2018: two bases, buildings and missiles on a 16x8 board (official 3.0.2 rules)"
    player_counts: tuple[int, ...] = (2,)
    bot_modes: frozenset[BotMode] = frozenset({BotMode.PER_TURN, BotMode.PERSISTENT})
    default_mode: BotMode = BotMode.PER_TURN
    answer_file: AnswerFile = AnswerFile("command.txt", 64 << 10, AnswerLines.FIRST)
    timeout_ms: int = 2000  # spec 8.1 max-runtime-ms
    log: FolderLog = FolderLog(
        turn_folder="Round {turn:03d}",  # spec 7.4
        file_names={STATE_FILE: "JsonMap.json", TEXT_MAP_FILE: "TextMap.txt"},
        answer="PlayerCommand.txt",
        output="Console/BotOutput.txt",
        view="Console/Console.txt",
        blank_answer="No Command",  # spec 4.1: the official runner's PlayerCommand.txt of a blank command.txt
    )
    turn_word: str = "round"
    #: missile ids are random in official logs (the conformance README; key order is never compared)
    log_forgives: tuple[str, ...] = ("id",)
    #: lists that follow the A/B command order, which official runs choose at random (spec 3.4): missiles of one
    #: cell, the hit lists, the text map's data lines
    log_unordered: tuple[str, ...] = ("missiles", "teslaHitList", "ironCurtainHitList", "[")
    options: tuple[Option, ...] = (
        Option("--max-rounds", "max_rounds", "override the game config's maxRounds", non_negative_int, "N"),
        Option("--order", "command_order", "command processing order A,B or B,A (default B,A, as official)",
               str, "A,B|B,A"),
    )
    verify_options: tuple[Option, ...] = (
        Option("--order", "order", "Tower Defence command processing order: auto (as the log records it, "
               "else detected), A,B or B,A", str, "ORDER", default="auto"),
    )
    file_kinds: tuple[str, ...] = ("game-config", "state")
    end_reasons: Mapping[str, str] = {
        "health": "a base was destroyed",
        "max_rounds": "the round limit was reached",
        "do_nothing_limit": "a bot did nothing too many consecutive rounds",
    }
    console_prompt: str = (
        "Enter x,y,type (0 defence, 1 attack, 2 energy, 3 deconstruct, 4 tesla, 5 iron curtain): "
    )

    def seats(self, player_count: int) -> tuple[str, ...]:
        return PLAYERS

    def configure(self, config_file: Path | None, options: Mapping[str, Any]) -> GameConfig:
        from runner.games.tower_defence.config_file import load_game_config  # pulls in jsonschema

        config = load_game_config(config_file) if config_file is not None else GameConfig()
        if options.get("max_rounds") is not None:
            config = attrs.evolve(config, max_rounds=options["max_rounds"])
        if options.get("command_order") is not None:
            _order(options["command_order"])  # a bad order is a user error before round 0
        return config

    def config_json(self, config: GameConfig) -> dict[str, Any]:
        from runner.games.tower_defence.config_file import game_config_to_json

        return game_config_to_json(config)

    def new_session(
        self, config: GameConfig, seats: Sequence[str], seed: int, options: Mapping[str, Any]
    ) -> TowerDefenceSession:
        order = options.get("command_order")
        return TowerDefenceSession(config, seed, _order(order) if order else CommandOrder.B_FIRST)

    def accept_line(self, line: str, turn: int) -> str | None:
        """`C;<round>;<command>` for this round is the answer; an older round's answer is stale."""
        found = _ANSWER_LINE.fullmatch(line)
        if found is None or int(found.group(1)) != turn:
            return None
        return found.group(2)

    def is_log(self, path: Path) -> bool:
        return (path / "Round 000").is_dir()

    def open_foreign_log(self, path: Path) -> Any:
        from runner.games.tower_defence.logs.layout import official_record

        return official_record(self, path)

    def verify(self, path: Path, options: Mapping[str, Any]) -> Check:
        from runner.games.tower_defence.logs.verify import verify

        order = options.get("order")
        return verify(self, path, str(_order(order)) if order and order != "auto" else None)

    def config_problems(self, data: Any) -> list[Any]:
        from runner import schemas

        return schemas.check_schema(schemas.GAME_CONFIG, data)

    def validate(self, path: Path, kind: str | None, options: Mapping[str, Any]) -> list[FileReport] | None:
        from runner.games.tower_defence.validate import validate_tower_defence

        return validate_tower_defence(path, kind)

    def action_space(self, config: GameConfig):
        from runner.games.tower_defence.actions import action_space

        return action_space(config)

    def replay_view(self, session: TowerDefenceSession, names: Mapping[str, str]) -> list[Any]:
        from runner.games.tower_defence.replay_view import replay_view

        return replay_view(session, names)

    @property
    def board_view(self) -> Any:
        """The board of the core's HTML replay (html_record.py), loaded only by a replay."""
        from runner.games.tower_defence.html_record import VIEW

        return VIEW

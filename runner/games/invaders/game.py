"""Invaders behind the core's `Game` interface: static facts, options, config, and the log tools' entry points.

The log tools are the core's; what reads Invaders' own files (koth traces) is in `logs.py`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from runner.bots.languages import LaunchTemplate
from runner.config import read_json_file
from runner.errors import UserError
from runner.games.interface import AnswerFile, BotMode, GameDefaults, JsonlLog, Option, TimeBudget, positive_int
from runner.games.invaders import logs
from runner.games.invaders.config import (
    DEFAULT_MAX_TURNS,
    DISQUALIFY,
    FAULT_POLICIES,
    InvadersConfig,
    parse_config_json,
    render_config_json,
)
from runner.games.invaders.protocol.lines import DELTA
from runner.games.invaders.session import SEATS, InvadersSession

from pathlib import Path

#: The node program that hosts reference-API AIs (botLanguage koth-js).
KOTH_HOST = Path(__file__).resolve().parent / "koth_js" / "host.js"


class InvadersGame(GameDefaults):
    """The 1-D defenders-vs-invaders king-of-the-hill (docs/rules/invaders.md)."""

    name = "invaders"
    title = "Invaders (1-D tower defence king-of-the-hill)"
    summary = "a Defender builds towers along a 100-cell path, an Invader spawns units; score = turns lasted"
    player_counts = (2,)
    bot_modes = frozenset({BotMode.PERSISTENT})  # spec 18: games last tens of thousands of turns
    default_mode = BotMode.PERSISTENT
    uses_seed = False  # no randomness: every seed plays the same match
    answer_file = AnswerFile()  # unused: invaders bots answer on stdout
    timeout_ms = 1000  # spec 18: the hard per-answer ceiling
    time_budget = TimeBudget(block_turns=100, mean_ms=15.0)  # spec 18: 15 ms on average over each 100 turns
    answers_in_order = True  # spec 18: one line per request line, no turn number in it
    log = JsonlLog()
    options = (
        Option(
            "--max-turns",
            "max_turns",
            f"end the game after N turns (default {DEFAULT_MAX_TURNS}, or the config file's maxTurns)",
            type=positive_int,
            metavar="N",
        ),
        Option(
            "--faults",
            "faults",
            f"what a crash, time-out or non-JSON answer means (default {DISQUALIFY})",
            choices=FAULT_POLICIES,
        ),
    )

    verify_options: tuple[Option, ...] = ()
    end_reasons: Mapping[str, str] = {
        "life": "100 invaders got through (the defender's life reached 0)",
        "max_turns": "the turn cap was reached",
        "disqualified": "a bot was disqualified (crash, time-out or an answer that is not JSON)",
    }
    # spec 18: an AI written for the reference page runs unchanged inside the host this game ships; the host
    # opens no connection, so node is spared loading NODE_EXTRA_CA_CERTS at each start (README "koth-js")
    languages: Mapping[str, LaunchTemplate] = {
        "koth-js": LaunchTemplate(("node", str(KOTH_HOST), "{file}", "{entry}"), unset_env=("NODE_EXTRA_CA_CERTS",))}
    # a persistent bot may ask for the lean request (bot.json "request": "delta"); the koth-js host reads both
    request_formats: Mapping[str, str] = {DELTA: "the state's scalars, the invaders flat, and only the towers that "
                                                 "changed since the previous request (README: The delta request)"}
    console_prompt = None  # decision: no console players (a human cannot answer tens of thousands of turns)

    def seats(self, player_count: int) -> tuple[str, ...]:
        if player_count != 2:
            raise UserError(f"invaders is played by 2 bots (a defender, then an invader), not {player_count}")
        return SEATS

    def configure(self, config_file: Path | None, options: Mapping[str, Any]) -> InvadersConfig:
        data: dict[str, Any] = {}
        if config_file is not None:
            data = read_config_file(config_file)
        if options.get("max_turns") is not None:
            data["maxTurns"] = options["max_turns"]
        if options.get("faults") is not None:
            data["faults"] = options["faults"]
        problems = logs.config_problems(data)
        if problems:
            raise UserError(f"invaders config: {problems[0]}")
        return parse_config_json(data)

    def config_json(self, config: InvadersConfig) -> dict[str, Any]:
        return render_config_json(config)

    def config_problems(self, data: Any) -> list[Any]:
        return logs.config_problems(data)

    def new_session(
        self, config: InvadersConfig, seats: Sequence[str], seed: int, options: Mapping[str, Any]
    ) -> InvadersSession:
        # spec 1: there is no randomness in the game, so the seed is not used
        if tuple(seats) != SEATS:
            raise UserError(f"invaders seats are {', '.join(SEATS)}, not {', '.join(seats)}")
        return InvadersSession(config)

    def accept_line(self, line: str, turn: int) -> str | None:
        return line.strip()  # spec 18: one answer line per request line

    def is_log(self, path: Path) -> bool:
        return logs.is_log(path)  # a koth trace; a log the core wrote names its game

    def open_foreign_log(self, path: Path) -> Any:
        return logs.open_trace(self, path)

    def detect_kind(self, path: Path, data: Any) -> str | None:
        return logs.detect_kind(path, data)

    def html_replay(self, path: Path) -> tuple[dict[str, Any], str]:
        """The HTML replay's compact record of a log and the script that draws the board (runner/replay/)."""
        from runner.games.invaders.html_record import board_js, html_record

        return html_record(path), board_js()


def read_config_file(path: Path) -> dict[str, Any]:
    """A game config file's JSON object; UserError in one line when it cannot be read or parsed."""
    data = read_json_file(path, "game config")
    if not isinstance(data, dict):
        raise UserError(f"{path}: the invaders config must be a JSON object")
    return data

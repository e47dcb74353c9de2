"""The narrow interface between the match loop and a game, and the table of games.

The match loop knows a game only through `GameSession` (one match in progress). Tower Defence is the
first implementation; another game of the family plugs in by adding a session class and a GAMES entry.
"""

from __future__ import annotations

from typing import Any, Protocol

import attrs


@attrs.frozen
class Outcome:
    """How a finished match ended: `winner` is a seat or None (tie); `reason` a short machine-readable word."""

    reason: str
    winner: str | None


@attrs.frozen
class RoundReport:
    """What one processed round produced: the engine's error strings and which seats they concern."""

    errors: tuple[str, ...]
    rejected: frozenset[str]  # seats whose command was invalid (parse error or rejected by the rules)


class GameSession(Protocol):
    """One match in progress, advanced round by round by the match loop."""

    seats: tuple[str, ...]
    #: Bot-folder file name -> its name in the match log (e.g. state.json -> JsonMap.json).
    log_file_names: dict[str, str]

    @property
    def round(self) -> int:
        """The round the current state is for (rendered files carry this number)."""

    def player_files(self) -> dict[str, dict[str, str]]:
        """Files to hand each seat's bot this round: seat -> {file name: text}."""

    def console_view(self) -> str:
        """The spectator's view of the current state (Console.txt; also shown to console players)."""

    def play_round(self, commands: dict[str, str]) -> RoundReport:
        """Apply each seat's raw command line and advance one round. Never raises on any command text."""

    def outcome(self) -> Outcome | None:
        """The result once the match is over, else None."""

    def standings(self) -> dict[str, dict[str, int]]:
        """Per seat numbers for summaries (e.g. score, health, energy)."""

    def end_of_game_text(self, names: dict[str, str]) -> str:
        """The official end-of-game file's text (endGameState.txt)."""

    def config_json(self) -> dict[str, Any]:
        """The game config as JSON (recorded in match.json and next to the log)."""

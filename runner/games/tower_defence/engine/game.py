"""One round at a time: `play_round`, then `check_game_over` (spec 3.1, 6)."""

from __future__ import annotations

import enum

import attrs

from runner.games.tower_defence.engine import phases
from runner.games.tower_defence.engine.state import PLAYERS, GameState

ROUND_PHASES = (
    phases.reset_round_lists,
    phases.count_down_construction,
    phases.update_iron_curtains,
    phases.fire_teslas,
    phases.launch_missiles,
    phases.move_missiles,
    phases.remove_destroyed,
    phases.pay_income,
)


class EndReason(enum.Enum):
    HEALTH = "health"
    MAX_ROUNDS = "max_rounds"
    DO_NOTHING_LIMIT = "do_nothing_limit"


@attrs.frozen
class GameResult:
    """How a finished game ended; `winner` is "A", "B" or None for a tie."""

    reason: EndReason
    winner: str | None


def play_round(state: GameState, commands: dict[str, str]) -> None:
    """Process round `state.round` with each player's raw command string, then advance the counter.

    Missing players send "" (a neutral do-nothing). Never raises on any command text.
    """
    phases.reset_round_lists(state)
    phases.apply_commands(state, commands)
    phases.count_down_construction(state)
    phases.update_iron_curtains(state)
    phases.fire_teslas(state)
    phases.launch_missiles(state)
    phases.move_missiles(state)
    phases.remove_destroyed(state)
    phases.pay_income(state)
    state.round += 1


def check_game_over(state: GameState) -> GameResult | None:
    """Return the result if the game is over before round `state.round` would be played (spec 3.1 step 3)."""
    config = state.config
    players = state.players
    a, b = players["A"], players["B"]
    limit = config.max_do_nothings
    if a.do_nothing_streak >= limit or b.do_nothing_streak >= limit:
        return GameResult(EndReason.DO_NOTHING_LIMIT, winner_of(state))
    if a.health <= 0 or b.health <= 0:
        return GameResult(EndReason.HEALTH, winner_of(state))
    if state.round > config.max_rounds:
        return GameResult(EndReason.MAX_ROUNDS, winner_of(state))
    return None


def winner_of(state: GameState) -> str | None:
    """Exactly one dead base loses; otherwise the higher score wins; equal scores tie (spec 6)."""
    a, b = (state.players[p] for p in PLAYERS)
    if (a.health <= 0) != (b.health <= 0):
        return "B" if a.health <= 0 else "A"
    if a.score == b.score:
        return None
    return "A" if a.score > b.score else "B"

"""Render `endGameState.txt` (spec 6)."""

from __future__ import annotations

from runner.games.tower_defence.engine.game import EndReason, GameResult
from runner.games.tower_defence.engine.state import PLAYERS, GameState


def render_end_game_state(state: GameState, result: GameResult, names: dict[str, str]) -> str:
    """`names` maps seat -> player name as in the log folders ("A - Nick"); note no space before `- score`."""
    lines = []
    if result.reason is EndReason.DO_NOTHING_LIMIT:
        lines.append("Bot did nothing too many consecutive rounds\n\n")
    if result.winner is None:
        lines.append("The game ended in a tie\n\n")
    else:
        lines.append(f"The winner is: {names[result.winner]}\n\n")
    for seat in PLAYERS:
        player = state.players[seat]
        lines.append(f"{names[seat]}- score:{player.score} health:{player.health}\n")
    return "".join(lines)

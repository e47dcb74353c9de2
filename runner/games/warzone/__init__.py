"""Warzone (COMP 345 Risk variant) for td-runner: `GAME` is what the registry hands the core."""

from runner.games.warzone.game import WarzoneGame

GAME = WarzoneGame()

__all__ = ["GAME", "WarzoneGame"]

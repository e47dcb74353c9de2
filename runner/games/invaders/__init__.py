"""Invaders: the 1-D defenders-vs-invaders king-of-the-hill (docs/rules/invaders.md), persistent bots."""

from runner.games.invaders.game import InvadersGame

GAME = InvadersGame()

__all__ = ["GAME", "InvadersGame"]

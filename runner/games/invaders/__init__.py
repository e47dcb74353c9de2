"""Invaders: the 1-D defenders-vs-invaders king-of-the-hill (shared/spec/invaders.md), persistent bots."""

from runner.games.invaders.game import InvadersGame

GAME = InvadersGame()

__all__ = ["GAME", "InvadersGame"]

"""Lanes: the two-lane tower-defence game (rules: docs/rules/lanes.md), played through the file protocol.

`GAME` is what the registry serves for `--game lanes`.
"""

from runner.games.lanes.game import LanesGame

GAME = LanesGame()

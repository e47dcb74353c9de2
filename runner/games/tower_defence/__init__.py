"""Tower Defence, the Entelect Challenge 2018 game: `GAME` is what the registry hands the core."""

from runner.games.tower_defence.game import TowerDefence

GAME = TowerDefence()

"""The state between turns (spec 4.1, 8): immutable records, so a Session can keep and compare them."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.orders import Stance

#: Player indexes: 0 is P1 (owns lane 1), 1 is P2 (owns lane 2). The attacker of lane i is player 1 - i.
PLAYERS = (0, 1)


def opponent(player: int) -> int:
    return 1 - player


@attrs.frozen
class Tower:
    """A tower on its owner's lane; `hp` carries over from turn to turn (spec 6, D19)."""

    type: str
    col: int
    row: int
    hp: int


@attrs.frozen
class Player:
    hp: int
    money: int
    soldiers: Mapping[str, int]  # spec 7: owned soldiers per type, permanent


@attrs.frozen
class Entry:
    """One soldier of a schedule: it enters the opponent's lane at (col, deploy row) at `timestep`."""

    timestep: int
    col: int
    soldier: str
    stance: Stance = Stance.ADVANCE


@attrs.frozen
class TurnSummary:
    """What a turn did, per player index (spec 8's `last_turn`, spec 11's per-turn fields).

    `scored[i]`, `killed[i]`, `towers_lost[i]` count player i's units; `deployments[i]` is player i's
    schedule (the soldiers that entered the opponent's lane).
    """

    scored: tuple[int, int] = (0, 0)
    killed: tuple[int, int] = (0, 0)
    towers_lost: tuple[int, int] = (0, 0)
    deployments: tuple[tuple[Entry, ...], tuple[Entry, ...]] = ((), ())


@attrs.frozen
class GameState:
    """The state at the start of `turn` (after the last turn's income).

    `towers[i]` is lane i+1, owned by player i, in build order (spec 4.3.2: the acting order).
    `errors[i]` are player i's problems with its last command file (spec 10.1.4).
    """

    turn: int
    players: tuple[Player, Player]
    towers: tuple[tuple[Tower, ...], tuple[Tower, ...]]
    last_turn: TurnSummary | None = None
    errors: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


def new_game(config: LanesConfig) -> GameState:
    """spec 4.1: both players at start HP and money, no towers, no soldiers, turn 1."""
    player = Player(config.start_hp, config.start_money, {name: 0 for name in config.soldier_types})
    return GameState(turn=1, players=(player, player), towers=((), ()))

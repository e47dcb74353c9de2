"""One whole turn (spec 4.2): apply both players' orders, run the timesteps on both lanes, pay income.

Also the end check (spec 4.4). Orders reach `play_turn` already checked (`legality.check_orders`); a
rejected file is passed as None, which builds, recruits and deploys nothing (spec 4.2.1).
"""

from __future__ import annotations

import attrs

from runner.games.lanes.rules.battle import Lane, LaneObserver
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.legality import apply_orders
from runner.games.lanes.rules.orders import Orders
from runner.games.lanes.rules.state import PLAYERS, GameState, TurnSummary, opponent

#: One timestep as spec 11 records it, taken after cleanup:
#: (soldiers on lane 1, on lane 2, tower HP on lane 1, on lane 2, hp1, hp2, money1, money2).
Step = tuple[int, int, int, int, int, int, int, int]


@attrs.frozen
class TurnResult:
    """The state after the turn (income included) and what happened in it."""

    state: GameState
    summary: TurnSummary
    steps: tuple[Step, ...]


@attrs.frozen
class Result:
    """How the game ended: `winner` is a player index, or None for a draw; `reason` is `hp` or `max_turns`."""

    winner: int | None
    reason: str


def play_turn(
    config: LanesConfig,
    state: GameState,
    orders: tuple[Orders | None, Orders | None],
    errors: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    observers: tuple[LaneObserver | None, LaneObserver | None] = (None, None),
) -> TurnResult:
    """Play turn `state.turn`. `errors[i]` are player i's problems, kept for the next state (spec 10.1.4).

    `observers[i]` watches lane i+1 timestep by timestep (battle.LaneObserver): the HTML replay draws the
    soldiers' walk from it; the game itself never passes one.
    """
    plans = [apply_orders(config, state, p, orders[p]) for p in PLAYERS]
    hp = [plan.player.hp for plan in plans]
    money = [plan.player.money for plan in plans]
    # lane i is player i's: its towers defend, the opponent's schedule attacks it
    lanes = [Lane(config, plans[p].towers, plans[opponent(p)].schedule, observers[p]) for p in PLAYERS]
    scored, killed, lost = [0, 0], [0, 0], [0, 0]
    steps: list[Step] = []
    for timestep in range(1, config.timesteps + 1):
        for defender in PLAYERS:
            attacker = opponent(defender)
            tally = lanes[defender].step(timestep)
            hp[defender] -= tally.scored  # spec 4.3.4a: no money for a score (D5)
            money[defender] += tally.killed * config.kill_bounty
            money[attacker] += tally.towers_value  # spec 4.3.4b / D13: the price only
            scored[attacker] += tally.scored
            killed[attacker] += tally.killed
            lost[defender] += tally.towers_lost
        steps.append(
            (
                len(lanes[0].soldiers),
                len(lanes[1].soldiers),
                lanes[0].tower_hp,
                lanes[1].tower_hp,
                hp[0],
                hp[1],
                money[0],
                money[1],
            )
        )
    # spec 4.2.3: soldiers still on a lane leave for nothing; towers stay with their damage; income
    players = tuple(
        attrs.evolve(plans[p].player, hp=hp[p], money=money[p] + config.income) for p in PLAYERS
    )
    summary = TurnSummary(
        scored=(scored[0], scored[1]),
        killed=(killed[0], killed[1]),
        towers_lost=(lost[0], lost[1]),
        deployments=(plans[0].schedule, plans[1].schedule),
    )
    after = GameState(
        turn=state.turn + 1,
        players=(players[0], players[1]),
        towers=(lanes[0].frozen_towers(), lanes[1].frozen_towers()),
        last_turn=summary,
        errors=errors,
    )
    return TurnResult(after, summary, tuple(steps))


def decide(config: LanesConfig, state: GameState) -> Result | None:
    """spec 4.4, checked on the state after a turn's income: None while the game goes on."""
    down = [p for p in PLAYERS if state.players[p].hp <= 0]
    if down:
        return Result(None if len(down) == 2 else opponent(down[0]), "hp")
    if state.turn - 1 >= config.max_turns:  # spec 4.4 / D11: after turn 100, more HP wins
        hp1, hp2 = (player.hp for player in state.players)
        return Result(None if hp1 == hp2 else (0 if hp1 > hp2 else 1), "max_turns")
    return None

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
    hp1, hp2 = (plan.player.hp for plan in plans)
    money1, money2 = (plan.player.money for plan in plans)
    # lane i is player i's: its towers defend, the opponent's schedule attacks it
    lane1, lane2 = (Lane(config, plans[p].towers, plans[opponent(p)].schedule, observers[p]) for p in PLAYERS)
    bounty = config.kill_bounty
    steps: list[Step] = []
    for timestep in range(1, config.timesteps + 1):
        lane1.play(timestep)
        lane2.play(timestep)
        # the lanes keep the turn's totals: spec 4.3.4a, a score costs the defender HP and pays nothing
        # (D5), a kill pays the defender the bounty; 4.3.4b / D13, a tower lost pays the attacker its price
        steps.append((
            len(lane1.soldiers), len(lane2.soldiers), lane1.tower_hp, lane2.tower_hp,
            hp1 - lane1.scored, hp2 - lane2.scored,
            money1 + lane1.killed * bounty + lane2.towers_value, money2 + lane2.killed * bounty + lane1.towers_value,
        ))
    hp = (hp1 - lane1.scored, hp2 - lane2.scored)
    money = (money1 + lane1.killed * bounty + lane2.towers_value, money2 + lane2.killed * bounty + lane1.towers_value)
    # spec 4.2.3: soldiers still on a lane leave for nothing; towers stay with their damage; income
    players = tuple(
        attrs.evolve(plans[p].player, hp=hp[p], money=money[p] + config.income) for p in PLAYERS
    )
    summary = TurnSummary(
        scored=(lane2.scored, lane1.scored),  # player i's soldiers attack the other lane
        killed=(lane2.killed, lane1.killed),
        towers_lost=(lane1.towers_lost, lane2.towers_lost),
        deployments=(plans[0].schedule, plans[1].schedule),
    )
    after = GameState(
        turn=state.turn + 1,
        players=(players[0], players[1]),
        towers=(lane1.frozen_towers(), lane2.frozen_towers()),
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

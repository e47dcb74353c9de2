"""The lane observer (rules.battle.LaneObserver), the HTML replay's only hook into the rules: when it is
called, what it sees, and that watching a turn never changes it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runner.games.lanes.html_record import LaneTrack
from runner.games.lanes.protocol.commands import parse_commands, read_orders
from runner.games.lanes.protocol.trace_replay import replay_turn
from runner.games.lanes.rules.battle import Lane
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.orders import Orders
from runner.games.lanes.rules.state import new_game
from runner.games.lanes.rules.turn import play_turn

from tests.games.lanes.lanes_helpers import CONFIG, commands

DATA = Path(__file__).parent / "data"
TRACES = sorted(path.stem for path in DATA.glob("*.jsonl"))


class Seen:
    """An observer that notes each call: (timestep, soldiers as (type, col, row, hp, scored), tower HPs)."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, list[tuple], list[int]]] = []

    def __call__(self, timestep: int, lane: Lane) -> None:
        soldiers = [(s.type, s.col, s.row, s.hp, s.scored) for s in lane.soldiers]
        self.calls.append((timestep, soldiers, [t.hp for t in lane.towers]))


def first_turn_orders(p1: list[str], p2: list[str]) -> tuple[Orders | None, Orders | None]:
    state = new_game(CONFIG)
    found = []
    for player, body in enumerate((p1, p2)):
        orders, problems = read_orders(commands(1, *body), state, player, CONFIG)
        assert not problems, problems
        found.append(orders)
    return found[0], found[1]


def test_an_empty_lane_is_seen_once_set_up_and_never_at_a_timestep() -> None:
    seen = Seen()
    play_turn(CONFIG, new_game(CONFIG), first_turn_orders(["BUILD missile 3 4"], []), observers=(seen, None))
    assert seen.calls == [(0, [], [10])]


def test_the_observer_sees_each_timestep_with_soldiers_before_its_cleanup() -> None:
    """A rifle entering at timestep 5 walks rows 19..0 over timesteps 5..24 and scores at 25 (one action on
    the goal row): the lane is shown at 0 and at 5..25, the scorer still on it at 25."""
    seen = Seen()
    orders = first_turn_orders(["RECRUIT rifle 1", "DEPLOY rifle 5 3"], [])
    play_turn(CONFIG, new_game(CONFIG), orders, observers=(None, seen))  # P1's rifle attacks lane 2
    assert [call[0] for call in seen.calls] == [0, *range(5, 26)]
    assert [call[1] for call in seen.calls[1:]] == (
        [[("rifle", 3, row, 3, False)] for row in range(19, -1, -1)] + [[("rifle", 3, 0, 3, True)]])


def test_a_busy_turn_watched_is_the_same_turn() -> None:
    """Rockets, frost, blockades and twenty soldiers of every kind and stance, on both lanes."""
    orders = first_turn_orders(
        ["BUILD rocket 3 6", "BUILD frost 2 4", "BUILD blockade 3 2", "BUILD blockade 4 9", "RECRUIT bomb 5",
         "RECRUIT horse 5", "DEPLOY bomb 1 3 5 fire", "DEPLOY horse 2 4 5"],
        ["BUILD missile 3 5", "BUILD blockade 3 3", "RECRUIT shield 5", "RECRUIT rifle 5",
         "DEPLOY shield 1 3 5", "DEPLOY rifle 3 3 5 fire"])
    seen = (Seen(), Seen())
    watched = play_turn(CONFIG, new_game(CONFIG), orders, observers=seen)
    assert watched == play_turn(CONFIG, new_game(CONFIG), orders)
    assert all(len(observer.calls) > 10 for observer in seen)
    assert any(hp != 30 for _, _, hps in seen[0].calls for hp in hps[2:])  # the bombs hit a blockade


@pytest.mark.parametrize("name", TRACES)
def test_watching_changes_nothing_and_the_replayed_orders_play_the_recorded_turn(name: str) -> None:
    """Every turn of a reference trace, played again from its normal-form commands with a recorder on each
    lane (as the HTML replay plays a turn a second time), gives the plain replay's result and the trace's own
    100 steps."""
    config = LanesConfig()
    units = list(config.units)
    state = new_game(config)
    lines = [json.loads(text) for text in (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()[1:-1]]
    for line in lines:
        record, after = replay_turn(config, state, line)
        orders = [None if record["rejected"][p] else  # the normal form read again: what the session plays
                  parse_commands("\n".join(record["commands"][p]) + "\n", state.turn, config).orders for p in (0, 1)]
        tracks = (LaneTrack(config, units), LaneTrack(config, units))
        watched = play_turn(config, state, (orders[0], orders[1]), observers=tracks)
        assert watched == play_turn(config, state, (orders[0], orders[1]))
        assert (watched.state.towers, watched.state.players) == (after.towers, after.players)
        assert [list(step) for step in watched.steps] == line["steps"]
        state = after

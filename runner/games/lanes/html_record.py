"""Lanes' board in the core's HTML replay (runner/replay/default.py: the record played through a session).

One frame per played turn. The whole game happens inside a turn's 100 timesteps, so each frame carries
the battle timestep by timestep, and the viewer plays it as the frame's sub-steps (`ReplayBoard.steps`):
sub-step 0 is the lanes as the battle starts (this turn's towers built, no soldier yet), sub-step t is
timestep t after its actions (dying soldiers and towers, scorers and stuns still there to be seen; they
are gone from sub-step t + 1). The last sub-step is the turn's end, what the frame shows by default.

The engine does not keep positions, so each turn is played a second time from the state before it with an
observer on each lane (rules.battle.LaneObserver; the match itself runs without one), and only changes
are stored, as integer arrays. A frame: `{"s": [[8 numbers] per timestep] (spec 11 steps: soldiers on
each lane, each lane's tower HP, both HPs, both purses), "b": [lane 1, lane 2]}`, and a lane:

* `T`: the towers at sub-step 0, `[type, col, row, hp, ...]` in build order; `H`: their HP changes,
  `[tower, timestep, hp, ...]` (a tower at HP <= 0 is destroyed at that timestep);
* `S`: the soldiers that entered, `[type, col, first, last, fate, ...]` in soldier order: on the lane
  from timestep `first` to `last`, fate 0 still there after the last timestep, 1 scored, 2 killed at `last`;
* `R`: their rows, run-length coded moves: per soldier `[rows moved, timesteps, ...]` pairs from the
  deploy row, the timesteps summing to `last - first + 1` (a rifle walking the lane unhindered is `[1, 21]`);
* `P`: their HP changes `[soldier, timestep, hp, ...]` (a soldier enters at its type's full HP);
  `Z`: stuns, `[soldier, timestep, ...]` (frost: for the rest of that timestep).

Type indexes `board["units"]`. Two fortresses of 120 towers a lane sending 512 soldiers a side every turn
make about 58 KB a turn, 5.8 MB for 100 turns (README); a page over the viewer's limit (9 MB) keeps every
k-th turn whole, with all of its timesteps, and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from runner.games.interface import Answer, Fault
from runner.games.lanes.rules.battle import Lane, LiveTower, Soldier
from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.orders import Orders
from runner.games.lanes.rules.state import PLAYERS, GameState
from runner.games.lanes.rules.turn import play_turn
from runner.games.lanes.session import SEATS, LanesSession, read_answer
from runner.logtools.record import MatchRecord, RecordedTurn
from runner.replay.default import BoardView, Shown

#: Fates of a soldier at its last sub-step (`S`).
ON_LANE, SCORED, KILLED = 0, 1, 2


class LaneTrack:
    """The observer of one lane for one turn (rules.battle.LaneObserver): notes what the board draws, only
    as it changes. It sees the lane before each cleanup, so a soldier's last sub-step shows it scoring or
    dying where it did; units are keyed by identity and kept, so their indexes stay put as they leave."""

    def __init__(self, config: LanesConfig, units: list[str]) -> None:
        self.deploy_row = config.deploy_row
        self.type_index = {name: i for i, name in enumerate(units)}
        self.full_hp = {name: config.units[name].hp for name in units}
        self.towers: dict[LiveTower, int] = {}  # identity -> index into the tower lists
        self.tower_hp: list[int] = []
        self.soldiers: dict[Soldier, int] = {}  # identity (kept alive here, so ids are never reused)
        self.rows: list[list[int]] = []  # per soldier, its row at each sub-step it was seen
        self.hp: list[int] = []
        self.initial: list[int] = []
        self.tower_changes: list[int] = []
        self.entered: list[int] = []
        self.hp_changes: list[int] = []
        self.stuns: list[int] = []

    def __call__(self, timestep: int, lane: Lane) -> None:
        if timestep == 0:
            for tower in lane.towers:
                self.towers[tower] = len(self.tower_hp)
                self.tower_hp.append(tower.hp)
                self.initial += (self.type_index[tower.type], tower.col, tower.row, tower.hp)
            return
        for tower in lane.towers:
            index = self.towers[tower]
            if tower.hp != self.tower_hp[index]:
                self.tower_hp[index] = tower.hp
                self.tower_changes += (index, timestep, tower.hp)
        for soldier in lane.soldiers:
            index = self.soldiers.get(soldier)
            if index is None:  # deployed this timestep
                index = self.soldiers[soldier] = len(self.rows)
                self.rows.append([])
                self.hp.append(self.full_hp[soldier.type])
                self.entered += (self.type_index[soldier.type], soldier.col, timestep, timestep, ON_LANE)
            self.rows[index].append(soldier.row)
            self.entered[5 * index + 3] = timestep
            if soldier.hp != self.hp[index]:
                self.hp[index] = soldier.hp
                self.hp_changes += (index, timestep, soldier.hp)
            if soldier.stunned:
                self.stuns += (index, timestep)
            if soldier.scored or soldier.hp <= 0:
                self.entered[5 * index + 4] = SCORED if soldier.scored else KILLED

    def record(self) -> dict[str, list[int]]:
        return {"T": self.initial, "H": self.tower_changes, "S": self.entered,
                "R": [value for rows in self.rows for value in moves(rows, self.deploy_row)],
                "P": self.hp_changes, "Z": self.stuns}


def moves(rows: list[int], start: int) -> list[int]:
    """Rows as run-length coded moves from `start`: [rows moved, for this many sub-steps, ...]."""
    runs: list[int] = []
    for row in rows:
        step, start = start - row, row
        if runs and runs[-2] == step:
            runs[-1] += 1
        else:
            runs += (step, 1)
    return runs


def battle(config: LanesConfig, state: GameState, orders: Sequence[Orders | None], units: list[str]) -> list[dict]:
    """Both lanes of the turn played from `state` with `orders` (a refused answer's are None), timestep by
    timestep, as the drawing needs them."""
    tracks = [LaneTrack(config, units) for _ in PLAYERS]
    play_turn(config, state, (orders[0], orders[1]), observers=(tracks[0], tracks[1]))
    return [track.record() for track in tracks]


def _turn(record: MatchRecord, session: LanesSession, recorded: RecordedTurn, play: Any) -> Shown:
    config, before = session.config, session.state
    played = play().record or {}
    orders = [read_answer(config, before, p, recorded.answers.get(seat, Answer("", Fault.CRASH)))[0]
              for p, seat in enumerate(SEATS)]
    marks = [("destroyed", f"{record.names.get(seat, seat)} lost {lost} tower(s)")
             for seat, lost in zip(SEATS, played.get("towers_lost") or (0, 0)) if lost]
    return {"s": played.get("steps") or [], "b": battle(config, before, orders, list(config.units))}, marks


def _board(record: MatchRecord, session: LanesSession) -> dict[str, Any]:
    config = session.config
    units = list(config.units)
    return {"width": config.width, "rows": config.rows, "units": units, "timesteps": config.timesteps,
            "letters": [config.units[name].letter for name in units],
            "max_hp": [config.units[name].hp for name in units]}


VIEW = BoardView(Path(__file__).with_name("html_board.js"), _board, _turn, step_word="Timestep")


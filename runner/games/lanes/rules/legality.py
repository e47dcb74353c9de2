"""Check a player's orders against the state (spec 10.4-10.5: E09-E17) and apply accepted ones (spec 4.2.1).

A command with a bad field (E09, E10, E14, E15) is reported and then left out of the checks that follow,
so one typo gives one problem, not a cascade. A command refused for a cell, a row or money is not paid
and fills no cell. (The spec fixes the codes and accept-versus-reject; which follow-on problems are also
listed is this implementation's choice.)
"""

from __future__ import annotations

import functools
from collections import Counter

import attrs

from runner.games.lanes.rules.config import LanesConfig
from runner.games.lanes.rules.orders import Build, Command, Deploy, Orders, Problem, Recruit, Stance
from runner.games.lanes.rules.state import Entry, GameState, Player, Tower


def check_fields(config: LanesConfig, command: Command) -> list[Problem]:
    """Problems with one command's numbers, independent of the state (E09, E10, E14, E15)."""
    problems = []
    line = command.line
    if isinstance(command, Deploy) and not 1 <= command.timestep <= config.timesteps:
        problems.append(Problem("E15", line, f"timestep {command.timestep} out of range 1..{config.timesteps}"))
    if isinstance(command, (Build, Deploy)) and not 0 <= command.col < config.width:
        problems.append(Problem("E09", line, f"column {command.col} out of range 0..{config.width - 1}"))
    if isinstance(command, Build) and not 0 <= command.row <= config.max_build_row:
        note = f" (row {config.deploy_row} is the deploy row)" if command.row == config.deploy_row else ""
        problems.append(Problem("E10", line, f"row {command.row} out of range 0..{config.max_build_row}{note}"))
    if isinstance(command, (Recruit, Deploy)) and not 1 <= command.count <= config.max_count:
        problems.append(Problem("E14", line, f"count {command.count} out of range 1..{config.max_count}"))
    return problems


def check_orders(config: LanesConfig, state: GameState, player: int, orders: Orders) -> list[Problem]:
    """Every problem of `orders` for `player` in `state`, in line order; empty means the file is accepted."""
    me = state.players[player]
    money = me.money
    owned = Counter(me.soldiers)
    occupied = {(t.col, t.row) for t in state.towers[player]}
    per_row = Counter(t.row for t in state.towers[player])
    problems: list[Problem] = []
    deploys: list[Deploy] = []
    for command in orders.commands:
        field_problems = check_fields(config, command)
        if field_problems:
            problems += field_problems
            continue
        if isinstance(command, Deploy):
            deploys.append(command)  # spec 10.4: checked after every RECRUIT of the file
            continue
        if isinstance(command, Build):
            cell = (command.col, command.row)
            if cell in occupied:  # spec 10.4: includes cells filled earlier in this file
                problems.append(
                    Problem("E11", command.line, f"cell col {command.col} row {command.row} already holds a tower")
                )
                continue
            if per_row[command.row] >= config.max_towers_per_row:  # spec 2 / D3: one cell per row stays free
                problems.append(
                    Problem(
                        "E12",
                        command.line,
                        f"row {command.row} already holds {config.max_towers_per_row} towers; "
                        "one cell per row must stay free",
                    )
                )
                continue
            what, cost = command.tower, config.units[command.tower].cost
        else:
            what = f"{command.count} {command.soldier}"
            cost = config.units[command.soldier].cost * command.count
        if cost > money:  # spec 6: money never goes negative
            problems.append(Problem("E13", command.line, f"not enough money for {what} (cost {cost}, left {money})"))
            continue
        money -= cost
        if isinstance(command, Build):
            occupied.add((command.col, command.row))
            per_row[command.row] += 1
        else:
            owned[command.soldier] += command.count
    scheduled: Counter[str] = Counter()
    for deploy in deploys:  # spec 7 / D15: each owned soldier deploys at most once per turn
        already = scheduled[deploy.soldier]
        if already + deploy.count > owned[deploy.soldier]:
            problems.append(
                Problem(
                    "E17",
                    deploy.line,
                    f"deploying {deploy.count} more {deploy.soldier} exceeds the {owned[deploy.soldier]} owned "
                    f"(already scheduled {already})",
                )
            )
            continue
        scheduled[deploy.soldier] += deploy.count
    return sorted(problems, key=lambda p: (p.line is None, p.line or 0))


@attrs.frozen
class Plan:
    """An accepted file's effect before the battle: the player after paying, its lane, its schedule."""

    player: Player
    towers: tuple[Tower, ...]
    schedule: tuple[Entry, ...]


def apply_orders(config: LanesConfig, state: GameState, player: int, orders: Orders | None) -> Plan:
    """spec 4.2.1: BUILD and RECRUIT in file order, paid from current money; DEPLOY lines become the schedule.

    The caller guarantees the orders passed `check_orders` (or come from a trace); None means nothing.
    DEPLOY, the most common command, is tested first.
    """
    me = state.players[player]
    money, owned, towers = me.money, dict(me.soldiers), list(state.towers[player])
    schedule: list[Entry] = []
    for command in orders.commands if orders else ():
        if isinstance(command, Deploy):  # spec 10.4: count expands into consecutive schedule entries
            entry = schedule_entry(command.timestep, command.col, command.soldier, command.stance is Stance.FIRE)
            if command.count == 1:
                schedule.append(entry)
            else:
                schedule += [entry] * command.count
        elif isinstance(command, Build):
            stats = config.units[command.tower]
            money -= stats.cost
            towers.append(Tower(command.tower, command.col, command.row, stats.hp))  # newest acts last
        else:
            money -= config.units[command.soldier].cost * command.count
            owned[command.soldier] = owned.get(command.soldier, 0) + command.count
    return Plan(attrs.evolve(me, money=money, soldiers=owned), tuple(towers), tuple(schedule))


@functools.lru_cache(maxsize=1 << 14)
def schedule_entry(timestep: int, col: int, soldier: str, fire: bool) -> Entry:
    """One schedule entry, shared by every turn that deploys the same: an Entry is immutable, and making
    one (a frozen attrs record) costs CPython 3.11 about five times a cache hit. Keyed by a bool, not the
    stance, as an enum member hashes through a Python call."""
    return Entry(timestep, col, soldier, Stance.FIRE if fire else Stance.ADVANCE)

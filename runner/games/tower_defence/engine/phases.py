"""The phases of one round, in the official order (spec 3.2). Each mutates the state in place.

Speed matters: the phases read the state's incremental indexes (state.py) instead of scanning the board.
Only the command phase and phase 7 change the board, and they keep those indexes up to date; `run_command`
itself leaves them alone, so a caller may run a command and undo it on `buildings` and `grid` (the action
masks of the in-process API are tested that way).
"""

from __future__ import annotations

from runner.games.tower_defence.engine.commands import (
    DECONSTRUCT,
    IRON_CURTAIN,
    Command,
    ParsedCommand,
    parse_command,
)
from runner.games.tower_defence.engine.config import BuildingType
from runner.games.tower_defence.engine.state import Building, GameState, Missile, PlayerState, opponent_of

_BUILD_KINDS = {kind.value: kind for kind in BuildingType}
_ATTACK = BuildingType.ATTACK
_TESLA = BuildingType.TESLA

#: raw command text -> its parse (records are frozen, so shared); bots repeat a few dozen commands
_PARSED: dict[str, ParsedCommand] = {}
_PARSED_LIMIT = 4096  # a bot sending endless distinct text cannot grow it without bound


def parse_cached(text: str) -> ParsedCommand:
    """`parse_command(text)`, remembered."""
    parsed = _PARSED.get(text)
    if parsed is None:
        parsed = parse_command(text)
        if len(_PARSED) >= _PARSED_LIMIT:
            _PARSED.clear()
        _PARSED[text] = parsed
    return parsed


def reset_round_lists(state: GameState) -> None:
    """Phase 0: the lists rendered in a state describe only the round before it."""
    state.errors = []
    state.tesla_hits = []
    state.curtain_hits = []
    state.destroyed_this_round = False


def apply_commands(state: GameState, commands: dict[str, str]) -> None:
    """Phase 1: parse and run each player's raw command, in the match's command order (spec 4)."""
    for player in state.command_order.value:
        apply_command(state, player, commands.get(player, ""))


def apply_command(state: GameState, player: str, text: str) -> None:
    parsed = _PARSED.get(text)
    if parsed is None:
        parsed = parse_cached(text)
    me = state.players[player]
    if parsed.errors:
        state.errors.extend([f"Player {player}: {error}" for error in parsed.errors])
    command = parsed.command
    if command is None:
        me.do_nothing_streak += parsed.penalty
        return
    me.do_nothing_streak = 0  # spec 4.4: a well-formed command resets the streak (its parse errors too)...
    buildings = state.buildings
    count = len(buildings)
    state.last_removed = None
    reason = run_command(state, me, command)
    if reason is not None:
        me.do_nothing_streak += 1  # ...and a rejected one then counts once
        state.errors.append(f"Player {player}: Invalid command received: {reason}")
    elif len(buildings) > count:
        building = buildings[-1]
        kind = building.type
        if kind is _ATTACK:
            state.attackers.append(building)
        elif kind is _TESLA:
            state.teslas.append(building)
        state.unfinished.append(building)
    elif state.last_removed is not None:
        _unindex(state, state.last_removed)


def _unindex(state: GameState, building: Building) -> None:
    """Drop a building that left the board from the indexes the phases read."""
    kind = building.type
    if kind is _ATTACK:
        state.attackers.remove(building)
    elif kind is _TESLA:
        state.teslas.remove(building)
    if building in state.unfinished:
        state.unfinished.remove(building)
    else:
        state.income[building.owner] -= building.stats.energy_generated_per_turn


def run_command(state: GameState, me: PlayerState, command: Command) -> str | None:
    """Execute a well-formed command; return the rejection reason (spec 4.3) or None on success."""
    if command.kind == IRON_CURTAIN:
        return _activate_iron_curtain(state, me)
    config = state.config
    x, y = command.x, command.y
    if not (0 <= x < config.half and 0 <= y < config.map_height):
        return f"The position is out of bounds x:[{x}] y:[{y}]"
    if me.player == "B":
        x = config.map_width - 1 - x
    if command.kind == DECONSTRUCT:
        return _deconstruct(state, me, x, y)
    kind = _BUILD_KINDS[command.kind]
    return _build(state, me, kind, x, y)


def _build(state: GameState, me: PlayerState, kind: BuildingType, x: int, y: int) -> str | None:
    if kind is _TESLA and _tesla_count(state, me.player) >= 2:
        return "No more than 2 tesla towers allowed per player"
    config = state.config
    cell = y * config.map_width + x
    if state.board[cell] is not None:
        return f"Cannot build a building on a cell occupied by another building, X:{x}, Y:{y}"
    stats = config.buildings[kind]
    if me.energy < stats.price:
        return (
            "You don't have enough energy to build this building. "
            f"Required:[{stats.price}], Current:[{me.energy}]"
        )
    building = Building(x, y, me.player, kind, stats, stats.health, stats.construction_time, state.clock,
                        config.map_width)
    state.buildings.append(building)
    state.board[cell] = building
    me.score += stats.construction_score
    me.energy -= stats.price
    return None


def _tesla_count(state: GameState, player: str) -> int:
    return sum(1 for b in state.buildings if b.owner == player and b.type is _TESLA)


def _deconstruct(state: GameState, me: PlayerState, x: int, y: int) -> str | None:
    cell = y * state.config.map_width + x
    building = state.board[cell]
    if building is None:
        return f"No building to deconstruct, X:{x}, Y:{y}"
    state.board[cell] = None
    state.buildings.remove(building)
    state.last_removed = building  # for apply_command's indexes
    me.energy += state.config.deconstruction_refund_amount
    return None


def _activate_iron_curtain(state: GameState, me: PlayerState) -> str | None:
    curtain = state.config.iron_curtain
    if not me.can_place_iron_curtain:
        wait = curtain.reset_period - state.round % curtain.reset_period  # off by one, as official
        return f"Cannot place the Iron Curtain consecutively, wait until [{wait}] rounds have elapsed"
    if me.energy < curtain.price:
        return f"Not enough energy to setup the Iron Curtain, you need at least[{curtain.price}] energy"
    if me.iron_curtain_time_left >= 1:
        return "You can only have one [1] active Iron Curtain at any time"
    me.iron_curtain_time_left = curtain.active_rounds
    me.can_place_iron_curtain = False
    me.score += curtain.construction_score
    me.energy -= curtain.price
    return None


def count_down_construction(state: GameState) -> None:
    """Phase 2: every building counts down, forever (spec 9.1.5): one tick of the shared clock.

    Buildings that finish now start generating income.
    """
    clock = state.clock
    now = clock[0] = clock[0] + 1
    unfinished = state.unfinished
    if unfinished:
        waiting = [building for building in unfinished if building.finish >= now]
        if len(waiting) < len(unfinished):
            income = state.income
            for building in unfinished:
                if building.finish < now:
                    income[building.owner] += building.stats.energy_generated_per_turn
            state.unfinished = waiting


def update_iron_curtains(state: GameState) -> None:
    """Phase 3: grant availability on reset rounds, then age every curtain by one round."""
    reset_period = state.config.iron_curtain.reset_period
    is_reset_round = state.round != 0 and state.round % reset_period == 0
    for player in state.players.values():
        if is_reset_round:
            player.can_place_iron_curtain = True
            player.iron_curtain_time_left = max(0, player.iron_curtain_time_left)
        player.iron_curtain_time_left -= 1


def fire_teslas(state: GameState) -> None:
    """Phase 4: constructed teslas, oldest first, fire when charged and paid for (spec 3.2)."""
    if not state.teslas:
        return
    now = state.clock[0]
    towers = [b for b in state.teslas if b.finish < now]
    if len(towers) > 1:
        towers.sort(key=_finish)  # stable: ties keep board-list order; the order of construction_time_left
    for tower in towers:
        owner = state.players[tower.owner]
        if owner.energy >= tower.stats.energy_per_shot and tower.weapon_cooldown_time_left == 0:
            owner.energy -= tower.stats.energy_per_shot
            _tesla_shot(state, tower)
            tower.weapon_cooldown_time_left = tower.stats.weapon_cooldown_period
        elif tower.weapon_cooldown_time_left > 0:
            tower.weapon_cooldown_time_left -= 1


def _finish(building: Building) -> int:
    return building.finish


def _tesla_shot(state: GameState, tower: Building) -> None:
    config = state.config
    victim = state.players[opponent_of(tower.owner)]
    tx, ty = tower.x, tower.y
    own_cell = (tx, ty, tower.owner)
    if victim.is_iron_curtain_active:
        curtain_x = config.half if tower.owner == "A" else config.half - 1
        curtain_cell = (curtain_x, ty, tower.owner)
        state.curtain_hits.append(curtain_cell)
        state.tesla_hits.append([own_cell, curtain_cell])
        return
    now = state.clock[0]
    targets = [
        b
        for b in state.buildings
        if b.owner == victim.player and b.finish < now and b.health > 0 and abs(b.y - ty) <= 1
    ]
    hits = []
    front = config.half - 1 if tower.owner == "A" else config.half
    if tx == front:
        hits.append((0, 0, victim.player))
        _hit_base(state, tower.owner, victim, tower.stats.weapon_damage)
    step = 1 if tower.owner == "A" else -1
    for distance in range(1, tower.stats.max_range + 1):
        column = tx + step * distance
        in_column = [b for b in targets if b.x == column]
        if not in_column:
            continue
        target = min(in_column, key=lambda b: b.y)
        _damage_building(state, tower.owner, target, tower.stats.weapon_damage)
        hits.append((target.x, target.y, victim.player))
    if hits:
        hits.append(own_cell)
        state.tesla_hits.append(hits)


def _damage_building(state: GameState, attacker: str, target: Building, damage: int) -> None:
    lost = min(target.health, damage)
    target.health -= lost
    state.players[attacker].score += lost * target.stats.destroy_multiplier
    if target.health == 0:
        state.destroyed_this_round = True


def _hit_base(state: GameState, attacker: str, victim: PlayerState, damage: int) -> None:
    victim.hits_taken += 1  # even when the base is already at 0 (spec 9.1.12)
    lost = min(victim.health, damage)
    victim.health -= lost
    state.players[attacker].score += lost * state.config.health_score_multiplier


def launch_missiles(state: GameState) -> None:
    """Phase 5: constructed attack buildings fire when cooled down, even if killed this round."""
    now = state.clock[0]
    missiles = state.missiles
    serial = state.missiles_created
    for building in state.attackers:
        if building.finish >= now:
            continue
        if building.weapon_cooldown_time_left > 0:
            building.weapon_cooldown_time_left -= 1
            continue
        stats = building.stats
        missiles.append(
            Missile(building.x, building.y, building.owner, stats.weapon_damage, stats.weapon_speed,
                    state.seed, serial, state.config.map_width)
        )
        serial += 1
        building.weapon_cooldown_time_left = stats.weapon_cooldown_period
    state.missiles_created = serial


def move_missiles(state: GameState) -> None:
    """Phase 6: all missiles advance one cell per step, interleaved, checking only cells they enter.

    Every missile has the attack building's weapon speed (the config's), so all take the same steps.
    """
    missiles = state.missiles
    if not missiles:
        return
    config = state.config
    width = config.map_width
    board = state.board
    players = state.players
    a, b = players["A"], players["B"]
    now = state.clock[0]
    curtain_a = config.half - 1 if a.iron_curtain_time_left >= 0 else -2  # the column B's missiles stop at
    curtain_b = config.half if b.iron_curtain_time_left >= 0 else -2  # the column A's missiles stop at
    curtain_hits = state.curtain_hits
    score = {"A": 0, "B": 0}  # building damage score per attacker; base hits go through _hit_base
    for _ in range(missiles[0].speed):
        survivors = []
        keep = survivors.append
        for missile in missiles:
            owner = missile.owner
            if owner == "A":
                x = missile.x = missile.x + 1
                if x == curtain_b:
                    curtain_hits.append((x, missile.y, owner))
                    continue
                if x >= width:
                    _hit_base(state, owner, b, missile.damage)
                    continue
            else:
                x = missile.x = missile.x - 1
                if x == curtain_a:
                    curtain_hits.append((x, missile.y, owner))
                    continue
                if x < 0:
                    _hit_base(state, owner, a, missile.damage)
                    continue
            target = board[missile.row + x]
            if target is not None and target.owner != owner and target.finish < now and target.health > 0:
                health = target.health
                damage = missile.damage
                if health > damage:
                    target.health = health - damage
                    score[owner] += damage * target.stats.destroy_multiplier
                else:
                    target.health = 0
                    score[owner] += health * target.stats.destroy_multiplier
                    state.destroyed_this_round = True
            else:
                keep(missile)
        missiles = survivors
        if not missiles:
            break
    state.missiles = missiles
    if score["A"]:
        a.score += score["A"]
    if score["B"]:
        b.score += score["B"]


def remove_destroyed(state: GameState) -> None:
    """Phase 7: dead buildings leave the board; zero-speed missiles too (dead code with any sane config)."""
    if state.destroyed_this_round:  # only damage brings health to 0
        buildings = state.buildings
        board = state.board
        for building in [b for b in buildings if not b.health]:
            board[building.cell] = None
            _unindex(state, building)
        state.buildings = [b for b in buildings if b.health]
    # missiles take the attack building's weapon speed, so only a config with speed 0 can make any
    if state.missiles and state.config.buildings[_ATTACK].weapon_speed == 0:
        state.missiles = [m for m in state.missiles if m.speed != 0]


def pay_income(state: GameState) -> None:
    """Phase 8: base income plus what constructed buildings generate, also added to the score."""
    config = state.config
    base = config.round_income_energy
    multiplier = config.energy_score_multiplier
    income = state.income
    for player, me in state.players.items():
        amount = base + income[player]
        me.energy += amount
        me.score += amount * multiplier

"""The phases of one round, in the official order (spec 3.2). Each mutates the state in place."""

from __future__ import annotations

from runner.games.tower_defence.engine.commands import DECONSTRUCT, IRON_CURTAIN, Command, parse_command
from runner.games.tower_defence.engine.config import BuildingType
from runner.games.tower_defence.engine.state import Building, GameState, Missile, PlayerState, opponent_of

_BUILD_KINDS = {kind.value: kind for kind in BuildingType}


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
    parsed = parse_command(text)
    me = state.players[player]
    me.do_nothing_streak += parsed.penalty
    if parsed.errors:
        state.errors.extend(f"Player {player}: {error}" for error in parsed.errors)
    if parsed.command is None:
        return
    me.do_nothing_streak = 0  # spec 4.4: a well-formed command resets first...
    reason = run_command(state, me, parsed.command)
    if reason is not None:
        me.do_nothing_streak += 1  # ...and a rejected one then counts once
        state.errors.append(f"Player {player}: Invalid command received: {reason}")


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
    if kind is BuildingType.TESLA and _tesla_count(state, me.player) >= 2:
        return "No more than 2 tesla towers allowed per player"
    if (x, y) in state.grid:
        return f"Cannot build a building on a cell occupied by another building, X:{x}, Y:{y}"
    stats = state.config.buildings[kind]
    if me.energy < stats.price:
        return (
            "You don't have enough energy to build this building. "
            f"Required:[{stats.price}], Current:[{me.energy}]"
        )
    building = Building(x, y, me.player, kind, stats, stats.health, stats.construction_time)
    state.buildings.append(building)
    state.grid[(x, y)] = building
    me.score += stats.construction_score
    me.energy -= stats.price
    return None


def _tesla_count(state: GameState, player: str) -> int:
    return sum(1 for b in state.buildings if b.owner == player and b.type is BuildingType.TESLA)


def _deconstruct(state: GameState, me: PlayerState, x: int, y: int) -> str | None:
    building = state.grid.get((x, y))
    if building is None:
        return f"No building to deconstruct, X:{x}, Y:{y}"
    del state.grid[(x, y)]
    state.buildings.remove(building)
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
    """Phase 2: every building counts down, forever (spec 9.1.5)."""
    for building in state.buildings:
        building.construction_time_left -= 1


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
    tesla = BuildingType.TESLA
    towers = [b for b in state.buildings if b.type is tesla and b.construction_time_left <= -1]
    if len(towers) > 1:
        towers.sort(key=_construction_time_left)  # stable: ties keep board-list order
    for tower in towers:
        owner = state.players[tower.owner]
        if owner.energy >= tower.stats.energy_per_shot and tower.weapon_cooldown_time_left == 0:
            owner.energy -= tower.stats.energy_per_shot
            _tesla_shot(state, tower)
            tower.weapon_cooldown_time_left = tower.stats.weapon_cooldown_period
        elif tower.weapon_cooldown_time_left > 0:
            tower.weapon_cooldown_time_left -= 1


def _construction_time_left(building: Building) -> int:
    return building.construction_time_left


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
    targets = [
        b
        for b in state.buildings
        if b.owner == victim.player and b.construction_time_left <= -1 and b.health > 0 and abs(b.y - ty) <= 1
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
    attack = BuildingType.ATTACK
    missiles = state.missiles
    for building in state.buildings:
        if building.type is not attack or building.construction_time_left > -1:
            continue
        if building.weapon_cooldown_time_left > 0:
            building.weapon_cooldown_time_left -= 1
            continue
        stats = building.stats
        missiles.append(
            Missile(building.x, building.y, building.owner, stats.weapon_damage, stats.weapon_speed,
                    stats.weapon_speed, state.seed, state.missiles_created)
        )
        state.missiles_created += 1
        building.weapon_cooldown_time_left = stats.weapon_cooldown_period


def move_missiles(state: GameState) -> None:
    """Phase 6: all missiles advance one cell per step, interleaved, checking only cells they enter."""
    if not state.missiles:
        return
    config = state.config
    width = config.map_width
    grid = state.grid
    players = state.players
    # per missile owner: (victim, step, the victim's curtain column, is that curtain up this round)
    lanes = {
        "A": (players["B"], 1, config.half, players["B"].iron_curtain_time_left >= 0),
        "B": (players["A"], -1, config.half - 1, players["A"].iron_curtain_time_left >= 0),
    }
    steps = max(missile.speed for missile in state.missiles)
    for _ in range(steps):
        survivors = []
        keep = survivors.append
        for missile in state.missiles:
            if missile.moves_left <= 0:
                keep(missile)
                continue
            missile.moves_left -= 1
            owner = missile.owner
            victim, step, curtain_x, curtain_up = lanes[owner]
            x = missile.x = missile.x + step
            if curtain_up and x == curtain_x:
                state.curtain_hits.append((x, missile.y, owner))
            elif x < 0 or x >= width:
                _hit_base(state, owner, victim, missile.damage)
            else:
                target = grid.get((x, missile.y))
                if (
                    target is not None
                    and target.owner != owner
                    and target.construction_time_left <= -1
                    and target.health > 0
                ):
                    _damage_building(state, owner, target, missile.damage)
                else:
                    keep(missile)
        state.missiles = survivors
    for missile in state.missiles:
        missile.moves_left = missile.speed


def remove_destroyed(state: GameState) -> None:
    """Phase 7: dead buildings leave the board; zero-speed missiles too (dead code with any sane config)."""
    if state.destroyed_this_round:  # only damage brings health to 0
        state.buildings = [b for b in state.buildings if b.health != 0]
        state.grid = {(b.x, b.y): b for b in state.buildings}
    # missiles take the attack building's weapon speed, so only a config with speed 0 can make any
    if state.config.buildings[BuildingType.ATTACK].weapon_speed == 0 and state.missiles:
        state.missiles = [m for m in state.missiles if m.speed != 0]


def pay_income(state: GameState) -> None:
    """Phase 8: base income plus what constructed buildings generate, also added to the score."""
    config = state.config
    income = {player: config.round_income_energy for player in state.players}
    for building in state.buildings:
        generated = building.stats.energy_generated_per_turn
        if generated and building.construction_time_left <= -1:
            income[building.owner] += generated
    for player, amount in income.items():
        me = state.players[player]
        me.energy += amount
        me.score += amount * config.energy_score_multiplier

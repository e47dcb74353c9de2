"""The in-process API's hooks (session.py `observations` / `action_masks`): each seat's state.json built as data
from the engine equals the rendered file parsed, key order and value types included (it even dumps back to the
very bytes), and the masks computed from the engine equal the masks computed from the view, on thousands of
rounds of random games; handed-out observations are never changed afterwards (they share parts: read-only)."""

from __future__ import annotations

import json
import random

import attrs
import pytest

from runner.games.interface import Answer
from runner.games.tower_defence.actions import ActionSpace, action_space
from runner.games.tower_defence.engine.config import BuildingType, GameConfig, IronCurtainStats
from runner.games.tower_defence.engine.state import PLAYERS, CommandOrder
from runner.games.tower_defence.session import STATE_FILE, TowerDefenceSession

DEFAULT = GameConfig()
RICH = attrs.evolve(GameConfig(), start_energy=400, round_income_energy=15)  # full boards, teslas, curtains
ODD = attrs.evolve(  # another board size and other stats: nothing may be hard-wired to the defaults; a curtain
    GameConfig(), map_width=12, map_height=6, start_energy=150, max_rounds=120,  # that outlives its reset period
    iron_curtain=IronCurtainStats(price=60, active_rounds=9, reset_period=4, construction_score=7),
    buildings={**GameConfig().buildings,
               BuildingType.ATTACK: attrs.evolve(GameConfig().buildings[BuildingType.ATTACK], weapon_speed=3)},
)


def random_answer(rng: random.Random, space: ActionSpace, mask: bytes) -> Answer:
    """Mostly a build the mask allows (so boards fill up), some deconstructs, refused moves and garbage."""
    roll = rng.random()
    if roll < 0.05:
        return Answer(rng.choice(["", "x", "1,2", "99,0,1", "0,0,5"]))
    if roll < 0.15:
        return Answer(space.decode(rng.randrange(space.size)))  # often refused
    allowed = [action for action, on in enumerate(mask) if on]
    builds = [a for a in allowed if a and (a - 1) % 6 != 3] or allowed
    return Answer(space.decode(rng.choice(builds if rng.random() < 0.9 else allowed)))


def check_round(session: TowerDefenceSession, space: ActionSpace, seen: dict[str, int]) -> dict[str, bytes]:
    """Assert both hooks against the rendered files for the session's current state; return the masks."""
    observations = session.observations()
    masks = session.action_masks()
    inputs = session.inputs()
    assert set(observations) == set(masks) == set(inputs) == set(PLAYERS)
    for seat in PLAYERS:
        text = inputs[seat].files[STATE_FILE]
        parsed = json.loads(text)
        where = (session.state.seed, session.turn, seat)
        assert observations[seat] == parsed, where
        # key order and types too: dumped compactly, the data gives back the rendered bytes
        assert json.dumps(observations[seat], separators=(",", ":")) == text, where
        assert masks[seat] == bytes(space.mask(parsed)), where
    state = session.state
    seen["rounds"] += 1
    seen["missiles"] += bool(state.missiles)
    seen["missile on a building"] += any(state.board[m.row + m.x] is not None for m in state.missiles)
    seen["tesla hits"] += bool(state.tesla_hits)
    seen["curtain hits"] += bool(state.curtain_hits)
    seen["curtain allowed"] += any(mask[6] for mask in masks.values())
    seen["curtain refused: one active"] += any(  # available and affordable, but one is still up
        p.can_place_iron_curtain and p.energy >= state.config.iron_curtain.price and p.iron_curtain_time_left >= 1
        for p in state.players.values())
    seen["tesla limit"] += any(sum(b.owner == seat for b in state.teslas) == 2 for seat in PLAYERS)
    return masks


@pytest.mark.parametrize("config", [DEFAULT, RICH, ODD], ids=["default", "rich", "odd"])
def test_hooks_equal_the_parsed_files_and_the_view_masks_on_thousands_of_rounds(config: GameConfig) -> None:
    space = action_space(config)
    rng = random.Random(16)
    seen = dict.fromkeys(["rounds", "missiles", "missile on a building", "tesla hits", "curtain hits",
                          "curtain allowed", "tesla limit", "curtain refused: one active"], 0)
    seed = 0
    while seen["rounds"] < 1500:
        session = TowerDefenceSession(config, seed, rng.choice(list(CommandOrder)))
        seed += 1
        while session.outcome() is None:
            masks = check_round(session, space, seen)
            session.play_turn({seat: random_answer(rng, space, masks[seat]) for seat in PLAYERS})
        check_round(session, space, seen)  # the final state too
    if config is not ODD:  # the default curtain never outlives its reset period
        del seen["curtain refused: one active"]
    assert all(seen.values()), seen  # every rarer path was exercised, not only empty boards


def test_two_interleaved_sessions_of_one_config_share_caches_without_mixing_up() -> None:
    space = action_space(RICH)
    rng = random.Random(3)
    seen: dict[str, int] = dict.fromkeys(["rounds", "missiles", "missile on a building", "tesla hits",
                                          "curtain hits", "curtain allowed", "tesla limit",
                                          "curtain refused: one active"], 0)
    seed = 0
    while seen["rounds"] < 400:
        sessions = [TowerDefenceSession(RICH, seed), TowerDefenceSession(RICH, seed + 1, CommandOrder.A_FIRST)]
        seed += 2
        while all(session.outcome() is None for session in sessions):
            for session in sessions:  # alternate: the shared caches must not mix up the two games
                masks = check_round(session, space, seen)
                session.play_turn({seat: random_answer(rng, space, masks[seat]) for seat in PLAYERS})
    assert seen["missiles"] and seen["tesla hits"]


def test_observations_are_read_only_shared_data_that_is_never_changed_later() -> None:
    space = action_space(RICH)
    rng = random.Random(5)
    kept = []  # every observation handed out, with its text at that moment
    session = TowerDefenceSession(RICH, 11)
    while session.outcome() is None:
        observations = session.observations()
        kept += [(view, json.dumps(view)) for view in observations.values()]
        masks = session.action_masks()
        session.play_turn({seat: random_answer(rng, space, masks[seat]) for seat in PLAYERS})
    TowerDefenceSession(RICH, 12).observations()  # another session of the config shares the same caches
    assert all(json.dumps(view) == text for view, text in kept)
    # what the contract is about: parts are shared, between seats and between rounds
    first, last = kept[0][0], kept[-1][0]
    assert kept[0][0]["gameDetails"] is kept[1][0]["gameDetails"]  # A's and B's, same round
    assert first["gameDetails"]["buildingsStats"] is last["gameDetails"]["buildingsStats"]
    assert any(row is later for row, later in zip(first["gameMap"], kept[2][0]["gameMap"]))  # an empty row

"""Tower Defence's discrete actions: encode/decode, and the mask checked against the engine itself.

The mask is computed from the seat's state.json (runner/games/tower_defence/actions.py); here every one of the
385 actions of thousands of random states is tried on the engine (phases.run_command, then undone): each
masked-in action is accepted, each masked-out one rejected. The played action of every round is also checked
against the session's own report of rejected commands.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from runner.api import ApiError, action_space, decode, encode, parallel_env  # noqa: E402
from runner.games.tower_defence.engine.commands import parse_command  # noqa: E402
from runner.games.tower_defence.engine.phases import run_command  # noqa: E402

SIZE = 1 + 8 * 8 * 6


def test_encode_and_decode_are_inverse_over_the_whole_space() -> None:
    assert decode(0) == "" and encode("") == 0
    texts = [decode(action) for action in range(SIZE)]
    assert len(set(texts)) == SIZE
    assert [encode(text) for text in texts] == list(range(SIZE))
    assert encode("3,4,1") == 1 + (4 * 8 + 3) * 6 + 1
    assert decode(17) == "2,0,4"
    assert {parse_command(text).command.kind for text in texts[1:]} == set(range(6))  # the engine reads them


@pytest.mark.parametrize("bad, message", [
    ("8,0,1", "outside your half"),
    ("0,8,1", "outside your half"),
    ("0,0,6", "kind 6 is not 0..5"),
    ("1,2", "is not 'x,y,kind'"),
    (" 1,2,3", "is not 'x,y,kind'"),
    ("-1,2,3", "is not 'x,y,kind'"),
    (12, "a command is text"),
])
def test_encode_refuses_what_is_not_a_move_with_one_clear_error(bad, message) -> None:
    with pytest.raises(ApiError, match=message):
        encode(bad)


@pytest.mark.parametrize("bad", [-1, SIZE, 2.0, True, "3"])
def test_decode_refuses_what_is_not_an_action_number(bad) -> None:
    with pytest.raises(ApiError, match=f"integer from 0 to {SIZE - 1}"):
        decode(bad)


def test_games_without_discrete_actions_say_so() -> None:
    with pytest.raises(ApiError, match="lanes has no discrete action space"):
        action_space("lanes")


def accepted_by_engine(state, seat: str, command) -> bool:
    """Whether the engine's command phase accepts `command` for `seat`, leaving the state as it was."""
    me = state.players[seat]
    saved = (list(state.buildings), dict(state.grid), me.energy, me.score, me.iron_curtain_time_left,
             me.can_place_iron_curtain)
    reason = run_command(state, me, command)
    if reason is not None:
        return False  # a refused command changes nothing
    state.buildings[:] = saved[0]
    state.grid.clear()
    state.grid.update(saved[1])
    me.energy, me.score, me.iron_curtain_time_left, me.can_place_iron_curtain = saved[2:]
    return True


def test_masks_match_the_engine_on_thousands_of_random_states() -> None:
    texts = [decode(action) for action in range(SIZE)]
    commands = [parse_command(text).command for text in texts]
    env = parallel_env("tower-defence")
    rng = random.Random(16)
    states = kinds_allowed = played_rejected = 0
    seen_curtain = seen_tesla_limit = False
    episode = 0
    while states < 2000:
        observations, _ = env.reset(seed=episode)
        episode += 1
        while env.agents:
            state = env.session.state
            actions = {}
            for seat in env.agents:
                mask = observations[seat]["action_mask"]
                for action in range(1, SIZE):
                    assert accepted_by_engine(state, seat, commands[action]) == bool(mask[action]), \
                        (episode, state.round, seat, texts[action], int(mask[action]))
                allowed = np.flatnonzero(mask)
                kinds_allowed += len(allowed)
                seen_curtain |= bool(mask[6])
                teslas = sum(b.owner == seat and b.type.name == "TESLA" for b in state.buildings)
                seen_tesla_limit |= teslas == 2
                roll = rng.random()
                if roll < 0.15:
                    actions[seat] = rng.randrange(SIZE)  # anything, often refused: the report must agree
                elif roll < 0.35:
                    actions[seat] = 0
                else:  # prefer building over deconstructing, so boards fill up and energy runs low
                    builds = [a for a in allowed if (a - 1) % 6 != 3] or list(allowed)
                    actions[seat] = int(rng.choice(builds))
                states += 1
            masks = {seat: observations[seat]["action_mask"] for seat in actions}
            observations, _, _, _, infos = env.step(actions)
            for seat, action in actions.items():
                refused = bool(infos[seat]["rejected"])
                assert refused == (not masks[seat][action]), (episode, seat, texts[action], infos[seat])
                played_rejected += refused
    assert states >= 2000 and played_rejected > 50
    assert seen_curtain and seen_tesla_limit  # the rarer rules were exercised, not only the common ones

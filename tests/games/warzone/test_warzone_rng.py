"""spec 5.6 test vectors and the start-up draws (spec 8 G)."""

from __future__ import annotations

import attrs
from warzone_helpers import load_map, ring_map_text

from runner.games.warzone.rules.mapfile import parse_map
from runner.games.warzone.rules.rng import SplitMix64, make_streams
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.rules.setup import check_setup, start_game


def test_splitmix64_reference_outputs() -> None:
    zero, answer = SplitMix64(0), SplitMix64(42)
    assert [f"{zero.next():016x}" for _ in range(4)] == [
        "e220a8397b1dcdaf", "6e789e6aa1b965f4", "06c45d188009454f", "f88bb8a8724c81ec"]
    assert [f"{answer.next():016x}" for _ in range(4)] == [
        "bdd732262feb6e95", "28efe333b266f103", "47526757130f9f52", "581ce1ff0e4ae394"]


def test_streams_of_seed_42() -> None:
    streams = make_streams(42)
    assert (streams.setup.state, streams.cards.state, streams.battle.state) == (
        0xBDD732262FEB6E95, 0x28EFE333B266F103, 0x47526757130F9F52)


def test_below_100_from_seed_42() -> None:
    rng = SplitMix64(42)
    assert [rng.below(100) for _ in range(8)] == [74, 15, 27, 34, 3, 86, 21, 80]


def test_chance_extremes_never_and_always() -> None:
    rng = SplitMix64(5)
    assert not any(rng.chance(0) for _ in range(200))
    assert all(rng.chance(100) for _ in range(200))


def _battle(rng: SplitMix64, k: int, d: int) -> tuple[int, int]:
    return sum(rng.chance(60) for _ in range(k)), sum(rng.chance(70) for _ in range(d))


def test_battle_vectors_of_seed_42() -> None:
    battle = make_streams(42).battle
    assert _battle(battle, 10, 6) == (7, 3)
    assert _battle(battle, 3, 3) == (2, 1)
    assert _battle(make_streams(42).battle, 40, 26) == (21, 16)


def test_tiny_ring_start_up_with_seed_42() -> None:
    state = start_game(load_map("tiny-ring.map"), Rules(), ("A", "B"), 42)
    assert state.play_order == ("B", "A")
    assert state.owner[1:] == ["A", "B", "B", "A"]
    assert state.players["B"].hand == {"bomb": 0, "reinforcement": 1, "blockade": 0, "airlift": 0, "diplomacy": 1}
    assert state.players["A"].hand == {"bomb": 0, "reinforcement": 0, "blockade": 1, "airlift": 1, "diplomacy": 0}
    assert state.deck == {"bomb": 10, "reinforcement": 9, "blockade": 9, "airlift": 9, "diplomacy": 9}
    assert all(player.pool == 50 for player in state.players.values())
    assert state.armies[1:] == [0, 0, 0, 0]


def test_seed_7_three_seats_thirteen_territories() -> None:
    warmap = parse_map(ring_map_text(13)).map
    state = start_game(warmap, Rules(), ("A", "B", "C"), 7)
    assert state.play_order == ("A", "B", "C")
    deal = [11, 3, 6, 10, 5, 1, 7, 12, 9, 2, 4, 13, 8]
    assert [state.owner[tid] for tid in deal] == ["A", "B", "C"] * 4 + ["A"]
    assert [len(state.owned_by(seat)) for seat in "ABC"] == [5, 4, 4]


def test_thirty_one_territories_six_seats_deal_6_5_5_5_5_5() -> None:
    warmap = parse_map(ring_map_text(31, continents=4)).map
    for seed in (0, 1, 99, 2**64 - 1):
        state = start_game(warmap, Rules(), tuple("ABCDEF"), seed)
        assert [len(state.owned_by(seat)) for seat in state.play_order] == [6, 5, 5, 5, 5, 5]


def test_same_seed_same_start_up_whatever_else_differs() -> None:
    warmap = load_map("tiny-gates.map")
    first = start_game(warmap, Rules(), ("A", "B", "C"), 1234)
    again = start_game(warmap, attrs.evolve(Rules(), max_turns=7, attack_kill_pct=10), ("A", "B", "C"), 1234)
    assert first == again
    assert start_game(warmap, Rules(), ("A", "B", "C"), 1235) != first


def test_map_too_small() -> None:
    reason = check_setup(load_map("tiny-oneway.map", lenient=True), tuple("ABCD"))
    assert reason is not None and reason.startswith("E_MAP_TOO_SMALL")
    assert check_setup(load_map("tiny-ring.map"), tuple("ABCD")) is None

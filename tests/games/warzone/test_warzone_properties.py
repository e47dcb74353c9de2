"""Properties over random play (hypothesis): turns are deterministic, and the invariants of spec 2 hold."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from warzone_helpers import load_map

from runner.games.interface import Answer, Fault
from runner.games.warzone.rules.state import CARD_TYPES, NEUTRAL
from runner.games.warzone.session import WarzoneSession
from runner.games.warzone.rules.settings import Rules

GATES = load_map("tiny-gates.map")
SEATS = ("A", "B", "C")
TERRITORY = st.sampled_from(["1", "2", "3", "4", "5", '"7"', '"east gate"', "9"])
LINE = st.one_of(
    st.builds(lambda n, t: f"deploy {n} {t}", st.integers(1, 60), TERRITORY),
    st.builds(lambda w, n, a, b: f"{w} {n} {a} {b}", st.sampled_from(["advance", "attack", "airlift"]),
              st.integers(1, 80), TERRITORY, TERRITORY),
    st.builds(lambda w, t: f"{w} {t}", st.sampled_from(["bomb", "blockade"]), TERRITORY),
    st.builds(lambda s: f"negotiate {s}", st.sampled_from(["a", "B", "C", "D"])),
    st.just("reinforce"),
    st.text(max_size=20),
)
FILE = st.lists(LINE, max_size=7).map("\n".join)
TURN = st.fixed_dictionaries({seat: st.tuples(FILE, st.sampled_from([None, Fault.TIMEOUT, Fault.CRASH]))
                              for seat in SEATS})


def check_invariants(session: WarzoneSession, rules: Rules) -> None:
    state = session.state
    assert all(armies >= 0 for armies in state.armies[1:])
    assert all(owner in (*SEATS, NEUTRAL) for owner in state.owner[1:])
    in_hands = sum(p.card_count for p in state.players.values())
    assert in_hands + sum(state.deck.values()) == rules.deck_per_type * len(CARD_TYPES)  # cards are conserved
    for seat, player in state.players.items():
        assert player.pool >= 0
        assert player.alive == bool(state.owned_by(seat)) or state.is_over
    if not state.is_over:
        assert len(state.alive_seats()) >= 2


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**64 - 1), st.lists(TURN, min_size=1, max_size=6))
def test_random_play_is_deterministic_and_keeps_invariants(seed: int, turns: list) -> None:
    rules = Rules(max_turns=5, initial_pool=20)
    first, second = (WarzoneSession(GATES, rules, SEATS, seed) for _ in range(2))
    for turn in turns:
        if first.outcome() is not None:
            break
        answers = {seat: Answer(text, fault) for seat, (text, fault) in turn.items()}
        assert first.inputs() == second.inputs()
        report = first.play_turn(answers)
        assert report == second.play_turn(answers)
        check_invariants(first, rules)
    assert first.snapshot() == second.snapshot()

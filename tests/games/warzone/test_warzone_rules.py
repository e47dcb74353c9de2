"""The rules of spec 2 through spec 8's R tests, on tiny-ring with hand-built states."""

from __future__ import annotations

import pytest
from warzone_helpers import codes, load_map, make_state, play, results, ring_map_text, rules

from runner.games.warzone.rules.mapfile import parse_map
from runner.games.warzone.rules.income import income_of
from runner.games.warzone.rules.ranking import rank_seats
from runner.games.warzone.rules.rng import make_streams
from runner.games.warzone.rules.settings import Rules
from runner.games.warzone.rules.setup import start_game
from runner.games.warzone.rules.turn import begin_turn

RING = load_map("tiny-ring.map")
SURE_WIN = rules(attack_kill_pct=100, defend_kill_pct=0)  # "100/0"


def events_of(turn, result: str) -> list[dict]:
    return [e for e in turn.events if e.get("result") == result]


@pytest.mark.parametrize(("owners", "minimum", "income", "whole"), [
    ({1: "A", 2: "B", 3: "B", 4: "A"}, 3, 3, ()),
    ({1: "A", 2: "A", 3: "B", 4: "B"}, 3, 3, (1,)),
    ({1: "A", 2: "A", 3: "A", 4: "B"}, 3, 3, (1,)),
    ({1: "A", 2: "A", 3: "A", 4: "A"}, 3, 4, (1, 2)),
    ({1: "A", 2: "B", 3: "B", 4: "A"}, 0, 0, ()),
])
def test_r1_income(owners, minimum, income, whole) -> None:
    got = income_of(make_state(owners), RING, rules(min_reinforcement=minimum), "A")
    assert (got.total, got.continents) == (income, whole)


def test_r2_turn_one_pool_and_carry_over() -> None:
    state = start_game(RING, Rules(), ("A", "B"), 42)
    begin_turn(state, RING, Rules())
    assert state.turn == 1 and [p.pool for p in state.players.values()] == [53, 53]
    for undeployed, left in (("keep", 3), ("lose", 0)):
        state = make_state(pools={"A": 5})
        play(state, RING, {"A": "deploy 2 1"}, rules(undeployed=undeployed))
        assert state.players["A"].pool == left + 3


def test_r3_pool_is_spent_at_issue() -> None:
    state = make_state(pools={"A": 5})
    turn = play(state, RING, {"A": "deploy 3 1\ndeploy 3 4"})
    assert codes(turn, "A") == ["E_POOL"] and turn.rejected["A"][0].line == 2
    assert state.armies[1] == 3 and state.players["A"].pool == 2 + 3


@pytest.mark.parametrize(("line", "code"), [
    ("deploy 2 2", "E_NOT_OWNER"), ("advance 1 1 4", "E_NOT_ADJACENT"), ("advance 1 1 1", "E_SAME_TERRITORY"),
    ("airlift 1 1 3", "E_NOT_OWNER"), ("bomb 1", "E_OWN_TERRITORY"), ("negotiate A", "E_SELF"),
    ("negotiate neutral", "E_UNKNOWN_PLAYER"), ("negotiate C", "E_UNKNOWN_PLAYER"), ("bomb 2", None),
])
def test_r4_issue_time_checks(line: str, code: str | None) -> None:
    state = make_state(armies={1: 5}, pools={"A": 5}, hands={"A": {"bomb": 1, "airlift": 1, "diplomacy": 1}})
    turn = play(state, RING, {"A": line})
    assert codes(turn, "A") == ([code] if code else [])


def test_r4_rejection_message_names_the_territory() -> None:
    turn = play(make_state(pools={"A": 5}), RING, {"A": "deploy 2 2"})
    assert "2 (SW)" in turn.rejected["A"][0].message


def test_r5_deploys_run_first() -> None:
    state = make_state(armies={2: 1}, pools={"A": 5})
    play(state, RING, {"A": "advance 5 1 2\ndeploy 5 1"}, SURE_WIN)
    assert (state.owner[2], state.armies[2], state.armies[1]) == ("A", 5, 0)


def test_r6_move_draws_nothing() -> None:
    state = make_state({1: "A", 2: "A", 3: "B", 4: "B"}, armies={1: 5, 2: 1})
    before = state.battle_rng.state
    turn = play(state, RING, {"A": "advance 3 1 2"})
    assert (state.armies[1], state.armies[2]) == (2, 4) and results(turn, "A") == ["moved"]
    assert state.battle_rng.state == before


def test_r7_conquest_and_one_card() -> None:
    state = make_state(armies={1: 5, 3: 2})
    turn = play(state, RING, {"A": "advance 5 1 3"}, SURE_WIN)
    assert (state.owner[3], state.armies[3], state.armies[1]) == ("A", 5, 0)
    assert len(turn.cards_drawn["A"]) == 1 and state.players["A"].card_count == 1
    assert results(turn)[-1] == "card"


def test_r8_failed_attack_survivors_return() -> None:
    state = make_state(armies={1: 5, 3: 2})
    turn = play(state, RING, {"A": "advance 5 1 3"}, rules(attack_kill_pct=0, defend_kill_pct=100))
    attack = events_of(turn, "attack")[0]
    assert (attack["attackers_killed"], attack["attackers_left"], attack["conquered"]) == (2, 3, False)
    assert (state.armies[1], state.armies[3], state.owner[3]) == (3, 2, "B")


def test_r9_both_wiped_out_defender_keeps() -> None:
    state = make_state(armies={1: 4, 3: 2})
    turn = play(state, RING, {"A": "advance 2 1 3"}, rules(attack_kill_pct=100, defend_kill_pct=100))
    assert (state.owner[3], state.armies[3], state.armies[1]) == ("B", 0, 2)
    assert turn.cards_drawn["A"] == ()


def test_r10_clamp_to_what_is_there() -> None:
    turn = play(make_state(armies={1: 4, 3: 9}), RING, {"A": "advance 10 1 3"})
    attack = events_of(turn, "attack")[0]
    assert (attack["ordered"], attack["attackers"], attack["defenders"]) == (10, 4, 9)


def test_battle_uses_exactly_k_plus_d_draws() -> None:
    state = make_state(armies={1: 4, 3: 9}, seed=3)
    play(state, RING, {"A": "advance 10 1 3"})
    reference = make_streams(3).battle
    for _ in range(13):
        reference.next()
    assert state.battle_rng.state == reference.state


def test_r11_source_lost() -> None:
    state = make_state(armies={1: 3, 3: 5}, play_order=("B", "A"))
    turn = play(state, RING, {"A": "advance 3 1 2", "B": "advance 5 3 1"}, SURE_WIN)
    assert state.owner[1] == "B"
    assert events_of(turn, "skipped")[0]["reason"] == "S_SOURCE_LOST"


def test_r12_advance_into_a_just_conquered_territory_is_a_move() -> None:
    state = make_state(armies={1: 5, 3: 1, 4: 2})
    turn = play(state, RING, {"A": "advance 5 1 3\nadvance 2 4 3"}, SURE_WIN)
    assert results(turn, "A") == ["attack", "moved"] and state.armies[3] == 7


def test_r13_interleaving_fixed_and_rotate() -> None:
    owners = {1: "A", 2: "A", 3: "B", 4: "B"}
    texts = {"A": "advance 1 1 2\nadvance 1 1 2\ndeploy 1 1\nadvance 1 1 2", "B": "advance 1 3 4\ndeploy 1 3"}
    turn = play(make_state(owners, armies={1: 5, 3: 5}, pools={"A": 1, "B": 1}), RING, texts)
    assert [(e["player"], e["result"]) for e in turn.events] == [
        ("A", "deployed"), ("B", "deployed"), ("A", "moved"), ("B", "moved"), ("A", "moved"), ("A", "moved")]
    rotated = play(make_state(owners, armies={1: 5, 3: 5}, turn=2), RING, texts, rules(move_order="rotate"))
    assert rotated.turn_order == ("B", "A")
    assert [e["player"] for e in rotated.events] == ["B", "A", "A", "A"]


def test_r14_elimination_ends_the_game() -> None:
    state = make_state({1: "A", 2: "A", 3: "B", 4: "A"}, armies={1: 5, 3: 1, 2: 3})
    turn = play(state, RING, {"A": "advance 5 1 3\nadvance 1 2 1", "B": "advance 1 3 4"}, SURE_WIN)
    assert results(turn) == ["attack", "eliminated", "dropped", "game_over"]
    assert turn.events[-1] == {"seq": 4, "event": "game_over", "winner": "A", "reason": "conquest"}
    assert (state.end_reason, state.winner, state.players["B"].eliminated_turn) == ("conquest", "A", 1)
    assert turn.cards_drawn["A"] == () and state.armies[2] == 3
    assert rank_seats(state) == (("A",), ("B",))


@pytest.mark.parametrize(("before", "after"), [(7, 3), (1, 0), (0, 0)])
def test_r15_bomb_halves_rounding_down(before: int, after: int) -> None:
    state = make_state(armies={3: before}, hands={"A": {"bomb": 1}})
    turn = play(state, RING, {"A": "bomb 3"})
    assert events_of(turn, "bombed")[0] == {"seq": 1, "player": "A", "line": 1, "order": "bomb 3",
                                            "result": "bombed", "territory": 3, "owner": "B",
                                            "before": before, "after": after}
    assert state.owner[3] == "B" and state.armies[3] == after


def test_r15_bomb_neutral_and_not_adjacent_at_execution() -> None:
    state = make_state({1: "A", 2: "B", 3: "neutral", 4: "B"}, armies={3: 9}, hands={"A": {"bomb": 1}})
    play(state, RING, {"A": "bomb 3"})
    assert state.armies[3] == 4
    state = make_state({1: "A", 2: "A", 3: "B", 4: "B"}, armies={3: 5}, hands={"A": {"bomb": 1}},
                       play_order=("B", "A"))
    turn = play(state, RING, {"A": "bomb 3", "B": "advance 5 3 1"}, SURE_WIN)
    assert codes(turn, "A") == [] and events_of(turn, "skipped")[0]["reason"] == "S_NOT_ADJACENT"


def test_r16_blockade() -> None:
    state = make_state(armies={1: 4}, hands={"A": {"blockade": 1}})
    turn = play(state, RING, {"A": "blockade 1"})
    assert (state.owner[1], state.armies[1]) == ("neutral", 12)
    assert events_of(turn, "blockaded")[0]["after"] == 12
    state = make_state({1: "A", 2: "B", 3: "B", 4: "B"}, armies={1: 4}, hands={"A": {"blockade": 1}})
    turn = play(state, RING, {"A": "blockade 1"})
    assert results(turn) == ["blockaded", "eliminated", "game_over"] and state.winner == "B"


def test_r17_airlift() -> None:
    state = make_state(armies={1: 6}, hands={"A": {"airlift": 1}})
    play(state, RING, {"A": "airlift 4 1 4"})
    assert (state.armies[1], state.armies[4]) == (2, 4)
    state = make_state(armies={1: 6, 3: 5}, hands={"A": {"airlift": 1}}, play_order=("B", "A"))
    turn = play(state, RING, {"A": "airlift 4 1 4", "B": "advance 5 3 4"}, SURE_WIN)
    assert events_of(turn, "skipped")[0]["reason"] == "S_TARGET_NOT_OWNED"
    assert state.players["A"].hand["airlift"] == 0 and state.deck["airlift"] == 11


def test_r18_negotiate() -> None:
    texts = {"A": "negotiate B", "B": "advance 5 2 1"}
    state = make_state(armies={2: 5}, hands={"A": {"diplomacy": 1}})
    turn = play(state, RING, texts, SURE_WIN)
    assert results(turn) == ["truce", "skipped"] and events_of(turn, "skipped")[0]["reason"] == "S_TRUCE"
    assert events_of(turn, "truce")[0]["with"] == "B"
    state = make_state(armies={2: 5}, hands={"A": {"diplomacy": 1}}, play_order=("B", "A"))
    turn = play(state, RING, texts, SURE_WIN)
    assert results(turn)[:2] == ["attack", "truce"] and state.owner[1] == "B"
    state = make_state(armies={2: 5}, hands={"A": {"diplomacy": 1}})
    play(state, RING, texts, SURE_WIN)
    turn = play(state, RING, {"B": "advance 5 2 1"}, SURE_WIN)
    assert results(turn, "B") == ["attack"]


def test_r19_card_used_once_and_back_in_the_deck() -> None:
    state = make_state({1: "A", 2: "A", 3: "B", 4: "B"}, armies={3: 5}, hands={"A": {"bomb": 1}},
                       play_order=("B", "A"))
    turn = play(state, RING, {"A": "bomb 3\nbomb 3", "B": "advance 5 3 1"}, SURE_WIN)
    assert codes(turn, "A") == ["E_NO_CARD"]
    assert state.players["A"].hand["bomb"] == 0 and state.deck["bomb"] == 11
    assert events_of(turn, "skipped")[0]["reason"] == "S_NOT_ADJACENT"


def test_r20_reinforcement_card_before_deploys() -> None:
    state = make_state(pools={"A": 3}, hands={"A": {"reinforcement": 1}})
    turn = play(state, RING, {"A": "deploy 8 1\nreinforce"})
    assert codes(turn, "A") == [] and results(turn) == ["reinforced", "deployed"]
    assert turn.events[0]["armies"] == 5 and state.players["A"].pool == 0 + 3
    state = make_state(pools={"A": 3})
    turn = play(state, RING, {"A": "deploy 8 1\nreinforce"})
    assert codes(turn, "A") == ["E_POOL", "E_NO_CARD"]


def test_r21_two_conquests_one_card() -> None:
    hexagon = parse_map(ring_map_text(6)).map
    state = make_state({1: "A", 2: "B", 3: "B", 4: "B", 5: "B", 6: "B"}, armies={1: 10})
    turn = play(state, hexagon, {"A": "advance 5 1 2\nadvance 5 1 6"}, SURE_WIN)
    assert results(turn, "A") == ["attack", "attack"] and len(turn.cards_drawn["A"]) == 1


def test_r21_conquest_lost_again_still_earns() -> None:
    state = make_state({1: "A", 2: "B", 3: "B", 4: "B"}, armies={1: 5, 4: 10})
    turn = play(state, RING, {"A": "advance 5 1 3", "B": "advance 10 4 3"}, SURE_WIN)
    assert state.owner[3] == "B"
    assert len(turn.cards_drawn["A"]) == 1 and len(turn.cards_drawn["B"]) == 1


def test_r21_eliminated_player_draws_nothing() -> None:
    state = make_state({1: "A", 2: "B", 3: "C", 4: "B"}, armies={1: 5, 4: 10, 3: 3}, play_order=("A", "B", "C"))
    turn = play(state, RING, {"A": "advance 5 1 2", "B": "advance 10 4 2", "C": "advance 3 3 1"}, SURE_WIN)
    assert state.players["A"].eliminated_turn == 1 and not state.is_over
    assert turn.cards_drawn["A"] == () and len(turn.cards_drawn["B"]) == len(turn.cards_drawn["C"]) == 1


def test_r21_empty_deck_draws_nothing() -> None:
    state = make_state(armies={1: 5})
    state.deck = dict.fromkeys(state.deck, 0)
    before = state.cards_rng.state
    turn = play(state, RING, {"A": "advance 5 1 3"}, SURE_WIN)
    assert state.owner[3] == "A" and turn.cards_drawn["A"] == () and state.cards_rng.state == before


def test_r22_conquering_neutral() -> None:
    state = make_state({1: "A", 2: "B", 3: "neutral", 4: "A"}, armies={1: 11, 3: 12})
    turn = play(state, RING, {"A": "advance 11 1 3"}, SURE_WIN)
    attack = events_of(turn, "attack")[0]
    assert (attack["defender"], attack["defenders_left"], attack["attackers_left"]) == ("neutral", 1, 11)
    assert (state.armies[1], state.armies[3], state.owner[3]) == (11, 1, "neutral")
    state = make_state({1: "A", 2: "B", 3: "neutral", 4: "A"}, armies={1: 12, 3: 12})
    turn = play(state, RING, {"A": "advance 12 1 3"}, SURE_WIN)
    assert (state.owner[3], state.armies[3]) == ("A", 12) and len(turn.cards_drawn["A"]) == 1


def test_r23_turn_limit_and_ranking() -> None:
    state = make_state(armies={1: 9, 2: 3})
    for _ in range(3):
        turn = play(state, RING, {}, rules(max_turns=3))
    assert (state.end_reason, state.winner) == ("max_turns", None)
    assert turn.events[-1] == {"seq": 1, "event": "game_over", "winner": None, "reason": "max_turns"}
    assert rank_seats(state) == (("A",), ("B",))
    tie = make_state()
    assert rank_seats(tie) == (("A", "B"),)


def test_ranking_eliminated_later_is_better() -> None:
    state = make_state({1: "A", 2: "A", 3: "A", 4: "A"}, play_order=("A", "B", "C", "D"))
    state.players["B"].eliminated_turn = 5
    state.players["C"].eliminated_turn = 2
    state.players["D"].eliminated_turn = 5
    assert rank_seats(state) == (("A",), ("B", "D"), ("C",))


def test_r24_one_army_stands_guard() -> None:
    state = make_state({1: "A", 2: "A", 3: "B", 4: "B"}, armies={1: 5})
    turn = play(state, RING, {"A": "advance 5 1 2"}, rules(one_army_stands_guard=True))
    assert events_of(turn, "moved")[0]["armies"] == 4 and state.armies[1] == 1


def test_skipped_no_armies_uses_no_draws() -> None:
    state = make_state(armies={3: 4})
    before = state.battle_rng.state
    turn = play(state, RING, {"A": "advance 3 1 3"})
    assert events_of(turn, "skipped")[0]["reason"] == "S_NO_ARMIES" and state.battle_rng.state == before


def test_negotiate_with_player_gone_during_the_turn() -> None:
    state = make_state({1: "A", 2: "B", 3: "C", 4: "C"}, armies={3: 5}, hands={"B": {"diplomacy": 1}},
                       play_order=("C", "B", "A"))
    turn = play(state, RING, {"C": "advance 5 3 1", "B": "negotiate A"}, SURE_WIN)
    assert events_of(turn, "skipped")[0]["reason"] == "S_PLAYER_GONE"


def test_negotiate_with_an_eliminated_player_is_rejected_at_issue() -> None:
    state = make_state({1: "A", 2: "B", 3: "B", 4: "A"}, hands={"A": {"diplomacy": 1}}, play_order=("A", "B", "C"))
    state.players["C"].eliminated_turn = 1
    turn = play(state, RING, {"A": "negotiate C"})
    assert codes(turn, "A") == ["E_PLAYER_GONE"] and state.players["A"].hand["diplomacy"] == 1

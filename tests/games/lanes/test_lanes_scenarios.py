"""spec 12.2: the hand-computed turn-1 scenarios (P1 recruits and deploys on lane 2, P2 only builds)."""

from __future__ import annotations

from tests.games.lanes.lanes_helpers import play, play_first, watch_lane_2

HP2, MONEY1, MONEY2, SOLDIERS2, TOWER_HP2 = 5, 6, 7, 1, 3  # indexes into a spec 11 step


def scored_at(steps, player_hp_index: int = HP2) -> int | None:
    """The timestep whose cleanup first took HP from the defender."""
    return next((t for t, step in enumerate(steps, start=1) if step[player_hp_index] < 10), None)


def test_a_rifle_walks_one_row_per_timestep_and_scores_at_21() -> None:
    p1 = ["RECRUIT rifle", "DEPLOY rifle 1 3"]
    frames = watch_lane_2(p1, [])
    for t in range(1, 21):
        assert frames[t - 1].soldiers == (("rifle", 3, 20 - t, 3),)
    assert frames[20].soldiers == ()
    result = play_first(p1, [])
    assert scored_at(result.steps) == 21
    assert result.state.players[1].hp == 9
    assert [p.money for p in result.state.players] == [99, 101]


def test_a2_a_rifle_deployed_at_81_never_scores() -> None:
    result = play_first(["RECRUIT rifle", "DEPLOY rifle 81 3"], [])
    assert [p.hp for p in result.state.players] == [10, 10]
    assert [p.money for p in result.state.players] == [99, 101]
    assert result.steps[99][SOLDIERS2] == 1  # still on the lane after t=100, then removed for nothing


def test_a3_a_horse_scores_at_11() -> None:
    result = play_first(["RECRUIT horse", "DEPLOY horse 1 3"], [])
    assert scored_at(result.steps) == 11
    assert [p.money for p in result.state.players] == [98, 101]


def test_b_frost_stun_locks_a_rifle_until_it_dies_at_12() -> None:
    p1, p2 = ["RECRUIT rifle", "DEPLOY rifle 1 3"], ["BUILD frost 4 10"]
    frames = watch_lane_2(p1, p2)
    assert frames[8].soldiers == (("rifle", 3, 11, 3),)
    assert frames[9].soldiers == (("rifle", 3, 11, 2),)
    assert frames[10].soldiers == (("rifle", 3, 11, 1),)
    assert frames[11].soldiers == ()
    result = play_first(p1, p2)
    assert result.steps[10][MONEY2] == 97 and result.steps[11][MONEY2] == 98  # the bounty at t=12
    assert [p.hp for p in result.state.players] == [10, 10]
    assert [p.money for p in result.state.players] == [99, 99]
    assert [t.hp for t in result.state.towers[1]] == [10]


def test_c_a_horse_jumps_a_blockade_and_scores_at_12() -> None:
    p1, p2 = ["RECRUIT horse", "DEPLOY horse 1 3"], ["BUILD blockade 3 10"]
    frames = watch_lane_2(p1, p2)
    assert [f.soldiers[0][2] for f in frames[:11]] == [18, 16, 14, 12, 11, 9, 7, 5, 3, 1, 0]
    result = play_first(p1, p2)
    assert scored_at(result.steps) == 12
    assert [t.hp for t in result.state.towers[1]] == [30]
    assert [p.money for p in result.state.players] == [98, 100]


def test_c2_two_blockades_stop_a_horse_until_one_falls() -> None:
    p1, p2 = ["RECRUIT horse", "DEPLOY horse 1 3"], ["BUILD blockade 3 10", "BUILD blockade 3 9"]
    frames = watch_lane_2(p1, p2)
    assert frames[4].soldiers == (("horse", 3, 11, 3),)
    assert frames[33].towers[0] == ("blockade", 3, 10, 1)
    assert frames[34].towers == (("blockade", 3, 9, 30),)  # destroyed in the cleanup of t=35
    assert [f.soldiers[0][2] for f in frames[35:41]] == [10, 8, 6, 4, 2, 0]
    result = play_first(p1, p2)
    assert result.steps[33][MONEY1] == 97 and result.steps[34][MONEY1] == 98
    assert scored_at(result.steps) == 42
    assert [p.money for p in result.state.players] == [99, 99]


def test_d_a_rocket_hits_the_whole_cell_and_keeps_its_damage() -> None:
    p1, p2 = ["RECRUIT rifle 3", "DEPLOY rifle 1 3 3"], ["BUILD rocket 3 5"]
    frames = watch_lane_2(p1, p2)
    # hit at (3,7) in t=14's tower phase, then they step to row 6; at t=15 they are blocked by the rocket
    assert frames[12].soldiers == (("rifle", 3, 7, 3),) * 3
    assert frames[13].soldiers == (("rifle", 3, 6, 2),) * 3
    assert frames[14].soldiers == (("rifle", 3, 6, 1),) * 3
    assert frames[14].towers == (("rocket", 3, 5, 7),)
    assert frames[15].soldiers == ()
    result = play_first(p1, p2)
    assert result.summary.killed == (3, 0)
    assert [p.money for p in result.state.players] == [95, 101]
    # spec 12.1.11: the damage is carried into turn 2
    assert [t.hp for t in result.state.towers[1]] == [7]
    assert [t.hp for t in play(result.state, [], []).state.towers[1]] == [7]


def test_e_a_bomb_breaks_a_blockade_in_ten_hits_and_scores_at_31() -> None:
    p1, p2 = ["RECRUIT bomb", "DEPLOY bomb 1 3"], ["BUILD blockade 3 10"]
    frames = watch_lane_2(p1, p2)
    assert frames[9].towers == (("blockade", 3, 10, 27),)
    assert frames[17].towers == (("blockade", 3, 10, 3),)
    assert frames[18].towers == ()
    result = play_first(p1, p2)
    assert scored_at(result.steps) == 31
    assert [p.money for p in result.state.players] == [99, 100]
    assert result.state.players[1].hp == 9
    assert result.summary.towers_lost == (0, 1)


def test_f_a_soldier_at_zero_hp_does_not_attack() -> None:
    p1 = ["RECRUIT rifle", "DEPLOY rifle 1 3"]
    p2 = ["BUILD blockade 3 13", "BUILD missile 1 12", "BUILD rocket 5 12"]
    frames = watch_lane_2(p1, p2)
    assert frames[5].soldiers == (("rifle", 3, 14, 3),)
    assert frames[6].soldiers == ()
    result = play_first(p1, p2)
    assert [t.hp for t in result.state.towers[1]] == [30, 10, 10]
    assert [p.money for p in result.state.players] == [99, 95]


def test_g_towers_pick_the_target_nearest_the_goal_row_first() -> None:
    p1, p2 = ["RECRUIT rifle 2", "DEPLOY rifle 1 2", "DEPLOY rifle 2 4"], ["BUILD missile 3 8"]
    frames = watch_lane_2(p1, p2)
    # frames are taken after the soldiers moved: hit at (2,10) in t=11, A then stands on (2,9)
    assert frames[10].soldiers == (("rifle", 2, 9, 1), ("rifle", 4, 10, 3))
    assert frames[11].soldiers == (("rifle", 4, 9, 3),)  # A died at (2,9); B at (4,10) was not chosen
    assert frames[12].soldiers == (("rifle", 4, 8, 1),)
    assert frames[13].soldiers == ()
    result = play_first(p1, p2)
    assert [p.money for p in result.state.players] == [97, 100]


def test_h_fire_stance_shoots_a_tower_beside_the_path() -> None:
    p1, p2 = ["RECRUIT rifle", "DEPLOY rifle 1 3 1 fire"], ["BUILD blockade 5 12"]
    frames = watch_lane_2(p1, p2)
    assert frames[5].soldiers == (("rifle", 3, 14, 3),)
    assert frames[34].soldiers == (("rifle", 3, 14, 3),) and frames[34].towers == (("blockade", 5, 12, 1),)
    assert frames[35].towers == ()
    result = play_first(p1, p2)
    assert scored_at(result.steps) == 51
    assert [p.money for p in result.state.players] == [100, 100]


def test_h2_advance_stance_ignores_it() -> None:
    result = play_first(["RECRUIT rifle", "DEPLOY rifle 1 3 1 advance"], ["BUILD blockade 5 12"])
    assert scored_at(result.steps) == 21
    assert [t.hp for t in result.state.towers[1]] == [30]
    assert [p.money for p in result.state.players] == [99, 100]


def test_i_a_shield_has_range_1_and_breaks_a_blockade() -> None:
    p1, p2 = ["RECRUIT shield", "DEPLOY shield 1 3"], ["BUILD blockade 3 10"]
    frames = watch_lane_2(p1, p2)
    assert frames[8].towers == (("blockade", 3, 10, 30),)
    assert frames[9].towers == (("blockade", 3, 10, 29),)
    assert frames[37].towers == (("blockade", 3, 10, 1),)
    assert frames[38].towers == ()
    result = play_first(p1, p2)
    assert scored_at(result.steps) == 51
    assert [p.money for p in result.state.players] == [100, 100]

"""evaluate(): seeded episodes, seat rotation, forked workers giving the same results, the summary table."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from runner.api import evaluate  # noqa: E402


def builder(observation):
    """Builds whatever the mask allows first in its scan (energy, then attack), never idles when it can act."""
    allowed = np.flatnonzero(observation["action_mask"][1:]) + 1
    preferred = [a for a in allowed if (a - 1) % 6 in (1, 2)]
    return int(preferred[observation["gameDetails"]["round"] % len(preferred)]) if preferred else 0


def idle(observation):
    return 0


def test_a_builder_beats_an_idle_agent_and_the_table_says_so() -> None:
    result = evaluate([builder, idle], "tower-defence", episodes=4, seed=3, rotate=True, max_rounds=120)
    assert [episode.seed for episode in result.episodes] == [3, 4, 5, 6]
    assert [episode.seats for episode in result.episodes] == [{"A": 0, "B": 1}, {"A": 1, "B": 0}] * 2
    top, bottom = result.table
    assert (top.name, top.wins, top.points, top.score) == ("builder", 4, 4.0, 1.0)
    assert (bottom.name, bottom.losses, bottom.points) == ("idle", 4, 0.0)
    for episode in result.episodes:
        winner = episode.outcome["winner"]
        assert episode.points[episode.seats[winner]] == 1.0 and episode.turns > 0
        assert set(episode.standings) == {"A", "B"}
    assert "builder" in result.render().splitlines()[1]


def test_a_draw_gives_half_a_point_each() -> None:
    result = evaluate([idle, idle], "tower-defence", episodes=1, max_rounds=5, names=["one", "two"])
    assert result.episodes[0].outcome["winner"] is None
    assert [(row.name, row.draws, row.points) for row in result.table] == [("one", 1, 0.5), ("two", 1, 0.5)]


def test_workers_give_the_same_results_in_the_same_order() -> None:
    lanes_idle = lambda observation: ""  # noqa: E731  (a lambda: workers are forked, agents never pickled)
    one = evaluate([lanes_idle, lanes_idle], "lanes", episodes=3, seed=1, max_turns=4)
    three = evaluate([lanes_idle, lanes_idle], "lanes", episodes=3, seed=1, workers=3, max_turns=4)
    strip = lambda result: [(e.episode, e.seed, e.outcome, e.turns, e.standings) for e in result.episodes]  # noqa: E731
    assert strip(one) == strip(three) and len(strip(one)) == 3


def test_a_bot_folder_that_writes_nothing_is_no_file_as_in_a_match(tmp_path) -> None:
    """A folder agent's Answer carries the core's `absent` and `detail` as `td-runner match` does: Lanes rules a
    bot that wrote no commands.txt E01 in spec 10.5's words (without them, "" read as an empty file: E03/E04)."""
    import json

    from runner.api.agents import FolderAgent
    from runner.api.core import Episode, make_setup
    from runner.games.interface import Absent

    folder = tmp_path / "silent"
    folder.mkdir()
    (folder / "bot.json").write_text(json.dumps({
        "author": "t", "email": "t@td-runner.invalid", "nickName": "Silent", "botLocation": "/",
        "botFileName": "bot.py", "botLanguage": "python3"}), encoding="utf-8")
    (folder / "bot.py").write_text("pass\n", encoding="utf-8")
    setup = make_setup("lanes", None, None, {"max_turns": 2})
    episode = Episode(setup, 0)
    agent = FolderAgent(setup.game, "P1", folder)
    try:
        agent.start(episode, "P1")
        answer = agent.act()
    finally:
        agent.close()
    assert (answer.text, answer.fault, answer.absent, answer.detail) == ("", None, Absent.NO_FILE, "")
    report = episode.play({"P1": answer, "P2": episode.answer("P2", "")})
    assert report.rejected["P1"] == ("E01 bot wrote no commands.txt",)


def test_a_persistent_bot_folder_over_the_time_budget_is_faulted_as_in_a_match(tmp_path) -> None:
    """Invaders' 15 ms mean per block of 100 answers (spec 18) holds for bot folders in the API too: a folder
    agent that answers in 25 ms gets OVER_BUDGET on turn 100 (its first answer, the start-up, does not count)."""
    import json

    from runner.api.agents import FolderAgent
    from runner.api.core import Episode, make_setup
    from runner.games.interface import Fault

    folder = tmp_path / "slow"
    folder.mkdir()
    (folder / "bot.json").write_text(json.dumps({
        "author": "t", "email": "t@td-runner.invalid", "nickName": "Slow", "botLocation": "/",
        "botFileName": "bot.py", "botLanguage": "python3"}), encoding="utf-8")
    (folder / "bot.py").write_text("import sys, time\nfor line in sys.stdin:\n    time.sleep(0.025)\n"
                                   "    print('null', flush=True)\n", encoding="utf-8")
    setup = make_setup("invaders", None, None, {"max_turns": 200})
    episode = Episode(setup, 0)
    agent = FolderAgent(setup.game, "invader", folder)
    faults = []
    try:
        agent.start(episode, "invader")
        while len(faults) < 101 and episode.session.outcome() is None:
            answer = agent.act()
            faults.append(answer.fault)
            episode.play({"defender": episode.answer("defender", "null"), "invader": answer})
    finally:
        agent.close()
    assert faults[:100] == [None] * 100 and faults[100] is Fault.OVER_BUDGET
    assert any("over the budget" in event["event"] for event in agent.tally.events)


def test_a_bot_folder_asking_for_the_delta_request_gets_it_in_the_api_too(tmp_path) -> None:
    """bot.json "request": "delta" (Invaders' lean request) is sent by the API as by `td-runner match`: a bot
    written for the delta form would otherwise be sent the full state, which it does not read."""
    import json

    from runner.api.agents import FolderAgent
    from runner.api.core import Episode, make_setup

    folder = tmp_path / "lean"
    folder.mkdir()
    (folder / "bot.json").write_text(json.dumps({
        "author": "t", "email": "t@td-runner.invalid", "nickName": "Lean", "botLocation": "/",
        "botFileName": "bot.py", "botLanguage": "python3", "persistent": True, "request": "delta"}), encoding="utf-8")
    # answers null while the line is a delta request, else a line that is no JSON (a fault)
    (folder / "bot.py").write_text("import json, sys\nfor line in sys.stdin:\n"
                                   "    print('null' if 'delta' in json.loads(line) else 'full', flush=True)\n",
                                   encoding="utf-8")
    setup = make_setup("invaders", None, None, {"max_turns": 5, "faults": "ignore"})
    episode = Episode(setup, 0)
    agent = FolderAgent(setup.game, "invader", folder)
    try:
        agent.start(episode, "invader")
        for _ in range(3):
            assert '"delta":' in episode.inputs()["invader"].line and '"state":' in episode.inputs()["defender"].line
            answer = agent.act()
            assert (answer.text, answer.fault) == ("null", None)
            episode.play({"defender": episode.answer("defender", "null"), "invader": answer})
    finally:
        agent.close()

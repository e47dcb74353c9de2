"""A bot trained in-process plays identically as a file-protocol bot (issue 16).

The same Python function plays one seeded match in-process (runner.api) and, wrapped by `write_bot`, as bot
folders through `play_match` with real processes. Tower Defence: every round's state.json of both seats equals
the log's JsonMap.json, every command equals PlayerCommand.txt, and the result is the same. Invaders (a
persistent-only game: one process, one line per turn): every turn's log.jsonl record and the result.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from runner.api import encode, evaluate, write_bot  # noqa: E402
from runner.api.core import Episode, make_setup  # noqa: E402
from runner.bots.limits import Limits  # noqa: E402
from runner.play import play_match  # noqa: E402

AGENTS = Path(__file__).parent / "agents"
ROUNDS = 8
SEED = 7
SLOW_MACHINE = Limits(timeout_ms=20_000)  # a loaded CI machine must not turn a slow start into a time-out


def _load(name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, AGENTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_in_process(game: str, functions: dict, seed: int, **options):
    """Every turn's input files and answers, the records, and the end, as runner.api plays them."""
    setup = make_setup(game, None, None, options)
    episode = Episode(setup, seed)
    session = episode.session
    turns, records = [], []
    from runner.api.core import observation_of

    while session.outcome() is None:
        inputs = session.inputs()
        answers = {seat: episode.answer(seat, functions[seat](observation_of(inputs[seat], setup.actions)))
                   for seat in session.active_seats()}
        turns.append((session.turn, {seat: inputs[seat].files for seat in inputs}, answers))
        report = episode.play(answers)
        records.append(report.record)
    final = (session.turn, {seat: given.files for seat, given in session.inputs().items()})
    return turns, records, final, session.outcome(), session.standings()


def test_tower_defence_in_process_equals_play_match_with_the_wrapped_bots(tmp_path: Path) -> None:
    module = _load("td_agent")
    bot_a = write_bot(tmp_path / "a", AGENTS / "td_agent.py", "tower-defence", nick_name="Mine")
    bot_b = write_bot(tmp_path / "b", AGENTS / "td_agent.py", "tower-defence", function="stubborn",
                      nick_name="Stubborn")
    summary = play_match("tower-defence", [bot_a, bot_b], tmp_path / "match", seed=SEED,
                         options={"max_rounds": ROUNDS}, limits=SLOW_MACHINE)
    turns, _, final, outcome, standings = play_in_process(
        "tower-defence", {"A": module.agent, "B": module.stubborn}, SEED, max_rounds=ROUNDS)

    folders = {"A": "A - Mine", "B": "B - Stubborn"}
    assert len(turns) == summary.rounds == ROUNDS + 1  # rounds 0..ROUNDS
    played_something = 0
    for turn, files, answers in turns:
        for seat, folder in folders.items():
            logged = tmp_path / "match" / f"Round {turn:03d}" / folder
            assert (logged / "JsonMap.json").read_text(encoding="utf-8") == files[seat]["state.json"], (turn, seat)
            assert (logged / "TextMap.txt").read_text(encoding="utf-8") == files[seat]["textMap.txt"], (turn, seat)
            assert (logged / "PlayerCommand.txt").read_text(encoding="utf-8") == answers[seat].text, (turn, seat)
            played_something += answers[seat].text not in ("", "No Command")
    assert played_something > ROUNDS  # the match was not two idle bots
    last = tmp_path / "match" / f"Round {final[0]:03d}"
    for seat, folder in folders.items():
        assert (last / folder / "JsonMap.json").read_text(encoding="utf-8") == final[1][seat]["state.json"]
    assert summary.outcome == outcome
    assert summary.standings == standings
    assert all(tally.timeouts == tally.crashes == 0 for tally in summary.tallies.values())


def test_invaders_in_process_equals_play_match_with_the_wrapped_persistent_bots(tmp_path: Path) -> None:
    module = _load("invaders_agent")
    bot = write_bot(tmp_path / "bot", AGENTS / "invaders_agent.py", "invaders")
    summary = play_match("invaders", [bot, bot], tmp_path / "match", seed=SEED, options={"max_turns": 150},
                         limits=SLOW_MACHINE)
    _, records, _, outcome, standings = play_in_process(
        "invaders", {"defender": module.agent, "invader": module.agent}, SEED, max_turns=150)
    logged = [json.loads(line) for line in (tmp_path / "match" / "log.jsonl").read_text().splitlines()]
    assert len(logged) == len(records) == summary.rounds == 150
    assert logged == json.loads(json.dumps(records))
    assert any(record["ir"] == "applied" for record in records) or any(record["dr"] == "applied" for record in records)
    assert summary.outcome == outcome
    assert summary.standings == standings


def test_evaluate_mixes_a_function_and_its_wrapped_bot_folder_with_the_same_results(tmp_path: Path) -> None:
    """evaluate() with the bot folder in a seat gives the same episode as the function in that seat."""
    module = _load("td_agent")
    folder = write_bot(tmp_path / "bot", AGENTS / "td_agent.py", "tower-defence")
    as_function = evaluate([module.agent, module.stubborn], "tower-defence", episodes=1, seed=SEED,
                           max_rounds=4)
    as_folder = evaluate([folder, module.stubborn], "tower-defence", episodes=1, seed=SEED, max_rounds=4,
                         timeout_ms=SLOW_MACHINE.timeout_ms)
    first, second = as_function.episodes[0], as_folder.episodes[0]
    assert (first.outcome, first.standings, first.turns) == (second.outcome, second.standings, second.turns)
    assert as_folder.table[0].name in ("bot", "stubborn")
    assert encode("0,0,1") == 2  # the stubborn agent's command is an action like any other

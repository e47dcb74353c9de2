"""One fault model for every game (issue 33 item 3): each game of the registry plays a short match of a quiet bot
against a bot that misbehaves once, at its second answer (it crashes, times out, answers garbage or writes
nothing), under each `--faults` setting the game has; match.json's counts and events, the HTML replay's
rulings and markers and the terminal replay must say the same for the same fault in every game.

A per-turn bot counts its runs in a file of its folder; a persistent one counts its request lines. The quiet
bot writes no answer file (per-turn: doing nothing, never a fault nor an invalid answer) or `null`
(persistent); the bot that writes nothing does so at its second answer (a persistent one an empty line).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from runner.bots.outcome import TurnOutcome, TurnStatus
from runner.cli import main
from runner.games import GAMES, get_game
from runner.games.interface import BotMode, Fault, TimeBudget
from runner.match import PlayerTally
from runner.replay.html import build_record

TIMEOUT_MS = 700
GARBAGE = "oops, debug value, 42"  # three fields: Tower Defence refuses it too (one field is its "do nothing")

BOT = """\
import sys, time
from pathlib import Path
MODE, ANSWER, PERSISTENT = {mode!r}, {answer!r}, {persistent!r}
GARBAGE, SLEEP = {garbage!r}, {sleep!r}

def misbehave(call):
    if MODE == "crash" and call == 2:
        print("about to crash", file=sys.stderr, flush=True)
        sys.exit(3)
    if MODE == "timeout" and call == 2:
        time.sleep(SLEEP)

def answer(call):
    if MODE == "garbage" and call == 2:
        return GARBAGE
    return None if MODE == "nothing" and call == 2 or not PERSISTENT else "null"

if PERSISTENT:
    for call, _ in enumerate(sys.stdin, 1):
        misbehave(call)
        text = answer(call)
        print("" if text is None else text, flush=True)
else:
    counter = Path("calls.txt")
    call = int(counter.read_text()) + 1 if counter.exists() else 1
    counter.write_text(str(call))
    misbehave(call)
    text = answer(call)
    if text is not None:
        Path(ANSWER).write_text(text)
"""

MODES = ("crash", "timeout", "garbage", "nothing")


def make_bot(folder: Path, game: Any, mode: str) -> Path:
    persistent = game.default_mode is BotMode.PERSISTENT
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text(BOT.format(mode=mode, answer=game.answer_file.name, persistent=persistent,
                                              garbage=GARBAGE, sleep=TIMEOUT_MS * 1.5 / 1000))
    (folder / "bot.json").write_text(json.dumps({
        "author": mode, "email": "t@example.invalid", "nickName": mode.title(), "botLocation": "/",
        "botFileName": "bot.py", "botLanguage": "python3", "persistent": persistent}))
    return folder


def short_match(game: Any) -> list[str]:
    """The game's option that ends the match after a few turns."""
    for option in game.options:
        if option.dest in ("max_turns", "max_rounds"):
            return [option.flag, "4"]
    return []


def fault_settings(game: Any) -> list[list[str]]:
    """Each `--faults` setting the game has, else the game as it is."""
    option = next((option for option in game.options if option.dest == "faults"), None)
    if option is None or not option.choices:
        return [[]]
    return [[option.flag, choice] for choice in option.choices]


CASES = [(name, mode, setting) for name in GAMES for mode in MODES
         for setting in fault_settings(get_game(name))]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


#: what the misbehaving seat's match.json counts, the same in every game
EXPECTED = {
    "crash": {"timeouts": 0, "crashes": 1, "over_budget": 0, "invalid_commands": 0},
    "timeout": {"timeouts": 1, "crashes": 0, "over_budget": 0, "invalid_commands": 0},
    "garbage": {"timeouts": 0, "crashes": 0, "over_budget": 0, "invalid_commands": 1},
    "nothing": {"timeouts": 0, "crashes": 0, "over_budget": 0, "invalid_commands": 0},
}
QUIET = {"timeouts": 0, "crashes": 0, "over_budget": 0, "invalid_commands": 0}


def counts(player: dict[str, Any]) -> dict[str, int]:
    return {key: player[key] for key in QUIET}


@pytest.mark.parametrize(("name", "mode", "setting"), CASES, ids=[f"{n}-{m}-{'-'.join(s) or 'default'}" for n, m, s in CASES])
def test_one_fault_is_told_once_and_alike_in_every_game(tmp_path: Path, name: str, mode: str, setting: list[str]) -> None:
    game = get_game(name)
    quiet = make_bot(tmp_path / "quiet", game, "quiet")
    faulty = make_bot(tmp_path / mode, game, mode)
    seats = game.seats(game.player_counts[0])
    folders = [faulty] + [quiet] * (len(seats) - 1)
    code, _, err = run("match", "--game", name, *map(str, folders), *short_match(game), *setting,
                       "--timeout-ms", str(TIMEOUT_MS), "--output", str(tmp_path), "--name", "m", "--quiet",
                       "--seed", "3")
    assert code == 0, err
    log = tmp_path / "m"
    match = json.loads((log / "match.json").read_text())
    faulty_player, *others = match["players"]
    expected = dict(EXPECTED[mode])
    if mode == "nothing" and game.default_mode is BotMode.PERSISTENT:
        expected["invalid_commands"] = 1  # an empty line is an answer the game judges (Invaders: not JSON)
    assert counts(faulty_player) == expected, faulty_player
    assert [counts(other) for other in others] == [QUIET] * len(others)
    assert [other["events"] for other in others] == [[]] * len(others)
    faults = [event for event in faulty_player["events"] if "fault" in event]
    wanted = {"crash": ["crash"], "timeout": ["timeout"]}.get(mode, [])
    assert [event["fault"] for event in faults] == wanted, faulty_player["events"]
    if mode == "crash":  # the core's words, whichever way the bot runs
        assert "exit code 3" in faults[0]["event"], faults
    fault_turn = faults[0]["round"] if faults else None

    # the HTML replay's record: the same kind, once, on the faulty seat only
    record, _ = build_record(log)
    kinds = [[ruling[0] for ruling in seat] for seat in record["rulings"]]
    badge = {"crash": "crash", "timeout": "timeout", "garbage": "invalid"}.get(mode)
    if mode == "nothing" and game.default_mode is BotMode.PERSISTENT:
        badge = "invalid"
    if badge is None:
        assert not any(kind in ("crash", "timeout", "invalid") for kind in kinds[0]), kinds
    else:
        marked = [turn for turn, kind in zip(record["turns"], kinds[0]) if kind == badge]
        assert len(marked) == 1, (kinds[0], record["turns"])
        if fault_turn is not None:
            assert marked == [fault_turn]
    for other in kinds[1:]:
        assert not any(kind in ("crash", "timeout", "invalid") for kind in other), kinds
    if mode == "crash":  # the bot's own last words, shown at the turn it crashed (every game's log keeps them)
        crashed = record["turns"].index(fault_turn)
        assert "about to crash" in record["outputs"][0][crashed], record["outputs"][0]
    markers = [marker for marker in record["markers"] if marker[1] in ("crash", "timeout")]
    assert len(markers) == (1 if mode in ("crash", "timeout") else 0), record["markers"]

    word = game.turn_word  # the result line in the game's own word
    assert f" after {match['rounds']} {word}s" in record["result"], record["result"]

    # the terminal replay shows the answer as sent
    turn = record["turns"][1] if len(record["turns"]) > 1 else record["turns"][0]
    code, shown, err = run("replay", str(log), "--round", str(turn), "--no-color")
    assert code == 0, err
    if mode == "garbage":
        assert GARBAGE in shown, shown


def test_a_dead_bot_is_one_crash_however_many_turns_follow() -> None:
    """The tally behind match.json: the death is counted and told once; the game still sees the fault on every
    later turn, and the bot that never answered again is still one that failed every turn after it."""
    tally = PlayerTally()
    died = TurnOutcome(TurnStatus.CRASH, "", 0.01, "Segmentation fault\n", -11, ("the bot process ended",),
                       "was killed by SIGSEGV")
    again = TurnOutcome(TurnStatus.CRASH, "", 0.0, "", -11, (), "was killed by SIGSEGV", None, True)
    answers = [tally.answer(1, died, None)] + [tally.answer(turn, again, None) for turn in range(2, 2502)]
    assert {answer.fault for answer in answers} == {Fault.CRASH}
    assert (tally.crashes, tally.timeouts, tally.turns, tally.failed_every_turn) == (1, 0, 2501, True)
    assert tally.events == [{"round": 1, "fault": "crash", "event": "the bot process ended"}]


def test_an_over_budget_block_is_counted_once_with_one_event() -> None:
    tally, budget = PlayerTally(), TimeBudget(block_turns=3, mean_ms=10.0)
    slow = TurnOutcome(TurnStatus.OK, "null", 0.02, "", None)
    faults = [tally.answer(turn, slow, budget).fault for turn in range(1, 8)]  # the first answer is start-up
    assert faults == [None, None, None, Fault.OVER_BUDGET, None, None, Fault.OVER_BUDGET]
    assert tally.over_budget == 2 and [event["fault"] for event in tally.events] == ["over_budget"] * 2
    assert (tally.timeouts, tally.crashes, tally.failed_every_turn) == (0, 0, False)

"""`diff` of two copies of an official trace, edited: the core's diff reading the official layout, forgiving
what Tower Defence states (missile ids, the key order of any JSON object, the order of the lists that follow the
A/B command order) unless strict."""

from __future__ import annotations

import json
import re
import shutil
import uuid
from pathlib import Path

from runner.games.tower_defence import GAME


def player_dir(log: Path, round_number: int, seat: str) -> Path:
    """The folder of `seat` ("A"/"B") in one round of a copied trace."""
    (match,) = (log / f"Round {round_number:03d}").glob(f"{seat} - *")
    return match


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace `old` by `new` in a log file, failing loudly when `old` is absent."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8", newline="")


def _diff(a: Path, b: Path, *, strict: bool = False) -> tuple[bool, list[str], int | None]:
    check = GAME.diff(a, b, {"strict": strict})
    return check.same, check.data["differences"], check.data["first_turn"]


def _renumber_missile_ids(log: Path) -> int:
    """Give every missile in every JsonMap.json of `log` a fresh id (as a second official run would)."""
    changed = 0
    for path in log.glob("Round */* - */JsonMap.json"):
        text = path.read_text(encoding="utf-8")
        new, count = re.subn(r'"id":"[^"]*"', lambda _: f'"id":"{uuid.uuid4()}"', text)
        path.write_text(new, encoding="utf-8", newline="")
        changed += count
    return changed


def test_identical_logs(log_pair) -> None:
    check = GAME.diff(*log_pair, {"strict": True})
    assert check.same and check.data["turns_a"] == check.data["turns_b"] == 37
    assert check.lines == (f"{log_pair[0]} and {log_pair[1]}: 37 turns, identical",)


def test_missile_ids_are_ignored_unless_strict(log_pair) -> None:
    a, b = log_pair
    assert _renumber_missile_ids(b) > 100
    assert _diff(a, b)[0]
    same, differences, first = _diff(a, b, strict=True)
    assert not same
    assert re.fullmatch(r"turn \d+, seat A, JsonMap.json: \$\.gameMap\[\d\]\[\d+\]\.missiles\[0\]\.id: .*",
                        differences[0]), differences[0]
    assert len({line.split(",")[0] for line in differences}) > 20  # every round with a missile on the board


def test_stats_key_order_is_ignored_even_strict_but_named_as_bytes(log_pair) -> None:
    a, b = log_pair
    edit(player_dir(b, 5, "B") / "JsonMap.json", '{"ENERGY":20,"ATTACK":30,', '{"ATTACK":30,"ENERGY":20,')
    assert _diff(a, b)[0]
    assert _diff(a, b, strict=True) == (False, [
        "turn 5, seat B, JsonMap.json: the same content in other bytes (key order, spacing or encoding)"], 5)


def test_single_changed_field_is_located(log_pair) -> None:
    a, b = log_pair
    edit(player_dir(b, 20, "A") / "JsonMap.json", '"score":383', '"score":384')
    assert _diff(a, b) == (False, ["turn 20, seat A, JsonMap.json: $.players[1].score: 383 != 384"], 20)


def test_text_file_difference_gives_line_and_both_lines(log_pair) -> None:
    a, b = log_pair
    edit(player_dir(b, 20, "A") / "TextMap.txt", "Score : 383", "Score : 384")
    assert _diff(a, b)[1] == ["turn 20, seat A, TextMap.txt: line 35: 'Score : 383' != 'Score : 384'"]


def test_every_differing_round_is_named_the_first_first(log_pair) -> None:
    a, b = log_pair
    (player_dir(b, 5, "B") / "PlayerCommand.txt").write_text("1,1,1")
    edit(player_dir(b, 30, "A") / "Console" / "Console.txt", "Player A", "Player X")
    same, differences, first = _diff(a, b)
    assert (same, first) == (False, 5)
    assert differences[0] == "turn 5, seat B, answer: $.text: '2,6,2' != '1,1,1'"
    assert differences[1].startswith("turn 30, seat A, Console/Console.txt: line 2: ")


def test_list_order_only_differences_are_ignored_unless_strict(log_pair) -> None:
    a, b = log_pair
    folder = player_dir(b, 24, "A")
    state = json.loads((folder / "JsonMap.json").read_text(encoding="utf-8"))
    cell = state["gameMap"][3][7]
    assert len(cell["missiles"]) == 2
    cell["missiles"].reverse()
    (folder / "JsonMap.json").write_text(json.dumps(state, separators=(",", ":")), encoding="utf-8")
    edit(folder / "TextMap.txt", "[14,4] B|ENERGY|-23|5|0|0|3\n[0,4] A|ENERGY|-23|5|0|0|3\n",
         "[0,4] A|ENERGY|-23|5|0|0|3\n[14,4] B|ENERGY|-23|5|0|0|3\n")
    edit(folder / "TextMap.txt", "[15,3] A|5|2\n[13,5] A|5|2\n", "[13,5] A|5|2\n[15,3] A|5|2\n")
    assert _diff(a, b)[0]
    same, differences, first = _diff(a, b, strict=True)
    assert (same, first) == (False, 24)
    assert [line.split(":")[0] for line in differences] == ["turn 24, seat A, JsonMap.json",
                                                             "turn 24, seat A, TextMap.txt"]
    # a changed missile in the same cell is still found, whatever the order
    cell["missiles"][0]["damage"] += 1
    (folder / "JsonMap.json").write_text(json.dumps(state, separators=(",", ":")), encoding="utf-8")
    assert _diff(a, b)[1][0].startswith("turn 24, seat A, JsonMap.json: $.gameMap[3][7].missiles[")


def test_bot_output_is_compared_only_when_strict(log_pair) -> None:
    a, b = log_pair
    edit(player_dir(b, 24, "A") / "Console" / "BotOutput.txt", "round 24", "round 24 (took 13 ms)")
    assert _diff(a, b)[0]
    assert _diff(a, b, strict=True)[1][0].startswith("turn 24, seat A, Console/BotOutput.txt: line ")


def test_the_final_round_is_compared(log_pair) -> None:
    a, b = log_pair
    edit(b / "Round 037" / "endGameState.txt", "score:2616", "score:2617")
    assert _diff(a, b) == (False, [
        "turn 37, endGameState.txt: line 3: 'A - GreedyBot- score:2616 health:100' != "
        "'A - GreedyBot- score:2617 health:100'"], 37)
    shutil.rmtree(b / "Round 037")
    assert _diff(a, b) == (False, ["turn 37, seat A: A - GreedyBot/ in only one log",
                                   "turn 37, seat B: B - RandomBot/ in only one log",
                                   "turn 37: Round 037/ in only one log"], 37)


def test_missing_files_and_folders(log_pair) -> None:
    a, b = log_pair
    (player_dir(b, 10, "B") / "TextMap.txt").unlink()
    shutil.rmtree(player_dir(a, 12, "A"))
    assert _diff(a, b)[1][:2] == ["turn 10, seat B, TextMap.txt: in only one log",
                                  "turn 12, seat A, answer: $.text: '' != '0,5,2'"]
    assert _diff(a, b)[1][2] == "turn 12, seat A: A - GreedyBot/ in only one log"


def test_renamed_players_compare_by_seat(log_pair) -> None:
    a, b = log_pair
    for folder in list(b.glob("Round */A - GreedyBot")):
        folder.rename(folder.with_name("A - Other"))
    assert _diff(a, b)[0]


def test_a_state_that_is_not_json_is_compared_as_text(log_pair) -> None:
    a, b = log_pair
    (player_dir(b, 3, "B") / "JsonMap.json").write_text('{"gameDetails":', encoding="utf-8")
    (line,) = _diff(a, b)[1]
    assert line.startswith("turn 3, seat B, JsonMap.json: line 1: '{\"gameDetails\":{\"round\":3,")
    assert line.endswith("!= '{\"gameDetails\":'")

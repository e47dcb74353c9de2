"""matchlog.diff: round-by-round comparison of two copies of an official trace, edited."""

from __future__ import annotations

import json
import re
import shutil
import uuid
from pathlib import Path

from runner.games.tower_defence.logs.compare import Difference
from runner.games.tower_defence.logs.diff import FileDifference, diff_logs
from runner.games.tower_defence.logs.layout import open_match_log


def player_dir(log: Path, round_number: int, seat: str) -> Path:
    """The folder of `seat` ("A"/"B") in one round of a copied trace."""
    (match,) = (log / f"Round {round_number:03d}").glob(f"{seat} - *")
    return match


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace `old` by `new` in a log file, failing loudly when `old` is absent."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8", newline="")


def _diff(a: Path, b: Path, *, strict: bool = False):
    return diff_logs(open_match_log(a), open_match_log(b), strict=strict)


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
    report = _diff(*log_pair, strict=True)
    assert report.identical
    assert report.rounds_compared == 38
    assert report.differing_rounds == ()
    assert report.first_round == ()


def test_missile_ids_are_ignored_unless_strict(log_pair) -> None:
    a, b = log_pair
    assert _renumber_missile_ids(b) > 100
    assert _diff(a, b).identical
    strict = _diff(a, b, strict=True)
    assert not strict.identical
    first = strict.first_round[0]
    assert (first.player, first.file) == ("A", "JsonMap.json")
    assert first.fields[0].path.startswith("gameMap[") and first.fields[0].path.endswith("].id")
    # every round with a missile on the board differs byte-wise
    assert len(strict.differing_rounds) > 20


def test_stats_key_order_is_ignored_unless_strict(log_pair) -> None:
    a, b = log_pair
    edit(player_dir(b, 5, "B") / "JsonMap.json", '{"ENERGY":20,"ATTACK":30,', '{"ATTACK":30,"ENERGY":20,')
    assert _diff(a, b).identical
    strict = _diff(a, b, strict=True)
    assert strict.differing_rounds == (5,)
    (only,) = strict.first_round
    assert (only.round, only.player, only.file) == (5, "B", "JsonMap.json")
    assert only.fields[0].path.startswith("char ")  # parsed JSON is equal: the text position is reported


def test_single_changed_field_is_located(log_pair) -> None:
    a, b = log_pair
    edit(player_dir(b, 20, "A") / "JsonMap.json", '"score":383', '"score":384')
    report = _diff(a, b)
    assert report.differing_rounds == (20,)
    assert report.first_round == (
        FileDifference(20, "A", "JsonMap.json", fields=(Difference("players[1].score", 383, 384),)),
    )


def test_text_file_difference_gives_line_and_both_lines(log_pair) -> None:
    a, b = log_pair
    edit(player_dir(b, 20, "A") / "TextMap.txt", "Score : 383", "Score : 384")
    (only,) = _diff(a, b).first_round
    assert only == FileDifference(20, "A", "TextMap.txt", fields=(Difference("line 35", "Score : 383", "Score : 384"),))


def test_later_differing_rounds_are_counted_but_only_the_first_detailed(log_pair) -> None:
    a, b = log_pair
    edit(player_dir(b, 5, "B") / "PlayerCommand.txt", "", "1,1,1")
    edit(player_dir(b, 30, "A") / "Console" / "Console.txt", "Player A", "Player X")
    report = _diff(a, b)
    assert report.differing_rounds == (5, 30)
    assert [(d.round, d.player, d.file) for d in report.first_round] == [(5, "B", "PlayerCommand.txt")]


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
    assert _diff(a, b).identical
    strict = _diff(a, b, strict=True)
    assert strict.differing_rounds == (24,)
    assert [d.file for d in strict.first_round] == ["JsonMap.json", "TextMap.txt"]


def test_bot_output_is_compared_only_when_strict(log_pair) -> None:
    a, b = log_pair
    edit(player_dir(b, 24, "A") / "Console" / "BotOutput.txt", "round 24", "round 24 (took 13 ms)")
    assert _diff(a, b).identical
    (only,) = _diff(a, b, strict=True).first_round
    assert (only.round, only.player, only.file) == (24, "A", "Console/BotOutput.txt")


def test_missing_round_folder(log_pair) -> None:
    a, b = log_pair
    shutil.rmtree(b / "Round 037")
    report = _diff(a, b)
    assert report.rounds_compared == 38
    assert report.differing_rounds == (37,)
    assert report.first_round == (FileDifference(37, None, None, missing="B"),)


def test_missing_files_and_folders(log_pair) -> None:
    a, b = log_pair
    (player_dir(b, 10, "B") / "TextMap.txt").unlink()
    shutil.rmtree(player_dir(a, 12, "A"))
    (a / "Round 037" / "endGameState.txt").unlink()
    report = _diff(a, b)
    assert report.differing_rounds == (10, 12, 37)
    assert report.first_round == (FileDifference(10, "B", "TextMap.txt", missing="B"),)
    assert _diff(b, a).first_round == (FileDifference(10, "B", "TextMap.txt", missing="A"),)
    shutil.rmtree(b / "Round 010")
    shutil.rmtree(b / "Round 011")
    report = _diff(a, b)
    assert report.differing_rounds == (10, 11, 12, 37)
    assert report.first_round == (FileDifference(10, None, None, missing="B"),)


def test_missing_player_folder_and_end_state_detail(log_pair) -> None:
    a, b = log_pair
    shutil.rmtree(player_dir(a, 12, "A"))
    (a / "Round 037" / "endGameState.txt").unlink()
    assert _diff(a, b).first_round == (FileDifference(12, "A", None, missing="A"),)
    for number in range(12, 13):
        shutil.rmtree(player_dir(b, number, "A"))
    assert _diff(a, b).first_round == (FileDifference(37, None, "endGameState.txt", missing="A"),)


def test_renamed_players_give_a_note(log_pair) -> None:
    a, b = log_pair
    for folder in list(b.glob("Round */A - GreedyBot")):
        folder.rename(folder.with_name("A - Other"))
    report = _diff(a, b)
    assert report.notes == ("player A folders are named differently: 'A - GreedyBot' vs 'A - Other'",)
    # seats are matched by letter, so the files still compare equal
    assert report.identical


def test_a_state_that_is_not_json_is_compared_as_text(log_pair) -> None:
    a, b = log_pair
    (player_dir(b, 3, "B") / "JsonMap.json").write_text('{"gameDetails":', encoding="utf-8")
    (only,) = _diff(a, b).first_round
    assert (only.round, only.player, only.file) == (3, "B", "JsonMap.json")
    assert only.fields[0].path == "char 15"
    # snippets start up to 20 characters before the difference
    assert only.fields[0].expected.startswith('{"gameDetails":{"round":3,')
    assert only.fields[0].actual == '{"gameDetails":'

"""`td-runner replay` in-process: one round rendered as plain text, play-through, bad input."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from rich.console import Console

from runner.cli import main
from runner.games.tower_defence.replay_view import CURTAIN, STYLE, render_map_row

TRACE = "gr-g1-vs-r11"  # A - GreedyBot vs B - RandomBot, rounds 0..37


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["replay", *argv], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_one_round(conformance_root: Path) -> None:
    """The core's replay (runner/logtools/replay.py) with Tower Defence's view: the console map of the round's
    start, each player's line under its folder name with its hits taken, then each answer and its ruling."""
    log = conformance_root / TRACE
    code, out, err = _run(str(log), "--round", "16")
    assert (code, err) == (0, "")
    assert "\x1b[" not in out  # no colours when not printing to a terminal
    console = (log / "Round 016" / "A - GreedyBot" / "Console" / "Console.txt").read_text().split("\n")[3:11]
    assert out.split("\n") == [
        "round 16",
        "A - GreedyBot, Health=100, Energy=    39, Score=   305, IronCurtainAvailable= No, HitsTaken=0",
        "B - RandomBot, Health=100, Energy=    40, Score=   272, IronCurtainAvailable= No, HitsTaken=0",
        *console,
        "A: 7,1,0 -> accepted",
        "B: 2147483648,2,1 -> refused: Player B: Unable to parse command entries, all parameters should be integers. "
        "Received:2147483648,2,1",
        "",
    ]
    assert console[1] == "[0E1][1 1][2 1][3 1][4 1][5A1][6 1][7 1][7 1][6 >][5 1][4a1][3 1][2 1][1 1][0E1]"


def test_final_round_curtain_and_bot_output(conformance_root: Path) -> None:
    log = str(conformance_root / TRACE)
    code, out, _ = _run(log, "--round", "37")
    assert code == 0
    lines = out.split("\n")
    assert lines[:3] == [
        "round 37 (final state)",  # endGameState.txt's winner, scores and health, as the replay reached them
        "A - GreedyBot, Health=100, Energy=    48, Score=  2616, IronCurtainAvailable= Yes, HitsTaken=0",
        "B - RandomBot, Health=  0, Energy=    45, Score=   665, IronCurtainAvailable= Yes, HitsTaken=20",
    ]
    assert lines[-2:] == ["end: health, winner A", ""]
    _, out, _ = _run(log, "--round", "0", "--player", "a")
    assert "[0 0][1 0][2 0][3 0][4 0][5 0][6 0][7 0] \\ / [7 0][6 0]" in out  # both curtains active at round 0
    assert "A: 0,4,2 -> accepted\nB: 1,4,2 -> accepted\n" in out
    assert "--- A bot output ---\nround 0 energy 20:" in out


def test_play_through_without_a_terminal(conformance_root: Path) -> None:
    code, out, _ = _run(str(conformance_root / TRACE))
    assert code == 0
    headers = [line for line in out.split("\n") if line.startswith("round ")]
    assert headers == [f"round {n}" for n in range(37)] + ["round 37 (final state)"]


def test_a_log_that_stops_and_one_the_replay_parts_from(conformance_root: Path, tmp_path: Path) -> None:
    """A log without its end says so; where the log's view is not the replay's, every round from there on says
    which file differs first."""
    code, out, _ = _run(str(conformance_root / "crash-comma-vs-r17"), "--round", "12")
    assert code == 0  # the official engine crashed on A's ',' here; ours refuses it
    assert "A: , -> refused: Player A: Unable to parse command expected 3 parameters, got 0" in out
    assert _run(str(conformance_root / "crash-comma-vs-r17"), "--round", "13")[1].endswith(
        "\nthe log stops here: the match was not over\n")
    log = shutil.copytree(conformance_root / TRACE, tmp_path / "log")
    view = log / "Round 010" / "B - RandomBot" / "Console" / "Console.txt"
    view.write_text(view.read_text().replace("Score=   135", "Score=   136", 1))
    assert "warning" not in _run(str(log), "--round", "9")[1]
    warned = [line for line in _run(str(log), "--round", "30")[1].split("\n") if line.startswith("warning")]
    assert warned == ["warning: the replay differs from the log from round 10 on, so what is shown is the "
                      "replay's (Round 010/B - RandomBot/Console/Console.txt: line 3: 'Player B, Health=100, Energy="
                      "    23, Score=   136, IronCurtainAvailable= No' != 'Player B, Health=100, Energy=    23, "
                      "Score=   135, IronCurtainAvailable= No'; `td-runner verify` lists all)"]


def test_bad_input(conformance_root: Path, tmp_path: Path) -> None:
    log = str(conformance_root / TRACE)
    code, out, err = _run(log, "--round", "38")
    assert (code, out) == (2, "")
    assert err == f"error: {log}: no round 38 (the log has rounds 0..37)\n"
    code, _, err = _run(str(tmp_path))
    assert code == 2 and "not a match log: no 'Round NNN' folders" in err
    assert _run(log, "--speed", "-1")[0] == 2
    assert _run(log, "--player", "C")[0] == 2


def test_map_colours() -> None:
    row = render_map_row("[0E0][1 >][2 0][3 0] \\ / [3 0][<a0][1 0][0T0]")
    styles = {row.plain[span.start : span.end]: str(span.style) for span in row.spans if span.end - span.start == 1}
    assert styles["E"] == STYLE["A"] and styles[">"] == STYLE["A"]
    assert styles["<"] == STYLE["B"] and styles["T"] == STYLE["B"]
    assert "italic" in styles["a"]  # not yet constructed
    assert styles["\\"] == CURTAIN
    console = Console(file=io.StringIO(), force_terminal=True, color_system="standard")
    console.print(row, soft_wrap=True)
    assert "\x1b[" in console.file.getvalue()

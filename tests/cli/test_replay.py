"""`td-runner replay` in-process: one round rendered as plain text, play-through, bad input."""

from __future__ import annotations

import io
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
    log = conformance_root / TRACE
    code, out, err = _run(str(log), "--round", "16")
    assert (code, err) == (0, "")
    assert "\x1b[" not in out  # no colours when not printing to a terminal
    console = (log / "Round 016" / "A - GreedyBot" / "Console" / "Console.txt").read_text().split("\n")[3:11]
    assert out.split("\n") == [
        "Round 016 of 037",
        "A - GreedyBot  health 100  energy    39  score    305  hits taken   0  iron curtain -",
        "B - RandomBot  health 100  energy    40  score    272  hits taken   0  iron curtain -",
        *console,
        "commands:",
        "  A - GreedyBot  7,1,0",
        "  B - RandomBot  2147483648,2,1",
        "errors:",
        "  Player B: Unable to parse command entries, all parameters should be integers. Received:2147483648,2,1",
        "",
    ]
    assert console[1] == "[0E1][1 1][2 1][3 1][4 1][5A1][6 1][7 1][7 1][6 >][5 1][4a1][3 1][2 1][1 1][0E1]"


def test_final_round_curtain_and_bot_output(conformance_root: Path) -> None:
    log = str(conformance_root / TRACE)
    code, out, _ = _run(log, "--round", "37")
    assert code == 0
    assert out.split("\n")[-5:] == [
        "final state; game over:",
        "  The winner is: A - GreedyBot",
        "  A - GreedyBot- score:2616 health:100",
        "  B - RandomBot- score:665 health:0",
        "",
    ]
    _, out, _ = _run(log, "--round", "0", "--player", "a")
    assert "[0 0][1 0][2 0][3 0][4 0][5 0][6 0][7 0] \\ / [7 0][6 0]" in out  # both curtains active at round 0
    assert "iron curtain active" in out and "errors: none" in out
    assert "bot output of A - GreedyBot:\n  round 0 energy 20:" in out


def test_play_through_without_a_terminal(conformance_root: Path) -> None:
    code, out, _ = _run(str(conformance_root / TRACE))
    assert code == 0
    headers = [line for line in out.split("\n") if line.startswith("Round ")]
    assert headers == [f"Round {n:03d} of 037" for n in range(38)]


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

"""`td-runner match` end to end with real bot processes: logs, match.json, determinism, misbehaving bots."""

from __future__ import annotations

import filecmp
import io
import json
import shutil
from pathlib import Path

import pytest

from runner import schemas
from runner.cli import main

HERE = Path(__file__).parent
REPO = HERE.parent.parent


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    """A private copy of the test bots: bots get state files written into their folders."""
    return Path(shutil.copytree(HERE / "bots", tmp_path / "bots"))


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def play(tmp_path: Path, a: Path | str, b: Path | str, *extra: str, name: str = "m") -> tuple[int, str, str, Path]:
    code, out, err = run_cli("match", str(a), str(b), "--output", str(tmp_path), "--name", name, "--quiet", *extra)
    return code, out, err, tmp_path / name


def read_match_json(folder: Path) -> dict:
    data = json.loads((folder / "match.json").read_text())
    assert schemas.check_schema("match", data) == []
    return data


def same_tree(left: Path, right: Path, skip: set[str]) -> list[str]:
    """Relative paths whose bytes differ between two folders (or exist on one side only)."""
    differences = []
    for path in sorted(left.rglob("*")):
        relative = path.relative_to(left)
        if path.is_dir() or relative.name in skip:
            continue
        other = right / relative
        if not other.is_file() or not filecmp.cmp(path, other, shallow=False):
            differences.append(str(relative))
    right_files = {p.relative_to(right) for p in right.rglob("*") if p.is_file() and p.name not in skip}
    differences += [str(p) for p in right_files if not (left / p).is_file()]
    return differences


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_python_vs_javascript_log_verifies_and_repeats(tmp_path: Path) -> None:
    a = shutil.copytree(REPO / "starter-bots" / "python3", tmp_path / "python3")
    b = shutil.copytree(REPO / "starter-bots" / "javascript", tmp_path / "javascript")
    code, out, _, first = play(tmp_path, a, b, "--seed", "7", "--max-rounds", "40", name="one")
    assert code == 0, out
    assert out.count("\n") == 1 and "after" in out  # --quiet: the result line only
    summary = read_match_json(first)
    assert [p["language"] for p in summary["players"]] == ["python3", "javascript"]
    final_round = max(int(p.name.split()[1]) for p in first.glob("Round *"))
    assert summary["seed"] == 7 and summary["rounds"] == final_round
    assert (first / f"Round {final_round:03d}" / "endGameState.txt").is_file()
    assert all(p["crashes"] == 0 and p["timeouts"] == 0 for p in summary["players"])
    code, verify_out, _ = run_cli("verify", str(first), "--json")
    assert code == 0, verify_out
    code, _, _, second = play(tmp_path, a, b, "--seed", "7", "--max-rounds", "40", name="two")
    assert code == 0
    assert same_tree(first, second, skip={"match.json", "record.jsonl"}) == []  # both keep answer times


def test_misbehaving_bots_are_counted_and_the_match_goes_on(tmp_path: Path, bots: Path) -> None:
    code, _, _, folder = play(tmp_path, bots / "crasher", bots / "garbage", "--max-rounds", "3")
    assert code == 0
    summary = read_match_json(folder)
    crasher, garbage = summary["players"]
    # it writes 0,0,2 then crashes, every round: four crashes, and a crashed turn is not also an invalid command
    # (the one fault model: the game still plays the command, which builds once, then finds the cell occupied)
    assert crasher["crashes"] == 4 and crasher["invalid_commands"] == 0
    assert any("exit code 3" in e["event"] for e in crasher["events"])
    assert garbage["crashes"] == 0 and garbage["invalid_commands"] == 4
    assert summary["rounds"] == 4 and summary["end_reason"] == "max_rounds"
    bot_output = (folder / "Round 000" / "A - CrasherBot" / "Console" / "BotOutput.txt").read_text()
    assert "about to fail" in bot_output and "[td-runner]" in bot_output
    command = (folder / "Round 001" / "B - GarbageBot" / "PlayerCommand.txt").read_text(encoding="utf-8")
    assert "garbage, not a command" in command
    assert run_cli("verify", str(folder))[0] == 0


def test_silent_and_hanging_bots(tmp_path: Path, bots: Path) -> None:
    code, _, _, folder = play(tmp_path, bots / "idle", bots / "sleeper", "--max-rounds", "1", "--timeout-ms", "1000")
    assert code == 0
    idle, sleeper = read_match_json(folder)["players"]
    assert idle["timeouts"] == idle["crashes"] == idle["invalid_commands"] == 0
    assert sleeper["timeouts"] == 2 and sleeper["bot_seconds"] < 5
    assert (folder / "Round 001" / "A - IdleBot" / "PlayerCommand.txt").read_text() == ""
    assert run_cli("verify", str(folder))[0] == 0


def test_same_folder_for_both_seats_takes_turns(tmp_path: Path, bots: Path) -> None:
    code, _, _, folder = play(tmp_path, bots / "echo", bots / "echo", "--max-rounds", "3")
    assert code == 0
    a, b = read_match_json(folder)["players"]
    assert a["invalid_commands"] == b["invalid_commands"] == 0
    assert (folder / "Round 000" / "B - EchoBot" / "PlayerCommand.txt").read_text() == "0,0,2"
    assert (folder / "Round 003" / "B - EchoBot" / "PlayerCommand.txt").read_text() == "1,0,2"
    assert run_cli("verify", str(folder))[0] == 0


def write_bot(folder: Path, **fields: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = {"author": "t", "email": "t@example.invalid", "nickName": "T", "botLocation": "/",
            "botFileName": "bot.py", "botLanguage": "python3", **fields}
    (folder / "bot.json").write_text(json.dumps(data))
    (folder / "bot.py").write_text("")
    return folder


@pytest.mark.parametrize(
    "case, expected",
    [
        ("missing folder", "no-such-bot"),
        ("missing bot.json", "bot.json"),
        ("invalid bot.json", "bot.json"),
        ("unknown language", "cobol"),
        ("missing executable", "nosuchprogram"),
    ],
)
def test_bad_bot_input_is_one_line_exit_2(tmp_path: Path, case: str, expected: str) -> None:
    good = write_bot(tmp_path / "good")
    bad = tmp_path / "no-such-bot"
    if case == "missing bot.json":
        bad.mkdir()
    elif case == "invalid bot.json":
        bad.mkdir()
        (bad / "bot.json").write_text("{not json")
    elif case == "unknown language":
        write_bot(bad, botLanguage="cobol")
    elif case == "missing executable":
        write_bot(bad, botLanguage="custom", command=["nosuchprogram", "bot.py"])
    code, out, err, folder = play(tmp_path / "out", good, bad)
    assert code == 2, err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
    assert expected in err
    assert not folder.exists()  # nothing started


def test_unreadable_game_config_is_exit_2(tmp_path: Path) -> None:
    good = write_bot(tmp_path / "good")
    config = tmp_path / "rules.json"
    config.write_text('{"mapWidth": 16}')
    code, _, err, _ = play(tmp_path / "out", good, good, "--game-config", str(config))
    assert code == 2 and "rules.json" in err and len(err.strip().splitlines()) == 1
    code, _, err, _ = play(tmp_path / "out", good, good, "--game-config", str(tmp_path / "absent.properties"))
    assert code == 2 and "absent.properties" in err


def test_existing_match_folder_is_refused(tmp_path: Path) -> None:
    good = write_bot(tmp_path / "good")
    (tmp_path / "out" / "m").mkdir(parents=True)
    code, _, err, _ = play(tmp_path / "out", good, good)
    assert code == 2 and "already exists" in err


def test_wrong_number_of_players_is_exit_2(tmp_path: Path) -> None:
    code, _, err = run_cli("match", str(tmp_path))
    assert code == 2 and "two players" in err


def test_console_player_reads_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = write_bot(tmp_path / "good")
    monkeypatch.setattr("sys.stdin", io.StringIO("0,0,2\n1,1,2\n"))
    code, out, _, folder = play(tmp_path / "out", "console", good, "--max-rounds", "3")
    assert code == 0
    assert (folder / "Round 000" / "A - Console" / "PlayerCommand.txt").read_text() == "0,0,2"
    assert (folder / "Round 002" / "A - Console" / "PlayerCommand.txt").read_text() == ""  # stdin closed
    assert "Player A, Health=100" in out


def test_tournament_mode_is_refused_with_a_reason(tmp_path: Path) -> None:
    config = tmp_path / "game-runner-config.json"
    config.write_text(json.dumps({"is-tournament-mode": True}))
    code, _, err = run_cli("match", "--config", str(config))
    assert code == 2 and "is-tournament-mode" in err and len(err.strip().splitlines()) == 1


def test_verbose_mode_prints_each_rounds_errors(tmp_path: Path, bots: Path) -> None:
    code, out, _ = run_cli("match", str(bots / "garbage"), str(bots / "idle"), "--output", str(tmp_path),
                           "--name", "v", "--max-rounds", "1", "--verbose")
    assert code == 0
    assert "round 0: Player A: Unable to parse command" in out
    assert "errors []" not in out  # a round without errors prints nothing
    assert "winner" in out or "tie" in out


@pytest.mark.parametrize(("signal_name", "exit_code", "word"), [("SIGINT", 130, "interrupted"),
                                                               ("SIGTERM", 143, "terminated")])
def test_ctrl_c_or_sigterm_keeps_the_played_rounds(tmp_path: Path, bots: Path, signal_name: str, exit_code: int,
                                                   word: str) -> None:
    """Ctrl-C (130) and SIGTERM (143: `timeout`, `docker stop`, a CI cancel) both end the match cleanly."""
    import signal
    import subprocess
    import sys
    import time

    slow = bots / "slow"
    slow.mkdir()
    (slow / "bot.json").write_text((bots / "echo" / "bot.json").read_text().replace("EchoBot", "SlowBot"))
    (slow / "bot.py").write_text("import time\ntime.sleep(0.2)\nopen('command.txt', 'w').write('0,0,2')\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "runner", "match", str(slow), str(bots / "idle"), "--output", str(tmp_path),
         "--name", "ctrl-c", "--quiet"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    folder = tmp_path / "ctrl-c"
    deadline = time.monotonic() + 30
    while not (folder / "Round 003").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(getattr(signal, signal_name))
    _, err = process.communicate(timeout=30)
    assert process.returncode == exit_code, err
    summary = read_match_json(folder)
    assert summary["end_reason"] == "interrupted" and summary["winner"] is None
    played = summary["rounds"]
    assert played >= 3 and all((folder / f"Round {n:03d}" / "A - SlowBot" / "PlayerCommand.txt").is_file()
                               for n in range(played))
    assert err.startswith(f"{word}: the log of the {played} rounds played is in ")


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed")
def test_sandboxed_match_hides_the_opponent(tmp_path: Path, bots: Path) -> None:
    spy = bots / "spy"
    spy.mkdir()
    (spy / "bot.json").write_text((bots / "echo" / "bot.json").read_text().replace("EchoBot", "SpyBot"))
    (spy / "bot.py").write_text(
        "import os, sys\n"
        f"print('opponent visible' if os.path.exists({str(bots / 'echo' / 'state.json')!r}) else 'opponent hidden')\n"
        f"print('log visible' if os.path.exists({str(tmp_path / 'out' / 'sb' / 'game-config.json')!r}) else 'log hidden')\n"
    )
    code, _, err, folder = play(tmp_path / "out", spy, bots / "echo", "--max-rounds", "1", "--sandbox", name="sb")
    assert code == 0, err
    output = (folder / "Round 001" / "A - SpyBot" / "Console" / "BotOutput.txt").read_text()
    assert "opponent hidden" in output and "log hidden" in output
    assert run_cli("verify", str(folder))[0] == 0


@pytest.mark.parametrize("output", ["/proc/td-runner-cannot-be-here", "/etc/passwd"])
def test_unwritable_output_folder_is_one_line_exit_2(tmp_path: Path, output: str) -> None:
    good = write_bot(tmp_path / "good")
    code, _, err, _ = play(Path(output), good, good, "--max-rounds", "1")
    assert code == 2, err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1 and "match folder" in err


def test_log_write_failure_mid_match_is_one_line_exit_2(tmp_path: Path, bots: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from runner.matchlog.writer import LogWriteError, MatchLogWriter

    original = MatchLogWriter.write_round

    def failing(self, turn_folder, files, turn_files=None):
        if turn_folder == "Round 002":
            raise LogWriteError(f"{self.folder}/Round 002: cannot write the match log: No space left on device")
        original(self, turn_folder, files, turn_files)

    monkeypatch.setattr(MatchLogWriter, "write_round", failing)
    code, _, err, folder = play(tmp_path, bots / "idle", bots / "idle", "--max-rounds", "5")
    assert code == 2 and err.startswith("error: ") and "No space left" in err
    assert len(err.strip().splitlines()) == 1
    assert (folder / "Round 001").is_dir()  # the rounds written before the failure stay


def test_a_missing_bot_folder_of_the_runner_config_names_the_key(tmp_path: Path) -> None:
    config = tmp_path / "game-runner-config.json"
    config.write_text(json.dumps({"player-a": "nowhere", "player-b": str(REPO / "starter-bots" / "reference")}))
    code, _, err = run_cli("match", "--config", str(config), "--output", str(tmp_path))
    assert code == 2 and err == f"error: {config}: player-a: bot folder {tmp_path / 'nowhere'} does not exist\n"


def test_default_match_folders_never_collide(tmp_path: Path, bots: Path) -> None:
    """Back-to-back matches in the same second get distinct folders (`-2`, `-3`, ...)."""
    for _ in range(3):
        code, _, err = run_cli("match", str(bots / "idle"), str(bots / "idle"), "--output", str(tmp_path / "out"),
                               "--max-rounds", "0", "--quiet")
        assert code == 0, err
    made = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert len(made) == 3 and len(set(made)) == 3
    # (each name is the start second, `-2`, `-3` added when taken; a loaded machine may need 3 seconds for the
    # 3 matches, so the seconds themselves are not compared: that failed under load)


def test_a_bot_that_crashes_every_round_is_named_in_the_result_and_on_stderr(tmp_path: Path, bots: Path) -> None:
    code, out, err = run_cli("match", str(bots / "crasher"), str(bots / "idle"), "--output", str(tmp_path),
                             "--name", "c", "--max-rounds", "2")
    assert code == 0
    assert "never answered: A - CrasherBot" in out.splitlines()[-1]
    assert err.startswith("warning: A - CrasherBot never answered in 3 rounds (last: exit code ")  # the game's word


def test_a_nickname_with_a_slash_plays_and_verifies(tmp_path: Path) -> None:
    """A bot.json nickName such as `A/B` is a valid string but no file name: the log folder spells it `A_B`."""
    repo = Path(__file__).resolve().parents[2]
    bot = tmp_path / "slash"
    shutil.copytree(repo / "starter-bots" / "python3", bot)
    data = json.loads((bot / "bot.json").read_text())
    data["nickName"] = "A/B"
    (bot / "bot.json").write_text(json.dumps(data))
    out = tmp_path / "out"
    assert main(["match", str(bot), str(repo / "starter-bots" / "reference"), "--max-rounds", "2",
                 "--output", str(out), "--name", "m", "--quiet"], io.StringIO(), io.StringIO()) == 0
    assert (out / "m" / "Round 001" / "A - A_B").is_dir()
    assert main(["verify", str(out / "m")], io.StringIO(), io.StringIO()) == 0

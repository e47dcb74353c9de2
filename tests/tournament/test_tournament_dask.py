"""The same tournament on a Dask LocalCluster (of threads, and `--dask local`'s processes) and on a `dask
scheduler` + `dask worker` started here gives the same outcomes as the local pool; `--match-timeout` ends a
match inside its Dask task; bad addresses are one error line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.tournament import dask_backend
from runner.tournament.dask_backend import LOCAL, DaskBackend, DaskConnection
from runner.tournament.run import TournamentSettings, claim_folder, prepare, run_tournament
from tournament_helpers import SLOW_BOT, games, run_cli, write_bot

pytest.importorskip("distributed", reason="the Dask tests need the distributed package (td-runner[dask])")

TD = ("--max-rounds", "3")


def outcomes(folder: Path) -> dict[str, tuple]:
    return {line["match"]: (line["seed"], line["ranking"], [s["bot"] for s in line["seats"]]) for line in games(folder)}


@pytest.fixture
def local_run(td_bots: list[str], tmp_path: Path) -> dict[str, tuple]:
    code, _, stderr = run_cli("tournament", *td_bots[:2], *TD, "--games-per-pair", "2",
                              "--output", str(tmp_path / "local"))
    assert code == 0, stderr
    return outcomes(tmp_path / "local")


def check_logs(folder: Path) -> None:
    for line in games(folder):
        summary = json.loads((folder / line["log"] / "match.json").read_text())
        assert summary["ranking"] == line["ranking"] and (folder / line["log"] / "game-config.json").is_file()


class Quiet:
    def started(self, total: int, done: int, workers: int) -> None:
        self.total = total

    def finished(self, record, done: int, total: int) -> None:
        pass

    def failed(self, match_id: str, problem: str) -> None:
        raise AssertionError(problem)


def test_dask_local_cluster(td_bots: list[str], tmp_path: Path, local_run: dict) -> None:
    """A LocalCluster of threads (processes=False keeps the test fast; `--dask local` uses processes)."""
    out = tmp_path / "dask"
    settings = claim_folder(out, TournamentSettings(game="tower-defence", bots=tuple(td_bots[:2]),
                                                    games_per_pair=2, options={"max_rounds": 3}))
    with DaskConnection(LOCAL, 2, processes=False) as connection:
        run_tournament(prepare(settings), out, lambda dirs: DaskBackend(connection, dirs), Quiet())
    assert outcomes(out) == local_run
    check_logs(out)


def test_dask_local_from_the_command_line(td_bots: list[str], tmp_path: Path, local_run: dict) -> None:
    """`--dask local --workers 2`: a LocalCluster of two worker processes, started and closed by the command."""
    out = tmp_path / "dask"
    code, stdout, stderr = run_cli("tournament", *td_bots[:2], *TD, "--games-per-pair", "2", "--dask", "local",
                                   "--workers", "2", "--output", str(out))
    assert (code, stderr) == (0, ""), stderr
    assert "4 matches, 0 already played, 4 to play (2 at once)" in stdout and "[4/4]" in stdout
    assert outcomes(out) == local_run
    check_logs(out)
    assert json.loads((out / "standings.json").read_text()) == json.loads(
        (out.parent / "local" / "standings.json").read_text())


def test_match_timeout_inside_a_dask_task(td_bots: list[str], tmp_path: Path) -> None:
    """The task ends its own match at the deadline (a running Dask task cannot be cancelled from outside);
    the unfinished record and the log cut at that turn come back as from the local pool."""
    slow = write_bot(tmp_path / "bots" / "slow", "Slow", SLOW_BOT)
    out = tmp_path / "dask"
    settings = claim_folder(out, TournamentSettings(game="tower-defence", bots=(td_bots[1], slow),
                                                    options={"max_rounds": 30}, timeout_ms=10_000,
                                                    match_timeout_s=1))
    with DaskConnection(LOCAL, 2, processes=False) as connection:
        run_tournament(prepare(settings), out, lambda dirs: DaskBackend(connection, dirs), Quiet())
    lines = games(out)
    assert len(lines) == 2
    for line in lines:
        assert (line["end_reason"], line["ranking"], line["winner"]) == ("match_timeout", [], None)
        assert 1 <= line["rounds"] <= 4 and line["unfinished"].startswith("stopped at the match time limit of 1 s")
        assert json.loads((out / line["log"] / "match.json").read_text())["rounds"] == line["rounds"]


def test_dask_scheduler_and_worker_processes(td_bots: list[str], tmp_path: Path, local_run: dict) -> None:
    dask = shutil.which("dask") or str(Path(sys.executable).parent / "dask")
    scheduler_file = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                  "--scheduler-file", str(scheduler_file)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        deadline = time.monotonic() + 60
        address = None
        while address is None and time.monotonic() < deadline:  # the file may exist before it is written
            time.sleep(0.2)
            try:
                address = json.loads(scheduler_file.read_text())["address"]
            except (OSError, ValueError, KeyError):
                pass
        assert address, "the dask scheduler did not write its address within 60 s"
        worker = subprocess.Popen([dask, "worker", address, "--nthreads", "2", "--nworkers", "1",
                                   "--no-dashboard", "--host", "127.0.0.1"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = tmp_path / "cluster"
        code, stdout, stderr = run_cli("tournament", *td_bots[:2], *TD, "--games-per-pair", "2", "--dask", address, "--output", str(out))
        assert code == 0, stderr
        assert "on the Dask cluster" in stdout
        assert outcomes(out) == local_run
        check_logs(out)
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.terminate()
                process.wait(timeout=30)


def test_unreachable_scheduler_is_one_line(td_bots: list[str], tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", "1s")  # a refused connection is retried until then
    code, stdout, stderr = run_cli("tournament", *td_bots[:2], *TD, "--dask", "tcp://127.0.0.1:1",
                                   "--output", str(tmp_path / "t"))
    assert code == 2 and stderr.startswith("error: --dask tcp://127.0.0.1:1: cannot reach") and stderr.count("\n") == 1
    assert stdout == "" and not (tmp_path / "t").exists()  # refused before anything is announced or written


@pytest.mark.parametrize("address", ["nonsense", "tcp://127.0.0.1:notaport", "http://127.0.0.1:8786"])
def test_malformed_scheduler_address_is_one_line(address: str, td_bots: list[str], tmp_path: Path) -> None:
    """distributed's own words follow the prefix (they differ between its versions)."""
    code, stdout, stderr = run_cli("tournament", *td_bots[:2], *TD, "--dask", address, "--output", str(tmp_path / "t"))
    assert (code, stdout) == (2, "") and not (tmp_path / "t").exists()
    assert stderr.startswith(f"error: --dask {address}: cannot reach the scheduler: ") and stderr.count("\n") == 1

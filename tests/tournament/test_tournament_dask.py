"""The same tournament on a Dask LocalCluster and on a `dask scheduler` + `dask worker` started here gives
the same outcomes as the local pool."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.tournament.dask_backend import LOCAL, DaskBackend
from runner.tournament.run import TournamentSettings, claim_folder, prepare, run_tournament
from tournament_helpers import games, run_cli

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
    run_tournament(prepare(settings), out, lambda dirs: DaskBackend(LOCAL, 2, dirs, processes=False), Quiet())
    assert outcomes(out) == local_run
    check_logs(out)


def test_dask_scheduler_and_worker_processes(td_bots: list[str], tmp_path: Path, local_run: dict) -> None:
    dask = shutil.which("dask") or str(Path(sys.executable).parent / "dask")
    scheduler_file = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                  "--scheduler-file", str(scheduler_file)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.is_file() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(scheduler_file.read_text())["address"]
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


def test_unreachable_scheduler_is_one_line(td_bots: list[str], tmp_path: Path) -> None:
    code, _, stderr = run_cli("tournament", *td_bots[:2], *TD, "--dask", "tcp://127.0.0.1:1",
                              "--output", str(tmp_path / "t"))
    assert code == 2 and stderr.startswith("error: --dask tcp://127.0.0.1:1: cannot reach") and stderr.count("\n") == 1

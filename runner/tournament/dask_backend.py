"""Run tournament matches as Dask tasks on a `distributed` cluster (`--dask tcp://HOST:8786`, or `local`).

* Bots travel by content hash: each bot folder is packed once, scattered to the cluster, and unpacked once per
  worker machine into `<tmp>/td-runner-bots/<hash>` (a task only reads it; every match plays on its own copy).
* A task never raises because of a bot: a crash or time-out comes back as a normal record. Bot time-outs
  are enforced inside the task (the core kills the bot's processes at `--timeout-ms`), and `--match-timeout`
  ends a match from inside too, because a running Dask task cannot be cancelled from outside.
* An exception in a task is the infrastructure's (a lost worker, a full disk): Dask retries it (`RETRIES`);
  after that the match is reported and left unplayed for a later `--resume`.
* Each match log comes back as zip bytes and is unpacked where the local pool would have written it.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.tournament.entrants import pack, unpack
from runner.tournament.task import MatchResult, MatchTask, run_task

RETRIES = 2
LOCAL = "local"


def import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise UserError("--dask needs the distributed package: pip install 'td-runner[dask]'") from None
    return distributed


class DaskBackend:
    """Submits every match to a cluster; `run` calls `done` in the calling thread as results arrive."""

    def __init__(self, address: str, workers: int | None, bot_dirs: Mapping[str, Path], *,
                 processes: bool = True, connect_timeout: str = "10s") -> None:
        self.address = address
        self.workers = workers
        self.bot_dirs = dict(bot_dirs)
        self.processes = processes  # `local`: worker processes (a match's Python work then has its own core)
        self.connect_timeout = connect_timeout

    def _client(self) -> tuple[Any, Any]:
        distributed = import_distributed()
        if self.address == LOCAL:
            cluster = distributed.LocalCluster(n_workers=self.workers or 1, threads_per_worker=1,
                                               processes=self.processes, dashboard_address=None)
            return distributed.Client(cluster), cluster
        try:
            return distributed.Client(self.address, timeout=self.connect_timeout), None
        except (OSError, TimeoutError, ValueError) as exc:
            raise UserError(f"--dask {self.address}: cannot reach the scheduler: {exc}") from None

    def run(self, jobs: Iterable[tuple[MatchTask, Path]], done: Callable[[MatchResult, Path], None]) -> None:
        distributed = import_distributed()
        client, cluster = self._client()
        try:
            jobs = list(jobs)
            needed = sorted({bot_hash for task, _ in jobs for bot_hash in task.bots})
            packed = {bot_hash: client.scatter(pack(self.bot_dirs[bot_hash]), broadcast=False)
                      for bot_hash in needed}
            futures = {}
            for task, folder in jobs:
                future = client.submit(play_remote, task, {h: packed[h] for h in task.bots},
                                       key=f"td-match-{task.match_id}", retries=RETRIES, pure=False)
                futures[future] = folder
            try:
                for future in distributed.as_completed(futures):
                    folder = futures[future]
                    try:
                        result, log = future.result()
                    except Exception as exc:  # retries exhausted: the cluster's failure, not a bot's
                        done(MatchResult(future.key.removeprefix("td-match-"), None,
                                         f"the Dask task failed: {type(exc).__name__}: {exc}"), folder)
                        continue
                    if log is not None:
                        _unzip(log, folder)
                    done(result, folder)
            except BaseException:
                client.cancel(list(futures))  # queued matches; a running one ends with its deadline
                raise
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def play_remote(task: MatchTask, packed: Mapping[str, bytes]) -> tuple[MatchResult, bytes | None]:
    """The Dask task: unpack the bots (once per machine), play into a temporary folder, return the log zipped."""
    cache = Path(tempfile.gettempdir()) / "td-runner-bots"
    bot_dirs = {bot_hash: _cached(cache, bot_hash, data) for bot_hash, data in packed.items()}
    work = Path(tempfile.mkdtemp(prefix="td-match-"))
    try:
        folder = work / task.match_id
        result = run_task(task, bot_dirs, folder)
        return result, _zip(folder) if folder.is_dir() else None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _cached(cache: Path, bot_hash: str, data: bytes) -> Path:
    target = cache / bot_hash
    if target.is_dir():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    partial = cache / f".{bot_hash}.{os.getpid()}.{id(data)}"
    shutil.rmtree(partial, ignore_errors=True)
    unpack(data, partial)
    try:
        partial.rename(target)
    except OSError:  # another task on this machine unpacked it first
        shutil.rmtree(partial, ignore_errors=True)
    return target


def _zip(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    return buffer.getvalue()


def _unzip(data: bytes, folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            if name.startswith("/") or ".." in Path(name).parts:
                raise UserError(f"a match log from the cluster holds an unsafe path: {name}")
        archive.extractall(folder)

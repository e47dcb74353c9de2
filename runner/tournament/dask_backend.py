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

import gc
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
CONNECT_TIMEOUT = "10s"  # how long a scheduler that refuses or does not answer is retried


def import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise UserError("--dask needs the distributed package: pip install 'td-runner[dask]'") from None
    return distributed


class DaskConnection:
    """A client of the cluster (with `local`, of the LocalCluster it starts), opened as a context manager before
    the tournament starts, so a missing package or a bad address is one error line up front, not a tournament
    that announced its matches and then stopped."""

    def __init__(self, address: str, workers: int | None, *, processes: bool = True,
                 connect_timeout: str | None = None) -> None:
        if not address.strip():
            raise UserError("--dask needs a scheduler address (tcp://HOST:8786) or 'local'")
        self.address = address
        self.workers = workers if address == LOCAL else None  # the cluster's own workers are not ours to count
        self.processes = processes  # `local`: worker processes (a match's Python work then has its own core)
        self.connect_timeout = connect_timeout or CONNECT_TIMEOUT
        self.client: Any = None
        self.cluster: Any = None

    def __enter__(self) -> DaskConnection:
        distributed = import_distributed()
        if self.address == LOCAL:
            try:
                self.cluster = distributed.LocalCluster(n_workers=self.workers or 1, threads_per_worker=1,
                                                        processes=self.processes, dashboard_address=None)
                self.client = distributed.Client(self.cluster)
            except Exception as exc:  # this machine's resources: ports, processes, memory
                self.__exit__(None, None, None)
                raise UserError(f"--dask local: cannot start a Dask LocalCluster: {type(exc).__name__}: {exc}") from None
            return self
        try:
            self.client = distributed.Client(self.address, timeout=self.connect_timeout)
            return self
        except Exception as exc:  # any address distributed refuses or cannot reach
            detail = str(exc) if isinstance(exc, (OSError, TimeoutError, ValueError)) else f"{type(exc).__name__}: {exc}"
        # the half-made Client is closed now: collected later, its __del__ can run inside the event loop of the
        # next Client this process makes and hold it up for that one's whole connect timeout
        gc.collect()
        raise UserError(f"--dask {self.address}: cannot reach the scheduler: {detail}")

    def __exit__(self, *_: object) -> None:
        for part in (self.client, self.cluster):
            if part is not None:
                part.close()
        self.client = self.cluster = None


class DaskBackend:
    """Submits every match to a connected cluster; `run` calls `done` in the calling thread as results arrive."""

    def __init__(self, connection: DaskConnection, bot_dirs: Mapping[str, Path]) -> None:
        self.connection = connection
        self.workers = connection.workers
        self.bot_dirs = dict(bot_dirs)

    def run(self, jobs: Iterable[tuple[MatchTask, Path]], done: Callable[[MatchResult, Path], None]) -> None:
        distributed = import_distributed()
        client = self.connection.client
        if client is None:
            raise RuntimeError("DaskBackend.run needs an open DaskConnection (a `with` block)")
        jobs = list(jobs)
        needed = sorted({bot_hash for task, _ in jobs for bot_hash in task.bots})
        packed = {bot_hash: client.scatter(pack(self.bot_dirs[bot_hash]), broadcast=False) for bot_hash in needed}
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

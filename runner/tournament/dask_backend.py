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

import contextlib
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
from runner.tournament.pool import run_jobs
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


class DaskPool:
    """Matches as tasks on a connected cluster, submitted one by one; results taken as they finish."""

    def __init__(self, connection: DaskConnection, bot_dirs: Mapping[str, Path] = ()) -> None:
        if connection.client is None:
            raise RuntimeError("DaskPool needs an open DaskConnection (a `with` block)")
        self.connection = connection
        self.workers = connection.workers
        self.bot_dirs = dict(bot_dirs)
        self._packed: dict[str, Any] = {}  # content hash -> the scattered tar.gz bytes
        self._futures: dict[Any, Path] = {}
        self._ready: list[tuple[MatchResult, Path]] = []
        self._count = 0

    def add_bots(self, bot_dirs: Mapping[str, Path]) -> None:
        self.bot_dirs.update(bot_dirs)

    def submit(self, task: MatchTask, folder: Path) -> None:
        client = self.connection.client
        for bot_hash in task.bots:  # each bot packed and shipped once, whatever the number of its matches
            if bot_hash not in self._packed:
                self._packed[bot_hash] = client.scatter(pack(self.bot_dirs[bot_hash]), broadcast=False)
        self._count += 1  # a match played again (its worker died) needs a key of its own
        future = client.submit(play_remote, task, {h: self._packed[h] for h in task.bots},
                               key=f"td-match-{task.match_id}-{self._count}", retries=RETRIES,
                               pure=False)
        self._futures[future] = folder

    def in_flight(self) -> int:
        return len(self._futures) + len(self._ready)

    def next_result(self, timeout: float) -> tuple[MatchResult, Path] | None:
        if not self._ready and self._futures:
            distributed = import_distributed()
            try:
                finished = distributed.wait(list(self._futures), timeout=timeout, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                return None
            for future in finished:
                self._ready.append(self._collect(future, self._futures.pop(future)))
        return self._ready.pop(0) if self._ready else None

    def _collect(self, future: Any, folder: Path) -> tuple[MatchResult, Path]:
        try:
            result, log = future.result()
        except Exception as exc:  # retries exhausted: the cluster's failure, not a bot's
            match_id = future.key.removeprefix("td-match-").split("-")[0]
            return MatchResult(match_id, None, f"the Dask task failed: {type(exc).__name__}: {exc}"), folder
        if log is not None:
            _unzip(log, folder)
        return result, folder

    def stop(self) -> None:
        """Cancel queued matches; a running one ends at its own deadline (a Dask task cannot be stopped)."""
        client = self.connection.client
        if client is not None and self._futures:
            client.cancel(list(self._futures))
        self._futures.clear()
        self._ready.clear()

    def close(self) -> None:
        self.stop()

    def run(self, jobs: Iterable[tuple[MatchTask, Path]], done: Callable[[MatchResult, Path], None]) -> None:
        """A tournament's whole schedule: every job submitted, `done` called in this thread as results arrive."""
        run_jobs(self, jobs, done)


#: The tournament's name for the pool (a schedule played through `run`).
DaskBackend = DaskPool


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
    if (target / "bot.json").is_file():
        return target
    if target.exists():  # damaged since (a cleaner, a person): moved aside and unpacked again
        aside = cache / f".{bot_hash}.{os.getpid()}.{id(data)}.old"
        with contextlib.suppress(OSError):
            target.rename(aside)
        shutil.rmtree(aside, ignore_errors=True)
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

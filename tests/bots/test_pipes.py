"""`write_each` and `wait_lines`, the usual persistent turn's two calls: runner/bots/_pipes.c (where built) and
the Python ones of runner/bots/persistent.py keep one contract, checked here on plain pipes."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from runner.bots import persistent
from runner.bots.persistent import STOP_CHUNK, STOP_DEADLINE, STOP_EVENT

IMPLEMENTATIONS = {
    "compiled": persistent._PIPES,
    "python": SimpleNamespace(write_each=persistent._write_each, wait_lines=persistent._wait_lines),
}


@pytest.fixture(params=list(IMPLEMENTATIONS))
def pipes(request: pytest.FixtureRequest) -> Any:
    if IMPLEMENTATIONS[request.param] is None:
        pytest.skip("runner/bots/_pipes.c is not built (or is stale)")
    return IMPLEMENTATIONS[request.param]


@pytest.fixture
def bots() -> Iterator[list[dict[str, int]]]:
    """Two bots' pipes, as the runner holds them: our ends of stdout/stderr (read) and stdin (write), non-blocking."""
    made, fds = [], []
    for _ in range(2):
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        in_r, in_w = os.pipe()
        for fd in (out_r, err_r, in_w):
            os.set_blocking(fd, False)
        made.append({"out": out_r, "err": err_r, "in": in_w, "bot_out": out_w, "bot_err": err_w, "bot_in": in_r})
        fds += [out_r, out_w, err_r, err_w, in_r, in_w]
    yield made
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


def wait(pipes: Any, bots: list[dict[str, int]], timeout_s: float = 2.0) -> tuple[list, list, Any]:
    return pipes.wait_lines(tuple(b["out"] for b in bots), tuple(b["err"] for b in bots), timeout_s)


def test_one_whole_line_each(pipes: Any, bots: list[dict[str, int]]) -> None:
    os.write(bots[1]["bot_out"], b'{"a":1}\n')
    os.write(bots[0]["bot_out"], b"null\r\n")
    lines, seconds, stop = wait(pipes, bots)
    assert (lines, stop) == ([b"null\r\n", b'{"a":1}\n'], None)
    assert all(0 <= s < 2 for s in seconds)


def test_stderr_stops_the_wait_with_nothing_read(pipes: Any, bots: list[dict[str, int]]) -> None:
    os.write(bots[0]["bot_err"], b"thinking\n")
    os.write(bots[0]["bot_out"], b"answer\n")
    lines, _, stop = wait(pipes, bots)
    assert stop == (STOP_EVENT, -1, None)
    assert lines[1] is None
    assert os.read(bots[0]["err"], 100) == b"thinking\n"  # left for the Python wait to read


@pytest.mark.parametrize("chunk", [b"half a li", b"two\nlines\n", b"\n\n"])
def test_anything_but_one_whole_line_is_handed_back(pipes: Any, bots: list[dict[str, int]], chunk: bytes) -> None:
    os.write(bots[1]["bot_out"], chunk)
    lines, _, stop = wait(pipes, bots)
    assert stop == (STOP_CHUNK, 1, chunk)
    assert lines == [None, None]


def test_the_end_of_stdout_is_an_empty_chunk(pipes: Any, bots: list[dict[str, int]]) -> None:
    os.write(bots[0]["bot_out"], b"answer\n")
    lines, _, stop = wait(pipes, bots[:1])
    assert (lines, stop) == ([b"answer\n"], None)
    os.close(bots[0]["bot_out"])
    assert wait(pipes, bots[:1])[2] == (STOP_CHUNK, 0, b"")


def test_the_deadline(pipes: Any, bots: list[dict[str, int]]) -> None:
    os.write(bots[0]["bot_out"], b"quick\n")
    started = time.perf_counter()
    lines, _, stop = wait(pipes, bots, 0.05)
    assert 0.04 <= time.perf_counter() - started < 1.0
    assert (lines, stop) == ([b"quick\n", None], (STOP_DEADLINE, -1, None))
    assert wait(pipes, bots, 0.0)[2] == (STOP_DEADLINE, -1, None)


def test_write_each(pipes: Any, bots: list[dict[str, int]]) -> None:
    ins = tuple(b["in"] for b in bots)
    assert pipes.write_each(ins, (b"1\n", b"2\n")) == -1
    assert [os.read(b["bot_in"], 10) for b in bots] == [b"1\n", b"2\n"]
    big = b"x" * (1 << 20)  # more than a pipe holds: a partial write
    index, written = pipes.write_each(ins, (b"ok\n", big))
    assert index == 1 and 0 < written < len(big)
    assert pipes.write_each(ins, (b"", b"more\n")) == (1, 0)  # bot 1's pipe is full
    os.close(bots[0]["bot_in"])
    assert pipes.write_each(ins, (b"gone\n", b"")) == (0, -1)  # bot 0 closed its stdin

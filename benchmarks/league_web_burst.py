"""The league web server's CPU for a burst of new connections, by HTTP parser and event loop (issue 32).

    python benchmarks/league_web_burst.py                 # 400 connections at once, 5 bursts per server, 3 rounds
    python benchmarks/league_web_burst.py --connections 850 --bursts 3

A class opening its tabs, and slow sockets cut off together, reach the server as bursts of new connections;
under a league that keeps the cores busy the server (below the league's priority) gets little CPU, so what a
burst costs it is what its clients wait. Each server (a process of its own serving a league of 40 players and
6,400 matches, its pages kept) takes bursts of `--connections` clients each opening a connection, asking for
the standings (gzip) and closing; measured: the server's CPU seconds per burst (from /proc, not wall time, so
other work on the machine matters less). The servers (httptools on uvloop, the default when installed; h11 on
asyncio's loop, the fallback) alternate, `--rounds` times; medians are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not benchmarks/, whose runner.py would hide the package

SERVERS = {"httptools on uvloop": ("httptools", "uvloop"), "h11 on asyncio": ("h11", "asyncio")}


def child(folder: str, parser: str, loop: str) -> None:
    """A server on a free port: prints its URL, serves until its stdin closes."""
    from runner.league.web.server import start_server

    server = start_server(Path(folder), "127.0.0.1", 0, parser=parser, loop=loop)
    print(server.url, flush=True)
    sys.stdin.read()
    server.close()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def fetch(host: str, port: int) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(b"GET / HTTP/1.1\r\nHost: bench\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n")
    answer = await reader.read()
    writer.close()
    if not answer.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"the server answered {answer[:40]!r}")


def bursts(folder: Path, parser: str, loop: str, connections: int, count: int) -> list[float]:
    """The server's CPU seconds for each of `count` bursts (after one request that loads the page)."""
    server = subprocess.Popen([sys.executable, __file__, "--child", str(folder), parser, loop], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        host, port = server.stdout.readline().strip().split("//")[1].rstrip("/").split(":")

        async def run() -> list[float]:
            await fetch(host, int(port))
            await asyncio.sleep(2)  # every page rendered at the start
            spent = []
            for _ in range(count):
                before = cpu_seconds(server.pid)
                await asyncio.gather(*(fetch(host, int(port)) for _ in range(connections)))
                await asyncio.sleep(0.5)  # the closed connections' last work
                spent.append(cpu_seconds(server.pid) - before)
            return spent

        return asyncio.run(run())
    finally:
        server.stdin.close()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=400)
    parser.add_argument("--bursts", type=int, default=5, help="bursts per server per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    import resource

    from benchmarks.league_web import make_league

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory(prefix="td-bench-burst-") as temp:
        folder = make_league(Path(temp), 40, 6400, 10)
        spent: dict[str, list[float]] = {name: [] for name in SERVERS}
        for _ in range(args.rounds):
            for name, (http, loop) in SERVERS.items():
                spent[name] += bursts(folder, http, loop, args.connections, args.bursts)
                print(f"  {name}: {statistics.median(spent[name][-args.bursts:]) * 1000:.0f} ms of CPU per burst",
                      flush=True)
    base = statistics.median(spent["h11 on asyncio"])
    print(f"\n{args.connections} connections at once (each: connect, GET / with gzip, close), "
          f"{args.bursts} bursts x {args.rounds} rounds per server; load average {os.getloadavg()[0]:.1f}")
    for name, values in spent.items():
        median = statistics.median(values)
        print(f"{name:22s} {median * 1000:6.0f} ms of CPU per burst ({median / args.connections * 1e6:.0f} us per "
              f"connection; {median / base:.2f}x h11 on asyncio)")


if __name__ == "__main__":
    main()

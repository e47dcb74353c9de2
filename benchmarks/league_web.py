"""The league's web pages under a class's load while the league plays (issue 32.5).

    python benchmarks/league_web.py                  # 40 players, 6,400 matches of history, 300 tabs, 50 loaders
    python benchmarks/league_web.py --seconds 20 --repeats 3 --tabs 100
    python benchmarks/league_web.py --priority normal --load-priority normal    # everything at one priority

A league of shell bots playing fast Tower Defence matches (one finished every ~0.2 s) runs in this process;
`td-runner league serve` serves it from its own process; a load process holds `--tabs` live pages open (each
on the server-sent-events stream, reloading its page as a browser tab does, at most every few seconds), runs
`--loaders` clients loading the seven page kinds (standings, matches, crosstable, events, a player, a replay,
standings.json) one after another, and keeps `--slow` sockets trickling a request's headers a byte a second
(reconnecting whenever the server cuts one off). Printed: p50/p90/p99 per page kind, of the tabs' reloads
and of the live updates (from a match's record to a tab hearing of it), failed requests, the league's matches
per minute in each kind of phase, and the server's peak memory and CPU.

The league's rate is measured in phases of `--seconds`, alternating `--repeats` times: U (the league alone, the
server idle), G (the same load processes pointed at nothing: a port where no server listens, so they spin on
refused connections, as busy as they can be) and L (the load on the server), then a last U; medians are
printed, and the median of each L phase against the mean of the U phases around it. The load processes stand
for a class's browsers, which run on other machines: they run at `--load-priority` (idle by default:
SCHED_IDLE, CPU the league and the server leave), and G shows what they alone cost the league, so that L
against U is the server's cost. The server runs at `--priority` (`league serve --priority`). `--before DIR`:
another checkout's `league serve` (an older version of the server) is measured in the same run, in B phases
under the same load, for a before-and-after comparison on the same machine at the same time.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not benchmarks/, whose runner.py would hide the package

from runner.league.web.pages import JITTER_MS, RELOAD_MS  # noqa: E402 (the live pages' reload rule)

KINDS = ("standings", "matches", "crosstable", "events", "player", "replay", "standings.json")
#: The start of a phase, when every tab opens at once (the load processes' lag is shown apart for it).
OPENING_S = 3.0
#: A live tab's page loads: its first (every tab at a phase's start, at once) and its reloads after a change.
TAB_KINDS = ("tab open", "tab reload")


# --- the league ------------------------------------------------------------------------------------------------


def make_league(root: Path, players: int, history: int, rounds: int) -> Path:
    """A league of `players` shell bots with `history` recorded matches between them (inserted rows, so the
    crosstable and standings have a big league's size), and a few real matches with stored replays."""
    from benchmarks.tournament import make_bots
    from runner.league.run import open_league
    from runner.league.store import transaction
    from runner.replay.html import write_html_replay
    from runner.tournament.local import LocalPool

    submissions = root / "submissions"
    make_bots(submissions, players, 0)
    folder = root / "league"
    pool = LocalPool(1)
    league = open_league(folder, {"submissions": str(submissions), "options": {"max_rounds": rounds}}, pool,
                         lambda line: None)
    try:
        league.run(4, threading.Event())  # registers every player, plays 4 matches (with logs)
        db = league.db
        versions = [row[0] for row in db.execute("SELECT id FROM versions")]
        rng = random.Random(1)
        first = db.execute("SELECT MAX(id) FROM matches").fetchone()[0] + 1
        with transaction(db):
            for number in range(first, first + history):
                a, b = rng.sample(versions, 2)
                draw = rng.random() < 0.1
                db.execute("INSERT INTO matches (id, task, seed, finished, end_reason, rounds, draw, wall_seconds, "
                           "cpu_seconds) VALUES (?, ?, ?, ?, 'max_rounds', 10, ?, 0.2, 0.01)",
                           (number, 10_000_000 + number, number, time.time(), int(draw)))
                for position, (version, place) in enumerate(((a, 1), (b, 1 if draw else 2))):
                    db.execute("INSERT INTO seats (match_id, position, seat, version_id, place, result, started, "
                               "timeouts, crashes, failed_to_start, invalid, disqualified) VALUES "
                               "(?, ?, ?, ?, ?, ?, 1, 0, 0, 0, 0, 0)",
                               (number, position, "AB"[position], version, place,
                                "draw" if draw else ("win" if place == 1 else "loss")))
            db.execute("UPDATE meta SET value = ? WHERE key = 'scheduled'", (str(10_000_000 + first + history),))
        (folder / "replays").mkdir(exist_ok=True)
        for match, log in db.execute("SELECT id, log FROM matches WHERE log IS NOT NULL").fetchall():
            page, _ = write_html_replay(folder / log, folder / "replays" / f".{match}.html")
            (folder / "replays" / f"{match}.html.gz").write_bytes(gzip.compress(page.read_bytes()))
            page.unlink()
    finally:
        pool.close()
        league.close()
    return folder


def play(folder: Path, seconds: float, recorded: list[tuple[float, int]] | None = None) -> float:
    """Play the league for `seconds`; its matches per minute. `recorded`: (time, match id) of each match."""
    from runner.league.run import League
    from runner.league.settings import prepare_rules, stored_settings
    from runner.league.store import connect
    from runner.tournament.local import LocalPool

    def log(line: str) -> None:
        if recorded is not None and line.startswith("match ") and ":" in line:
            recorded.append((time.time(), int(line.split()[1].rstrip(":"))))

    db = connect(folder)
    pool = LocalPool(1)
    league = League(folder, prepare_rules(stored_settings(folder)), db, pool, log)
    stop = threading.Event()
    timer = threading.Timer(seconds, stop.set)
    timer.start()
    try:
        stats = league.run(None, stop)
    finally:
        timer.cancel()
        if league.in_flight:
            pool.stop()
        pool.close()
        league.drop_in_flight()
        db.close()
    return stats.played / stats.wall_seconds * 60


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss(pid: int, stop: threading.Event, peak: list[float]) -> None:
    while not stop.is_set():
        try:
            with open(f"/proc/{pid}/status") as status:
                rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024
            peak[0] = max(peak[0], rss)
        except (OSError, StopIteration):
            return
        stop.wait(0.25)


# --- the load (a process of its own: --load URL) -------------------------------------------------------------


class Load:
    def __init__(self, host: str, port: int, paths: dict[str, list[str]], seconds: float, think: float) -> None:
        self.host, self.port, self.paths, self.seconds, self.think = host, port, paths, seconds, think
        self.times: dict[str, list[float]] = {kind: [] for kind in (*KINDS, *TAB_KINDS)}
        self.heard: list[tuple[float, int]] = []  # (time, match id) of each live update a tab heard
        self.failed: dict[str, int] = {}
        self.cut = 0  # slow sockets the server closed
        self.lags: list[tuple[float, float]] = []
        self.end = 0.0

    async def get(self, path: str, etag: str | None, connection: list, parse: bool = False
                  ) -> tuple[int, str | None, bytes]:
        """GET over the client's kept-alive connection (`connection`: [reader, writer], opened when empty), as a
        browser does: a kept connection the server closed while it was idle is opened again and the request
        sent again (browsers do the same)."""
        if connection:
            try:
                return await self._get(path, etag, connection, parse)
            except (ConnectionError, OSError):
                pass  # closed while idle (the server's keep-alive time-out)
        return await self._get(path, etag, connection, parse)

    async def _get(self, path: str, etag: str | None, connection: list, parse: bool
                   ) -> tuple[int, str | None, bytes]:
        """Status, ETag and body (decompressed when `parse`, else as sent)."""
        if not connection:
            connection += await asyncio.open_connection(self.host, self.port)
        reader, writer = connection
        try:
            extra = f"If-None-Match: {etag}\r\n" if etag else ""
            writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept-Encoding: gzip\r\n{extra}\r\n".encode())
            try:
                head = await reader.readuntil(b"\r\n\r\n")  # one read for the status line and headers
            except asyncio.IncompleteReadError as exc:
                raise ConnectionError("closed by the server") from exc
            lines = head.decode("latin-1").lower().split("\r\n")
            status = int(lines[0].split()[1])
            length, tag, close, packed = 0, None, False, False
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name == "content-length":
                    length = int(value)
                elif name == "etag":
                    tag = value.strip()
                elif name == "connection" and "close" in value:
                    close = True
                elif name == "content-encoding" and "gzip" in value:
                    packed = True
            body = await reader.readexactly(length)
        except BaseException:
            writer.close()
            connection.clear()
            raise
        if close:
            writer.close()
            connection.clear()
        return status, tag, gzip.decompress(body) if packed and parse else body

    async def timed(self, kind: str, path: str, etag: str | None = None, connection: list | None = None,
                    parse: bool = False) -> tuple[str | None, bytes] | None:
        """GET `path` (over `connection`, else a connection of its own, closed after), its time by kind; the
        ETag and body, None when it failed."""
        started = time.monotonic()
        own: list = []
        try:
            status, tag, body = await asyncio.wait_for(
                self.get(path, etag, own if connection is None else connection, parse), 30)
            if status not in (200, 304):
                raise RuntimeError(f"HTTP {status}")
        except Exception as exc:  # noqa: BLE001 (counted, by kind)
            name = f"{kind}: {type(exc).__name__} {exc}".strip()
            self.failed[name] = self.failed.get(name, 0) + 1
            return None
        finally:
            if own:
                own[1].close()
        self.times[kind].append(time.monotonic() - started)
        return tag, body

    async def loader(self) -> None:
        kinds = list(KINDS)
        random.shuffle(kinds)
        connection: list = []
        while time.monotonic() < self.end:
            for kind in kinds:
                if time.monotonic() >= self.end:
                    break
                await self.timed(kind, random.choice(self.paths[kind]), None, connection)
                if self.think:
                    await asyncio.sleep(random.uniform(0, 2 * self.think))
        if connection:
            connection[1].close()

    async def tab(self) -> None:
        """A browser tab on a live page, as the page's script does it: load the page (with its ETag, over the
        tab's kept connection), open the event stream; on a key that is not the page's own (its data-state),
        reload at most RELOAD_MS after the last load plus up to JITTER_MS, which closes the stream (a new
        page opens a new one)."""
        page = random.choice(self.paths["standings"] + self.paths["player"])
        kept: list = []  # the page's own kept-alive connection, as a browser keeps one beside the stream
        etag, state, kind = None, None, "tab open"
        while time.monotonic() < self.end:
            got = await self.timed(kind, page, etag, kept, parse=True)
            if got is None:
                return
            loaded, kind = time.monotonic(), "tab reload"
            if b'data-state="' in got[1]:  # a 304 leaves the page (and its state) as it was
                etag, state = got[0], got[1].split(b'data-state="', 1)[1].split(b'"', 1)[0].decode()
            if not await self.stream(state, loaded):
                return

    async def stream(self, state: str, loaded: float) -> bool:
        """One page's event stream, until the page reloads (True) or the phase ends or the stream fails."""
        try:
            reader, writer = await asyncio.open_connection(self.host, self.port)
        except OSError as exc:
            self.failed[f"updates: {exc}"] = self.failed.get(f"updates: {exc}", 0) + 1
            return False
        writer.write(b"GET /updates HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
        reload_at, first = None, True
        try:
            while time.monotonic() < self.end:
                if reload_at is not None and time.monotonic() >= reload_at:
                    return True
                timeout = max(0.01, min(self.end, reload_at or self.end) - time.monotonic())
                try:
                    line = await asyncio.wait_for(reader.readline(), timeout)
                except asyncio.TimeoutError:
                    continue
                if line == b"":
                    raise ConnectionError("the stream ended")
                if not line.startswith(b"data: "):
                    continue
                key = line[6:].strip().decode()
                if not first:  # the key the stream opens with is the state then, not a change heard
                    self.heard.append((time.time(), int(key.split("-")[0])))
                if key != state and reload_at is None:
                    reload_at = max(time.monotonic(), loaded + RELOAD_MS / 1000) + random.random() * JITTER_MS / 1000
                first = False
        except (ConnectionError, OSError) as exc:
            self.failed[f"updates: {exc}"] = self.failed.get(f"updates: {exc}", 0) + 1
        finally:
            writer.close()
        return False

    async def slow(self) -> None:
        while time.monotonic() < self.end:
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port)
                writer.write(b"GET / HTTP/1.1\r\n")
                while time.monotonic() < self.end and not reader.at_eof():  # at_eof: the server closed it
                    await asyncio.sleep(1)
                    writer.write(b"X")
                    await writer.drain()
                self.cut += time.monotonic() < self.end
                writer.close()
            except OSError:
                self.cut += 1
                await asyncio.sleep(0.5)

    async def lag(self) -> None:
        """How late this process's own event loop wakes a 10 ms sleep, (time into the phase, lateness): a
        request it times waits that long for its client, which a browser on a machine of its own would not."""
        start = time.monotonic()
        while time.monotonic() < self.end:
            asked = time.monotonic()
            await asyncio.sleep(0.01)
            self.lags.append((asked - start, time.monotonic() - asked - 0.01))

    async def run(self, tabs: int, loaders: int, slow: int) -> None:
        self.end = time.monotonic() + self.seconds
        tasks = [self.lag()] + [self.slow() for _ in range(slow)] + [self.tab() for _ in range(tabs)]
        tasks += [self.loader() for _ in range(loaders)]
        await asyncio.gather(*tasks)


def load_main(args: argparse.Namespace) -> None:
    import resource

    set_priority(args.load_priority)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    host, port = args.load.split("//")[1].rstrip("/").split(":")
    load = Load(host, int(port), json.loads(Path(args.paths).read_text()), args.seconds, args.think_ms / 1000)
    asyncio.run(load.run(args.tabs, args.loaders, args.slow))
    print(json.dumps({"times": load.times, "heard": load.heard, "failed": load.failed, "cut": load.cut, "lags": load.lags,
                      "cpu": time.process_time()}))


def set_priority(priority: str) -> None:
    from runner.league.web.priority import set_priority as lower  # a light module: imported before the rest

    lower(priority)


# --- the whole run ------------------------------------------------------------------------------------------------


def quantiles(values: list[float]) -> str:
    if not values:
        return "     -        -        -      0"
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return f"{at(0.5):7.1f}  {at(0.9):7.1f}  {at(0.99):7.1f}  {len(ordered):6d}"


class Run:
    """The phases of one run (see the module docstring) and what they measured."""

    def __init__(self, args: argparse.Namespace, folder: Path, paths: Path) -> None:
        self.args, self.folder, self.paths = args, folder, paths
        self.rates: dict[str, list[float]] = {"U": [], "G": [], "L": [], "B": []}
        self.order: list[tuple[str, float]] = []
        self.results: dict[str, list[dict]] = {"L": [], "B": []}
        self.recorded: dict[str, list[tuple[float, int]]] = {"L": [], "B": []}
        self.load_cpu: dict[str, list[float]] = {"G": [], "L": [], "B": []}
        self.server_cpu = {"L": 0.0, "B": 0.0}
        self.server_seconds = {"L": 0.0, "B": 0.0}

    def loads(self, url: str) -> list[subprocess.Popen]:
        args = self.args
        share = lambda total, n: total // args.clients + (n < total % args.clients)  # noqa: E731
        return [subprocess.Popen([sys.executable, __file__, "--load", url, "--paths", str(self.paths),
                                  "--seconds", str(args.seconds), "--tabs", str(share(args.tabs, n)),
                                  "--loaders", str(share(args.loaders, n)), "--slow", str(share(args.slow, n)),
                                  "--think-ms", str(args.think_ms), "--load-priority", args.load_priority],
                                 env=ENV, stdout=subprocess.PIPE, text=True) for n in range(args.clients)]

    def phase(self, kind: str, url: str | None, server: int | None) -> None:
        """Play one phase: U (no load), G (the load pointed at `url`, where nothing listens), L or B (at the
        server `url`, process `server`: this checkout's, or --before's)."""
        loads = self.loads(url) if url else []
        cpu_before, started = (cpu_seconds(server), time.monotonic()) if server else (0.0, 0.0)
        rate = play(self.folder, self.args.seconds, self.recorded.get(kind))
        results = [json.loads(load.communicate()[0]) for load in loads]
        if server:
            self.server_cpu[kind] += cpu_seconds(server) - cpu_before
            self.server_seconds[kind] += time.monotonic() - started
        if loads:
            self.load_cpu[kind].append(sum(r["cpu"] for r in results) / self.args.seconds)
        if server:
            self.results[kind] += results
        self.rates[kind].append(rate)
        self.order.append((kind, rate))
        print(f"  {kind}: {rate:.1f} matches/min" + (f", load processes {self.load_cpu[kind][-1] * 100:.0f}% of a "
                                                    "core" if loads else ""), flush=True)

    def paired(self, loaded: str) -> list[float]:
        """Each `loaded` (L or B) phase's rate against the mean of the nearest U phases before and after it."""
        ratios = []
        for at, (kind, rate) in enumerate(self.order):
            if kind == loaded:
                before = [r for k, r in self.order[:at] if k == "U"][-1:]
                after = [r for k, r in self.order[at:] if k == "U"][:1]
                ratios.append(rate / statistics.mean(before + after) - 1)
        return ratios


def start_server(folder: Path, root: Path, priority: str) -> tuple[subprocess.Popen, str]:
    """`league serve` of the checkout at `root` on a free port, at `priority` (an older server without
    `--priority` runs at its one priority, normal); the process and its URL."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [sys.executable, "-m", "runner", "league", "serve", str(folder), "--port", "0"]
    usage = subprocess.run([*command[:5], "--help"], env=env, capture_output=True, text=True).stdout
    if "--priority" in usage:
        command += ["--priority", priority]
    elif priority != "normal":
        sys.exit(f"{root}: this checkout's `league serve` has no --priority (it runs at normal priority)")
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    return server, server.stdout.readline().split("league pages: ")[1].split(";")[0]


ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--history", type=int, default=6400, help="recorded matches before the run")
    parser.add_argument("--rounds", type=int, default=10, help="Tower Defence --max-rounds of the played matches")
    parser.add_argument("--seconds", type=float, default=30, help="each phase (U, G, L)")
    parser.add_argument("--repeats", type=int, default=2, help="U G L phases, then a last U")
    parser.add_argument("--tabs", type=int, default=300)
    parser.add_argument("--loaders", type=int, default=50)
    parser.add_argument("--slow", type=int, default=500)
    parser.add_argument("--think-ms", type=int, default=0, help="a loader's mean pause between pages (0: none, "
                        "each loads its next page as soon as it has the last)")
    parser.add_argument("--clients", type=int, default=2, help="load processes sharing the tabs, loaders, sockets")
    parser.add_argument("--priority", choices=("normal", "low", "idle"), default="low",
                        help="the server's (league serve --priority)")
    parser.add_argument("--load-priority", choices=("normal", "low", "idle"), default="idle",
                        help="the load processes' (they stand for browsers on other machines)")
    parser.add_argument("--before", type=Path, metavar="DIR", help="a checkout of an older td-runner whose "
                        "`league serve` is measured too (B phases, at --before-priority), e.g. a `git worktree` of "
                        "an older commit")
    parser.add_argument("--before-priority", choices=("normal", "low", "idle"), default="low")
    parser.add_argument("--load", help=argparse.SUPPRESS)  # the load process: the server's URL
    parser.add_argument("--paths", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.load:
        load_main(args)
        return
    import socket

    from runner.league.store import connect
    from runner.league.web.pages import player_path

    with tempfile.TemporaryDirectory(prefix="td-bench-league-web-") as temp:
        root = Path(temp)
        print(f"making a league of {args.players} players and {args.history} matches ...", flush=True)
        folder = make_league(root, args.players, args.history, args.rounds)
        db = connect(folder, readonly=True)
        names = [row[0] for row in db.execute("SELECT name FROM players")]
        replays = [row[0] for row in db.execute("SELECT id FROM matches WHERE log IS NOT NULL")]
        db.close()
        paths = {"standings": ["/"], "matches": ["/matches.html"], "crosstable": ["/crosstable.html"],
                 "events": ["/events.html"], "player": [f"/{player_path(name)}" for name in names],
                 "replay": [f"/matches/{match}/replay.html" for match in replays],
                 "standings.json": ["/standings.json"]}
        (root / "paths.json").write_text(json.dumps(paths))

        servers = {"L": start_server(folder, ROOT, args.priority)}
        if args.before:
            servers["B"] = start_server(folder, args.before.resolve(), args.before_priority)
        nothing = socket.socket()  # bound, never listening: a connection to it is refused at once
        nothing.bind(("127.0.0.1", 0))
        stop, peaks = threading.Event(), {kind: [0.0] for kind in servers}
        for kind, (server, _) in servers.items():
            threading.Thread(target=peak_rss, args=(server.pid, stop, peaks[kind]), daemon=True).start()
        run = Run(args, folder, root / "paths.json")
        try:
            for _ in range(args.repeats):
                run.phase("U", None, None)
                run.phase("G", f"http://127.0.0.1:{nothing.getsockname()[1]}/", None)
                for kind, (server, url) in servers.items():
                    run.phase(kind, url, server.pid)
            run.phase("U", None, None)
        finally:
            stop.set()
            for server, _ in servers.values():
                server.terminate()
                server.wait(timeout=30)
            nothing.close()
        report(args, run, {kind: peak[0] for kind, peak in peaks.items()})  # before the (slow) clean-up


def report(args: argparse.Namespace, run: Run, peaks: dict[str, float]) -> None:
    print(f"\n{args.tabs} tabs, {args.loaders} loaders (think {args.think_ms} ms), {args.slow} slow sockets; "
          f"{args.repeats} loaded phases of {args.seconds:.0f} s per server; league of {args.players} players, "
          f"{args.history}+ matches; load processes at priority {args.load_priority}")
    median = {kind: statistics.median(rates) for kind, rates in run.rates.items() if rates}
    rates = lambda kind: ", ".join(f"{rate:.0f}" for rate in run.rates[kind])  # noqa: E731
    print(f"league matches/min, medians: U {median['U']:.1f} (alone: {rates('U')}); G {median['G']:.1f} "
          f"({(median['G'] / median['U'] - 1) * 100:+.1f}%: the load processes pointed at nothing, their own "
          f"cost: {rates('G')})")
    for kind in ("L", "B"):
        if run.results[kind]:
            name = (f"this checkout's server (--priority {args.priority})" if kind == "L"
                    else f"--before {args.before}'s server (priority {args.before_priority})")
            print(f"\n{kind}: {name}")
            report_server(args, run, kind, median, peaks[kind])


def report_server(args: argparse.Namespace, run: Run, kind: str, median: dict[str, float], peak: float) -> None:
    results = run.results[kind]
    times = {name: [t for r in results for t in r["times"][name]] for name in results[0]["times"]}
    heard = [h for r in results for h in r["heard"]]
    failed: dict[str, int] = {}
    for r in results:
        for name, count in r["failed"].items():
            failed[name] = failed.get(name, 0) + count
    requests = sum(len(values) for values in times.values())
    when = {match: at for at, match in run.recorded[kind]}
    updates = [at - when[match] for at, match in heard if match in when and at >= when[match]]
    print(f"{'kind':16s} {'p50 ms':>7s}  {'p90 ms':>7s}  {'p99 ms':>7s}  {'count':>6s}")
    for name, values in times.items():
        print(f"{name:16s} {quantiles(values)}")
    print(f"{'live update':16s} {quantiles(updates)}")
    total = sum(failed.values())
    print(f"failed requests: {total} {failed if total else ''}")
    print(f"slow sockets cut off by the server: {sum(r['cut'] for r in results)}")
    paired = run.paired(kind)
    print(f"league loaded: {median[kind]:.1f} matches/min (median of {', '.join(f'{r:.0f}' for r in run.rates[kind])}"
          f"; {(median[kind] / median['U'] - 1) * 100:+.1f}% against U's median); each loaded phase against the U "
          "phases around it: " + ", ".join(f"{ratio * 100:+.1f}%" for ratio in paired)
          + f" (median {statistics.median(paired) * 100:+.1f}%; G says how much of it is the load processes')")
    cpu = run.server_cpu[kind]
    print(f"server peak memory (RSS): {peak:.0f} MB; server CPU {cpu / max(run.server_seconds[kind], 1e-9) * 100:.0f}% "
          f"of a core while loaded ({requests} page requests, {cpu / max(1, requests) * 1000:.2f} ms of CPU each "
          "including the streams and slow sockets)")
    print(f"the load processes' own CPU (median): {statistics.median(run.load_cpu[kind]) * 100:.0f}% of a core "
          f"(pointed at nothing: {statistics.median(run.load_cpu['G']) * 100:.0f}%); machine load average at the "
          f"end: {os.getloadavg()[0]:.1f}")
    opening = [lag for r in results for at, lag in r["lags"] if at < OPENING_S]
    later = [lag for r in results for at, lag in r["lags"] if at >= OPENING_S]
    print(f"the load processes' own event-loop lag (a 10 ms sleep's lateness): in a phase's first {OPENING_S:.0f} s "
          f"(the tabs opening) max {max(opening, default=0) * 1000:.0f} ms; after, p50/p99/max "
          f"{quantiles(later).split()[0]}/{quantiles(later).split()[2]}/{max(later, default=0) * 1000:.0f} ms "
          "(a request these processes time waits that long for them, not for the server)")
    worst = max((name for name in times if times[name]), key=lambda name: p99(times[name]))
    loss = statistics.median(paired) * 100
    print("issue 32's targets:")
    for met, text in ((p99(times[worst]) < 0.5, f"every page kind's p99 under 500 ms, with {args.slow} slow sockets "
                       f"open (the worst: {worst}, {p99(times[worst]) * 1000:.0f} ms)"),
                      (p99(updates) < 0.5, f"live updates' p99 under 500 ms ({p99(updates) * 1000:.0f} ms)"),
                      (total == 0, f"no failed request ({total})"),
                      (peak < 300, f"the server under 300 MB ({peak:.0f} MB)"),
                      (loss > -10, f"the league's matches/min within 10% of unloaded ({loss:+.1f}% against the U "
                       f"phases around each loaded one; the load processes alone, G: "
                       f"{(median['G'] / median['U'] - 1) * 100:+.1f}%)")):
        print(f"  {'met    ' if met else 'NOT MET'}  {text}")


def p99(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(0.99 * len(values)))] if values else float("inf")


if __name__ == "__main__":
    main()

"""`td-runner league run|serve|status|export DIR ...`: a league that keeps playing while players resubmit.

`run` plays matches chosen from the ratings (runner/league/) until Ctrl-C, SIGTERM or `--max-matches`
(with `--serve`, its web pages served by a `league serve` child process); `serve` serves a league's pages
from a process of its own, reading the league and never writing its database; `status` prints the standings
from `DIR/league.sqlite`; `export` writes the web pages as a static folder.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import json
import signal
import sqlite3
import threading
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from runner.commands.match import _game_named_in
from runner.commands.options import add_game_options, chosen_options
from runner.errors import ExitCode, UserError
from runner.games import DEFAULT_GAME, GAMES, get_game
from runner.words import plural

EXITS = ("exit codes: 0 stopped (Ctrl-C, SIGTERM or --max-matches) or printed, 2 bad input, 70 a bug")
DEFAULT_HOST = "127.0.0.1"


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    run = actions.add_parser("run", help="play matches until stopped (creates DIR on first use)",
                             description="Play league matches until Ctrl-C/SIGTERM (matches in flight are dropped "
                             "whole) or --max-matches. DIR remembers the game and options of its first run.",
                             epilog=EXITS)
    run.add_argument("folder", metavar="DIR", type=Path, help="the league folder")
    run.add_argument("--game", help=f"the game: {', '.join(GAMES)} (default {DEFAULT_GAME}; fixed at the first run)")
    run.add_argument("--submissions", type=Path, metavar="FOLDER", help="the folder whose subfolders (each holding "
                     "bot.json) are the players; watched for new, changed and removed bots")
    run.add_argument("--workers", type=int, metavar="K", help="matches at once (default: the cores / seats per "
                     "match); with --dask local, the number of Dask workers")
    run.add_argument("--dask", metavar="ADDRESS", help="play on a Dask cluster: tcp://HOST:8786, or 'local'")
    run.add_argument("--serve", metavar="HOST:PORT", help="serve the league's web pages (HOST defaults to "
                     f"{DEFAULT_HOST}; e.g. --serve 8080 or --serve 0.0.0.0:8080)")
    run.add_argument("--trusted-proxy", metavar="ADDRESS", action="append", default=[],
                     help="a reverse proxy in front of --serve (e.g. 127.0.0.1): the submission throttle counts the "
                     "client address it gives in X-Forwarded-For, not its own (repeatable)")
    run.add_argument("--max-matches", type=int, metavar="N", help="stop after N matches recorded in this run")
    run.add_argument("--seed", type=int, help="the league's seed: matchmaking's draws and match seeds (default 0)")
    run.add_argument("--table-size", type=int, metavar="N", help="multiplayer games (Warzone): seats per table "
                     "(default 2)")
    run.add_argument("--game-config", type=Path, help="game rules file (as td-runner match)")
    run.add_argument("--timeout-ms", type=int, help="wall-clock limit per bot turn (default: the game's)")
    run.add_argument("--startup-ms", type=int, help="persistent bots: limit of the start-up (default 10000)")
    run.add_argument("--match-timeout", type=float, metavar="SECONDS", help="stop a match that runs longer; "
                     "it is recorded as unfinished and not rated")
    run.add_argument("--sandbox", action=argparse.BooleanOptionalAction, default=None, help="run bots, and builds "
                     "of new versions, under bubblewrap: each sees its own folder and its runtime only (README: Safety "
                     "against misbehaving bots); on by default with --serve, which refuses to start without it unless "
                     "--no-sandbox is given")
    run.add_argument("--build-network", action="store_true", default=None, help="sandboxed builds may use the "
                     "network (dependency downloads; fixed at the first run)")
    run.add_argument("--max-upload-mb", type=float, metavar="MB", help="web submissions: the largest archive "
                     "taken (default 20)")
    run.add_argument("--max-unpacked-mb", type=float, metavar="MB", help="web submissions: the most an archive "
                     "may unpack to (default 200)")
    run.add_argument("--max-files", type=int, metavar="N", help="web submissions: the most entries in an archive "
                     "(default 2000)")
    run.add_argument("--build-timeout", type=float, metavar="SECONDS", help="the time limit of a new version's "
                     "build (default 600)")
    run.add_argument("--uploads-per-hour", type=int, metavar="N", help="web submissions: uploads taken per player "
                     "an hour (default 20)")
    run.add_argument("--quiet", action="store_true", help="no line per match")
    name = _game_named_in(argv) or _stored_game(argv)
    game = get_game(name if name in GAMES else DEFAULT_GAME)
    add_game_options(run.add_argument_group(f"{game.name} options"), game.options)  # type: ignore[arg-type]

    serve = actions.add_parser("serve", help="serve a league's web pages (a process of its own; the database is "
                               "only read)", description="Serve the league's pages, live updates and web "
                               "submissions until Ctrl-C/SIGTERM. Runs beside `league run` (which records what "
                               "this server leaves in DIR/inbox) or without it.", epilog=EXITS)
    serve.add_argument("folder", metavar="DIR", type=Path, help="the league folder")
    serve.add_argument("--host", default=DEFAULT_HOST, help=f"the address to listen on (default {DEFAULT_HOST}; "
                       "0.0.0.0 for every interface)")
    serve.add_argument("--port", type=int, default=8080, help="the port (default 8080; 0 for a free one)")
    serve.add_argument("--trusted-proxy", metavar="ADDRESS", action="append", default=[],
                       help="a reverse proxy in front (e.g. 127.0.0.1): the submission throttle counts the client "
                       "address it gives in X-Forwarded-For (repeatable)")
    serve.add_argument("--priority", choices=("normal", "low", "idle"), default="low",  # web/priority.py
                       help="the server's CPU priority beside the league on the same machine: low (the default: "
                       "SCHED_BATCH, nice 10) or idle (SCHED_IDLE) let the league's matches come first; normal "
                       "when the server has a machine of its own")
    serve.add_argument("--fd", type=int, help=argparse.SUPPRESS)  # league run --serve: the socket it bound
    serve.add_argument("--parent", type=int, help=argparse.SUPPRESS)  # and its pid: stop when it is gone

    status = actions.add_parser("status", help="print the standings", epilog=EXITS)
    status.add_argument("folder", metavar="DIR", type=Path, help="the league folder")
    status.add_argument("--json", action="store_true", help='{"matches": N, "players": [{"name", "version", '
                        '"mu", "sigma", "games", "status"}, ...]}')

    export = actions.add_parser("export", help="write the web pages as a static folder", epilog=EXITS)
    export.add_argument("folder", metavar="DIR", type=Path, help="the league folder")
    export.add_argument("out", metavar="OUT", type=Path, help="the folder to write (created)")

    player = actions.add_parser("player", help="players who submit over the web: add (prints a token), list, "
                                "revoke, remove", epilog=EXITS)
    player.add_argument("verb", choices=("add", "list", "revoke", "remove"))
    player.add_argument("folder", metavar="DIR", type=Path, help="the league folder")
    player.add_argument("name", metavar="NAME", nargs="?", help="the player (its submissions folder's name)")

    submit = actions.add_parser("submit", help="upload a bot folder to a league's web server (POST /submit)",
                                epilog="exit codes: 0 taken, 1 refused (the reason is printed), 2 bad input or "
                                "no connection")
    submit.add_argument("url", metavar="URL", help="the league's address, e.g. http://127.0.0.1:8080/")
    submit.add_argument("bot", metavar="BOT_DIR", type=Path, help="the bot folder (holding bot.json)")
    submit.add_argument("--token", required=True, help="your player token (from the organiser)")


def _stored_game(argv: list[str]) -> str | None:
    """`league run DIR` on an existing league: its game (so that game's options parse)."""
    from runner.league.settings import stored_settings

    folder = next((Path(a) for a in argv[argv.index("run") + 1:] if not a.startswith("-")), None) \
        if "run" in argv else None
    settings = stored_settings(folder) if folder is not None else None
    return settings.game if settings else None


def run(args: argparse.Namespace, streams) -> int:
    if args.action is None:
        raise UserError("league needs an action: run, serve, status, export, player or submit "
                        "(td-runner league --help)")
    return {"run": _run, "serve": _serve, "status": _status, "export": _export, "player": _player,
            "submit": _submit}[args.action](args, streams)


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """The league settings the command line sets (those it leaves out are the league's own)."""
    given: dict[str, Any] = {}
    if args.game is not None:
        given["game"] = get_game(args.game).name
    if args.submissions is not None:
        if not args.submissions.is_dir():
            raise UserError(f"--submissions {args.submissions}: no such folder")
        given["submissions"] = str(args.submissions.resolve())
    for key, value in (("game_config", str(args.game_config.resolve()) if args.game_config else None),
                       ("timeout_ms", args.timeout_ms), ("startup_ms", args.startup_ms),
                       ("sandbox", args.sandbox), ("match_timeout_s", args.match_timeout),
                       ("table_size", args.table_size), ("seed", args.seed),
                       ("max_upload_mb", args.max_upload_mb), ("max_unpacked_mb", args.max_unpacked_mb),
                       ("max_files", args.max_files), ("build_timeout_s", args.build_timeout),
                       ("build_network", args.build_network),
                       ("uploads_per_hour", args.uploads_per_hour)):
        if value is not None:
            given[key] = value
    game = get_game(given.get("game") or _stored_game(["run", str(args.folder)]) or DEFAULT_GAME)
    options = {option.dest: getattr(args, option.dest, None) for option in game.options}
    options = {key: (str(value) if isinstance(value, Path) else value) for key, value in options.items()
               if value is not None}
    if options:
        given["options"] = options
    return given


def _run(args: argparse.Namespace, streams) -> int:
    from runner.league.run import League
    from runner.league.settings import claim, prepare_rules
    from runner.league.store import connect
    from runner.tournament.local import LocalPool, default_workers

    if args.workers is not None and args.workers < 1:
        raise UserError(f"--workers must be at least 1, got {args.workers}")
    if args.max_matches is not None and args.max_matches < 1:
        raise UserError(f"--max-matches must be at least 1, got {args.max_matches}")
    serve = _address(args.serve) if args.serve else None
    _check_proxies(args.trusted_proxy, serve is not None)
    if serve is not None:
        _need_uvicorn()
    given = _given(args)
    _choose_sandbox(given, serve is not None, streams.err)  # before the folder is touched: a refusal leaves nothing
    folder: Path = args.folder
    existed = (folder / "league.sqlite").is_file()
    if not existed and "submissions" not in given:
        raise UserError(f"{folder} holds no league yet: give --submissions FOLDER (and --game NAME) to start one")
    with contextlib.ExitStack() as stack:
        db = connect(folder, create=True)
        stack.callback(db.close)
        stack.enter_context(_only_runner(folder))
        if given.get("sandbox"):
            _keep_sandboxed(db, streams.err)
        settings = claim_checked(db, given, folder, existed)
        rules = _hide_league(prepare_rules(settings), folder)
        if not Path(settings.submissions).is_dir():
            raise UserError(f"{settings.submissions}: the league's submissions folder is gone")
        workers = args.workers or default_workers(len(rules.seats))
        if args.dask is not None:
            from runner.tournament.dask_backend import DaskConnection, DaskPool

            connection = stack.enter_context(DaskConnection(args.dask, workers))
            pool: Any = DaskPool(connection)
            if pool.workers is None:
                pool.workers = max(2, len(connection.client.scheduler_info().get("workers", {})) or 2)
        else:
            pool = LocalPool(workers)
        out = streams.out

        def log(line: str) -> None:
            if not args.quiet:
                print(line, file=out, flush=True)

        league = League(folder, rules, db, pool, log)
        from runner.replay.cache import start_backfill  # replays of matches that have none, at low priority

        stack.callback(start_backfill(folder).stop)
        if serve is not None:
            from runner.league.submit_route import ensure_organiser_token
            from runner.league.web.server import ServeChild

            server = ServeChild(folder, *serve, trusted_proxies=args.trusted_proxy)
            stack.callback(server.close)
            league.on_pass.append(lambda: server.check(lambda line: print(line, file=out, flush=True)))
            print(f"league pages: {server.url} (served by process {server.process.pid})", file=out, flush=True)
            organiser = ensure_organiser_token(folder)
            if organiser is not None:
                print(f"organiser: sign in on any player page with the token in {organiser} to see every "
                      "bot's output", file=out, flush=True)
        print(f"league {folder}: {rules.game.name}, submissions {settings.submissions}, "
              f"{pool.workers} at once{' on Dask' if args.dask else ''}; Ctrl-C stops", file=out, flush=True)
        stop = threading.Event()
        with _stop_on_signals(stop):
            try:
                stats = league.run(args.max_matches, stop)
            finally:
                if league.in_flight:
                    pool.stop()
                pool.close()
                dropped_count = league.drop_in_flight()
        dropped = f" ({dropped_count} match{'es' if dropped_count != 1 else ''} in flight dropped)" if dropped_count else ""
        steady = stats.steady_cpu_per_match
        cpu = f", league CPU {steady * 1000:.1f} ms per match" if steady is not None else ""
        print(f"stopped{dropped}: {stats.played} match{'es' if stats.played != 1 else ''} played in "
              f"{stats.wall_seconds:.1f} s{cpu}; `td-runner league status {folder}` shows the standings", file=out)
    return ExitCode.OK


def _serve(args: argparse.Namespace, streams) -> int:
    import socket

    from runner.league.submit_route import ensure_organiser_token
    from runner.league.web.server import check_league, listen, serve, url_of

    _check_proxies(args.trusted_proxy, True)
    if args.fd is None and not 0 <= args.port < 65536:
        raise UserError(f"--port {args.port}: the port must be 0-65535")
    check_league(args.folder)
    _need_uvicorn()
    if args.fd is not None:
        sock = socket.socket(fileno=args.fd)
    else:
        sock = listen(args.host, args.port)
        organiser = ensure_organiser_token(args.folder)
        print(f"league pages: {url_of(sock)}; Ctrl-C stops", file=streams.out, flush=True)
        if organiser is not None:
            print(f"organiser: sign in on any player page with the token in {organiser}", file=streams.out,
                  flush=True)
    serve(args.folder, sock, args.trusted_proxy, parent=args.parent, priority=args.priority)
    return ExitCode.OK


def _need_uvicorn() -> None:
    import importlib.util

    if importlib.util.find_spec("uvicorn") is None:
        raise UserError("serving the league's pages needs uvicorn: pip install 'td-runner[league]'")


def claim_checked(db: sqlite3.Connection, given: dict[str, Any], folder: Path, existed: bool) -> Any:
    """claim(), and a league folder made by this very call removed again when its settings are refused."""
    from runner.league.settings import claim, prepare_rules
    from runner.league.store import transaction

    try:
        with transaction(db):
            settings = claim(db, given, folder)
        if not existed:
            prepare_rules(settings)  # a bad option leaves no league behind
        return settings
    except UserError:
        if not existed:
            db.close()
            for name in ("league.sqlite", "league.sqlite-wal", "league.sqlite-shm", "league.lock"):
                (folder / name).unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                folder.rmdir()  # made by this call: a typo leaves no trace
        raise


def _choose_sandbox(given: dict[str, Any], serving: bool, err: Any) -> None:
    """`--serve` takes code from strangers, so it runs it sandboxed: `given["sandbox"]` is set unless the
    organiser says `--no-sandbox`, which is one warning line; a machine where bubblewrap cannot sandbox is
    one error line."""
    import os

    from runner.bots.isolation import check_isolation
    from runner.bots.limits import Limits

    asked = given.get("sandbox")
    if asked is False:
        if serving:
            who = "root" if os.geteuid() == 0 else "this user"
            print(f"warning: --no-sandbox: the bots players upload, and their build scripts, run as {who} with "
                  f"{who}'s rights: they can read and change this league's database, every player's bot and any "
                  "file it can, and use the network", file=err, flush=True)
        return
    if not asked and not serving:
        return
    try:
        check_isolation(Limits(sandbox=True))
    except UserError as exc:
        if asked:
            raise
        raise UserError(f"--serve runs the bots players upload, sandboxed, but {exc}; pass --no-sandbox to run "
                        "them unsandboxed anyway") from None
    given["sandbox"] = True


def _keep_sandboxed(db: sqlite3.Connection, err: Any) -> None:
    """A league started without the sandbox and now run with it keeps it for good (the one setting that may
    change: it changes nothing for a bot that stays in its folder, and a served league needs it)."""
    from runner.league.settings import SETTINGS_KEY, LeagueSettings
    from runner.league.store import get_meta, set_meta, transaction

    text = get_meta(db, SETTINGS_KEY)
    stored = LeagueSettings.from_json(json.loads(text)) if text else None
    if stored is not None and not stored.sandbox:
        with transaction(db):
            set_meta(db, SETTINGS_KEY, json.dumps({**stored.to_json(), "sandbox": True}, sort_keys=True))
        print("this league runs its bots and builds sandboxed from now on (--sandbox)", file=err, flush=True)


def _hide_league(rules: Any, folder: Path) -> Any:
    """In the sandbox, the league folder and the submissions are among the bots' hidden paths: no runtime a
    bot names (a custom command's interpreter) is bound from inside them (runner/bots/sandbox.py)."""
    import attrs

    if not rules.settings.sandbox:
        return rules
    hidden = (*rules.limits.hidden_paths, str(folder.resolve()), rules.settings.submissions)
    return attrs.evolve(rules, limits=attrs.evolve(rules.limits, hidden_paths=hidden))


@contextlib.contextmanager
def _only_runner(folder: Path):  # type: ignore[no-untyped-def]
    """One `league run` per folder (the database has one writer): a second one is one error line."""
    import fcntl

    handle = open(folder / "league.lock", "a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise UserError(f"{folder}: another `td-runner league run` is playing this league (stop it first)") from None
    try:
        yield
    finally:
        handle.close()


@contextlib.contextmanager
def _stop_on_signals(stop: threading.Event):  # type: ignore[no-untyped-def]
    """Ctrl-C and SIGTERM set `stop` (the loop ends within a fraction of a second) instead of raising."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = lambda signum, frame: stop.set()  # noqa: E731
    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _check_proxies(proxies: list[str], serving: bool) -> None:
    """--trusted-proxy: IP addresses (as the server sees its peers), and only with --serve."""
    if proxies and not serving:
        raise UserError("--trusted-proxy is about the pages' submissions: give --serve too")
    for address in proxies:
        try:
            ipaddress.ip_address(address)
        except ValueError:
            raise UserError(f"--trusted-proxy {address!r}: give the proxy's IP address (e.g. 127.0.0.1)") from None


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise UserError(f"--serve {text}: give PORT or HOST:PORT (e.g. 8080 or 127.0.0.1:8080)") from None
    if not 0 <= number < 65536:
        raise UserError(f"--serve {text}: the port must be 0-65535")
    return (host.strip("[]") or DEFAULT_HOST), number


def _status(args: argparse.Namespace, streams) -> int:
    from runner.league.standings import standings, standings_json
    from runner.league.store import connect

    db = connect(args.folder, readonly=True)
    try:
        if args.json:
            print(json.dumps(standings_json(db), indent=2), file=streams.out)
            return ExitCode.OK
        rows = standings(db)
        matches = db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    finally:
        db.close()
    print(f"{args.folder}: {matches} match{'es' if matches != 1 else ''}", file=streams.out)
    table = Table()
    sided = any(row.role for row in rows)
    columns = ("#", "player", "version", *(("role",) if sided else ()), "mu", "sigma", "games", "W-D-L", "faults",
               "status")
    for column in columns:
        table.add_column(column, justify="right" if column in ("#", "mu", "sigma", "games", "faults") else "left")
    rank = 0
    for row in rows:
        rank = rank + 1 if row.status == "active" else rank
        status = row.status + (f": {row.reason}" if row.reason and row.status != "active" else "")
        table.add_row(str(rank) if row.status == "active" else "", row.name, str(row.version),
                      *((row.role,) if sided else ()), f"{row.mu:.2f}", f"{row.sigma:.2f}", str(row.games),
                      f"{row.wins}-{row.draws}-{row.losses}", str(row.faults), status)
    Console(file=streams.out, width=160, highlight=False, markup=False).print(table)
    return ExitCode.OK


def _export(args: argparse.Namespace, streams) -> int:
    from runner.league.web.export import export

    count = export(args.folder, args.out)
    print(f"{plural(count, 'file')} written to {args.out}", file=streams.out)
    return ExitCode.OK


def _player(args: argparse.Namespace, streams) -> int:
    from runner.league import players
    from runner.league.settings import stored_settings
    from runner.league.store import connect

    if args.verb != "list" and not args.name:
        raise UserError(f"league player {args.verb} needs the player's NAME")
    db = connect(args.folder)
    try:
        if args.verb == "add":
            token = players.add_player(db, args.name)
            print(f"player {args.name}: token {token}", file=streams.out)
            print("(shown once: give it to the player; the league keeps only its hash)", file=streams.err)
        elif args.verb == "revoke":
            players.revoke(db, args.name)
            print(f"player {args.name}: token revoked", file=streams.out)
        elif args.verb == "remove":
            settings = stored_settings(args.folder)
            moved = players.remove(db, args.name, args.folder, Path(settings.submissions) if settings else None)
            where = f"; its folder moved to {moved}" if moved else ""
            print(f"player {args.name}: retired{where}", file=streams.out)
        else:
            for info in players.list_players(db):
                state = "retired" if info.retired else "active"
                print(f"{info.name}\t{state}\ttoken: {info.token}\tversions: {info.versions}", file=streams.out)
    finally:
        db.close()
    return ExitCode.OK


def _submit(args: argparse.Namespace, streams) -> int:
    from runner.league.client import submit

    status, text = submit(args.url, args.token, args.bot)
    print(text.rstrip("\n"), file=streams.out if status < 300 else streams.err)
    return ExitCode.OK if status < 300 else ExitCode.DIFFERENT

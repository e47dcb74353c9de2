"""`td-runner` command line: parse arguments, dispatch to runner/commands/<name>.py, map errors to exit codes."""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
import traceback
from typing import NoReturn, Sequence, TextIO

import attrs

from runner import __version__
from runner.errors import ExitCode, UserError
from runner.interrupts import Terminated

#: Subcommand modules under runner/commands/, in the order `--help` lists them.
SUBCOMMANDS = ("match", "verify", "diff", "replay", "validate", "build", "games", "languages", "tournament", "standings",
               "watch", "league")


@attrs.frozen
class Streams:
    """Where a command writes; injected so the CLI can be tested in-process."""

    out: TextIO
    err: TextIO


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so usage errors map to exit 2 in one place."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UserError(f"{self.prog}: {message}")


def build_parser(only: str | None = None, argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The argument parser; with `only`, just that subcommand's module is imported (start-up time matters
    for quick commands such as `verify`: `match` pulls in rich and jsonschema). `argv` lets a subcommand
    add options that depend on other arguments (`match --game NAME` adds that game's options)."""
    parser = _Parser(prog="td-runner", description="Run and check bot matches of file-protocol games "
                     "(Tower Defence, ...): `td-runner games` lists them.")
    parser.add_argument("--version", action="version",
                        version=f"td-runner {__version__} (pure-Python engines: no compiled build)")
    parser.add_argument("--traceback", action="store_true", help="re-raise unexpected errors (debugging)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in SUBCOMMANDS if only is None else (only,) if only in SUBCOMMANDS else ():
        module = importlib.import_module(f"runner.commands.{name}")
        sub = subparsers.add_parser(name, help=module.HELP, description=module.HELP, epilog=module.EXITS)
        module.add_arguments(sub, list(argv))
        sub.set_defaults(handler=module.run)
    if only is None or only not in SUBCOMMANDS:
        for tool in game_tools():  # a game's own commands (`td-runner warzone-map`), after the core's
            if only is None or tool.name == only:
                sub = subparsers.add_parser(tool.name, help=tool.help, description=tool.help)
                tool.add_arguments(sub)
                sub.set_defaults(handler=tool.run)
    return parser


def game_tools() -> list:
    """Every game's `tools`, in registry order (imported only when the command is not a core one)."""
    from runner.games import all_games

    return [tool for game in all_games() for tool in game.tools]


def entry() -> NoReturn:
    """The `td-runner` program (console script and `python -m runner`): `main`, then exit without the
    interpreter's closing garbage collections. Everything a command built is still alive at its end, so
    those passes find nothing to free yet walk every object (60-70 ms after a match, a fifth of a short
    command); frozen, they skip them. Files are closed by the commands themselves and atexit hooks still
    run; only in-process callers of `main` (tests) keep the collector as it was."""
    status = main()
    gc.freeze()
    sys.exit(status)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run one `td-runner` command and return its exit code (see runner.errors.ExitCode)."""
    streams = Streams(out or sys.stdout, err or sys.stderr)
    args = None
    try:
        arguments = list(sys.argv[1:] if argv is None else argv)
        chosen = next((a for a in arguments if not a.startswith("-")), None)
        known = chosen in SUBCOMMANDS or chosen in {tool.name for tool in game_tools()}
        args = build_parser(chosen if known else None, arguments).parse_args(arguments)
        if args.command is None:
            raise UserError("no command given; try `td-runner --help`")
        return int(args.handler(args, streams))
    except UserError as exc:
        print(f"error: {exc}", file=streams.err)
        return ExitCode.USAGE
    except Terminated:
        print("terminated", file=streams.err)
        return ExitCode.TERMINATED
    except KeyboardInterrupt:
        print("interrupted", file=streams.err)
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        return ExitCode.OK
    except Exception:
        if args is not None and getattr(args, "traceback", False):
            raise
        print("td-runner: unexpected error (a bug, please report it):", file=streams.err)
        traceback.print_exc(file=streams.err)
        return ExitCode.BUG

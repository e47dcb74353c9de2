"""`td-runner` command line: parse arguments, dispatch to runner/commands/<name>.py, map errors to exit codes."""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from typing import NoReturn, Sequence, TextIO

import attrs

from runner import __version__
from runner.commands import COMMANDS
from runner.errors import ExitCode, UserError
from runner.games import TOOLS
from runner.interrupts import Terminated

@attrs.frozen
class Streams:
    """Where a command writes; injected so the CLI can be tested in-process."""

    out: TextIO
    err: TextIO


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so usage errors map to exit 2 in one place."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UserError(f"{self.prog}: {message}")


#: The optional C extensions (setup.py): module, its source under runner/, what it speeds up.
COMPILED_PARTS = (
    ("runner.games.invaders.rules._board", "games/invaders/rules/_board.c", "the Invaders board"),
    ("runner.bots._pipes", "bots/_pipes.c", "persistent bots' pipes"),
)


def version_text() -> str:
    """`td-runner 0.1.0; compiled: the Invaders board, persistent bots' pipes`, or which part runs in pure
    Python and why (not built, a stale build, TD_RUNNER_PURE_PYTHON). Computed only for --version: it
    imports the extensions."""
    import importlib.util
    import warnings
    from pathlib import Path

    from runner import compiled

    if compiled.pure_forced():
        return f"td-runner {__version__}; pure Python everywhere ({compiled.PURE_ENV} is set)"
    root = Path(__file__).resolve().parent
    loaded, pure = [], []
    for module, source, what in COMPILED_PARTS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a stale build: said below, in the version line
            built = compiled.load_compiled(module, root / source, what)
        if built is not None:
            loaded.append(what)
        else:
            try:
                stale = importlib.util.find_spec(module) is not None
            except ImportError:
                stale = False
            pure.append(f"{what} ({'built from an older source' if stale else 'not built'})")
    parts = [f"compiled: {', '.join(loaded)}"] if loaded else []
    if pure:
        parts.append(f"pure Python: {', '.join(pure)}")
    return f"td-runner {__version__}; " + "; ".join(parts)


class _Version(argparse.Action):
    """--version, its text made only when asked for."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # type: ignore[override]
        print(version_text())
        parser.exit()


def build_parser(only: str | None = None, argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The argument parser. With `only` (a command or game tool), just that command's module or game is
    imported and its options added: start-up time matters (the tournament and league modules take ~0.2 s to
    load, each game tens of ms). Without, every command and tool is listed with its help line for `--help`
    and argparse's "invalid choice" error, but none is imported (a command-less parse never reaches their
    options). `argv` lets a subcommand add options that depend on other arguments (`match --game NAME`
    adds that game's options)."""
    parser = _Parser(prog="td-runner", description="Run and check bot matches of file-protocol games "
                     "(Tower Defence, ...): `td-runner games` lists them.")
    parser.add_argument("--version", action=_Version, nargs=0, help="print the version and which compiled parts "
                        "are loaded, then exit")
    parser.add_argument("--traceback", action="store_true", help="re-raise unexpected errors (debugging)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, line in COMMANDS.items():
        if only is None:
            subparsers.add_parser(name, help=line, description=line)
        elif name == only:
            module = importlib.import_module(f"runner.commands.{name}")
            sub = subparsers.add_parser(name, help=line, description=line, epilog=module.EXITS)
            module.add_arguments(sub, list(argv))
            sub.set_defaults(handler=module.run)
    if only not in COMMANDS:
        for tool in game_tools(None if only is None else [only]):  # a game's own commands, after the core's
            sub = subparsers.add_parser(tool.name, help=tool.help, description=tool.help)
            tool.add_arguments(sub)
            sub.set_defaults(handler=tool.run)
    return parser


def game_tools(names: Sequence[str] | None = None) -> list:
    """The games' `tools` (all, or those called `names`), in registry order; only the games defining them
    are imported (runner.games.TOOLS)."""
    from runner.games import GAMES, TOOLS, get_game

    owners = {TOOLS[name] for name in (TOOLS if names is None else names) if name in TOOLS}
    return [tool for game in GAMES if game in owners for tool in get_game(game).tools
            if names is None or tool.name in names]


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
        known = chosen in COMMANDS or chosen in TOOLS
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
        import traceback  # only a bug's report needs it (it loads tokenize, linecache, textwrap)

        print("td-runner: unexpected error (a bug, please report it):", file=streams.err)
        traceback.print_exc(file=streams.err)
        return ExitCode.BUG

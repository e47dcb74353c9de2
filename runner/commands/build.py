"""`td-runner build BOT_DIR...`: build bot folders the conventional way of their language (runner/bots/build.py).

Every folder is checked before anything is built (a missing folder or an unreadable bot.json is exit 2). Each
build prints the command it runs, then one line: on stdout when it worked, on stderr with the last lines of
its output when it did not. A build runs in a staging copy beside the folder, and only what it made is moved
into the folder when it worked (runner/bots/staging.py). A built folder is then checked like `td-runner
match` checks it, so "built" means "ready to play"; a file the bot's launch needs and no build made is named
with what was looked for.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from runner.bots.recipes import PROJECT_FILES, BuildPlan, launch_file, plan_build, shown_command
from runner.bots.staging import run_staged
from runner.bots.definition import read_bot_json
from runner.bots.isolation import check_isolation
from runner.bots.limits import Limits
from runner.errors import ExitCode, UserError
from runner.validate import validate_bot_folder

EXITS = ("exit codes: 0 every bot built (or had nothing to build), 1 a build failed or its tool is missing, "
         "2 a folder is not a bot folder, 70 a bug")


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("folders", nargs="+", type=Path, metavar="BOT_DIR", help="bot folders (holding bot.json)")
    parser.add_argument("--verbose", action="store_true", help="print the whole output of every build")
    parser.add_argument("--sandbox", action="store_true", help="build under bubblewrap as a bot runs: only the "
                        "folder writable, its toolchain read-only, nothing else visible, no network")
    parser.add_argument("--network", action="store_true", help="with --sandbox: let the build use the network "
                        "(dependency downloads)")


def run(args: argparse.Namespace, streams) -> int:
    if args.network and not args.sandbox:
        raise UserError("--network is for --sandbox builds (without the sandbox a build has the machine's network)")
    if args.sandbox:
        check_isolation(Limits(sandbox=True))  # no bubblewrap: one line before anything is built
    plans: list[tuple[Path, BuildPlan | None]] = []
    for folder in args.folders:
        plans.append((folder, plan_build(folder, read_bot_json(folder))))  # UserError (exit 2) before any build
    failed = 0
    for folder, plan in plans:
        if plan is None:
            ready = _missing_launch_file(folder, None) or _refusal(folder)
            if ready is None:
                print(f"{folder}: nothing to build", file=streams.out)
            else:
                print(f"{folder}: nothing to build, but td-runner match would refuse it: {ready}", file=streams.err)
                failed += 1
            continue
        print(f"{folder}: building ({plan.recipe}: {plan.command})", file=streams.err, flush=True)
        result = run_staged(plan, sandbox=args.sandbox, network=args.network)
        if result.retried:
            print(f"{folder}: again with the network ({shown_command(plan.retry, folder)})", file=streams.err)
        if args.verbose and result.output:
            print(result.output.rstrip("\n"), file=streams.err)
        if not result.ok:
            failed += 1
            print(f"{folder}: build failed: {result.problem}", file=streams.err)
            if result.tail and not args.verbose:
                print(f"  last {len(result.tail)} lines of its output:", file=streams.err)
                for line in result.tail:
                    print(f"  | {line}", file=streams.err)
            continue
        refusal = _missing_launch_file(folder, plan) or _refusal(folder, plan)
        if refusal is not None:
            failed += 1
            print(f"{folder}: built, but td-runner match would refuse it: {refusal}", file=streams.err)
            continue
        note = f"; {result.note}" if result.note else ""
        print(f"{folder}: built ({plan.recipe}, {result.seconds:.1f} s{note})", file=streams.out)
    if failed:
        print(f"{failed} of {len(plans)} bot folder{'s' if len(plans) != 1 else ''} not ready", file=streams.err)
        return ExitCode.DIFFERENT
    return ExitCode.OK


def _refusal(folder: Path, plan: BuildPlan | None = None) -> str | None:
    """The first reason `td-runner match` would refuse the folder (the checks of `td-runner validate`), with
    what the build did instead of match's advice to run the build that just ran."""
    report = validate_bot_folder(folder)
    if report.unreadable is not None:
        return report.unreadable
    if not report.problems:
        return None
    more = f" (and {len(report.problems) - 1} more: td-runner validate {folder})" if len(report.problems) > 1 else ""
    done = f" (`{plan.command}` did not make it)" if plan is not None else f" ({_NOTHING_BUILDS})"
    return f"{report.path.name}: {report.problems[0]}{more}".replace(f" (build the bot first: td-runner build {folder})", done)


#: A launch file with one of these suffixes is a build's output, not a source the writer forgot.
BUILT_SUFFIXES = ("", ".jar", ".exe", ".dll")


def _missing_launch_file(folder: Path, plan: BuildPlan | None) -> str | None:
    """When the file the bot's launch starts is not there: what made (or would make) it, in one line."""
    data = read_bot_json(folder)
    relative = launch_file(data)
    if relative is None or (folder / relative).is_file():
        return None
    if plan is None and Path(relative).suffix not in BUILT_SUFFIXES:
        return None  # a source file missing: `validate`'s words
    if plan is not None:
        return f"`{plan.command}` worked but made no {relative} (the file bot.json's launch starts)"
    return f"the file bot.json's launch starts, {relative}, does not exist, and {_NOTHING_BUILDS}"


_NOTHING_BUILDS = (f"the folder has nothing that builds it (looked for {', '.join(PROJECT_FILES[:-1])} or "
                   f"{PROJECT_FILES[-1]})")

"""`td-runner languages`: the launch table (botLanguage -> command line) and whether each tool is installed."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from runner.bots import languages as lang
from runner.commands.match import DEFAULT_RUNNER_CONFIG
from runner.config import load_runner_config
from runner.errors import ExitCode

HELP = "print the launch table: each botLanguage, its command line, and whether its program is on this machine"
EXITS = "exit codes: 0, 2 bad runner config, 70 a bug"


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("--config", type=Path, help="runner config whose `languages` override the table "
                        "(default: ./game-runner-config.json when present)")


def _program_status(program: str) -> str:
    if program == sys.executable:
        return "yes (the Python running td-runner)"
    if program.startswith("./"):
        return "the bot's own executable"
    found = shutil.which(program)
    return f"yes ({found})" if found else "NOT INSTALLED"


def run(args: argparse.Namespace, streams) -> int:
    path = args.config or (DEFAULT_RUNNER_CONFIG if DEFAULT_RUNNER_CONFIG.is_file() else None)
    overrides = load_runner_config(path).languages if path is not None else {}
    table = lang.language_table(overrides or None)
    rows = []
    for name, template in table.items():
        argv = lang.expand(template, file="{file}", directory="{dir}", cores=None)
        cores = f" [+ {' '.join(template.with_cores)} with coreCount]" if template.with_cores else ""
        rows.append((name, " ".join(argv) + cores, _program_status(argv[0])))
    rows.append((lang.CUSTOM, "bot.json's `command` list", "-"))
    width = max(len(row[0]) for row in rows)
    command_width = max(len(row[1]) for row in rows)
    print(f"{'language':<{width}}  {'command line':<{command_width}}  installed", file=streams.out)
    for name, command, status in rows:
        print(f"{name:<{width}}  {command:<{command_width}}  {status}", file=streams.out)
    return ExitCode.OK

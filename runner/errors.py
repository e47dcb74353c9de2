"""Exceptions the CLI maps to exit codes (the only place that does is runner/cli.py)."""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    OK = 0
    DIFFERENT = 1  # the tool ran and found differences (verify, diff, validate), like Unix diff
    USAGE = 2  # bad arguments or input the user can fix
    BUG = 70  # unexpected exception (EX_SOFTWARE)
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)
    TERMINATED = 143  # SIGTERM (128 + SIGTERM), as a shell reports it


class UserError(Exception):
    """A problem the user can fix; the CLI prints it as one line (`error: ...`) and exits 2."""

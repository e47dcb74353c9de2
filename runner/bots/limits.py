"""Resource limits for one bot turn; the runner config can override each field."""

from __future__ import annotations

import math
import os

import attrs

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30


def _positive_or_none(instance: object, attribute: attrs.Attribute, value: int | None) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value <= 0):
        raise ValueError(f"{attribute.name} must be a positive integer or None, got {value!r}")


@attrs.frozen
class Limits:
    """Per-turn limits. Memory, CPU, file size, open files and processes are rlimits of every process the
    bot starts (each child has its own); None leaves that rlimit as the runner has it.

    memory_bytes is RLIMIT_DATA (private writable memory: heap and anonymous mappings), not RLIMIT_AS: the
    JVM reserves over 1 GiB of address space for class metadata before running anything and .NET reserves
    far more, so an address-space cap small enough to matter stops Java bots from starting at all.
    """

    timeout_ms: int = attrs.field(default=2000, validator=_positive_or_none)  # spec 8.1 max-runtime-ms
    memory_bytes: int | None = attrs.field(default=2 * GiB, validator=_positive_or_none)
    address_space_bytes: int | None = attrs.field(default=None, validator=_positive_or_none)  # RLIMIT_AS
    cpu_seconds: int | None = attrs.field(default=None, validator=_positive_or_none)  # None: see cpu_limit
    file_size_bytes: int | None = attrs.field(default=512 * MiB, validator=_positive_or_none)
    open_files: int | None = attrs.field(default=1024, validator=_positive_or_none)
    # RLIMIT_NPROC counts every process of the user, not just the bot's, so it is off unless asked for
    processes: int | None = attrs.field(default=None, validator=_positive_or_none)
    output_cap_bytes: int = attrs.field(default=1 * MiB, validator=_positive_or_none)
    # bytes of an answer file read at least (a game may read more: Lanes reads 64 KiB + 1 to tell "too big")
    command_cap_bytes: int = attrs.field(default=64 * KiB, validator=_positive_or_none)
    sandbox: bool = False
    # sandbox only: folders the bot must not even read, though the sandbox shows little besides its own
    # folder (runner/bots/sandbox.py): no runtime is bound from inside them, and one that would show through
    # a bound folder is covered by an empty tmpfs; give the opponent's bot folder (both bots run at once:
    # otherwise one could read the other's command.txt as it is written), the match log folder, a league's
    # folder and submissions
    hidden_paths: tuple[str, ...] = attrs.field(default=(), converter=lambda paths: tuple(map(str, paths)))
    # None: run each turn in its own PID namespace when this machine allows it, else fall back to killing
    # the process group plus a sweep for marked processes; True: insist (UserError if impossible); False:
    # never (the fallback only, e.g. to test it)
    pid_namespace: bool | None = None
    # a persistent bot's process lives for the whole match: no CPU-time rlimit derived from one turn
    whole_match: bool = False

    def cpu_limit(self) -> int | None:
        """RLIMIT_CPU: the explicit value, else one that never bites before the wall clock does (all cores
        busy for the whole turn) and only stops a spinning process that somehow outlived its turn."""
        if self.cpu_seconds is not None or self.whole_match:
            return self.cpu_seconds
        return math.ceil(self.timeout_ms / 1000 * (os.cpu_count() or 1)) + 1

    def persistent(self) -> "Limits":
        """These limits for a process that lives for the whole match (runner/bots/persistent.py)."""
        return attrs.evolve(self, whole_match=True)

"""The web server's CPU priority beside the league on the same machine (`league serve --priority`).

The league's matches are what the organiser runs the league for; on a machine whose cores the league keeps
busy, every cycle the server takes is a match's. Below the league's priority, the server gets the CPU the
league leaves (which on the 2-core machine was enough for the pages: runner/league/README.md, Benchmark).
Kept apart from server.py so that a process can lower its priority before its heavier imports."""

from __future__ import annotations

import contextlib
import os

PRIORITIES = ("normal", "low", "idle")
DEFAULT_PRIORITY = "low"
#: The nice value of `low` (SCHED_BATCH besides: no waking up ahead of the league's processes).
LOW_NICE = 10


def set_priority(priority: str) -> None:
    """This process's CPU scheduling, for the threads it starts afterwards too (so it is set before any):
    `normal` leaves it as it is; `low` is SCHED_BATCH and nice LOW_NICE (on a busy CPU, about a tenth of the
    share of a league process, and it never preempts one on waking); `idle` is SCHED_IDLE (only the CPU
    nothing else wants). Where the platform has no such policy, nice alone (19 for idle)."""
    if priority == "normal":
        return
    policy = getattr(os, "SCHED_IDLE" if priority == "idle" else "SCHED_BATCH", None)
    with contextlib.suppress(OSError, AttributeError):
        if policy is not None:
            os.sched_setscheduler(0, policy, os.sched_param(0))
            if priority == "idle":
                return
    with contextlib.suppress(OSError):
        os.nice(max(0, (19 if priority == "idle" else LOW_NICE) - os.nice(0)))

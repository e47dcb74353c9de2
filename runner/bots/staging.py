"""A build run in a copy of the bot folder, so that the folder itself only ever holds whole states.

A league watches its submissions folder and takes every content it sees as a version; a build that writes
in place shows it one half-made state after another (a `.venv` being filled made three bogus versions, one
of which played a rated match). So the build runs in a staging copy beside the folder (a hidden sibling,
which no league takes for a player: hidden names are skipped), and when it succeeds each top-level entry it
added or changed is renamed into the folder whole (a file replaced at once; a folder such as `.venv` or
`target` moved aside and the new one renamed in). A failed build leaves the folder as it was. Paths of the
copy in the build's output are written as the folder's own.

The copy leaves out caches (`copy_bot`) and the plan's `scratch` folders (CMake's `build/` records its
source folder's absolute path and refuses to be used from another).
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

import attrs

from runner.bots.build import BuildResult, run_build
from runner.bots.recipes import BuildPlan
from runner.tournament.entrants import copy_bot

#: Marks a staging copy's name (`.<folder>.td-build-<random>` beside the folder).
STAGE_MARK = ".td-build-"


def run_staged(plan: BuildPlan, *, timeout_s: float | None = None, sandbox: bool = False,
               network: bool = False) -> BuildResult:
    """`run_build` in a staging copy of `plan.folder`; on success what it made is moved into the folder.

    Where no copy can be made beside the folder (its parent is not writable), the build runs in place."""
    folder = Path(plan.folder)
    stage = folder.parent / f".{folder.name}{STAGE_MARK}{secrets.token_hex(4)}"
    try:
        copy_bot(folder, stage, leave_out=plan.scratch)
    except OSError:
        shutil.rmtree(stage, ignore_errors=True)
        return run_build(plan, timeout_s=timeout_s, sandbox=sandbox, network=network)
    try:
        before = _signature(stage)
        result = run_build(plan.moved(stage), timeout_s=timeout_s, sandbox=sandbox, network=network)
        if result.ok:
            move_back(stage, folder, before)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    text = str(os.path.abspath(stage))
    own = str(os.path.abspath(folder))
    return attrs.evolve(result, plan=plan, output=result.output.replace(text, own),
                        problem=result.problem.replace(text, own) if result.problem else None)


def clean_stages(parent: Path) -> None:
    """Remove staging copies a killed build left in `parent`."""
    try:
        entries = list(parent.iterdir())
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(".") and STAGE_MARK in entry.name and entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)


Signature = dict[str, tuple]


def _signature(folder: Path) -> Signature:
    """Every entry under `folder` (relative path) with what a change would alter: kind, size, time, mode."""
    found: Signature = {}
    for root, dirs, files in os.walk(folder):
        for name in (*dirs, *files):
            path = os.path.join(root, name)
            info = os.lstat(path)
            link = os.readlink(path) if os.path.islink(path) else None
            found[os.path.relpath(path, folder)] = (info.st_mode, info.st_size if not os.path.isdir(path) else 0,
                                                    info.st_mtime_ns if not os.path.isdir(path) else 0, link)
        dirs[:] = [name for name in dirs if not os.path.islink(os.path.join(root, name))]
    return found


def changed_entries(before: Signature, after: Signature) -> list[str]:
    """The top-level names under which anything was added or changed (removals alone are not carried back)."""
    changed = {path.split(os.sep, 1)[0] for path, value in after.items() if before.get(path) != value}
    return sorted(changed)


def move_back(stage: Path, folder: Path, before: Signature) -> list[str]:
    """Rename each top-level entry the build added or changed from `stage` into `folder`; their names."""
    names = changed_entries(before, _signature(stage))
    trash = stage / f".replaced{STAGE_MARK}{secrets.token_hex(4)}"
    trash.mkdir()
    for name in names:
        source, target = stage / name, folder / name
        if os.path.isdir(target) and not os.path.islink(target) or (os.path.lexists(target) and os.path.isdir(source)):
            target.rename(trash / name)  # a folder cannot be replaced in one rename: the old one goes first
        try:
            os.replace(source, target)
        except OSError:  # another file system after all
            shutil.move(str(source), str(target))
    return names

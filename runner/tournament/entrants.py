"""Bot folders as tournament entrants: a name, a content hash, and a frozen copy to play from.

Matches never run in the folders the user named: a per-turn bot's folder receives state files and its answer
every turn, and two matches of one bot at once would overwrite each other's. Each entrant is copied once to
`DIR/bots/<hash>/` (what the hash names, whatever happens to the original later; its files made read-only),
and every match plays in a fresh seat folder made from that snapshot, its files hard links to the
snapshot's (`give_seat`): a seat costs folders and links, not a copy of the bot.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import stat
import tarfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from runner.bots.definition import load_bot, read_bot_json
from runner.errors import UserError

#: Folders no bot needs to run and whose content changes by itself (caches, version control).
SKIPPED_DIRS = frozenset({"__pycache__", ".git", ".mypy_cache", ".pytest_cache"})
HASH_LENGTH = 16


@attrs.frozen
class Entrant:
    """One bot of the tournament. `problem` says why it cannot start (it then forfeits every match)."""

    name: str  # unique within the tournament: nickName, made unique with the folder name when needed
    folder: str  # as the user named it
    hash: str  # content hash of the folder (runner-written turn files excluded)
    author: str
    problem: str | None = None

    @property
    def can_start(self) -> bool:
        return self.problem is None


def content_hash(folder: Path, ignored: Iterable[str] = ()) -> str:
    """A hash of every file's relative path, mode bit `x` and bytes; top-level `ignored` names are left out
    (the files the runner writes into a bot folder each turn, so a folder used in `td-runner match` keeps
    its hash)."""
    digest = hashlib.sha256()
    for path, relative in folder_files(folder, ignored):
        digest.update(relative.encode() + b"\0")
        if path.is_symlink():
            digest.update(b"link\0" + os.readlink(path).encode() + b"\0")
            continue
        digest.update(b"x\0" if os.access(path, os.X_OK) else b"-\0")
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        digest.update(b"\0")
    return digest.hexdigest()[:HASH_LENGTH]


def folder_files(folder: Path, ignored: Iterable[str] = ()) -> list[tuple[Path, str]]:
    """Every file of a bot folder (as `content_hash` sees it) with its relative POSIX path, in path order;
    top-level `ignored` names left out."""
    ignored = set(ignored)
    named = ((path, path.relative_to(folder).as_posix()) for path in _files(folder))
    return sorted((pair for pair in named if pair[1] not in ignored), key=lambda pair: pair[1])


def _files(folder: Path) -> list[Path]:
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not os.path.islink(os.path.join(root, d)))
        found.extend(Path(root) / name for name in files)
        found.extend(Path(root) / name for name in os.listdir(root)
                     if os.path.islink(os.path.join(root, name)) and os.path.isdir(os.path.join(root, name)))
    return found


def load_entrants(
    folders: Sequence[str],
    ignored: Iterable[str] = (),
    languages: Mapping[str, Sequence[str]] | None = None,
    game_languages: Mapping[str, Sequence[str]] | None = None,
) -> list[Entrant]:
    """Every bot folder as an Entrant, in the order given.

    A folder that does not exist or has no readable bot.json object is the user's typo: UserError. A bot.json
    that `td-runner match` would refuse (unknown language, missing bot file or interpreter) makes an entrant
    that cannot start: it stays in the tournament and loses its matches, so one broken submission does not
    stop a class's tournament. A folder refused so that has a build (runner/bots/recipes.py: a Python bot's
    requirements.txt, a Makefile, ...) is built first as `td-runner build` builds it, and checked again.
    Two folders with the same content are one bot entered twice: UserError.
    """
    ignored = tuple(ignored)
    drafts = []
    for folder in folders:
        path = Path(folder)
        data = read_bot_json(path)  # UserError: not a folder, no bot.json, not a JSON object
        problem = _refusal(path, {**(game_languages or {}), **(languages or {})})
        nick = data.get("nickName") if isinstance(data.get("nickName"), str) and data.get("nickName") else path.name
        author = data.get("author") if isinstance(data.get("author"), str) else ""
        drafts.append((str(folder), nick, author, content_hash(path, ignored), problem))
    seen: dict[str, str] = {}
    for folder, _, _, digest, _ in drafts:
        if digest in seen:
            raise UserError(f"bot folders {seen[digest]} and {folder} have the same content (hash {digest}): "
                            "enter each bot once")
        seen[digest] = folder
    return [Entrant(name, folder, digest, author, problem)
            for (folder, _, author, digest, problem), name in zip(drafts, _unique_names(drafts))]


def _refusal(path: Path, languages: Mapping[str, Sequence[str]]) -> str | None:
    """Why `td-runner match` refuses the folder, after the build it needs (run only when it is refused)."""
    from runner.bots.recipes import plan_build
    from runner.bots.staging import run_staged

    try:
        load_bot(path, languages)
        return None
    except UserError as exc:
        problem = str(exc)
    try:
        plan = plan_build(path, read_bot_json(path))
    except UserError as exc:
        return str(exc)
    if plan is None:
        return problem
    result = run_staged(plan)
    if not result.ok:
        return f"{path}: build failed: {result.problem}"
    try:
        load_bot(path, languages)
    except UserError as exc:
        return str(exc)
    return None


def _unique_names(drafts: Sequence[tuple[str, str, str, str, str | None]]) -> list[str]:
    """nickName; when two share one, `nickName (folder)`; when even that repeats, the hash is added."""
    nicks = [nick for _, nick, _, _, _ in drafts]
    names = [nick if nicks.count(nick) == 1 else f"{nick} ({Path(folder).name})"
             for folder, nick, _, _, _ in drafts]
    return [name if names.count(name) == 1 else f"{name} {digest[:6]}"
            for name, (_, _, _, digest, _) in zip(names, drafts)]


def snapshot(entrant: Entrant, root: Path) -> Path:
    """`root/<hash>`: a copy of the entrant's folder made once (copied aside, then renamed into place)."""
    target = root / entrant.hash
    if target.is_dir():
        return target
    root.mkdir(parents=True, exist_ok=True)
    partial = root / f".{entrant.hash}.{os.getpid()}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    copy_bot(Path(entrant.folder), partial)
    make_read_only(partial)  # every match's seats share its files (`give_seat`)
    try:
        partial.rename(target)
    except OSError:  # another process won the race; its copy is the same content
        shutil.rmtree(partial, ignore_errors=True)
    return target


def copy_bot(source: Path, target: Path, leave_out: Iterable[str] = ()) -> None:
    """A bot folder copied with its modes and symlinks (a bot's own .venv keeps working), caches and the
    top-level names `leave_out` left out."""
    top, leave_out = os.path.abspath(source), frozenset(leave_out)

    def ignore(directory: str, names: list[str]) -> set[str]:
        skipped = {name for name in names if name in SKIPPED_DIRS}
        return skipped | {name for name in names if name in leave_out} if os.path.abspath(directory) == top else skipped

    shutil.copytree(source, target, symlinks=True, ignore=ignore)


#: Who owns a snapshot's files when the runner is root: nobody. A sandboxed bot runs as uid 65534 inside its
#: user namespace, which the kernel maps to the runner's own uid outside; owning its seat's shared files, it
#: could chmod them writable and change its version's snapshot through the hard link. Owned by another uid
#: they are read-only to it whatever it does (no capabilities in the sandbox). An unprivileged runner cannot
#: give files away: there the seal check after each match (runner/league/seals.py) catches such a change.
SNAPSHOT_OWNER = 65534


def make_read_only(folder: Path) -> None:
    """Take the write bits off every file of a snapshot (not its folders), so that a seat may share them; as
    root, give them to SNAPSHOT_OWNER too."""
    give_away = os.geteuid() == 0
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode):
                continue
            if info.st_mode & 0o222:
                os.chmod(path, stat.S_IMODE(info.st_mode) & ~0o222)
            if give_away and info.st_uid != SNAPSHOT_OWNER:
                os.lchown(path, SNAPSHOT_OWNER, SNAPSHOT_OWNER)


def give_seat(snapshot: Path, seat: Path) -> None:
    """A match seat's bot folder made from `snapshot`: its folders made anew (the bot and the runner create,
    replace and remove files in them), each read-only file hard-linked (shared, never copied: the runner
    writes a turn's files afresh, never through an existing one, and the bot cannot write it in place), and
    every other file copied, as `copy_bot` copies. Where links cannot be made (another file system), a copy."""
    shutil.copytree(snapshot, seat, symlinks=True, ignore=shutil.ignore_patterns(*SKIPPED_DIRS), copy_function=_share)


def _share(source: str, target: str) -> None:
    if os.lstat(source).st_mode & 0o222:
        shutil.copy2(source, target)  # a file the bot may write: its own copy
    else:
        link_or_copy(source, target)


def link_or_copy(source: str | Path, target: str | Path, copy: Callable[[Any, Any], Any] = shutil.copy2) -> None:
    """`target` as a hard link to `source`, or made by `copy` where no link can be made (another file system,
    or one without hard links): for files written once and never changed (seat files, cached replays)."""
    try:
        os.link(source, target)
    except OSError:
        copy(source, target)


def pack(folder: Path) -> bytes:
    """A bot folder as tar.gz bytes, to ship to another machine (tar, not zip: it keeps modes and symlinks)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        archive.add(folder, arcname=".")
    return buffer.getvalue()


def unpack(data: bytes, target: Path) -> None:
    """Unpack `pack`'s bytes into `target` (created), refusing paths outside it."""
    target.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        archive.extractall(target, filter="data")

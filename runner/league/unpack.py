"""Unpacking an uploaded bot (`.zip` or `.tar.gz`): the league's security boundary with the outside world.

Everything is checked from the archive's own directory before a byte is written: the number of entries, each
path (no absolute path, no `..`, no name that is not plain text), each entry's kind (regular files and
folders; a symbolic link only when it stays inside the bot folder; no hard links, devices, FIFOs), the
declared total against the unpacked cap, and each member's compression ratio (a "bomb": a tiny archive that
would unpack to gigabytes). Then the files are written with the bytes actually produced counted against the
same caps (a zip may lie about its sizes). The target is a fresh folder the caller renames into place only
when the whole bot is there; on any refusal the caller removes it, so nothing is left behind.

A refusal is an `UploadRefused` with one line that can be shown to the player as it is.
"""

from __future__ import annotations

import io
import os
import stat
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import attrs

MAX_RATIO = 200  # unpacked / compressed, per member of more than RATIO_FLOOR bytes: more is a bomb
RATIO_FLOOR = 1 << 20
CHUNK = 1 << 16


class UploadRefused(Exception):
    """An upload that is not taken; the message is the reason, for the player (HTTP 4xx) and the organiser."""

    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.status = status


@attrs.frozen
class Caps:
    upload_bytes: int = 20 << 20
    unpacked_bytes: int = 200 << 20
    files: int = 2000


@attrs.frozen
class Entry:
    """One archive member, as checked: its path inside the bot folder, its kind and size."""

    path: PurePosixPath
    kind: str  # 'file', 'dir', 'link'
    size: int
    mode: int = 0o644
    target: str = ""  # links


def unpack(data: bytes, target: Path, caps: Caps) -> Path:
    """Unpack `data` into the new folder `target` (which must not exist); the folder holding bot.json (target
    itself, or its single top folder). UploadRefused on any problem; the caller removes `target` then."""
    if len(data) > caps.upload_bytes:
        raise UploadRefused(f"the upload is {len(data)} bytes; this league takes at most {caps.upload_bytes}", 413)
    if data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06":
        reader: _Reader = _ZipReader(data)
    elif data[:2] == b"\x1f\x8b":
        reader = _TarReader(data, caps)
    else:
        raise UploadRefused("not a .zip or .tar.gz archive", 415)
    entries = reader.entries()
    _check_all(entries, caps)
    target.mkdir(parents=True)
    written = 0
    for entry in entries:  # folders and files first; nothing is ever written through a link
        path = target.joinpath(*entry.path.parts)
        if entry.kind == "dir":
            path.mkdir(parents=True, exist_ok=True)
            continue
        if entry.kind == "link":
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "xb") as out:
            for chunk in reader.read(entry):
                written += len(chunk)
                if written > caps.unpacked_bytes:
                    raise UploadRefused(f"the archive unpacks to more than {caps.unpacked_bytes} bytes", 413)
                out.write(chunk)
        os.chmod(path, 0o755 if entry.mode & 0o111 else 0o644)
    links = [entry for entry in entries if entry.kind == "link"]
    for entry in links:
        path = target.joinpath(*entry.path.parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(entry.target, path)
    top = os.path.realpath(target)
    for entry in links:  # links may chain: only the resolved path tells where one really leads
        resolved = os.path.realpath(target.joinpath(*entry.path.parts))
        if resolved != top and not resolved.startswith(top + os.sep):
            raise UploadRefused(f"{entry.path}: a link that leaves the bot folder ({entry.target})")
    return _bot_folder(target)


def _check_all(entries: list[Entry], caps: Caps) -> None:
    if not entries:
        raise UploadRefused("the archive is empty")
    if len(entries) > caps.files:
        raise UploadRefused(f"the archive holds {len(entries)} entries; this league takes at most {caps.files}", 413)
    total = sum(entry.size for entry in entries)
    if total > caps.unpacked_bytes:
        raise UploadRefused(f"the archive unpacks to {total} bytes; this league takes at most {caps.unpacked_bytes}", 413)
    seen: set[PurePosixPath] = set()
    links = {entry.path for entry in entries if entry.kind == "link"}
    for entry in entries:
        if entry.path in seen:
            raise UploadRefused(f"{entry.path}: the archive holds this path twice")
        seen.add(entry.path)
        if any(parent in links for parent in entry.path.parents):
            raise UploadRefused(f"{entry.path}: a path through a link")
        if entry.kind == "link" and (entry.target.startswith("/") or _normal(entry.path.parent / entry.target) is None):
            raise UploadRefused(f"{entry.path}: a link that leaves the bot folder ({entry.target})")


def _normal(path: PurePosixPath) -> PurePosixPath | None:
    """`path` with `.` and `..` resolved, or None when it climbs above the top."""
    parts: list[str] = []
    for part in path.parts:
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
            continue
        parts.append(part)
    return PurePosixPath(*parts) if parts else PurePosixPath(".")


def _member_path(name: str) -> PurePosixPath:
    """A member's name as a safe relative path, or UploadRefused."""
    if "\\" in name or "\0" in name or any(ord(c) < 32 for c in name):
        raise UploadRefused(f"{name!r}: a path with backslashes or control characters")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise UploadRefused(f"{name}: an absolute path")
    path = PurePosixPath(name)
    if ".." in path.parts:
        raise UploadRefused(f"{name}: a path with '..'")
    parts = [part for part in path.parts if part not in ("", ".")]
    if not parts:
        raise UploadRefused(f"{name!r}: an empty path")
    return PurePosixPath(*parts)


def _bot_folder(target: Path) -> Path:
    if (target / "bot.json").is_file():
        return target
    tops = [entry for entry in target.iterdir()]
    if len(tops) == 1 and tops[0].is_dir() and not tops[0].is_symlink() and (tops[0] / "bot.json").is_file():
        return tops[0]
    raise UploadRefused("no bot.json at the top of the archive (or in its single top folder)")


class _Reader:
    def entries(self) -> list[Entry]: ...

    def read(self, entry: Entry) -> Iterator[bytes]: ...


class _ZipReader(_Reader):
    def __init__(self, data: bytes) -> None:
        try:
            self.archive = zipfile.ZipFile(io.BytesIO(data))
        except Exception as exc:  # noqa: BLE001 (as below)
            raise UploadRefused(f"not a readable zip archive: {type(exc).__name__}: {exc}") from None
        self.infos: dict[PurePosixPath, zipfile.ZipInfo] = {}

    def entries(self) -> list[Entry]:
        found = []
        for info in self.archive.infolist():
            path = _member_path(info.filename.rstrip("/") if info.is_dir() else info.filename)
            mode = info.external_attr >> 16
            kind = stat.S_IFMT(mode)
            if info.is_dir() or kind == stat.S_IFDIR:
                found.append(Entry(path, "dir", 0))
                continue
            if kind == stat.S_IFLNK:
                if info.file_size > 4096:
                    raise UploadRefused(f"{path}: a link with a {info.file_size}-byte target")
                target = self.archive.read(info).decode("utf-8", errors="replace")
                found.append(Entry(path, "link", 0, target=target))
                continue
            if kind not in (0, stat.S_IFREG):
                raise UploadRefused(f"{path}: not a regular file, folder or link (a device or FIFO)")
            if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
                raise UploadRefused(f"{path}: compressed {info.compress_size} bytes unpack to {info.file_size} "
                                    f"(more than {MAX_RATIO}x): refused as a zip bomb", 413)
            self.infos[path] = info
            found.append(Entry(path, "file", info.file_size, mode & 0o777))
        return found

    def read(self, entry: Entry) -> Iterator[bytes]:
        try:
            with self.archive.open(self.infos[entry.path]) as stream:
                while chunk := stream.read(CHUNK):
                    yield chunk
        except Exception as exc:  # noqa: BLE001 (a hostile archive can break the stdlib's parser in odd ways)
            raise UploadRefused(f"{entry.path}: cannot be unpacked: {type(exc).__name__}: {exc}") from None


class _TarReader(_Reader):
    def __init__(self, data: bytes, caps: Caps) -> None:
        self.data = data
        self.caps = caps
        self.members: dict[PurePosixPath, tarfile.TarInfo] = {}
        self.archive: tarfile.TarFile | None = None

    def entries(self) -> list[Entry]:
        found = []
        declared = 0
        try:  # a streaming pass over the headers: stops as soon as the caps are passed, writes nothing
            with tarfile.open(fileobj=io.BytesIO(self.data), mode="r|gz") as archive:
                for member in archive:
                    if len(found) >= self.caps.files:
                        raise UploadRefused(f"the archive holds more than {self.caps.files} entries", 413)
                    declared += member.size
                    if declared > self.caps.unpacked_bytes:
                        raise UploadRefused(f"the archive unpacks to more than {self.caps.unpacked_bytes} bytes", 413)
                    found.append(self._entry(member))
        except UploadRefused:
            raise
        except Exception as exc:  # noqa: BLE001 (a hostile archive can break the stdlib's parser in odd ways)
            raise UploadRefused(f"not a readable .tar.gz archive: {type(exc).__name__}: {exc}") from None
        if declared > RATIO_FLOOR and declared > MAX_RATIO * len(self.data):
            raise UploadRefused(f"{len(self.data)} compressed bytes unpack to {declared} (more than {MAX_RATIO}x): "
                                "refused as an archive bomb", 413)
        return found

    def _entry(self, member: tarfile.TarInfo) -> Entry:
        path = _member_path(member.name)
        if member.isdir():
            return Entry(path, "dir", 0)
        if member.issym():
            return Entry(path, "link", 0, target=member.linkname)
        if member.islnk():
            raise UploadRefused(f"{path}: a hard link (not taken)")
        if not member.isreg():
            raise UploadRefused(f"{path}: not a regular file, folder or link (a device or FIFO)")
        self.members[path] = member
        return Entry(path, "file", member.size, member.mode & 0o777)

    def read(self, entry: Entry) -> Iterator[bytes]:
        if self.archive is None:
            self.archive = tarfile.open(fileobj=io.BytesIO(self.data), mode="r:gz")
        try:
            member = self.archive.getmember(self.members[entry.path].name)
            stream = self.archive.extractfile(member)
            if stream is None:
                return
            while chunk := stream.read(CHUNK):
                yield chunk
        except Exception as exc:  # noqa: BLE001 (as above)
            raise UploadRefused(f"{entry.path}: cannot be unpacked: {type(exc).__name__}: {exc}") from None

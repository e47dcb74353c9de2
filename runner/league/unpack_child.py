"""The unpack itself, run as a child process under a memory and a time limit (`runner.league.unpack` starts it).

Run as a script (`python -I -S unpack_child.py TARGET CAPS_JSON [ARCHIVE]`, the archive on stdin without
ARCHIVE): it imports the standard library only, so it starts in a few milliseconds and no package on the
path can change it. It sets its own limits first, then reads and checks the archive, writes the bot folder
into TARGET, and prints one JSON line: `{"ok": true}` or `{"status": 4xx, "reason": "..."}`. Whatever the
archive does (a pax header of 400 MiB, a gzip that inflates forever), the worst it can do is get this
process refused memory or killed; the league or web process that started it only waits.

Everything is checked before a byte is written: the raw tar headers (pax, GNU long names and links: each at
most HEADER_CAP bytes, so the standard library never buffers a large one), zip extra fields and comments,
the number of entries, each path (no absolute path, no `..`, nothing but plain text; `./` prefixes are
dropped), each entry's kind (regular files and folders; a symbolic link only when it stays inside the bot
folder; no hard links, devices, FIFOs or sparse files), the declared total against the unpacked cap, and the
unpacked-to-compressed ratio, for the whole archive and for every member. The bot folder is the archive's
root or its single top folder, and links are checked against that folder, after the top folder is taken
off. Then the files are written with the bytes actually produced counted against the same caps (an archive
may lie about its sizes).
"""

from __future__ import annotations

import io
import json
import os
import resource
import stat
import sys
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath

MEMORY_LIMIT = 256 << 20  # bytes of address space the child may use
CPU_LIMIT_S = 10
MAX_RATIO = 200  # unpacked / compressed: more is a bomb (whole archive and each member)
RATIO_FLOOR = 512  # compressed bytes counted as at least this (a member under 100 KiB is never a bomb alone)
HEADER_CAP = 64 << 10  # bytes of one tar pax / GNU long-name / long-link header
ZIP_FIELD_CAP = 4096  # bytes of one zip extra field or comment
PATH_CAP = 1024  # characters of a member's path
CHUNK = 1 << 16
META_TYPES = {b"x": "a pax header", b"g": "a pax global header", b"X": "a pax header", b"L": "a GNU long name",
              b"K": "a GNU long link"}


class Refused(Exception):
    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.status = status


@dataclass(frozen=True)
class Caps:
    upload_bytes: int
    unpacked_bytes: int
    files: int


@dataclass
class Entry:
    """One archive member, as checked: its path inside the bot folder, its kind and declared size."""

    path: PurePosixPath
    kind: str  # 'file', 'dir', 'link'
    size: int
    mode: int = 0o644
    target: str = ""  # links
    key: object = field(default=None, compare=False)  # the reader's handle on the member


def limit_self() -> None:
    """The child's own limits, set before it reads a byte of the archive."""
    for which, value in ((resource.RLIMIT_AS, MEMORY_LIMIT), (resource.RLIMIT_CPU, CPU_LIMIT_S),
                         (resource.RLIMIT_CORE, 0), (resource.RLIMIT_NOFILE, 64)):
        resource.setrlimit(which, (value, value))


def unpack_into(data: bytes, target: str, caps: Caps) -> None:
    """Check `data` and unpack its bot folder into the new folder `target`; Refused on any problem."""
    if len(data) > caps.upload_bytes:
        raise Refused(f"the upload is {len(data)} bytes; this league takes at most {caps.upload_bytes}", 413)
    if data[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        reader: ZipReader | TarReader = ZipReader(data, caps)
    elif data[:2] == b"\x1f\x8b":
        reader = TarReader(data, caps)
    else:
        raise Refused("not a .zip or .tar.gz archive", 415)
    entries = bot_entries(reader.entries())
    check_all(entries, caps)
    os.mkdir(target)
    written = 0
    for entry in entries:  # folders and files first; nothing is ever written through a link
        path = os.path.join(target, *entry.path.parts)
        if entry.kind == "dir":
            os.makedirs(path, exist_ok=True)
            continue
        if entry.kind == "link":
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        produced = 0
        with open(path, "xb") as out:
            for chunk in reader.read(entry):
                produced += len(chunk)
                written += len(chunk)
                if produced > entry.size:
                    raise Refused(f"{entry.path}: holds more bytes than its header says", 413)
                if written > caps.unpacked_bytes:
                    raise Refused(f"the archive unpacks to more than {caps.unpacked_bytes} bytes", 413)
                out.write(chunk)
        os.chmod(path, 0o755 if entry.mode & 0o111 else 0o644)
    links = [entry for entry in entries if entry.kind == "link"]
    for entry in links:
        path = os.path.join(target, *entry.path.parts)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.symlink(entry.target, path)
    top = os.path.realpath(target)
    for entry in links:  # links may chain: only the resolved path tells where one really leads
        resolved = os.path.realpath(os.path.join(target, *entry.path.parts))
        if resolved != top and not resolved.startswith(top + os.sep):
            raise Refused(f"{entry.path}: a link that leaves the bot folder ({entry.target})")


def bot_entries(entries: list[Entry]) -> list[Entry]:
    """The entries of the bot folder: the archive's root when it holds bot.json, else its single top folder's
    (taken off every path, so every later check is against the folder the bot will run in)."""
    if not entries:
        raise Refused("the archive is empty")
    if any(entry.path == PurePosixPath("bot.json") and entry.kind == "file" for entry in entries):
        return entries
    tops = {entry.path.parts[0] for entry in entries}
    if len(tops) == 1:
        top = PurePosixPath(tops.pop())
        kinds = {entry.kind for entry in entries if entry.path == top}
        if kinds <= {"dir"} and any(entry.path == top / "bot.json" and entry.kind == "file" for entry in entries):
            inside = [entry for entry in entries if entry.path != top]
            for entry in inside:
                entry.path = entry.path.relative_to(top)
            return inside
    raise Refused("no bot.json at the top of the archive (or in its single top folder)")


def check_all(entries: list[Entry], caps: Caps) -> None:
    if len(entries) > caps.files:
        raise Refused(f"the archive holds {len(entries)} entries; this league takes at most {caps.files}", 413)
    total = sum(entry.size for entry in entries)
    if total > caps.unpacked_bytes:
        raise Refused(f"the archive unpacks to {total} bytes; this league takes at most {caps.unpacked_bytes}", 413)
    seen: set[PurePosixPath] = set()
    links = {entry.path for entry in entries if entry.kind == "link"}
    for entry in entries:
        if entry.path in seen:
            raise Refused(f"{entry.path}: the archive holds this path twice")
        seen.add(entry.path)
        if any(parent in links for parent in entry.path.parents):
            raise Refused(f"{entry.path}: a path through a link")
        if entry.kind == "link" and (entry.target.startswith("/") or normal(entry.path.parent / entry.target) is None):
            raise Refused(f"{entry.path}: a link that leaves the bot folder ({entry.target})")


def normal(path: PurePosixPath) -> PurePosixPath | None:
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


def member_path(name: str) -> PurePosixPath | None:
    """A member's name as a safe relative path; None for the root itself (`.` or `./`); Refused otherwise."""
    shown = name if len(name) <= 80 else name[:80] + "..."
    if len(name) > PATH_CAP:
        raise Refused(f"{shown!r}: a path of {len(name)} characters (at most {PATH_CAP})")
    if "\\" in name or "\0" in name or any(ord(c) < 32 for c in name):
        raise Refused(f"{shown!r}: a path with backslashes or control characters")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise Refused(f"{shown}: an absolute path")
    path = PurePosixPath(name)
    if ".." in path.parts:
        raise Refused(f"{shown}: a path with '..'")
    parts = [part for part in path.parts if part not in ("", ".")]
    return PurePosixPath(*parts) if parts else None


def check_ratio(what: str, unpacked: int, compressed: int, kind: str) -> None:
    if unpacked > MAX_RATIO * max(compressed, RATIO_FLOOR):
        raise Refused(f"{what}: {compressed} compressed bytes unpack to {unpacked} (more than {MAX_RATIO}x): "
                      f"refused as a {kind} bomb", 413)


class ZipReader:
    def __init__(self, data: bytes, caps: Caps) -> None:
        self.caps = caps
        self.size = len(data)
        try:
            self.archive = zipfile.ZipFile(io.BytesIO(data))
        except Exception as exc:  # noqa: BLE001 (a hostile archive can break the stdlib's parser in odd ways)
            raise Refused(f"not a readable zip archive: {type(exc).__name__}: {exc}") from None
        if len(self.archive.comment) > ZIP_FIELD_CAP:
            raise Refused(f"the zip comment is {len(self.archive.comment)} bytes (at most {ZIP_FIELD_CAP})")

    def entries(self) -> list[Entry]:
        infos = self.archive.infolist()
        if len(infos) > self.caps.files:
            raise Refused(f"the archive holds {len(infos)} entries; this league takes at most {self.caps.files}", 413)
        found, declared = [], 0
        for info in infos:
            for what, value in (("extra field", info.extra), ("comment", info.comment)):
                if len(value) > ZIP_FIELD_CAP:
                    raise Refused(f"{info.filename[:80]}: a zip {what} of {len(value)} bytes (at most {ZIP_FIELD_CAP})")
            path = member_path(info.filename.rstrip("/") if info.is_dir() else info.filename)
            mode = info.external_attr >> 16
            kind = stat.S_IFMT(mode)
            if info.is_dir() or kind == stat.S_IFDIR:
                if path is not None:
                    found.append(Entry(path, "dir", 0))
                continue
            if path is None:
                raise Refused(f"{info.filename!r}: a file without a name")
            if kind == stat.S_IFLNK:
                if info.file_size > 4096:
                    raise Refused(f"{path}: a link with a {info.file_size}-byte target")
                target = self.archive.read(info).decode("utf-8", errors="replace")
                found.append(Entry(path, "link", 0, target=target))
                continue
            if kind not in (0, stat.S_IFREG):
                raise Refused(f"{path}: not a regular file, folder or link (a device or FIFO)")
            check_ratio(str(path), info.file_size, info.compress_size, "zip")
            declared += info.file_size
            found.append(Entry(path, "file", info.file_size, mode & 0o777, key=info))
        check_ratio("the archive", declared, self.size, "zip")
        return found

    def read(self, entry: Entry) -> Iterator[bytes]:
        try:
            with self.archive.open(entry.key) as stream:  # type: ignore[arg-type]
                while chunk := stream.read(CHUNK):
                    yield chunk
        except Exception as exc:  # noqa: BLE001 (as above)
            raise Refused(f"{entry.path}: cannot be unpacked: {type(exc).__name__}: {exc}") from None


class Inflated:
    """The gzip stream of a .tar.gz read a block at a time, never inflating more than asked, counting the
    compressed bytes consumed so far (for per-member ratios)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.buffer = bytearray()
        self.fed = 0  # bytes of `data` given to the inflater
        self.out = 0  # bytes handed out

    @property
    def consumed(self) -> int:
        return self.fed - len(self.inflater.unconsumed_tail) - len(self.inflater.unused_data)

    def read(self, size: int) -> bytes:
        while len(self.buffer) < size:
            want = max(size - len(self.buffer), CHUNK)
            if self.inflater.eof:  # the end of a gzip member: another may follow (gzip allows several)
                self.fed = self.consumed
                if not self.data[self.fed:].strip(b"\0"):
                    break
                self.inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
            tail = self.inflater.unconsumed_tail
            if not tail and self.fed < len(self.data):
                tail = self.data[self.fed:self.fed + CHUNK]
                self.fed += len(tail)
            got = self.inflater.decompress(tail, want)
            if not got and not tail:
                break
            self.buffer += got
        taken = bytes(self.buffer[:size])
        del self.buffer[:size]
        self.out += len(taken)
        return taken

    def skip(self, size: int) -> None:
        while size > 0:
            got = self.read(min(size, CHUNK))
            if not got:
                raise Refused("not a readable .tar.gz archive: it ends inside a member")
            size -= len(got)


def header_size(block: bytes) -> int:
    """The size field of a raw tar header (octal text or GNU base-256)."""
    field_ = block[124:136]
    if field_[0] & 0x80:
        if field_[0] == 0xFF:
            raise Refused("not a readable .tar.gz archive: a negative member size")
        return int.from_bytes(bytes([field_[0] & 0x7F]) + field_[1:], "big")
    text = field_.split(b"\0", 1)[0].strip()
    try:
        return int(text or b"0", 8)
    except ValueError:
        raise Refused("not a readable .tar.gz archive: a member size that is not a number") from None


def prescan_tar(data: bytes, caps: Caps) -> None:
    """Walk the raw headers before tarfile sees them: the header caps, the count, and the ratios."""
    stream = Inflated(data)
    headers = 0
    try:
        while True:
            block = stream.read(512)
            if len(block) < 512 or not block.strip(b"\0"):
                break
            headers += 1
            if headers > 4 * caps.files + 16:
                raise Refused(f"the archive holds more than {caps.files} entries", 413)
            size = header_size(block)
            kind = block[156:157]
            name = block[:100].split(b"\0", 1)[0].decode("utf-8", "replace")[:80]
            if kind in META_TYPES and size > HEADER_CAP:
                raise Refused(f"{name or 'a member'}: {META_TYPES[kind]} of {size} bytes (at most {HEADER_CAP})", 413)
            if kind == b"S":
                raise Refused(f"{name}: a sparse file (not taken)")
            if size > caps.unpacked_bytes:
                raise Refused(f"{name}: {size} bytes; this league takes at most {caps.unpacked_bytes}", 413)
            before = stream.consumed
            stream.skip(-(-size // 512) * 512)
            check_ratio(name or "a member", size, stream.consumed - before, "tar")
            if stream.out > caps.unpacked_bytes + 1024 * headers + HEADER_CAP:
                raise Refused(f"the archive unpacks to more than {caps.unpacked_bytes} bytes", 413)
    except zlib.error as exc:
        raise Refused(f"not a readable .tar.gz archive: {exc}") from None
    check_ratio("the archive", stream.out, len(data), "tar")


class TarReader:
    def __init__(self, data: bytes, caps: Caps) -> None:
        self.data = data
        self.caps = caps
        self.archive: tarfile.TarFile | None = None

    def entries(self) -> list[Entry]:
        prescan_tar(self.data, self.caps)
        found = []
        declared = 0
        try:  # a streaming pass over the headers: stops as soon as the caps are passed, writes nothing
            with tarfile.open(fileobj=io.BytesIO(self.data), mode="r|gz") as archive:
                for member in archive:
                    if len(found) >= self.caps.files:
                        raise Refused(f"the archive holds more than {self.caps.files} entries", 413)
                    declared += member.size
                    if declared > self.caps.unpacked_bytes:
                        raise Refused(f"the archive unpacks to more than {self.caps.unpacked_bytes} bytes", 413)
                    entry = self.entry(member)
                    if entry is not None:
                        found.append(entry)
        except Refused:
            raise
        except Exception as exc:  # noqa: BLE001 (a hostile archive can break the stdlib's parser in odd ways)
            raise Refused(f"not a readable .tar.gz archive: {type(exc).__name__}: {exc}") from None
        return found

    def entry(self, member: tarfile.TarInfo) -> Entry | None:
        path = member_path(member.name)
        if path is None:
            if member.isdir():
                return None  # `./`: the root itself (`tar czf ../bot.tgz .`)
            raise Refused(f"{member.name!r}: an entry without a name")
        if member.isdir():
            return Entry(path, "dir", 0)
        if member.issym():
            return Entry(path, "link", 0, target=member.linkname)
        if member.islnk():
            raise Refused(f"{path}: a hard link (not taken)")
        if member.issparse():
            raise Refused(f"{path}: a sparse file (not taken)")
        if not member.isreg():
            raise Refused(f"{path}: not a regular file, folder or link (a device or FIFO)")
        return Entry(path, "file", member.size, member.mode & 0o777, key=member.name)

    def read(self, entry: Entry) -> Iterator[bytes]:
        try:
            if self.archive is None:
                self.archive = tarfile.open(fileobj=io.BytesIO(self.data), mode="r:gz")
            stream = self.archive.extractfile(self.archive.getmember(entry.key))  # type: ignore[arg-type]
            if stream is None:
                return
            while chunk := stream.read(CHUNK):
                yield chunk
        except Exception as exc:  # noqa: BLE001 (as above)
            raise Refused(f"{entry.path}: cannot be unpacked: {type(exc).__name__}: {exc}") from None


def main(argv: list[str]) -> int:
    limit_self()
    target, caps_text = argv[0], argv[1]
    try:
        caps = Caps(**json.loads(caps_text))
        if len(argv) > 2:
            with open(argv[2], "rb") as handle:
                data = handle.read(caps.upload_bytes + 1)
        else:
            data = sys.stdin.buffer.read(caps.upload_bytes + 1)
        unpack_into(data, target, caps)
        answer: dict[str, object] = {"ok": True}
    except Refused as exc:
        answer = {"status": exc.status, "reason": str(exc)}
    except MemoryError:
        answer = {"status": 413, "reason": f"the archive needs more than {MEMORY_LIMIT >> 20} MiB to unpack"}
    except OSError as exc:  # the disk, not the player: no path in the words (the parent adds none either)
        answer = {"status": 500, "reason": f"the archive could not be written: {exc.strerror or type(exc).__name__}"}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    return 0 if answer.get("ok") else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Read `command.txt` the way the official runner does (spec 4.1), but bounded and without following a bot
out of its folder.

Only runs after every process of the turn is dead, so nothing can swap the file while it is inspected.
"""

from __future__ import annotations

import codecs
import errno
import os
import re
import stat
from collections.abc import Callable

from runner.bots.outcome import format_size

COMMAND_FILE = "command.txt"

# Java's Character.isWhitespace: the Unicode space separators except the no-break ones (U+00A0, U+2007,
# U+202F), the line and paragraph separators, and the ASCII controls TAB..CR and FS..US.
_JAVA_NON_WHITESPACE = re.compile(
    "[^\t\n\x0b\x0c\r\x1c-\x1f \u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]"
)
# spec 4.1: a line ends at \r\n, \n, \r, U+2028, U+2029 or U+0085 (NEL is a terminator, not whitespace)
_LINE_END = re.compile("\r\n|[\n\r\u2028\u2029\u0085]")
_SCAN_CHUNK = 1 << 20


def is_java_blank(text: str) -> bool:
    return _JAVA_NON_WHITESPACE.search(text) is None


def first_line(text: str) -> str:
    end = _LINE_END.search(text)
    return text if end is None else text[: end.start()]


def command_from_text(text: str) -> str:
    """Spec 4.1 for the file's whole content; a blank file is the blank answer "" (Answer.text: every game
    gets "" for it; Tower Defence's log writes it as spec 4.1's "No Command", FolderLog.blank_answer)."""
    return "" if is_java_blank(text) else first_line(text)


def read_command(
    dir_fd: int, bot_dir: str, cap: int, name: str = COMMAND_FILE, *, every_line: bool = False
) -> tuple[str | None, list[str]]:
    """The command per spec 4.1 and the events worth telling the bot's author; None when there is no file to
    read: none was written (no events), or the one found is refused (the events say why).

    `dir_fd` is the bot folder opened at the start of the turn (the bot may have renamed or replaced the
    folder's path since). At most `cap` bytes are decoded; a larger file is noted and, only when that
    prefix is blank, scanned in chunks for any non-whitespace so a blank file is still told exactly.
    With `every_line` (games whose answer is a multi-line file, `name` other than command.txt) the decoded
    text is returned whole, and the game reads it.
    """
    events: list[str] = []
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except FileNotFoundError:
        return None, events
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            return None, [f"{name} could not be opened ({exc.strerror}), ignored"]
        fd = _open_symlink_target(dir_fd, bot_dir, events, name)
        if fd is None:
            return None, events
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, [f"{name} is not a regular file, ignored"]
        if info.st_nlink > 1:  # a hard link could expose a file from elsewhere on the same file system
            return None, [f"{name} has {info.st_nlink} hard links, ignored"]
        text, read_events = answer_text(_read_up_to(fd, cap + 1), info.st_size, cap, name, every_line,
                                        lambda: _rest_is_blank(fd))
        return text, events + read_events
    finally:
        os.close(fd)


def answer_text(data: bytes, size: int, cap: int, name: str, every_line: bool,
                rest_is_blank: Callable[[], bool]) -> tuple[str, list[str]]:
    """An answer's text from its first `cap + 1` bytes (of `size` in all) and the events worth telling: the
    one reading for an answer file and a persistent bot's answer frame (runner/bots/framing.py).

    `rest_is_blank` says whether the bytes after those given are Java whitespace (asked only when a
    first-line answer's prefix is blank)."""
    events: list[str] = []
    truncated = len(data) > cap
    if truncated:
        data = data[:cap]
        events.append(f"{name} larger than {format_size(cap)} ({format_size(size)}), read the first {format_size(cap)}")
    try:  # a multi-byte character cut by the cap is not an error, hence final=not truncated
        text = codecs.getincrementaldecoder("utf-8")().decode(data, final=not truncated)
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        events.append(f"{name} is not valid UTF-8; undecodable bytes became U+FFFD")
    if every_line:
        return text, events
    if truncated and is_java_blank(text) and not rest_is_blank():
        return first_line(text), events  # blank prefix, text further on: the blank first line (spec 4.1)
    return command_from_text(text), events


def _open_symlink_target(dir_fd: int, bot_dir: str, events: list[str], name: str = COMMAND_FILE) -> int | None:
    """Follow a symlinked answer file only when it ends at a file inside the bot folder."""
    try:
        target = os.readlink(name, dir_fd=dir_fd)
    except OSError:
        target = "?"
    folder = os.path.realpath(bot_dir)
    resolved = os.path.realpath(os.path.join(folder, name))
    if os.path.commonpath([folder, resolved]) != folder:
        events.append(f"{name} is a symlink to {target}, outside the bot folder, ignored")
        return None
    try:
        return os.open(resolved, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        events.append(f"{name} is a symlink to {target} that cannot be opened ({exc.strerror}), ignored")
        return None


def _read_up_to(fd: int, limit: int) -> bytes:
    parts, size = [], 0
    while size < limit:
        chunk = os.read(fd, min(limit - size, _SCAN_CHUNK))
        if not chunk:
            break
        parts.append(chunk)
        size += len(chunk)
    return b"".join(parts)


def _rest_is_blank(fd: int) -> bool:
    """Whether the unread rest of the file is Java whitespace (memory stays at one chunk)."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    while chunk := os.read(fd, _SCAN_CHUNK):
        if not is_java_blank(decoder.decode(chunk)):
            return False
    return is_java_blank(decoder.decode(b"", final=True))


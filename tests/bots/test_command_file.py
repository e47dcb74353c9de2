"""Reading command.txt: spec 4.1 exactly, bounded, and never outside the bot folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.bots.command_file import command_from_text, read_command

BLANK = ""  # a blank file is the blank answer for every game (Tower Defence's log writes it as "No Command")


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("", BLANK),
        (" \t\r\n\x0b\x0c\x1c\x1f\u2028\u3000\n", BLANK),  # all Java whitespace
        ("1,2,3", "1,2,3"),
        ("1,2,3\nsecond line", "1,2,3"),
        ("1,2,3\r\n", "1,2,3"),
        ("1,2,3\rx", "1,2,3"),
        ("1,2,3\u2028x", "1,2,3"),
        ("1,2,3\u2029x", "1,2,3"),
        ("1,2,3\u0085x", "1,2,3"),
        ("\u0085", ""),  # NEL ends a line but is not whitespace: a blank first line, not "No Command"
        (" 1,2,3 \n", " 1,2,3 "),  # no trimming
        ("\n1,2,3\n", ""),  # a blank first line with text after it stays the (empty) command
        ("  \n  x", "  "),
        ("\u00a0", "\u00a0"),  # a no-break space is not Java whitespace
        ("\u2007\n", "\u2007"),
        ("\ufeff1,2,3\n", "\ufeff1,2,3"),  # the byte-order mark stays and spoils the first number
        ("1,2,3\x0b4", "1,2,3\x0b4"),  # vertical tab does not end a line (Python's splitlines would)
        ("1,2,3\x1c4", "1,2,3\x1c4"),
    ],
)
def test_spec_4_1(text: str, command: str) -> None:
    assert command_from_text(text) == command


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    bot_dir = tmp_path / "bot"
    bot_dir.mkdir()
    fd = os.open(bot_dir, os.O_RDONLY | os.O_DIRECTORY)
    yield fd, bot_dir
    os.close(fd)


def read(folder: tuple[int, Path], cap: int = 64 << 10) -> tuple[str | None, list[str]]:
    fd, bot_dir = folder
    return read_command(fd, str(bot_dir), cap)


def test_missing_file_is_no_command_at_all(folder) -> None:
    assert read(folder) == (None, [])


def test_file_bytes_are_utf8(folder) -> None:
    (folder[1] / "command.txt").write_bytes("\ufeff1,2,3\r\n".encode())
    assert read(folder) == ("\ufeff1,2,3", [])


def test_invalid_utf8_is_replaced_not_raised(folder) -> None:
    (folder[1] / "command.txt").write_bytes(b"\xff1,\xc3(2,3\n")
    assert read(folder) == ("\ufffd1,\ufffd(2,3", ["command.txt is not valid UTF-8; undecodable bytes became U+FFFD"])


def test_symlink_out_of_the_folder_is_ignored(folder) -> None:
    os.symlink("/etc/passwd", folder[1] / "command.txt")
    assert read(folder) == (None, ["command.txt is a symlink to /etc/passwd, outside the bot folder, ignored"])


def test_relative_symlink_out_of_the_folder_is_ignored(folder) -> None:
    (folder[1].parent / "elsewhere.txt").write_text("1,1,1\n")
    os.symlink("../elsewhere.txt", folder[1] / "command.txt")
    assert read(folder) == (None, ["command.txt is a symlink to ../elsewhere.txt, outside the bot folder, ignored"])


def test_symlink_inside_the_folder_is_followed(folder) -> None:
    (folder[1] / "answers").mkdir()
    (folder[1] / "answers" / "now.txt").write_text("1,2,3\n")
    os.symlink("answers/now.txt", folder[1] / "command.txt")
    assert read(folder) == ("1,2,3", [])


def test_fifo_does_not_block(folder) -> None:
    os.mkfifo(folder[1] / "command.txt")
    assert read(folder) == (None, ["command.txt is not a regular file, ignored"])


def test_folder_named_command_txt(folder) -> None:
    (folder[1] / "command.txt").mkdir()
    assert read(folder) == (None, ["command.txt is not a regular file, ignored"])


def test_hard_link_is_ignored(folder) -> None:
    other = folder[1].parent / "secret.txt"
    other.write_text("secret\n")
    os.link(other, folder[1] / "command.txt")
    assert read(folder) == (None, ["command.txt has 2 hard links, ignored"])


def test_large_file_reads_only_the_cap(folder) -> None:
    (folder[1] / "command.txt").write_bytes(b"9" * 5000 + b"\n1,2,3\n")
    command, events = read(folder, cap=1024)
    assert command == "9" * 1024
    assert events == ["command.txt larger than 1 KiB (4.9 KiB), read the first 1 KiB"]


def test_large_blank_prefix_then_text_is_a_blank_first_line(folder) -> None:
    (folder[1] / "command.txt").write_bytes(b" " * 3000 + b"\n" + b" " * 3000 + b"x")
    assert read(folder, cap=1024)[0] == " " * 1024


def test_large_whitespace_file_is_no_command(folder) -> None:
    (folder[1] / "command.txt").write_bytes(b" \n" * 5000 + "\u3000".encode() * 10)
    assert read(folder, cap=1024)[0] == BLANK


def test_multibyte_character_cut_by_the_cap_is_not_an_encoding_error(folder) -> None:
    (folder[1] / "command.txt").write_bytes(b"a" * 1023 + "é".encode() + b"\n")
    command, events = read(folder, cap=1024)
    assert command == "a" * 1023
    assert events == ["command.txt larger than 1 KiB (1.0 KiB), read the first 1 KiB"]

"""The core's frames (runner/bots/framing.py): requests as bytes, and a bot's stdout split into output lines
and answer frames however the reads cut it."""

from __future__ import annotations

from runner.bots.framing import LINE_CAP, Frame, FrameReader, encode_request, frame_name_problem
from runner.games.interface import Absent


def items(reader: FrameReader, *chunks: bytes) -> list[bytes | Frame]:
    """Everything the reader gives for these reads, fed one at a time."""
    found: list[bytes | Frame] = []
    for chunk in chunks:
        reader.feed(chunk)
        while (item := reader.next()) is not None:
            found.append(item)
    return found


def test_a_request_is_a_header_then_each_file_named_sized_and_as_bytes() -> None:
    request = encode_request(7, {"map.txt": "ab\n", "errors.txt": "", "state.json": '{"é": 1}'})
    assert request == b'turn 7 3\nmap.txt 3\nab\nerrors.txt 0\nstate.json 9\n{"\xc3\xa9": 1}'
    assert encode_request(1, {}) == b"turn 1 0\n"
    assert frame_name_problem("state.json") is None
    assert frame_name_problem("my state.json") and frame_name_problem("")


def test_output_lines_and_frames_whatever_the_reads() -> None:
    stream = b"thinking\nanswer 3 11\nTURN 3\nEND\nafter\nanswer 4 none\n"
    whole = items(FrameReader("commands.txt", 100, True), stream)
    assert whole == [b"thinking\n", Frame(3, "TURN 3\nEND\n", ()), b"after\n", Frame(4, "", (), Absent.NO_FILE)]
    # byte by byte: the same frames, the same output
    split = items(FrameReader("commands.txt", 100, True), *(stream[i:i + 1] for i in range(len(stream))))
    assert [item for item in split if isinstance(item, Frame)] == [item for item in whole if isinstance(item, Frame)]
    assert b"".join(item for item in split if isinstance(item, bytes)) == b"thinking\nafter\n"
    # a flood of lines is output in one piece per read, up to the line that may be a header
    assert items(FrameReader("commands.txt", 100, True), b"\n" * 100_000 + b"my answer\nanswer 1 0\n") == [
        b"\n" * 100_000, b"my answer\n", Frame(1, "", ())]
    # a body without a final newline, and one that holds header-like lines, are taken as they are
    odd = items(FrameReader("orders.txt", 100, True), b"answer 1 14\nanswer 2 5\nxyzanswer 2 0\n")
    assert odd == [Frame(1, "answer 2 5\nxyz", ()), Frame(2, "", ())]


def test_an_answer_over_the_cap_is_cut_as_a_file_is_and_the_next_frame_still_found() -> None:
    reader = FrameReader("commands.txt", 8, True)
    body = b"0123456789" * 3
    found = items(reader, b"answer 1 30\n" + body[:12], body[12:] + b"answer 2 2\nok")
    assert found == [Frame(1, "01234567", ("commands.txt larger than 8 bytes (30 bytes), read the first 8 bytes",)),
                     Frame(2, "ok", ())]
    assert len(reader.body) == 0 and not reader.buffer
    # first-line games: a blank prefix with text further on is the blank first line (spec 4.1), as from a file
    first = FrameReader("command.txt", 4, False)
    assert items(first, b"answer 1 12\n" + b"   \n    \n x \n")[0].text == "   "
    assert items(first, b"answer 2 12\n" + b" " * 12)[0].text == ""
    # bad UTF-8 is replaced and told
    assert items(FrameReader("orders.txt", 10, True), b"answer 5 2\n\xff!")[0] == Frame(
        5, "\ufffd!", ("orders.txt is not valid UTF-8; undecodable bytes became U+FFFD",))


def test_a_line_that_is_almost_a_header_is_output_with_a_note() -> None:
    reader = FrameReader("commands.txt", 100, True)
    assert items(reader, b"answer 3\nanswer x 5\nanswers 3 5\nanswer 3 " + b"9" * 40 + b"\n") == [
        b"answer 3\n", b"answer x 5\n", b"answers 3 5\n", b"answer 3 " + b"9" * 40 + b"\n"]
    assert len(reader.notes) == 3 and "'answer 3' is no answer header" in reader.notes[0]


def test_a_line_without_end_is_cut_at_the_cap_and_a_cut_frame_is_left_over() -> None:
    reader = FrameReader("commands.txt", 100, True)
    assert items(reader, b"x" * (LINE_CAP + 1)) == [b"x" * (LINE_CAP + 1)]
    assert items(reader, b"answer 1 10\nhalf") == [] and reader.leftover() == b"half"
    assert reader.left == -1 and items(reader, b"answer 2 1\n!") == [Frame(2, "!", ())]

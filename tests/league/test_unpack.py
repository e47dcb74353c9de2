"""Unpacking uploads (the security boundary): every hostile archive is refused with its reason before anything
is written, and `accept` leaves nothing behind; a good archive becomes the player's folder whole."""

from __future__ import annotations

import io
import json
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from runner.league.unpack import Caps, UploadRefused, unpack
from runner.league.upload import accept

BOT_JSON = json.dumps({"author": "a", "email": "a@b.invalid", "nickName": "Up", "botLocation": "/",
                       "botFileName": "bot.py", "botLanguage": "python3"})
CAPS = Caps()


def make_zip(entries: dict[str, bytes], links: dict[str, str] = {}, *, level: int = 6) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
        for name, target in links.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return buffer.getvalue()


def make_tar(entries: dict[str, bytes], extra: list[tarfile.TarInfo] = ()) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        for info in extra:
            archive.addfile(info)
    return buffer.getvalue()


GOOD = {"bot.json": BOT_JSON.encode(), "bot.py": b"print('hi')\n", "lib/helper.py": b"x = 1\n"}


@pytest.fixture(scope="module")
def zip_bomb() -> bytes:
    """A real zip bomb: 4-5 MB that unpack to 1 GiB of zeros."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("bot.json", BOT_JSON)
        with archive.open("data.bin", "w", force_zip64=True) as out:
            chunk = bytes(1 << 20)
            for _ in range(1024):
                out.write(chunk)
    return buffer.getvalue()


@pytest.mark.parametrize("pack", [make_zip, make_tar])
def test_a_good_archive_unpacks_whole(tmp_path: Path, pack) -> None:
    bot = unpack(pack(GOOD), tmp_path / "x", CAPS)
    assert (bot / "bot.json").read_text() == BOT_JSON and (bot / "lib" / "helper.py").read_text() == "x = 1\n"


def test_a_single_top_folder_holds_the_bot(tmp_path: Path) -> None:
    bot = unpack(make_zip({f"mybot/{name}": data for name, data in GOOD.items()}), tmp_path / "x", CAPS)
    assert bot == tmp_path / "x" and (bot / "bot.py").is_file() and not (bot / "mybot").exists()


def hostile_cases(bomb: bytes) -> dict[str, tuple[bytes, str]]:
    dev = tarfile.TarInfo("dev")
    dev.type = tarfile.CHRTYPE
    hard = tarfile.TarInfo("hard")
    hard.type, hard.linkname = tarfile.LNKTYPE, "bot.json"
    etc = tarfile.TarInfo("etc")
    etc.type, etc.linkname = tarfile.SYMTYPE, "/etc"
    up = tarfile.TarInfo("up")
    up.type, up.linkname = tarfile.SYMTYPE, "../../outside"
    small_bomb = make_zip({**GOOD, "zeros.bin": bytes(50 << 20)}, level=9)
    return {
        "dot-dot zip": (make_zip({**GOOD, "../x": b"evil"}), "a path with '..'"),
        "dot-dot tar": (make_tar({**GOOD, "a/../../x": b"evil"}), "a path with '..'"),
        "absolute zip": (make_zip({**GOOD, "/tmp/evil": b"evil"}), "an absolute path"),
        "absolute tar": (make_tar({**GOOD, "/etc/evil": b"evil"}), "an absolute path"),
        "symlink to /etc tar": (make_tar(GOOD, [etc]), "a link that leaves the bot folder"),
        "symlink to /etc zip": (make_zip(GOOD, {"etc": "/etc"}), "a link that leaves the bot folder"),
        "symlink up": (make_tar(GOOD, [up]), "a link that leaves the bot folder"),
        "link chain": (make_zip(GOOD, {"here": ".", "out": "here/.."}), "a link that leaves the bot folder"),
        "write through a link": (make_zip({**GOOD, "l/x": b"1"}, {"l": "lib"}), "a path through a link"),
        "device": (make_tar(GOOD, [dev]), "a device or FIFO"),
        "hard link": (make_tar(GOOD, [hard]), "a hard link"),
        "1 GiB zip bomb": (bomb, "zip bomb"),
        "50 MiB of zeros": (small_bomb, "zip bomb"),
        "too many files": (make_zip({**GOOD, **{f"f{n}": b"" for n in range(2001)}}), "at most 2000"),
        "no bot.json": (make_zip({"bot.py": b"1"}), "no bot.json"),
        "not an archive": (b"hello, world", "not a .zip or .tar.gz"),
        "bad gzip": (b"\x1f\x8b\x08garbage", "not a readable .tar.gz"),
        "twice": (make_zip({**GOOD, "./bot.py": b"2"}), "twice"),
    }


def test_every_hostile_archive_is_refused_and_leaves_nothing(tmp_path: Path, zip_bomb: bytes) -> None:
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for label, (data, reason) in hostile_cases(zip_bomb).items():
        with pytest.raises(UploadRefused) as refused:
            accept(data, submissions, "player", "tower-defence", CAPS)
        assert reason in str(refused.value), (label, str(refused.value))
        assert 400 <= refused.value.status < 500
        assert list(submissions.iterdir()) == [], label  # nothing on disk
    assert not (tmp_path / "outside").exists() and not (tmp_path / "x").exists()


def test_the_caps_are_the_leagues(tmp_path: Path) -> None:
    with pytest.raises(UploadRefused, match="at most 100"):
        unpack(make_zip({**GOOD, "big": bytes(200)}), tmp_path / "a", Caps(upload_bytes=100))
    with pytest.raises(UploadRefused, match="unpacks to"):
        unpack(make_zip({**GOOD, "big": bytes(5000)}), tmp_path / "b", Caps(unpacked_bytes=4000))
    with pytest.raises(UploadRefused, match="at most 2$"):
        unpack(make_zip(GOOD), tmp_path / "c", Caps(files=2))


def test_accept_replaces_the_players_folder_and_refuses_an_invalid_bot(tmp_path: Path) -> None:
    submissions = tmp_path / "submissions"
    (submissions / "ann").mkdir(parents=True)
    (submissions / "ann" / "old.txt").write_text("old")
    accept(make_zip(GOOD), submissions, "ann", "tower-defence", CAPS)
    assert sorted(p.name for p in (submissions / "ann").iterdir()) == ["bot.json", "bot.py", "lib"]
    assert sorted(p.name for p in submissions.iterdir()) == [".uploads", "ann"]  # .uploads: the receipts
    bad = json.loads(BOT_JSON) | {"botLanguage": "cobol"}
    with pytest.raises(UploadRefused, match="cobol") as refused:
        accept(make_zip({**GOOD, "bot.json": json.dumps(bad).encode()}), submissions, "ann", "tower-defence", CAPS)
    assert refused.value.status == 422
    assert sorted(p.name for p in submissions.iterdir()) == [".uploads", "ann"]
    assert (submissions / "ann" / "bot.py").is_file() and len(list((submissions / ".uploads" / "ann").iterdir())) == 1

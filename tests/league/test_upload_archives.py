"""Hostile archives as an attacker builds them (real .tar.gz and .zip bytes), through the real code path
(`accept`, and `POST /submit` on a served league): header bombs refused fast without growing this process,
ratio bombs made of many small members, a link out of the single top folder; and the usual ways of packing
a folder (`tar czf ../bot.tgz .`) taken. No refusal names a path of the server."""

from __future__ import annotations

import http.client
import io
import json
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
import zlib
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from test_unpack import BOT_JSON, GOOD, make_tar, make_zip
from runner.league.unpack import Caps, UploadRefused, unpack
from runner.league.upload import accept

CAPS = Caps()


def _block(name: str, size: int, kind: bytes) -> bytes:
    """A raw ustar header block, checksum included."""
    info = tarfile.TarInfo(name)
    info.size, info.type = size, kind
    return info.tobuf(format=tarfile.USTAR_FORMAT)


def header_bomb(kind: bytes, size: int) -> bytes:
    """A .tar.gz whose first header (pax 'x' or GNU long name 'L') is `size` bytes, then a valid bot."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    out = [packer.compress(_block("././@header", size, kind))]
    record = b"%d comment=" % size
    out.append(packer.compress(record))
    chunk = b"a" * (1 << 20)
    left = size - len(record)
    while left > 0:
        piece = chunk[:min(left, len(chunk))]
        out.append(packer.compress(piece))
        left -= len(piece)
    out.append(packer.compress(b"\0" * (-size % 512)))
    out.append(packer.compress(make_tar_raw(GOOD)))
    out.append(packer.flush())
    return b"".join(out)


def make_tar_raw(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture(scope="module")
def pax_bomb() -> bytes:
    data = header_bomb(tarfile.XHDTYPE, 400 << 20)  # the issue's: a 400 MiB pax header
    assert len(data) < 1 << 20  # a few hundred KB, far under the 20 MB cap
    return data


def rss() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class PeakRss:
    """This process's resident size sampled every 5 ms while the block runs: the peak's growth."""

    def __enter__(self) -> "PeakRss":
        self.start, self.peak, self.done = rss(), rss(), threading.Event()
        self.thread = threading.Thread(target=self._sample)
        self.thread.start()
        return self

    def _sample(self) -> None:
        while not self.done.wait(0.005):
            self.peak = max(self.peak, rss())

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()

    @property
    def growth(self) -> int:
        return self.peak - self.start


def test_a_pax_header_bomb_is_refused_fast_without_growing_the_caller(tmp_path: Path, pax_bomb: bytes) -> None:
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    started = time.monotonic()
    with PeakRss() as memory, pytest.raises(UploadRefused, match="pax header of 419430400 bytes") as refused:
        accept(pax_bomb, submissions, "mallory", "tower-defence", CAPS)
    assert time.monotonic() - started < 2 and memory.growth < 50 << 20, (time.monotonic() - started, memory.growth)
    assert refused.value.status == 413 and list(submissions.iterdir()) == []


@pytest.mark.parametrize("kind,words", [(tarfile.GNUTYPE_LONGNAME, "GNU long name"),
                                        (tarfile.GNUTYPE_LONGLINK, "GNU long link")])
def test_gnu_long_name_and_link_bombs_are_refused(tmp_path: Path, kind: bytes, words: str) -> None:
    with pytest.raises(UploadRefused, match=f"{words} of {64 << 20} bytes"):
        unpack(header_bomb(kind, 64 << 20), tmp_path / "x", CAPS)


def test_a_pax_header_under_the_cap_with_extended_attributes_is_taken(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as archive:
        for name, data in GOOD.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.pax_headers = {"SCHILY.xattr.user.note": "x" * 1000, "comment": "y" * 2000}
            archive.addfile(info, io.BytesIO(data))
    bot = unpack(buffer.getvalue(), tmp_path / "x", CAPS)
    assert (bot / "bot.json").read_text() == BOT_JSON


def test_zip_extra_fields_and_comments_are_capped(tmp_path: Path) -> None:
    for where in ("extra", "comment", "archive comment"):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, data in GOOD.items():
                info = zipfile.ZipInfo(name)
                if where == "extra" and name == "bot.py":
                    info.extra = (b"\x99\x99" + (8000).to_bytes(2, "little") + bytes(8000))
                if where == "comment" and name == "bot.py":
                    info.comment = b"c" * 8000
                archive.writestr(info, data)
            if where == "archive comment":
                archive.comment = b"c" * 8000
        with pytest.raises(UploadRefused, match="at most 4096"):
            unpack(buffer.getvalue(), tmp_path / where.replace(" ", "-"), CAPS)


def test_many_small_members_that_unpack_far_beyond_the_ratio_are_refused(tmp_path: Path) -> None:
    """The issue's 213 KB that unpacked to 190 MB: every member under 1 MiB, so none was looked at."""
    members = {**GOOD, **{f"data/z{n}.bin": bytes(950_000) for n in range(200)}}
    small_zip = make_zip(members, level=9)
    assert len(small_zip) < 1 << 20
    with pytest.raises(UploadRefused, match="zip bomb"):
        unpack(small_zip, tmp_path / "z", CAPS)
    small_tar = make_tar(members)
    assert len(small_tar) < 1 << 20
    with pytest.raises(UploadRefused, match="tar bomb"):
        unpack(small_tar, tmp_path / "t", CAPS)
    one_small = make_zip({**GOOD, "z.bin": bytes(500_000)}, level=9)  # one member, under the old 1 MiB floor
    with pytest.raises(UploadRefused, match="z.bin: .* zip bomb"):
        unpack(one_small, tmp_path / "one", CAPS)


def test_ordinary_compressible_bots_are_taken(tmp_path: Path) -> None:
    source = "\n".join(f"def f{n}(x):\n    return x + {n}\n" for n in range(3000)).encode()  # ~100 KB of code
    for pack in (make_zip, make_tar):
        bot = unpack(pack({**GOOD, "big.py": source, "empty.txt": b""}), tmp_path / pack.__name__, CAPS)
        assert (bot / "big.py").read_bytes() == source


def link(name: str, target: str) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = tarfile.SYMTYPE, target
    return info


def test_a_link_is_checked_against_the_bot_folder_after_the_top_folder_is_taken_off(tmp_path: Path) -> None:
    topped = {f"top/{name}": data for name, data in GOOD.items()}
    for case, info in {"peek": link("top/peek", ".."), "deep": link("top/lib/up", "../../top")}.items():
        with pytest.raises(UploadRefused, match="a link that leaves the bot folder"):
            unpack(make_tar(topped, [info]), tmp_path / case, CAPS)
    bot = unpack(make_tar(topped, [link("top/helper", "lib/helper.py")]), tmp_path / "fine", CAPS)
    assert (bot / "helper").read_text() == "x = 1\n" and not (bot / "top").exists()
    with pytest.raises(UploadRefused, match="a link that leaves the bot folder"):
        unpack(make_zip({f"top/{name}": data for name, data in GOOD.items()}, {"top/peek": ".."}), tmp_path / "z", CAPS)


def test_a_folder_packed_the_usual_way_is_taken(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    for name, data in GOOD.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    subprocess.run(["tar", "czf", "../bot.tgz", "."], cwd=folder, check=True)  # members ./bot.json, ./lib/...
    assert "./bot.json" in subprocess.run(["tar", "tzf", "bot.tgz"], cwd=tmp_path, capture_output=True,
                                          text=True).stdout.split()
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    accept((tmp_path / "bot.tgz").read_bytes(), submissions, "ann", "tower-defence", CAPS)
    assert (submissions / "ann" / "lib" / "helper.py").read_text() == "x = 1\n"
    accept(tmp_path / "bot.tgz", submissions, "bob", "tower-defence", CAPS)  # a file, as a server streams it
    assert (submissions / "bob" / "bot.json").read_text() == BOT_JSON


def test_no_refusal_names_a_server_path(tmp_path: Path) -> None:
    submissions = tmp_path / "very-secret-submissions"
    submissions.mkdir()
    bad = json.loads(BOT_JSON) | {"botFileName": "missing.py"}
    cases = [make_zip({**GOOD, "bot.json": json.dumps(bad).encode()}), make_zip({"bot.py": b"1"}),
             b"\x1f\x8bnot gzip", make_tar(GOOD, [link("peek", "..")])]
    for data in cases:
        with pytest.raises(UploadRefused) as refused:
            accept(data, submissions, "ann", "tower-defence", CAPS)
        assert "very-secret" not in str(refused.value) and str(tmp_path) not in str(refused.value), str(refused.value)


def test_a_pax_bomb_over_http_is_refused_and_the_server_stays_small(tmp_path: Path, pax_bomb: bytes) -> None:
    pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")
    from league_helpers import td_submissions
    from runner.league import players
    from runner.league.settings import claim
    from runner.league.store import connect, transaction
    from runner.league.web import server

    subs = td_submissions(tmp_path, 2)
    folder = tmp_path / "league"
    db = connect(folder, create=True)
    with transaction(db):
        claim(db, {"submissions": str(subs)}, folder)
    token = players.add_player(db, "mallory")
    db.close()
    web = server.start_server(folder, "127.0.0.1", 0)
    try:
        parts = urlsplit(web.url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        started = time.monotonic()
        with PeakRss() as memory:
            connection.request("POST", "/submit", body=pax_bomb,
                               headers={"Content-Type": "application/gzip", "Authorization": f"Bearer {token}"})
            response = connection.getresponse()
            text = response.read().decode()
        elapsed = time.monotonic() - started
    finally:
        web.close()
    assert response.status == 413 and "pax header" in text, (response.status, text)
    assert elapsed < 2 and memory.growth < 50 << 20, (elapsed, memory.growth)
    assert str(tmp_path) not in text and sorted(p.name for p in subs.iterdir()) == ["tiny0", "tiny1"]


def test_an_unpack_over_its_time_is_killed_and_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from runner.league import unpack as module

    monkeypatch.setattr(module, "TIME_LIMIT_S", 0.01)  # any real unpack takes longer than this
    with pytest.raises(UploadRefused, match="took more than") as refused:
        unpack(make_zip(GOOD), tmp_path / "x", CAPS)
    assert refused.value.status == 413


def test_the_child_cannot_grow_past_its_memory_limit() -> None:
    """The limit the child sets itself before reading an archive: an allocation past it fails in the child."""
    from runner.league import unpack_child

    probe = ("import sys; sys.path.insert(0, {folder!r}); import unpack_child as c; c.limit_self()\n"
             "try:\n    bytearray(c.MEMORY_LIMIT)\nexcept MemoryError:\n    print('refused')\n")
    done = subprocess.run([sys.executable, "-I", "-S", "-c",
                           probe.format(folder=str(Path(unpack_child.__file__).parent))],
                          capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == "refused", done.stderr

"""Builds as real submissions come (issue 34): a league whose submissions folder holds Tower Defence bots as
contestants write them (starter_bots/: Python with a requirements.txt naming a package from PyPI, Go with no
go.mod, JavaScript with a package.json, Java with a pom.xml and its jar committed under target/ while Maven
cannot fetch anything) builds each before checking it and plays them all; a Python upload with a
requirements.txt becomes a version that plays; `td-runner build` run inside the watched folder makes no
version of its own; no reason or build output names a path of the server."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from league_helpers import check_consistent, database, run_cli, running_league
from test_unpack import make_zip
from runner.league.unpack import Caps
from runner.league.upload import accept

pytest.importorskip("openskill", reason="leagues need openskill (td-runner[league])")

STARTERS = Path(__file__).parent / "starter_bots"
PLAYERS = {"python-td": "PyReq", "go-td": "GoPlain", "js-td": "JsPkg", "java-td": "JavaJar"}
TOOLS = ("go", "node", "npm", "mvn", "java")


def pypi_unreachable() -> str | None:
    """Why pip cannot fetch the Python bot's requirement here, or None (the test needs the registry)."""
    probe = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "termcolor",
                            "--disable-pip-version-check"], capture_output=True, text=True, timeout=60, check=False)
    return None if probe.returncode == 0 else f"PyPI is not reachable: {probe.stderr.strip()[-200:]}"


@pytest.fixture(scope="module")
def maven_cannot_fetch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Maven with an empty local repository and offline in its settings: it can neither build nor fetch."""
    home = tmp_path_factory.mktemp("maven-home")
    (home / ".m2" / "repository").mkdir(parents=True)
    (home / ".m2" / "settings.xml").write_text(
        "<settings><offline>true</offline>"
        f"<localRepository>{home / '.m2' / 'repository'}</localRepository></settings>\n")
    patch = pytest.MonkeyPatch()
    patch.setenv("MAVEN_OPTS", f"-Duser.home={home}")
    yield
    patch.undo()


@pytest.fixture(scope="module")
def league_run(tmp_path_factory: pytest.TempPathFactory, maven_cannot_fetch: None) -> Iterator[tuple[Path, Path, list[str]]]:
    """The four starters in a submissions folder, a league playing them until each has played and a Python
    upload has too: (league folder, submissions folder, the league's log lines). Played once per module."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"not installed here: {', '.join(missing)}")
    reason = pypi_unreachable()
    if reason:
        pytest.skip(reason)
    root = tmp_path_factory.mktemp("builds")
    subs = root / "submissions"
    for name in PLAYERS:
        shutil.copytree(STARTERS / name, subs / name)
    folder = root / "league"
    given = {"submissions": str(subs), "options": {"max_rounds": 1}}
    with running_league(folder, given, workers=2) as (league, lines, thread):
        deadline = time.monotonic() + 240
        wait_until(lambda: set(PLAYERS) <= played(folder), deadline, lines)
        upload = {path.relative_to(STARTERS / "python-td").as_posix(): path.read_bytes()
                  for path in (STARTERS / "python-td").rglob("*") if path.is_file()}
        upload["bot.json"] = json.dumps(json.loads(upload["bot.json"]) | {"nickName": "Uploaded"}).encode()
        accept(make_zip(upload), subs, "uploader", "tower-defence", Caps())
        wait_until(lambda: "uploader" in played(folder), deadline, lines)
        # the writer builds in the watched folder: the league makes no version of what the build leaves
        code, out, err = run_cli("build", subs / "python-td")
        assert code == 0, err
        time.sleep(2.5)  # longer than the league's quiet time and rescan: it would have taken a version by now
    yield folder, subs, lines


def played(folder: Path) -> set[str]:
    """The players with a seat in a recorded match, every seat of theirs free of crashes and failed starts."""
    db = database(folder)
    try:
        rows = db.execute("SELECT p.name, s.crashes, s.failed_to_start FROM seats s JOIN versions v ON v.id = s.version_id "
                          "JOIN players p ON p.id = v.player_id").fetchall()
    finally:
        db.close()
    for row in rows:
        assert (row["crashes"], row["failed_to_start"]) == (0, 0), f"{row['name']} crashed"
    return {row["name"] for row in rows}


def wait_until(condition, deadline: float, lines: list[str]) -> None:
    while not condition():
        assert time.monotonic() < deadline, "timed out; the league's log:\n" + "\n".join(lines)
        time.sleep(0.25)


def versions(folder: Path) -> dict[str, list]:
    db = database(folder)
    try:
        found: dict[str, list] = {}
        for row in db.execute("SELECT p.name, v.* FROM versions v JOIN players p ON p.id = v.player_id ORDER BY v.id"):
            found.setdefault(row["name"], []).append(row)
        return found
    finally:
        db.close()


def test_every_starter_is_built_checked_and_plays(league_run: tuple[Path, Path, list[str]]) -> None:
    folder, subs, lines = league_run
    rows = versions(folder)
    assert {name: [row["status"] for row in rows[name]] for name in (*PLAYERS, "uploader")} == {
        name: ["active"] for name in (*PLAYERS, "uploader")}, "\n".join(lines)
    assert played(folder) == {*PLAYERS, "uploader"}
    python = rows["python-td"][0]
    assert "termcolor" in python["build_output"] and (folder / "bots" / python["hash"] / ".venv").is_dir()
    uploaded = rows["uploader"][0]
    assert "termcolor" in uploaded["build_output"] and (folder / "bots" / uploaded["hash"] / ".venv").is_dir()
    check_consistent(folder)


def test_the_java_bot_keeps_its_committed_jar_when_maven_cannot_fetch(league_run: tuple[Path, Path, list[str]]) -> None:
    folder, _, _ = league_run
    java = versions(folder)["java-td"][0]
    output = java["build_output"]
    assert "[td-runner] used the committed target/java-td-1.0.jar: `mvn -B -Dstyle.color=never -q package` exited" in output
    assert "\x1b[" not in output  # batch mode: no colour codes on the player's page


def test_the_league_names_no_server_path(league_run: tuple[Path, Path, list[str]]) -> None:
    folder, subs, _ = league_run
    for rows in versions(folder).values():
        for row in rows:
            for text in (row["reason"] or "", row["build_output"] or ""):
                for path in (str(folder), str(subs), sys.executable):
                    assert path not in text, f"{row['nick']}: {path} in {text[:300]!r}"


def test_a_build_in_the_watched_folder_makes_no_version(league_run: tuple[Path, Path, list[str]]) -> None:
    folder, subs, _ = league_run
    assert (subs / "python-td" / ".venv" / "bin" / "python").exists()  # the writer's build moved in whole
    assert [row["number"] for row in versions(folder)["python-td"]] == [1]
    assert not [entry.name for entry in subs.iterdir() if ".td-build-" in entry.name]  # no staging copy left

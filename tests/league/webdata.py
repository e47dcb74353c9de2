"""Small league databases for the web page tests (a uniquely named module: tests/ has no packages), made by
inserting rows through the store's schema, with real match logs (one `td-runner match` of two tiny Tower
Defence bots per test process, copied under each match). Names and texts hold HTML on purpose: every page
must show them as text."""

from __future__ import annotations

import io
import json
import random
import shutil
import sqlite3
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from runner.cli import main
from runner.league.settings import SETTINGS_KEY
from runner.league.store import connect, set_meta

ALICE, TOM, SCRIPT, BROKEN, GONE = "alice", 'Tom & "Jerry\'s"', "<script>alert(1)</script>", "broken <b>bot</b>", "gone"
#: What each hostile text would do if it were not escaped.
FAULT_OUTPUT = "<img src=x onerror=\"document.body.dataset.injected='output'\">"
BUILD_OUTPUT = "<i>make: *** [all] Error 1</i> & <script>document.body.dataset.injected='build'</script>"
REASON = "bot.json: <b>botFileName</b> is missing"
EVENT_TEXT = "<script>alert(1)</script>: version 1 plays & wins"

TD_BOT = 'open("command.txt", "w").write("0,{row},2\\n")\n'

_played: dict[str, Path] = {}


def played_log(scratch: Path) -> Path:
    """A real match log (played once per test process, under `scratch` the first time)."""
    if "log" not in _played:
        bots = []
        for row in (1, 2):
            folder = scratch / "bots" / f"tiny{row}"
            folder.mkdir(parents=True)
            (folder / "bot.json").write_text(json.dumps({
                "author": "tests", "email": "tests@example.invalid", "nickName": f"Tiny{row}", "botLocation": "/",
                "botFileName": "bot.py", "botLanguage": "python3"}))
            (folder / "bot.py").write_text(TD_BOT.format(row=row))
            bots.append(str(folder))
        out, err = io.StringIO(), io.StringIO()
        code = main(["match", *bots, "--output", str(scratch / "logs"), "--name", "m", "--quiet", "--seed", "1",
                     "--max-rounds", "4"], out, err)
        assert code == 0, err.getvalue()
        _played["log"] = scratch / "logs" / "m"
    return _played["log"]


def _player(db: sqlite3.Connection, name: str, retired: bool = False) -> int:
    return db.execute("INSERT INTO players (name, created, retired) VALUES (?, ?, ?)",
                      (name, 1.7e9, 1.7e9 + 500 if retired else None)).lastrowid


def _version(db: sqlite3.Connection, player: int, number: int, status: str, *, reason: str | None = None,
             build_output: str | None = None, mu: float = 25.0, sigma: float = 25 / 3,
             roles: tuple[str, ...] = ("",)) -> int:
    version = db.execute(
        "INSERT INTO versions (player_id, number, hash, created, nick, language, status, reason, build_output) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (player, number, f"{player:04d}{number:04d}abcdef0123456789", 1.7e9 + number, f"nick<{player}>", "python3",
         status, reason, build_output)).lastrowid
    for role in roles:
        db.execute("INSERT INTO ratings (version_id, role, mu0, sigma0, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?, 0)",
                   (version, role, mu, sigma, mu, sigma))
    return version


def _match(db: sqlite3.Connection, number: int, seats: list[tuple[int, int]], log: str | None,
           faults: dict[int, list[dict]] | None = None, roles: tuple[str, ...] = ("", "")) -> None:
    """Match `number` between (version, place) seats (in `roles`); ratings move by a little per match."""
    db.execute("INSERT INTO matches (id, task, seed, finished, end_reason, rounds, draw, wall_seconds, cpu_seconds, "
               "log) VALUES (?, ?, ?, ?, 'max_rounds', 4, 0, 1.5, 0.01, ?)",
               (number, number, number, 1.7e9 + 60 * number, log))
    for position, ((version, place), role) in enumerate(zip(seats, roles)):
        mu, sigma, games = db.execute("SELECT mu, sigma, games FROM ratings WHERE version_id = ? AND role = ?",
                                      (version, role)).fetchone()
        after = mu + (1.0 if place == 1 else -1.0)
        db.execute(
            "INSERT INTO seats (match_id, position, seat, version_id, role, place, result, started, timeouts, "
            "crashes, failed_to_start, invalid, disqualified, faults, mu_before, sigma_before, mu_after, sigma_after) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, 0, 0, 0, 0, ?, ?, ?, ?, ?)",
            (number, position, "AB"[position], version, role, place, "win" if place == 1 else "loss",
             len((faults or {}).get(version, [])), json.dumps((faults or {}).get(version, [])), mu, sigma, after,
             sigma * 0.95))
        db.execute("UPDATE ratings SET mu = ?, sigma = ?, games = ? WHERE version_id = ? AND role = ?",
                   (after, sigma * 0.95, games + 1, version, role))


#: The matches of make_league's league that have a log (copying a log takes a while on a busy machine).
LOGGED = (1, 2, 3, 7)


def _log(folder: Path, log: Path, number: int) -> str | None:
    if number not in LOGGED:
        return None
    shutil.copytree(log, folder / "matches" / f"{number:06d}")
    return f"matches/{number:06d}"


def make_league(folder: Path, log: Path) -> Path:
    """A Tower Defence league: alice (v1 replaced by v2), Tom & "Jerry's", <script>alert(1)</script> (a fault
    with hostile output), broken <b>bot</b> (invalid, with a reason and build output), gone (retired); 7
    matches, those in LOGGED with a copy of `log`; events."""
    db = connect(folder, create=True)
    set_meta(db, SETTINGS_KEY, json.dumps({"game": "tower-defence", "submissions": "/nowhere"}))
    db.execute("BEGIN")
    alice, tom, script = _player(db, ALICE), _player(db, TOM), _player(db, SCRIPT)
    alice1 = _version(db, alice, 1, "replaced")
    tom1, script1 = _version(db, tom, 1, "active"), _version(db, script, 1, "active")
    _version(db, _player(db, BROKEN), 1, "invalid", reason=REASON, build_output=BUILD_OUTPUT)
    gone1 = _version(db, _player(db, GONE, retired=True), 1, "retired")
    fault = {"turn": 2, "kind": "timeout", "detail": "did not finish <in time> & was stopped", "output": FAULT_OUTPUT}
    pairs = [(alice1, tom1), (tom1, gone1), (script1, alice1), (script1, tom1)]
    for number, (first, second) in enumerate(pairs, 1):
        _match(db, number, [(first, 1), (second, 2)], _log(folder, log, number),
               {script1: [fault]} if number == 3 else None)
    alice2 = _version(db, alice, 2, "active", mu=26.0, sigma=5.0)
    for number, (first, second) in enumerate([(alice2, script1), (tom1, alice2), (alice2, script1)], 5):
        _match(db, number, [(first, 1), (second, 2)], _log(folder, log, number))
    for kind, player, text in (("version", SCRIPT, EVENT_TEXT), ("refused", BROKEN, REASON),
                               ("retired", GONE, "gone & retired")):
        db.execute("INSERT INTO events (time, kind, player, text) VALUES (?, ?, ?, ?)", (1.7e9, kind, player, text))
    db.execute("COMMIT")
    db.close()
    return folder


def sided_league(folder: Path) -> Path:
    """An Invaders league without logs: two players, each with a defender and an invader rating, three
    matches (each seat in its role)."""
    db = connect(folder, create=True)
    set_meta(db, SETTINGS_KEY, json.dumps({"game": "invaders"}))
    db.execute("BEGIN")
    first, second = (_version(db, _player(db, name), 1, "active", roles=("defender", "invader"))
                     for name in ("red & co", "blue"))
    for number, (defender, invader) in enumerate(((first, second), (second, first), (first, second)), 1):
        _match(db, number, [(defender, 1), (invader, 2)], None, roles=("defender", "invader"))
    db.execute("COMMIT")
    db.close()
    return folder


def big_league(folder: Path, players: int = 40, matches: int = 10_000, seed: int = 1) -> Path:
    """A league of `players` (one version each) and `matches` two-seat matches without logs: for timing."""
    rng = random.Random(seed)
    db = connect(folder, create=True)
    set_meta(db, SETTINGS_KEY, json.dumps({"game": "tower-defence"}))
    db.execute("BEGIN")
    versions = [_version(db, _player(db, f"player {n:02d}"), 1, "active") for n in range(players)]
    for number in range(1, matches + 1):
        first, second = rng.sample(versions, 2)
        _match(db, number, [(first, 1), (second, 2)], None)
    db.execute("COMMIT")
    db.close()
    return folder


# --- checking a page -------------------------------------------------------------------------------------

#: Every element the page templates use; anything else in a page came from data that was not escaped.
TEMPLATE_TAGS = {"html", "head", "meta", "title", "style", "body", "nav", "b", "a", "span", "h1", "h2", "h3", "p",
                 "table", "thead", "tbody", "tr", "th", "td", "details", "summary", "pre", "code", "svg", "path",
                 "line", "text", "circle", "script", "form", "label", "input", "button"}


class ParsedPage(HTMLParser):
    """A page's elements, attributes, links, scripts and visible text (character references decoded)."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.links: list[str] = []
        self.scripts: list[str] = []
        self.text: list[str] = []
        self._in: str | None = None
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += attrs
        self.links += [value for name, value in attrs if name == "href" and value]
        self._in = tag

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "script":
            self.scripts.append(data)
        elif self._in != "style":
            self.text.append(data)


def check_page(page: str, shown: tuple[str, ...] = (), *, live: bool) -> ParsedPage:
    """Assert the page has only the templates' elements, no event-handler attribute, our poll script alone
    (live pages) or no script, and shows each of `shown` as text. The parsed page."""
    parsed = ParsedPage(page)
    assert set(parsed.tags) <= TEMPLATE_TAGS, set(parsed.tags) - TEMPLATE_TAGS
    assert not [name for name, _ in parsed.attributes if name.startswith("on")]
    assert parsed.tags.count("script") == (1 if live else 0)
    assert all(script.startswith("(function(){var state=") for script in parsed.scripts)
    text = "".join(parsed.text)
    for expected in shown:
        assert expected in text, f"{expected!r} is not shown as text"
    return parsed


def links_resolve(out: Path) -> int:
    """Assert every relative link of every page in `out` names a file there; the number of links checked."""
    checked = 0
    for page in out.rglob("*.html"):
        if page.parent.parent.name == "matches":  # a replay page: self-contained, no links to follow
            continue
        for link in check_page(page.read_text(), live=False).links:
            assert not urlsplit(link).scheme and not link.startswith("/"), link
            target = (page.parent / unquote(urlsplit(link).path)).resolve()
            assert target.is_file() and target.is_relative_to(out.resolve()), f"{page}: {link}"
            checked += 1
    return checked

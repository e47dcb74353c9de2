"""The league's pages rendered from a database: every string from a bot folder or the database shown as
text, links to players URL-quoted, the rating chart, the limits of the "recent" lists."""

from __future__ import annotations

from pathlib import Path
import pytest

from runner.league.web import league_data, site as routes
from runner.league.web.league_data import LeagueSource
from runner.league.web.pages import player_path, slug, unslug
from runner.league.web.site import ORGANISER, Site

from webdata import (ALICE, BROKEN, BUILD_OUTPUT, EVENT_TEXT, FAULT_OUTPUT, GONE, REASON, SCRIPT, TOM, big_league,
                     check_page, make_league, played_log, sided_league)

NAMES = (ALICE, TOM, SCRIPT, BROKEN, GONE)


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One league for the module: these tests only read it."""
    root = tmp_path_factory.mktemp("web")
    return make_league(root / "league", played_log(root / "scratch"))


def page(folder: Path, path: str, live: bool = True, viewer: str | None = None) -> str:
    with LeagueSource(folder) as source:
        response = Site(source, live=live, cache=folder / "replays", viewer=viewer).get(path)
    assert response.status == 200, path
    return response.body.decode()


def test_every_page_shows_hostile_strings_as_text(league: Path) -> None:
    check_page(page(league, "index.html"), (*NAMES, REASON, "invalid", "retired"), live=True)
    check_page(page(league, "matches.html"), (ALICE, TOM, SCRIPT, GONE), live=True)
    check_page(page(league, "crosstable.html"), (ALICE, TOM, SCRIPT, GONE), live=True)
    check_page(page(league, "events.html"), (EVENT_TEXT, REASON, "gone & retired", SCRIPT, BROKEN), live=True)
    check_page(page(league, player_path(SCRIPT), viewer=SCRIPT),
               (SCRIPT, FAULT_OUTPUT, "did not finish <in time> & was stopped", "nick<3>"), live=True)
    check_page(page(league, player_path(BROKEN), viewer=ORGANISER), (BROKEN, REASON, BUILD_OUTPUT), live=True)
    check_page(page(league, player_path(TOM)), (TOM,), live=True)


def test_a_bots_own_words_are_shown_to_its_player_and_the_organiser_alone(league: Path) -> None:
    """Issue 31.9: the build output and a fault's detail and output are private; the fault's kind and turn
    are public."""
    for viewer, live in ((None, True), (None, False), (TOM, True)):
        text = "".join(check_page(page(league, player_path(SCRIPT), live, viewer), ("timeout",), live=live).text)
        assert FAULT_OUTPUT not in text and "did not finish" not in text
        assert BUILD_OUTPUT not in page(league, player_path(BROKEN), live, viewer)
        assert "build output" not in page(league, player_path(BROKEN), live, viewer)
    for viewer in (SCRIPT, ORGANISER):
        assert FAULT_OUTPUT in "".join(check_page(page(league, player_path(SCRIPT), viewer=viewer), live=True).text)
    mine = page(league, player_path(SCRIPT), viewer=SCRIPT)
    assert 'name="bot"' in mine and 'name="token"' not in mine  # signed in: the upload form
    public = page(league, player_path(SCRIPT))
    assert 'name="token"' in public and 'name="bot"' not in public  # signed out: the sign-in form


def test_names_spelled_like_template_placeholders_are_plain_text(tmp_path: Path) -> None:
    """Issue 31.6: pages are rendered in one pass, so a name or text holding {{RECORD}}-like placeholders,
    format fields or a script's end is shown as written."""
    import json as json_module

    from runner.league.store import connect

    folder = make_league(tmp_path / "league", played_log(tmp_path / "scratch"))
    names = ("{{RECORD}}", "{root}{0}", "</script><!--", "{{BOARD_JS}}{{VIEWER_JS}}")
    db = connect(folder)
    for name in names:
        db.execute("INSERT INTO players (name, created) VALUES (?, 1.7e9)", (name,))
        player = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()[0]
        db.execute("INSERT INTO versions (player_id, number, hash, created, nick, language, status) "
                   "VALUES (?, 1, ?, 1.7e9, ?, 'python3', 'active')", (player, f"h{player}", name))
        db.execute("INSERT INTO ratings (version_id, role, mu0, sigma0, mu, sigma) VALUES (last_insert_rowid(), '', "
                   "25, 8, 25, 8)")
        db.execute("INSERT INTO events (time, kind, player, text) VALUES (1.8e9, 'version', ?, ?)", (name, name))
    db.close()
    shown = {"index.html": names, "events.html": names, "crosstable.html": names,
             **{player_path(name): (name,) for name in names}}
    for path, expected in shown.items():
        html = page(folder, path)
        check_page(html, expected, live=True)
        assert "{{RECORD}}" not in html.split("<script>")[-1]  # nothing reached the live script
    assert json_module.loads(page(folder, "standings.json"))["players"]


def test_static_pages_have_no_script(league: Path) -> None:
    for path in ("index.html", "matches.html", player_path(ALICE)):
        check_page(page(league, path, live=False), (ALICE,), live=False)


def test_player_links_spell_names_safely_and_lead_to_the_player(league: Path) -> None:
    parsed = check_page(page(league, "index.html"), live=True)
    players = [link for link in parsed.links if link.startswith("players/")]
    assert sorted(players) == sorted(player_path(name) for name in NAMES)
    assert player_path(SCRIPT) == "players/_3cscript_3ealert_281_29_3c_2fscript_3e.html"
    for name in NAMES:
        headings = check_page(page(league, player_path(name)), (name,), live=True)
        assert headings.tags.count("h1") == 1
    # links from a player's page climb out of players/
    parsed = check_page(page(league, player_path(ALICE)), live=True)
    assert "../index.html" in parsed.links and "../matches/7/replay.html" in parsed.links
    assert "../" + player_path(SCRIPT) in parsed.links


def test_standings_rank_the_scheduled_and_say_why_others_are_not(league: Path) -> None:
    parsed = check_page(page(league, "index.html"), live=True)
    rows = "".join(parsed.text)
    assert rows.index(ALICE) < rows.index(BROKEN) and rows.index(TOM) < rows.index(GONE)
    assert rows.index(BROKEN) < rows.index("invalid") < rows.index(REASON)


def test_rating_chart_draws_mu_band_and_version_change(league: Path) -> None:
    html = page(league, player_path(ALICE))
    parsed = check_page(html, live=True)
    assert parsed.tags.count("svg") == 1 and 'class="mu"' in html and 'class="band"' in html
    mu = html.split('class="mu" d="M', 1)[1].split('"', 1)[0]
    # the start, alice's two matches with v1 (1 and 3), its three with v2 (5, 6, 7)
    assert len(mu.split(" L")) == 6
    assert html.count('class="version"') == 1 and ">v2</text>" in html
    # a player with no rated match yet: no chart, words instead
    assert "no rated match yet" in page(league, player_path(BROKEN))


def test_unknown_pages_are_404(league: Path) -> None:
    with LeagueSource(league) as source:
        site = Site(source, live=True, cache=league / "replays")
        for path in ("nope.html", "players/nobody.html", "players/../league.sqlite", "matches/99/replay.html",
                     "matches/x/replay.html", "matches/1/match.json", "league.sqlite", "replays/1.html"):
            assert site.get(path).status == 404, path


def test_recent_lists_are_limited_and_crosstable_adds_up(tmp_path: Path, monkeypatch) -> None:
    folder = big_league(tmp_path / "big", players=6, matches=400)
    monkeypatch.setattr(routes, "RECENT_MATCHES", 50)
    parsed = check_page(page(folder, "matches.html"), live=True)
    assert sum(link.endswith("replay.html") for link in parsed.links) == 0  # no logs in this league
    assert "".join(parsed.text).count("player 0") == 2 * 50
    html = page(folder, player_path("player 03"))
    assert html.count("<tr><td class=n>") >= league_data.PLAYER_MATCHES_SHOWN
    with LeagueSource(folder) as source:
        cross = source.crosstable()
        games = {row.name: row.games for row in source.standings()}
    for name in cross.names:
        assert sum(sum(cell) for (row, _), cell in cross.cells.items() if row == name) == games[name]


@pytest.mark.parametrize("name", [ALICE, TOM, SCRIPT, "player 07", "ünï cödé ☃", "a_b", "..", "%41", "-"])
def test_slug_round_trips_and_is_a_safe_file_name(name: str) -> None:
    assert unslug(slug(name)) == name
    assert set(slug(name)) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


@pytest.mark.parametrize("text", ["", "a b", "_3", "_3C", "_zz", "_ff", "a/b", "..", "a%20b"])
def test_unslug_refuses_what_no_name_gives(text: str) -> None:
    assert unslug(text) is None


def test_sided_games_show_each_role(tmp_path: Path) -> None:
    folder = sided_league(tmp_path / "invaders")
    html = page(folder, "index.html")
    parsed = check_page(html, ("red & co", "blue", "defender", "invader"), live=True)
    assert parsed.tags.count("h2") == 2 and parsed.tags.count("table") == 2
    assert html.index("<h2>defender</h2>") < html.index("<h2>invader</h2>")
    player = page(folder, player_path("red & co"))
    check_page(player, ("defender", "invader"), live=True)
    assert player.count('<svg class="chart"') == 2
    assert "defender</span>" in page(folder, "matches.html")  # each seat's role beside its player


def test_faults_are_every_kind_summed_the_same_on_pages_and_in_status(tmp_path: Path) -> None:
    """One meaning of "faults" (issue 36): time-outs, crashes, failures to start, refused answers and
    disqualifications, in the pages' standings (the web ledger) as in `league status` (standings_json)."""
    import sqlite3

    from runner.league.standings import standings_json
    from runner.league.store import connect

    folder = make_league(tmp_path / "league", played_log(tmp_path / "scratch"))
    with sqlite3.connect(folder / "league.sqlite") as db:
        match_id, version = db.execute(  # a version the standings list
            "SELECT s.match_id, s.version_id FROM seats s JOIN versions v ON v.id = s.version_id "
            "WHERE v.status = 'active' ORDER BY s.match_id LIMIT 1").fetchone()
        db.execute("UPDATE seats SET timeouts = 1, crashes = 2, failed_to_start = 3, invalid = 4, disqualified = 1 "
                   "WHERE match_id = ? AND version_id = ?", (match_id, version))
        (expected,) = db.execute("SELECT SUM(timeouts + crashes + failed_to_start + invalid + disqualified) FROM seats "
                                 "WHERE version_id = ?", (version,)).fetchone()
    with LeagueSource(folder) as source:
        on_pages = {row.hash: row.faults for row in source.standings()}
    db = connect(folder, readonly=True)
    try:
        in_status = {row["hash"]: row["faults"] for row in standings_json(db)["players"]}
        (version_hash,) = db.execute("SELECT hash FROM versions WHERE id = ?", (version,)).fetchone()
    finally:
        db.close()
    assert on_pages[version_hash] == in_status[version_hash] == expected >= 11

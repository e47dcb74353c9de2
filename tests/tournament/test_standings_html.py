"""`td-runner standings DIR --html OUT`: a finished tournament as the league's static pages (same templates):
standings, each entrant's page with its faults (kind and turn: what a bot printed is its player's own, and
static pages are public), matches with their replays, the crosstable; every name from a bot.json shown as
text; links that resolve."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from runner.league.web.pages import player_path

from tournament_helpers import TD_BOT, run_cli, write_bot

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "league"))
from webdata import check_page, links_resolve  # noqa: E402  (tests/league's page checks)

SCRIPT, TOM = "<img src=x onerror=alert(1)>", 'Tom & "Jerry\'s"'
#: A bot that writes HTML to its output and crashes: the player page shows the crash, not the output.
HTML_CRASHER = 'print("<img src=x onerror=alert(2)>")\nraise SystemExit(3)\n'


def test_tournament_pages(tmp_path: Path) -> None:
    bots = tmp_path / "bots"
    players = [write_bot(bots / "a", SCRIPT, TD_BOT.format(row=1)), write_bot(bots / "b", TOM, HTML_CRASHER),
               write_bot(bots / "c", "Plain", TD_BOT.format(row=2))]
    folder, out = tmp_path / "t", tmp_path / "site"
    code, _, stderr = run_cli("tournament", *players, "--max-rounds", "3", "--output", str(folder),
                              "--workers", "2")
    assert code == 0, stderr
    code, stdout, stderr = run_cli("standings", str(folder), "--html", str(out))
    assert code == 0, stderr
    games = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    files = {str(path.relative_to(out)) for path in out.rglob("*") if path.is_file()}
    assert files == ({"index.html", "matches.html", "crosstable.html", "standings.json"}
                     | {player_path(name) for name in (SCRIPT, TOM, "Plain")}
                     | {f"matches/{number}/replay.html" for number in range(1, len(games) + 1)})
    assert f"wrote {len(files)} pages to {out}" in stdout
    assert json.loads((out / "standings.json").read_text())["rows"] == json.loads(
        run_cli("standings", str(folder), "--json")[1])["rows"]
    check_page((out / "index.html").read_text(), (SCRIPT, TOM, "Plain"), live=False)
    check_page((out / "matches.html").read_text(), (SCRIPT, TOM), live=False)
    check_page((out / "crosstable.html").read_text(), (SCRIPT, TOM), live=False)
    page = (out / player_path(TOM)).read_text()
    check_page(page, (TOM, "crash"), live=False)
    assert "onerror=alert(2)" not in page
    assert all('<svg class="chart"' in (out / player_path(name)).read_text() for name in (SCRIPT, TOM, "Plain"))
    assert links_resolve(out) > 30
    # issue 36: the pages show what a tournament knows, every column filled: the entrant's language from its
    # bot.json, no league columns (submitted, status) and no finish times (a tournament keeps none)
    for name in (SCRIPT, TOM, "Plain"):
        page = (out / player_path(name)).read_text()
        assert "<th>language</th>" in page and "<td>python3</td>" in page
        assert not {"submitted (UTC)", "status", "finished (UTC)"} & set(re.findall(r"<th[^>]*>([^<]*)</th>", page))
    headers = set(re.findall(r"<th[^>]*>([^<]*)</th>", (out / "matches.html").read_text()))
    assert "finished (UTC)" not in headers and "players (place)" in headers


def test_not_a_tournament_is_one_line(tmp_path: Path) -> None:
    code, _, stderr = run_cli("standings", str(tmp_path / "nothing"), "--html", str(tmp_path / "out"))
    assert code == 2 and stderr.count("\n") == 1 and "does not exist" in stderr
    assert not (tmp_path / "out").exists()

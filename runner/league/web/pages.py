"""The HTML of every page, rendered on the server from the page model.

Every string that comes from a bot folder or the database passes through `html.escape` (the `e` below) on
its way into the page, a player's page path spells its name by `slug`, and every link is relative (`root`
leads back to the site's top), so the same pages work served live, from file://, and under any web server
sub-path. A page loads nothing from the network (its Content-Security-Policy forbids it); a live page polls
`state.json` every few seconds and reloads when a match finished or something happened.
"""

from __future__ import annotations

import re
import string
import time
from collections.abc import Iterable, Sequence
from html import escape as e

from runner.league.web.chart import rating_chart
from runner.league.standings import StandingRow
from runner.league.web.model import Crosstable, Event, Fault, Info, MatchRow, PlayerPage, Version

#: How often a live page asks whether it is stale.
POLL_MS = 3000

POLICY = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; "
          "img-src data:; base-uri 'none'; form-action 'self'")

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:0 16px 40px;color:#222}
nav{display:flex;gap:16px;align-items:baseline;border-bottom:1px solid #ccc;padding:10px 0;margin-bottom:12px}
nav b{font-size:16px;margin-right:12px}a{color:#0645ad;text-decoration:none}a:hover{text-decoration:underline}
table{border-collapse:collapse;margin:8px 0 20px}th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:left;
vertical-align:top}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}.muted{color:#777}
.status{font-size:12px;padding:1px 6px;border-radius:8px;background:#eee}.status.active{background:#d8f0d8}
.status.invalid,.status.build-failed{background:#f6d5d5}pre{background:#f6f6f6;padding:6px;max-height:240px;
overflow:auto;white-space:pre-wrap;margin:2px 0}svg.chart{background:#fafafa;border:1px solid #ddd}
svg .band{fill:#9cc3ea;opacity:.45}svg .mu{fill:none;stroke:#1f5fa8;stroke-width:2}svg .last{fill:#1f5fa8}
svg .version{stroke:#c60;stroke-dasharray:4 3}svg text{font-size:11px;fill:#555}
.cross td{text-align:center}.cross td.self{background:#eee}
"""


_SAFE = frozenset(string.ascii_letters + string.digits + "-")
_SLUG = re.compile(r"(?:[A-Za-z0-9-]|_[0-9a-f]{2})+")


def slug(name: str) -> str:
    """A player's name as a file name and URL path segment: letters, digits and '-' kept, every other byte of
    its UTF-8 as `_xx`. Plain URL quoting falls short for a static copy: a name holding '/' cannot be a file
    name, and a file name holding '%' needs quoting twice in links."""
    return "".join(char if char in _SAFE else "".join(f"_{byte:02x}" for byte in char.encode()) for char in name)


def unslug(text: str) -> str | None:
    """The name whose slug is `text`; None when `text` is no slug."""
    if not _SLUG.fullmatch(text):
        return None
    data = b"".join(bytes.fromhex(part[1:]) if part.startswith("_") else part.encode()
                    for part in re.findall(r"_[0-9a-f]{2}|[A-Za-z0-9-]", text))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def player_path(name: str) -> str:
    return f"players/{slug(name)}.html"


def player_href(root: str, name: str) -> str:
    return root + player_path(name)


def replay_path(match: int) -> str:
    return f"matches/{match}/replay.html"


def replay_href(root: str, match: int) -> str:
    return root + replay_path(match)


def when(seconds: float | None) -> str:
    return "" if seconds is None else time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(seconds))


def layout(info: Info, title: str, body: str, *, root: str, live: bool) -> str:
    """A whole page: head, navigation, `body` (already escaped HTML), and the poll script when live."""
    links = [("index.html", "Standings"), ("matches.html", "Matches"), ("crosstable.html", "Crosstable")]
    if info.has_events:
        links.append(("events.html", "Events"))
    links.append(("standings.json", "standings.json"))
    nav = "".join(f'<a href="{root}{href}">{label}</a>' for href, label in links)
    poll = "" if not live else (
        "<script>(function(){var state=document.body.getAttribute('data-state');setInterval(function(){"
        f"fetch('{root}state.json',{{cache:'no-store'}}).then(function(r){{return r.ok?r.json():null}})"
        ".then(function(s){if(s&&s.key!==state)location.reload()}).catch(function(){})}"
        f",{POLL_MS})}})();</script>")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{e(title)} · {e(info.title)}</title><style>{STYLE}</style></head>"
            f'<body data-state="{e(info.state)}"><nav><b>{e(info.title)}</b>{nav}'
            f'<span class="muted">{info.matches} matches</span></nav>{body}{poll}</body></html>\n')


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]], numeric: Iterable[int] = (), css: str = "") -> str:
    """A table of already escaped cells; columns in `numeric` are right-aligned."""
    numeric = set(numeric)
    head = "".join(f'<th{" class=n" if i in numeric else ""}>{h}</th>' for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f'<td{" class=n" if i in numeric else ""}>{cell}</td>'
                                    for i, cell in enumerate(row)) + "</tr>" for row in rows)
    return f'<table{f" class={css}" if css else ""}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _status(status: str, reason: str | None) -> str:
    if not status:  # a tournament's entrant: nothing to say
        return ""
    badge = f'<span class="status {e(status.replace(" ", "-"))}">{e(status)}</span>'
    return badge + (f' <span class="muted">{e(reason)}</span>' if reason else "")


def _version(number: int | None) -> str:
    return "" if number is None else f"v{number}"


# --- pages -----------------------------------------------------------------------------------------------


def standings_page(info: Info, rows: Sequence[StandingRow], *, live: bool) -> str:
    root = ""
    roles = list(dict.fromkeys(row.role for row in rows))
    parts = [f"<h1>Standings</h1><p class=muted>{e(info.game)}: sorted by mu - 3 sigma; a version that is not "
             "scheduled says why.</p>"]
    if not rows:
        parts.append("<p>No players yet.</p>")
    for role in roles:
        if role:
            parts.append(f"<h2>{e(role)}</h2>")
        table, rank = [], 0
        for row in (row for row in rows if row.role == role):
            ranked = row.status in ("active", "")  # '': a tournament's entrant
            rank += ranked
            table.append((str(rank) if ranked else "–",
                          f'<a href="{e(player_href(root, row.name))}">{e(row.name)}</a>', e(_version(row.version)),
                          f"{row.mu:.2f}", f"{row.sigma:.2f}", str(row.games), str(row.wins), str(row.draws),
                          str(row.losses), str(row.faults), _status(row.status, row.reason)))
        parts.append(_table(("#", "player", "version", "mu", "sigma", "games", "W", "D", "L", "faults", "status"),
                            table, numeric=(0, 3, 4, 5, 6, 7, 8, 9)))
    return layout(info, "Standings", "".join(parts), root=root, live=live)


def match_table(matches: Sequence[MatchRow], root: str) -> str:
    if not matches:
        return "<p>No matches yet.</p>"
    rows = []
    for match in matches:
        seats = ", ".join(
            f'{"" if seat.place is None else f"{seat.place}. "}<a href="{e(player_href(root, seat.player))}">'
            f'{e(seat.player)}</a> <span class=muted>{e(_version(seat.version))}'
            f'{" " + e(seat.role) if seat.role else ""}</span>' for seat in match.seats)
        end = e(match.end_reason) + (f' <span class="muted">{e(match.note)}</span>' if match.note else "")
        replay = f'<a href="{e(replay_href(root, match.id))}">replay</a>' if match.replay else ""
        rows.append((str(match.id), e(when(match.finished)), seats, end, str(match.rounds),
                     f"{match.wall_seconds:.1f} s", replay))
    return _table(("match", "finished (UTC)", "players (place)", "end", "rounds", "wall time", ""), rows,
                  numeric=(0, 4, 5))


def matches_page(info: Info, matches: Sequence[MatchRow], *, live: bool) -> str:
    body = f"<h1>Recent matches</h1><p class=muted>the last {len(matches)} of {info.matches}</p>"
    return layout(info, "Matches", body + match_table(matches, ""), root="", live=live)


def crosstable_page(info: Info, cross: Crosstable, *, live: bool) -> str:
    names = cross.names
    head = ["player"] + [f'<span title="{e(name)}">{index}</span>' for index, name in enumerate(names, 1)]
    rows = []
    for index, name in enumerate(names, 1):
        cells = [f'{index}. <a href="{e(player_href("", name))}">{e(name)}</a>']
        for other in names:
            cell = cross.cells.get((name, other))
            cells.append('<span class="muted">–</span>' if other == name else
                         "" if cell is None else "-".join(str(count) for count in cell))
        rows.append(cells)
    body = ("<h1>Crosstable</h1><p class=muted>the row player's wins-draws-losses against the column player "
            "(by place in the match)</p>" + (_table(head, rows, css="cross") if names else "<p>No players yet.</p>"))
    return layout(info, "Crosstable", body, root="", live=live)


def events_page(info: Info, events: Sequence[Event], *, live: bool) -> str:
    rows = [(e(when(event.time)), e(event.kind),
             f'<a href="{e(player_href("", event.player))}">{e(event.player)}</a>' if event.player else "",
             e(event.text)) for event in events]
    body = "<h1>Events</h1>" + (_table(("time (UTC)", "kind", "player", "what happened"), rows) if rows
                                else "<p>Nothing happened yet.</p>")
    return layout(info, "Events", body, root="", live=live)


def _versions(versions: Sequence[Version]) -> str:
    rows = []
    for version in reversed(versions):
        output = (f"<details><summary>build output</summary><pre>{e(version.build_output)}</pre></details>"
                  if version.build_output else "")
        rows.append((e(_version(version.number)), e(version.nick), e(version.language), e(when(version.created)),
                     _status(version.status, version.reason) + output, str(version.games),
                     f"{version.wins}-{version.draws}-{version.losses}", str(version.faults),
                     f"<code>{e(version.hash[:12])}</code>"))
    return _table(("version", "nick", "language", "submitted (UTC)", "status", "games", "W-D-L", "faults", "hash"),
                  rows, numeric=(5, 7))


def _faults(faults: Sequence[Fault], root: str) -> str:
    if not faults:
        return "<p>No faults.</p>"
    rows = [(f'<a href="{e(replay_href(root, fault.match))}">{fault.match}</a>', e(_version(fault.version)),
             e(str(fault.turn)), e(fault.kind), e(fault.detail),
             f"<pre>{e(fault.output)}</pre>" if fault.output else '<span class="muted">no output</span>')
            for fault in faults]
    return _table(("match", "version", "turn", "kind", "detail", "the bot's output"), rows)


def player_page(info: Info, player: PlayerPage, *, live: bool) -> str:
    root = "../"
    parts = [f"<h1>{e(player.name)}{' <span class=status>retired</span>' if player.retired else ''}</h1>",
             "<h2>Versions</h2>", _versions(player.versions)]
    if player.charts:
        parts.append("<h2>Rating</h2><p class=muted>mu with a band of mu ± sigma after each rated match; a dashed "
                     "line where a new version took over</p>")
        for role, points in player.charts:
            parts.append((f"<h3>{e(role)}</h3>" if role else "") + rating_chart(points, role))
    parts += [f"<h2>Recent matches</h2>{match_table(player.matches, root)}",
              f"<h2>Faults</h2>{_faults(player.faults, root)}"]
    if live:  # only a served page has a server to take an upload
        parts.append(UPLOAD_FORM.format(root=root))
    return layout(info, player.name, "".join(parts), root=root, live=live)


#: The player's own upload (POST /submit, runner/league/submit_route.py): the token decides whose bot it is.
UPLOAD_FORM = (
    '<h2>Submit a new version</h2><form id="submit" method="post" action="{root}submit" '
    'enctype="multipart/form-data"><p><label>Your token <input type="password" name="token" required '
    'autocomplete="off"></label></p><p><label>Your bot (.zip or .tar.gz, bot.json at its top) '
    '<input type="file" name="bot" accept=".zip,.tar.gz,.tgz" required></label></p>'
    '<p><button type="submit">Submit</button></p></form>')


def not_found_page(info: Info, what: str, *, root: str) -> str:
    return layout(info, "Not found", f"<h1>Not found</h1><p>{e(what)}</p>", root=root, live=False)

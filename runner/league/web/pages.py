"""The HTML of every page, rendered on the server from the page model.

Every string that comes from a bot folder or the database passes through `html.escape` (the `e` below) on
its way into the page, a player's page path spells its name by `slug`, and every link is relative (`root`
leads back to the site's top), so the same pages work served live, from file://, and under any web server
sub-path. A page loads nothing from the network (its Content-Security-Policy forbids it); a live page listens
to the server's `updates` stream (server-sent events) and reloads when a match finished or something happened,
at most once every RELOAD_MS.

Every page is built in one pass from its data (f-strings over escaped values, never a template whose
placeholders are replaced one after another, so a name spelled like a placeholder is just text), and a
value inside a <script> goes through `script_json`, so nothing in it can end the element.

What a bot printed is its player's own (issue 31.9): the build output and a fault's detail and output are
shown only on the player's page to that player (signed in) and to the organiser (`private=True`); every other
page, and every exported one, shows a fault's match, version, turn and kind, never text.
"""

from __future__ import annotations

import json
import re
import string
import time
from typing import Any
from collections.abc import Iterable, Mapping, Sequence
from html import escape as e

from runner.league.web.chart import rating_chart
from runner.league.standings import StandingRow
from runner.league.web.model import Crosstable, Event, Fault, Info, MatchRow, PlayerPage, Version

#: A live page reloads at most this often however fast matches finish (plus up to JITTER_MS, so that 300 tabs
#: told of one change at once do not all ask in the same instant).
RELOAD_MS, JITTER_MS = 5000, 3000
#: Browsers without EventSource poll state.json this often instead.
POLL_MS = 5000

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


def script_json(value: Any) -> str:
    """`value` as JSON that is safe inside <script>: '<', '>' and '&' written as \\u escapes, so neither
    `</script>` nor `<!--` in a name can end or change the element."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _live_script(root: str) -> str:
    """Reload when the server says the league changed: EventSource on `updates` (one open connection, no
    polling), at most once per RELOAD_MS since the page loaded."""
    return ("<script>(function(){var state=document.body.getAttribute('data-state'),loaded=Date.now(),"
            f"root={script_json(root)},timer=null;"
            "function stale(){if(timer)return;timer=setTimeout(function(){location.reload()},"
            f"Math.max(0,loaded+{RELOAD_MS}-Date.now())+Math.random()*{JITTER_MS})}}"
            "function seen(key){if(key&&key!==state)stale()}"
            "if(window.EventSource){new EventSource(root+'updates').onmessage=function(m){seen(m.data)}}"
            "else{setInterval(function(){fetch(root+'state.json',{cache:'no-store'})"
            ".then(function(r){return r.ok?r.json():null}).then(function(s){seen(s&&s.key)})"
            f".catch(function(){{}})}},{POLL_MS})}}}})();</script>")


def layout(info: Info, title: str, body: str, *, root: str, live: bool) -> str:
    """A whole page: head, navigation, `body` (already escaped HTML), and the live script when live."""
    links = [("index.html", "Standings"), ("matches.html", "Matches"), ("crosstable.html", "Crosstable")]
    if info.has_events:
        links.append(("events.html", "Events"))
    links.append(("standings.json", "standings.json"))
    nav = "".join(f'<a href="{root}{href}">{label}</a>' for href, label in links)
    poll = _live_script(root) if live else ""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{e(title)} · {e(info.title)}</title><style>{STYLE}</style></head>"
            f'<body data-state="{e(info.state)}"><nav><b>{e(info.title)}</b>{nav}'
            f'<span class="muted">{info.matches} matches</span></nav>{body}{poll}</body></html>\n')


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]], numeric: Iterable[int] = (), css: str = "",
           *, drop_empty: bool = False) -> str:
    """A table of already escaped cells; columns in `numeric` are right-aligned. `drop_empty`: a column
    whose every cell is empty is left out (a tournament has no submission times, statuses or finish times:
    a page shows what it knows, not a column of blanks)."""
    numeric = set(numeric)
    if drop_empty:
        rows = [tuple(row) for row in rows]
        kept = [i for i in range(len(headers)) if any(row[i] for row in rows)]
        headers = [headers[i] for i in kept]
        numeric = {position for position, i in enumerate(kept) if i in numeric}
        rows = [tuple(row[i] for i in kept) for row in rows]
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


def standings_page(info: Info, rows: Sequence[StandingRow], *, live: bool,
                   ranks: Mapping[tuple[str, str], str] | None = None) -> str:
    """The standings. A tournament passes `ranks` ((hash, role) -> its rank, a range such as `2-3` where the
    games cannot tell places apart): its table shows those and the ordinal it is sorted by, and leaves out the
    league's version and status columns, which a tournament never fills."""
    if ranks is not None:
        return _tournament_standings(info, rows, ranks, live=live)
    root = ""
    roles = list(dict.fromkeys(row.role for row in rows))
    parts = [f"<h1>Standings</h1><p class=muted>{e(info.game)}: sorted by the ordinal, mu - 3 sigma; a version "
             "that is not scheduled says why. Players whose ratings the games cannot tell apart yet (mu apart by "
             "less than 1.96 times their combined sigma) share a rank range; <code>td-runner grades</code> "
             "ranks from the games themselves.</p>"]
    if not rows:
        parts.append("<p>No players yet.</p>")
    for role in roles:
        if role:
            parts.append(f"<h2>{e(role)}</h2>")
        mine = [row for row in rows if row.role == role]
        ranks = rating_ranks([row for row in mine if row.status in ("active", "")])  # '': a tournament's entrant
        table = [(ranks.get(row.version_id, "–"),
                  f'<a href="{e(player_href(root, row.name))}">{e(row.name)}</a>', e(_version(row.version)),
                  f"{row.ordinal:.2f}", f"{row.mu:.2f}", f"{row.sigma:.2f}", str(row.games), str(row.wins),
                  str(row.draws), str(row.losses), str(row.faults), _status(row.status, row.reason))
                 for row in mine]
        parts.append(_table(("#", "player", "version", "ordinal", "mu", "sigma", "games", "W", "D", "L", "faults",
                             "status"), table, numeric=(0, 3, 4, 5, 6, 7, 8, 9, 10)))
    return layout(info, "Standings", "".join(parts), root=root, live=live)


def rating_ranks(rows: Sequence[StandingRow], z: float = 1.96) -> dict[int, str]:
    """version id -> its rank range among `rows` from the ratings alone (cheap enough for every render): a
    row is surely above another when its mu exceeds the other's by more than z times their combined sigma;
    its best place is 1 + the rows surely above it, its worst the rows not surely below it."""
    def above(a: StandingRow, b: StandingRow) -> bool:
        return a.mu - b.mu > z * (a.sigma ** 2 + b.sigma ** 2) ** 0.5

    ranks = {}
    for row in rows:
        best = 1 + sum(above(other, row) for other in rows if other is not row)
        worst = len(rows) - sum(above(row, other) for other in rows if other is not row)
        ranks[row.version_id] = str(best) if best == worst else f"{best}-{worst}"
    return ranks


def _tournament_standings(info: Info, rows: Sequence[StandingRow], ranks: Mapping[tuple[str, str], str], *,
                          live: bool) -> str:
    sided = any(row.role for row in rows)
    order = ("each role apart: defenders by mean turns lasted (more is better), invaders by mean turns against "
             "them (fewer is better), then the ordinal, mu - 3 sigma" if sided else "sorted by the ordinal, mu - 3 sigma")
    parts = [f"<h1>Standings</h1><p class=muted>{e(info.game)}: {order}. Entrants the games cannot tell apart "
             "share a rank range (a bootstrap at 95 %, as <code>td-runner grades</code> computes it).</p>"]
    if not rows:
        parts.append("<p>No entrants yet.</p>")
    for role in dict.fromkeys(row.role for row in rows):
        if role:
            parts.append(f"<h2>{e(role)}</h2>")
        table = [(e(ranks.get((row.hash, row.role), "")),
                  f'<a href="{e(player_href("", row.name))}">{e(row.name)}</a>',
                  "" if row.mean_turns is None else f"{row.mean_turns:.2f}", f"{row.ordinal:.2f}",
                  f"{row.mu:.2f}", f"{row.sigma:.2f}", str(row.games), str(row.wins), str(row.draws),
                  str(row.losses), str(row.faults)) for row in rows if row.role == role]
        parts.append(_table(("#", "player", "mean turns", "ordinal", "mu", "sigma", "games", "W", "D", "L", "faults"),
                            table, numeric=(0, 2, 3, 4, 5, 6, 7, 8, 9, 10), drop_empty=True))
    return layout(info, "Standings", "".join(parts), root="", live=live)


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
                  numeric=(0, 4, 5), drop_empty=True)


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


def _versions(versions: Sequence[Version], private: bool) -> str:
    rows = []
    for version in reversed(versions):
        output = (f"<details><summary>build output</summary><pre>{e(version.build_output)}</pre></details>"
                  if version.build_output and private else "")
        rows.append((e(_version(version.number)), e(version.nick), e(version.language), e(when(version.created)),
                     _status(version.status, version.reason) + output, str(version.games),
                     f"{version.wins}-{version.draws}-{version.losses}", str(version.faults),
                     f"<code>{e(version.hash[:12])}</code>"))
    return _table(("version", "nick", "language", "submitted (UTC)", "status", "games", "W-D-L", "faults", "hash"),
                  rows, numeric=(5, 7), drop_empty=True)


def _faults(faults: Sequence[Fault], root: str, private: bool) -> str:
    if not faults:
        return "<p>No faults.</p>"
    rows = []
    for fault in faults:
        row = [f'<a href="{e(replay_href(root, fault.match))}">{fault.match}</a>', e(_version(fault.version)),
               e(str(fault.turn)), e(fault.kind)]
        if private:
            row += [e(fault.detail),
                    f"<pre>{e(fault.output)}</pre>" if fault.output else '<span class="muted">no output</span>']
        rows.append(row)
    headers = ("match", "version", "turn", "kind") + (("detail", "the bot's output") if private else ())
    note = "" if private else ("<p class=muted>What a bot printed (and a build's output) is shown to its player "
                               "alone: sign in below to see yours.</p>")
    return note + _table(headers, rows)


def player_page(info: Info, player: PlayerPage, *, live: bool, private: bool = False,
                viewer: str | None = None) -> str:
    """A player's page; `private`: with its bots' own words (the player signed in, or the organiser);
    `viewer`: who is signed in (None: nobody), which decides the form at its foot on a live page."""
    root = "../"
    parts = [f"<h1>{e(player.name)}{' <span class=status>retired</span>' if player.retired else ''}</h1>",
             "<h2>Versions</h2>", _versions(player.versions, private)]
    if player.charts:
        parts.append("<h2>Rating</h2><p class=muted>mu with a band of mu ± sigma after each rated match; a dashed "
                     "line where a new version took over</p>")
        for role, points in player.charts:
            parts.append((f"<h3>{e(role)}</h3>" if role else "") + rating_chart(points, role))
    parts += [f"<h2>Recent matches</h2>{match_table(player.matches, root)}",
              f"<h2>Faults</h2>{_faults(player.faults, root, private)}"]
    if live:  # only a served page has a server to sign in to and take an upload
        parts.append(_forms(root, player.name, viewer))
    return layout(info, player.name, "".join(parts), root=root, live=live)


def _forms(root: str, name: str, viewer: str | None) -> str:
    """Signed out: the sign-in form (POST /login sets an HttpOnly cookie from the token, so the token is
    checked before an upload's first byte is read). Signed in as this player: the upload form (POST /submit,
    the cookie decides whose bot it is). Signed in as someone else: how to sign out."""
    back = f'<input type="hidden" name="next" value="{e(player_path(name))}">'
    sign_out = (f'<form id="logout" method="post" action="{root}logout">{back}'
                '<button type="submit">Sign out</button></form>')
    if viewer is None:
        return (f'<h2>Sign in</h2><form id="login" method="post" action="{root}login">{back}'
                '<p><label>Your token <input type="password" name="token" required autocomplete="off"></label> '
                '<button type="submit">Sign in</button></p></form>'
                '<p class=muted>Signed in, you see your bots\' output here and can submit a new version.</p>')
    if viewer != name:
        return f"<p class=muted>Signed in as {e(viewer)}.</p>{sign_out}"
    return ('<h2>Submit a new version</h2><form id="submit" method="post" action="' + root + 'submit" '
            'enctype="multipart/form-data"><p><label>Your bot (.zip or .tar.gz, bot.json at its top) '
            '<input type="file" name="bot" accept=".zip,.tar.gz,.tgz" required></label></p>'
            f'<p><button type="submit">Submit</button></p></form>{sign_out}')


def message_page(info: Info, title: str, text: str, *, root: str, refresh_s: int | None = None) -> str:
    """A short page saying one thing (a replay being built, a refused sign-in), optionally reloading."""
    refresh = f'<meta http-equiv="refresh" content="{int(refresh_s)}">' if refresh_s else ""
    return layout(info, title, f"{refresh}<h1>{e(title)}</h1><p>{e(text)}</p>", root=root, live=False)


def not_found_page(info: Info, what: str, *, root: str) -> str:
    return layout(info, "Not found", f"<h1>Not found</h1><p>{e(what)}</p>", root=root, live=False)

"""`td-runner replay LOG --html`: one self-contained HTML page that plays a match log, for every game.

The game turns its log into a compact record and gives the JavaScript that draws its board (the
`Game.html_replay(path) -> (record, board_js)` hook, see record.py and source.py; the core's default.py for a
game that draws no board); this module adds what the
runner itself knows (the core's fault model: match.json's per-turn fault events as the badges, in the core's
words, once per fault, and a marker for every fault and refused answer; the result line), thins the record
when it is over its size limit (boards first, whole turns only when their numbers alone are too big; sizes
are of the packed page JSON, pack.py), and fills viewer.html's
placeholders with the style, record, board script and viewer script in one pass (a bot's name or output is
never read as a placeholder, and the record's JSON cannot end its <script> element). The page has a
Content-Security-Policy that forbids every network request. A league keeps its pages gzipped
(`write_html_replay` to a `.gz` target; runner/replay/cache.py).
"""

from __future__ import annotations

import gzip
import json
import math
import re
from importlib import resources
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.games import game_of_log
from runner.replay.assemble import read_match_json
from runner.replay.pack import packed
from runner.replay.record import frames_of, thin, thin_frames

#: A record over this many bytes of JSON is thinned (a game may ask for less with `max_bytes`).
DEFAULT_MAX_BYTES = 9_000_000

#: The core's words for a fault (match.json events; a game's log quoting them, as Lanes' E01) -> the ruling and
#: marker kind: read only when match.json does not name each event's fault (a log from before it did).
_EVENT_KINDS = (("timed out", "timeout"), ("timeout", "timeout"), ("over budget", "timeout"),
                ("did not finish", "timeout"), ("did not answer", "timeout"), ("went over", "timeout"),
                ("answer within", "timeout"),  # persistent: "no answer within 1000 ms; ...", "no start-up and ..."
                ("exit code", "crash"), ("exited", "crash"), ("signal", "crash"), ("killed", "crash"),
                ("crash", "crash"), ("failed to start", "crash"), ("could not be started", "crash"),
                ("bot failed", "crash"), ("ended", "crash"), ("no answer", "crash"), ("stopped answering", "crash"))

#: match.json's fault kinds (runner/match.py PlayerTally) -> the ruling and marker kind
_FAULT_KINDS = {"timeout": "timeout", "over_budget": "timeout", "crash": "crash", "failed_to_start": "crash"}

def _asset(name: str) -> str:
    return resources.files("runner.replay").joinpath(name).read_text(encoding="utf-8")


def html_hook(game: Any):
    """The game's `html_replay` hook; for a game that has none (one not built on GameDefaults), the core's
    default replay without a board drawing (default.py): every game has an HTML replay."""
    hook = getattr(game, "html_replay", None)
    if hook is None:
        from runner.replay.default import default_html_replay

        return lambda path: default_html_replay(game, path)
    return hook


#: Rulings that are a seat's own doing, marked on the scrub bar.
MARKED = ("invalid", "timeout", "crash")


def _has_fault_keys(match: dict[str, Any]) -> bool:
    """Whether match.json gives each fault's kind (`over_budget` beside the counts): then events without a
    `fault` are notes, not faults, and their words are not guessed at."""
    return any("over_budget" in player for player in match.get("players") or [] if isinstance(player, dict))


def _event_kind(text: str) -> str:
    lowered = text.lower()
    return next((kind for words, kind in _EVENT_KINDS if words in lowered), "")


def add_match_events(record: dict[str, Any], match: dict[str, Any] | None) -> None:
    """The core's fault model on the record: match.json's per-turn bot events (time-outs, exit codes, ...)
    become the rulings' badges, in the core's words, once per fault; a game's `fault` ruling that no event
    names (a dead persistent bot's later turns, counted once) is `none`; every seat's own fault or refused
    answer gets one marker. A log without match.json's fault kinds is read by the events' and rulings' words."""
    match = match or {}
    index_of = {turn: i for i, turn in enumerate(record["turns"])}
    seat_index = {seat["seat"]: p for p, seat in enumerate(record["seats"])}
    guess = not _has_fault_keys(match)  # a log from before the core's fault events: kinds from the words
    # one marker per seat's fault: the game's own marker (its text starts with the seat's name) stands
    marked = {(marker[0], marker[1], str(marker[2]).split(": ", 1)[0]) for marker in record["markers"]}

    def mark(turn: Any, kind: str, name: str, text: str) -> None:
        if kind in MARKED and isinstance(turn, int) and (turn, kind, name) not in marked:
            marked.add((turn, kind, name))
            record["markers"].append([turn, kind, f"{name}: {text}"])

    for player in match.get("players") or []:
        p = seat_index.get(player.get("seat")) if isinstance(player, dict) else None
        if p is None:
            continue
        name = record["seats"][p]["name"]
        for event in player.get("events") or []:
            turn, text = event.get("round"), str(event.get("event", ""))
            fault = event.get("fault")  # the core's one event per fault; a note that is no fault has none
            kind = _FAULT_KINDS.get(fault, "crash") if fault else (_event_kind(text) if guess else "")
            i = index_of.get(turn)
            if i is not None:  # (a ruling list may be shared by many turns: replaced, never changed)
                ruling = record["rulings"][p][i]
                joined = f"{ruling[1]}; {text}" if ruling[1] else text
                if kind and ruling[0] == "fault":
                    record["rulings"][p][i] = [kind, text]
                else:
                    record["rulings"][p][i] = [kind if kind and ruling[0] in ("ok", "none") else ruling[0], joined]
            mark(turn, kind, name, text)
    for p, column in enumerate(record["rulings"]):
        name = record["seats"][p]["name"]
        for i, ruling in enumerate(column):
            if ruling[0] == "fault":
                ruling = column[i] = [(_event_kind(ruling[1]) if guess else "") or "none", ruling[1]]
            if ruling[0] in MARKED:
                mark(record["turns"][i], ruling[0], name, ruling[1])


def match_result(match: dict[str, Any], game: Any, turn_word: str = "turn") -> str:
    """One line: who won, after how many turns, why (match.json and the game's end-reason words)."""
    names = {p.get("seat"): p.get("name", p.get("seat")) for p in match.get("players") or []}
    winner = match.get("winner")
    reason = match.get("end_reason")
    words = dict(getattr(game, "end_reasons", {}) or {}).get(reason, reason or "")
    head = f"{names.get(winner, winner)} won" if winner else "draw"
    rounds = match.get("rounds")
    after = f" after {rounds} {turn_word.lower()}{'' if rounds == 1 else 's'}" if isinstance(rounds, int) else ""
    return f"{head}{after}" + (f" ({words})" if words else "")


def fit(record: dict[str, Any]) -> dict[str, Any]:
    """The record within its size limit (see `fit_json`)."""
    return fit_json(record)[0]


def fit_json(record: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The record within its size limit, its note saying what was left out, and its page JSON text (packed:
    pack.py). The boards go first: frames are dropped (every k-th kept, and the first, the last and the marked
    turns') while every turn keeps its numbers, commands and rulings; only when those alone are over the limit
    are whole turns dropped."""
    limit = int(record.get("max_bytes") or DEFAULT_MAX_BYTES)
    base = record.get("note")
    record = _noted(record, base)
    text = page_json(record)
    if len(text) <= limit or len(record["turns"]) < 3:
        return record, text
    sizes = [len(_json(frame)) + 1 for frame in record["frames"]]
    rest = len(text) - sum(sizes)
    if rest <= limit * 0.9:
        record = _noted(_thin_boards(record, sizes, limit - rest), base)
    else:
        record = _thin_turns(record, limit, base)
    return record, page_json(record)


def page_json(record: dict[str, Any]) -> str:
    """The record's JSON text as the page embeds it: its per-turn columns packed."""
    return _json(packed(record))


def _noted(record: dict[str, Any], base: str | None) -> dict[str, Any]:
    """The record with its note: `base`, and the boards' when it draws only some turns."""
    boards = record.get("frame_index") is not None
    note = _join(base, boards_note(len(record["frames"]), len(record["turns"])) if boards else None)
    return record if note == record.get("note") else {**record, "note": note}


def boards_note(boards: int, turns: int) -> str:
    """The page's words for a record that draws the board at only some turns."""
    return (f"the board is drawn at {boards} of {turns} turns (a turn between them shows the last board "
            "before it); every turn's numbers, commands and rulings are here")


def _join(*notes: str | None) -> str:
    return "; ".join(filter(None, notes))


def _thin_boards(record: dict[str, Any], sizes: list[int], budget: int) -> dict[str, Any]:
    """Every `stride`-th frame (and the first, the last and the marked turns'), the stride the smallest whose
    frames fit `budget` bytes."""
    index = frames_of(record)
    position = {turn: i for i, turn in enumerate(record["turns"])}
    marked = {position[m[0]] for m in record["markers"] if m[0] in position}
    count = len(sizes)
    stride = 1
    while True:
        keep = [k for k in range(count) if k % stride == 0 or k == count - 1
                or (index[k] in marked and len(marked) < count // stride)]
        if sum(sizes[k] for k in keep) <= budget or stride >= count:
            return thin_frames(record, keep)
        stride = max(stride + 1, math.ceil(stride * 1.5))


def _thin_turns(record: dict[str, Any], limit: int, base: str | None) -> dict[str, Any]:
    """Every k-th turn, the first, the last and every marked turn, the smallest k that fits `limit`."""
    count = len(record["turns"])
    stride = 2
    marked = {m[0] for m in record["markers"]}
    while True:
        keep = [i for i, turn in enumerate(record["turns"])
                if i % stride == 0 or i == count - 1 or (turn in marked and len(marked) < count // stride)]
        thinned = _noted(thin(record, keep), base)
        if len(page_json(thinned)) <= limit or stride >= count:
            break
        stride = max(stride + 1, math.ceil(stride * 1.5))
    note = (f"thinned to fit {limit / 1e6:.0f} MB: {len(keep)} of {count} turns kept (one in {stride}, "
            "and the marked ones); the log has them all")
    return _noted(thinned, _join(base, note))


def _json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


#: Characters of JSON text that could end or change the <script> element it is inlined into (`</script>`,
#: `<!--`, `<script`), or end a JavaScript line (U+2028, U+2029), and their JSON escapes: they occur only
#: inside JSON strings, where the escape means the same character. (Replaced one after the other: no escape
#: holds a character of another, and `str.replace` is ten times faster than `str.translate` on a big record.)
_SCRIPT_ESCAPES = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                   ("\u2029", "\\u2029"))


def script_json(data: Any) -> str:
    """`data` as JSON text that is safe inside a <script> element whatever its strings hold."""
    return script_safe_json(_json(data))


def script_safe_json(text: str) -> str:
    """JSON text made safe inside a <script> element (`script_json`)."""
    for character, escape in _SCRIPT_ESCAPES:
        text = text.replace(character, escape)
    return text


def _script_safe(text: str) -> str:
    """Our own script or style text, made unable to close the element it is inlined into."""
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


#: A placeholder of viewer.html: `{{NAME}}`.
_PLACEHOLDER = re.compile(r"\{\{([A-Z_]+)\}\}")


def fill(template: str, values: dict[str, str]) -> str:
    """`template` with each `{{NAME}}` replaced by `values[NAME]`, in one pass over the template: what a value
    holds (a bot's name or output spelling `{{RECORD}}`) is never looked at again."""
    return _PLACEHOLDER.sub(lambda found: values[found.group(1)], template)


def render_page(record: dict[str, Any], board_js: str, record_json: str | None = None) -> str:
    """The whole HTML page for a record and a board script (`record_json`: the record's JSON text, when the
    caller has it already)."""
    title = f"{record.get('title', record.get('game', 'match'))}: " + " vs ".join(
        seat["name"] for seat in record["seats"])
    return fill(_asset("viewer.html"), {
        "TITLE": _escape(title),
        "STYLE": _script_safe(_asset("viewer.css")),
        "RECORD": script_safe_json(page_json(record) if record_json is None else record_json),
        "BOARD_JS": _script_safe(board_js),
        "VIEWER_JS": _script_safe(_asset("viewer.js")),
    })


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def build_record(path: Path) -> tuple[dict[str, Any], str]:
    """The finished record of a log (game record, match.json's result and events, thinned) and its board
    script."""
    record, _, board_js = _finished_record(path)
    return record, board_js


def _finished_record(path: Path, public: bool = False, game_name: str | None = None) -> tuple[dict[str, Any], str, str]:
    """build_record's record, its JSON text and the board script; `public`: without what the bots printed."""
    path = Path(path)
    game = game_of_log(path, game_name)
    record, board_js = html_hook(game)(path)
    if public:
        withhold_bot_output(record)
    match = read_match_json(path) if path.is_dir() else None
    add_match_events(record, match)
    if match is not None:
        record["result"] = match_result(match, game, record.get("turn_word", "turn"))
    record["markers"].sort(key=lambda marker: marker[0])
    record, text = fit_json(record)
    return record, text, board_js


def withhold_bot_output(record: dict[str, Any]) -> None:
    """Blank every turn's bot output in `record`: what a bot prints is its player's own (a league's replays are
    public pages; the player reads its output on its own page, signed in)."""
    record["outputs"] = [["" for _ in seat] for seat in record.get("outputs", [])]
    record["outputs_withheld"] = True


def render_replay(path: Path, public: bool = False, game: str | None = None) -> bytes:
    """The page of the log at `path`, UTF-8 encoded; `public`: without what the bots printed."""
    record, text, board_js = _finished_record(path, public, game)
    return render_page(record, board_js, text).encode("utf-8")


def default_target(path: Path) -> Path:
    """Where a log's page goes when no file is named: beside the log folder (`matches/x` -> `matches/x.html`),
    not inside it, where `validate` would take it for a stray file."""
    path = Path(path)
    return path.parent / f"{path.name}.html"


#: gzip level of a `.html.gz` page: 6 is zlib's default; 9 makes a 100,000-turn Invaders page 4% smaller in
#: three times the time.
GZIP_LEVEL = 6


def write_html_replay(path: Path, target: Path | None = None, *, public: bool = False,
                      game: str | None = None) -> tuple[Path, int]:
    """Write the page of the log at `path` (gzip-compressed when `target` ends with `.gz`, as a league keeps
    them); its path and size in bytes as written. `public` (a league's replays): without what the bots printed;
    `game`: the game of a log without match.json whose files fit two (`replay --game`)."""
    data = render_replay(path, public, game)
    target = Path(target) if target is not None else default_target(path)
    if target.name.endswith(".gz"):
        data = gzip.compress(data, GZIP_LEVEL, mtime=0)
    try:
        temporary = target.with_name(f".{target.name}.tmp")
        temporary.write_bytes(data)
        temporary.replace(target)
    except OSError as exc:
        raise UserError(f"{target}: cannot write the HTML replay: {exc.strerror or exc}") from None
    return target, len(data)

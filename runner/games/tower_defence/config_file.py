"""Tower Defence's game config files: our JSON or the official .properties (spec 1.1), loaded, checked, written.

Every problem becomes one `UserError` line naming the file and the key. The `parse_*` functions return all
problems instead of raising, for `td-runner validate`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable

import attrs

from runner import schemas
from runner.config import camel, decode_json, kebab, one_line, read_file, snake
from runner.errors import UserError
from runner.games.tower_defence.engine.commands import INT_MAX, INT_MIN
from runner.games.tower_defence.engine.config import BuildingStats, BuildingType, GameConfig, IronCurtainStats
from runner.schemas import Problem

JSON, PROPERTIES = "json", "properties"

#: Building order of the official .properties file and of our JSON (spec 1.1).
BUILDING_ORDER = (BuildingType.DEFENSE, BuildingType.ATTACK, BuildingType.ENERGY, BuildingType.TESLA)

#: BuildingStats fields in the official file's order; `energy_per_shot` exists for teslas only (spec 1.1).
_BUILDING_FIELD_ORDER = (
    "health", "construction_time", "price", "weapon_damage", "weapon_speed", "weapon_cooldown_period",
    "energy_per_shot", "icon", "destroy_multiplier", "construction_score", "energy_generated_per_turn",
    "max_range",
)  # fmt: skip

#: Official key suffixes that are not simply `config.<kebab-case field name>`.
_IRREGULAR_SUFFIX = {
    "construction_time": "config.construction-time-left",
    "energy_generated_per_turn": "config.energy-produced-per-turn",
    "energy_per_shot": "energy.per.shot",  # spec 1.1: `game.config.tesla.energy.per.shot`, no `.config.`
}

_JAVA_INT = re.compile(r"[+-]?[0-9]+")  # ASCII only: Python's int() would also take "1_0", " 7", "٣"




@attrs.frozen
class ConfigKey:
    """One game-config value: where it sits in our JSON and what the official .properties file calls it."""

    path: tuple[str, ...]
    property: str
    is_text: bool = False

    @property
    def json_path(self) -> str:
        return "$." + ".".join(self.path)


def _game_config_keys() -> tuple[ConfigKey, ...]:
    keys = []
    for field in attrs.fields(GameConfig):
        if field.name not in ("buildings", "iron_curtain"):
            keys.append(ConfigKey((camel(field.name),), f"game.config.{kebab(field.name)}"))
    for kind in BUILDING_ORDER:
        for name in _BUILDING_FIELD_ORDER:
            if name == "energy_per_shot" and kind is not BuildingType.TESLA:
                continue
            suffix = _IRREGULAR_SUFFIX.get(name, f"config.{kebab(name)}")
            path = ("buildings", kind.name, camel(name))
            keys.append(ConfigKey(path, f"game.config.{kind.name.lower()}.{suffix}", is_text=name == "icon"))
    for field in attrs.fields(IronCurtainStats):
        property_key = f"game.config.ironcurtain.config.{kebab(field.name)}"
        keys.append(ConfigKey(("ironCurtain", camel(field.name)), property_key))
    return tuple(keys)


#: Every key of the official file, in its order.
GAME_CONFIG_KEYS = _game_config_keys()
_PROPERTY_BY_JSON_PATH = {key.json_path: key.property for key in GAME_CONFIG_KEYS}


def load_game_config(path: Path | str) -> GameConfig:
    """Load a game config, `.json` (our format) or `.properties` (official); raise UserError on any problem."""
    path = Path(path)
    raw = read_file(path, "game config")
    config, problems = parse_game_config(raw, game_config_format(path, raw))
    if problems:
        raise UserError(one_line(f"game config {path}", problems))
    assert config is not None
    return config


def game_config_format(path: Path, raw: bytes) -> str:
    """JSON or PROPERTIES: by extension, else by content (a JSON document starts with `{`)."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        return JSON
    if suffix == ".properties":
        return PROPERTIES
    return JSON if raw.lstrip().startswith((b"{", b"\xef\xbb\xbf{")) else PROPERTIES


def parse_game_config(raw: bytes, fmt: str) -> tuple[GameConfig | None, list[Problem]]:
    """Decode, check and build a game config; the record is None when there are problems."""
    if fmt == PROPERTIES:
        # spec 1.1: Java reads .properties as ISO-8859-1, which decodes any byte
        entries, problems = read_properties(raw.decode("latin-1"))
        if problems:
            return None, problems
        data, problems = _json_from_properties(entries)
        if problems:
            return None, problems
        problems = [_as_property_problem(p) for p in schemas.check_schema(schemas.GAME_CONFIG, data)]
    else:
        data, problems = decode_json(raw)
        if not problems:
            problems = schemas.check_schema(schemas.GAME_CONFIG, data)
    if problems:
        return None, problems
    return game_config_from_json(data), []


def game_config_from_json(data: dict[str, Any]) -> GameConfig:
    """Build the record from a schema-valid camelCase dict."""
    top = {snake(k): v for k, v in data.items() if k not in ("$schema", "buildings", "ironCurtain")}
    buildings = {
        kind: BuildingStats(**{snake(k): v for k, v in data["buildings"][kind.name].items()})
        for kind in BUILDING_ORDER
    }
    curtain = IronCurtainStats(**{snake(k): v for k, v in data["ironCurtain"].items()})
    return GameConfig(**top, buildings=buildings, iron_curtain=curtain)


def game_config_to_json(config: GameConfig) -> dict[str, Any]:
    """The camelCase dict that `game-config.schema.json` describes (key order as in the official file)."""
    data: dict[str, Any] = {}
    for field in attrs.fields(GameConfig):
        if field.name not in ("buildings", "iron_curtain"):
            data[camel(field.name)] = getattr(config, field.name)
    data["buildings"] = {}
    for kind in BUILDING_ORDER:
        stats = config.buildings[kind]
        if kind is not BuildingType.TESLA and stats.energy_per_shot != 0:
            # spec 1.1: neither format has a key for it; the official engine fixes it at 0
            raise ValueError(f"{kind.name} has energy_per_shot {stats.energy_per_shot}; only TESLA may")
        data["buildings"][kind.name] = {
            camel(name): getattr(stats, name)
            for name in _BUILDING_FIELD_ORDER
            if name != "energy_per_shot" or kind is BuildingType.TESLA
        }
    data["ironCurtain"] = {camel(f.name): getattr(config.iron_curtain, f.name) for f in attrs.fields(IronCurtainStats)}
    return data


def game_config_to_properties(config: GameConfig) -> str:
    """The official `game-config.properties` text for `config` (what a match log keeps next to its rounds)."""
    data = game_config_to_json(config)
    lines = ["# Tower Defence game config, official game-config.properties format (written by td-runner)"]
    section: tuple[str, ...] = ()
    for key in GAME_CONFIG_KEYS:
        if key.path[:-1] != section:
            section = key.path[:-1]
            lines += ["", f"# {section[-1]} building" if section[0] == "buildings" else "# iron curtain"]
        lines.append(f"{key.property} = {_escape(str(_get_in(data, key.path)))}")
    return "\n".join(lines) + "\n"


def _escape(value: str) -> str:
    """Write a value the way Java reads it back: backslash doubled, anything but printable ASCII as \\uXXXX."""
    out = []
    for char in value:
        if char == "\\":
            out.append("\\\\")
        elif " " <= char <= "~":
            out.append(char)
        else:
            units = char.encode("utf-16-be", "surrogatepass")  # beyond U+FFFF: two \\u escapes, as Java writes
            out += (f"\\u{int.from_bytes(units[i:i + 2], 'big'):04x}" for i in range(0, len(units), 2))
    return "".join(out)


def _json_from_properties(entries: dict[str, tuple[str, int]]) -> tuple[dict[str, Any], list[Problem]]:
    """Pick every official key out of the file's entries (unknown keys are ignored, as the official runner does)."""
    data: dict[str, Any] = {}
    problems = []
    known = {key.property for key in GAME_CONFIG_KEYS}
    unknown = [name for name in entries if name not in known]
    for key in GAME_CONFIG_KEYS:
        if key.property not in entries:
            hint = schemas.did_you_mean(key.property, unknown)
            problems.append(Problem("", f"missing key {key.property}{hint}"))
            continue
        text, line = entries[key.property]
        if key.is_text:
            _set_in(data, key.path, text)
        elif not _JAVA_INT.fullmatch(text):
            problems.append(Problem(key.property, f"{text!r} is not an integer (line {line})"))
        elif not INT_MIN <= int(text) <= INT_MAX:
            problems.append(Problem(key.property, f"{text} does not fit in a 32-bit integer (line {line})"))
        else:
            _set_in(data, key.path, int(text))
    return data, problems


def _as_property_problem(problem: Problem) -> Problem:
    return Problem(_PROPERTY_BY_JSON_PATH.get(problem.where, problem.where), problem.message)


def _set_in(data: dict[str, Any], path: tuple[str, ...], value: object) -> None:
    for part in path[:-1]:
        data = data.setdefault(part, {})
    data[path[-1]] = value


def _get_in(data: dict[str, Any], path: tuple[str, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_KEY_END = re.compile(r"(?<!\\)(?:\\\\)*[=:\s]")


def read_properties(text: str) -> tuple[dict[str, tuple[str, int]], list[Problem]]:
    """Parse Java-properties text into key -> (trimmed value, line number).

    Follows java.util.Properties where real files need it: `#`/`!` comments, `=`, `:` or blank as the
    separator, backslash escapes and line continuations. A key given twice is a problem (the official
    loader would turn it into a list and read its first value).
    """
    entries: dict[str, tuple[str, int]] = {}
    problems = []
    for number, line in _logical_lines(text):
        stripped = line.lstrip()
        if not stripped or stripped[0] in "#!":
            continue
        end = _KEY_END.search(stripped)
        key_end = end.end() - 1 if end else len(stripped)
        key, rest = stripped[:key_end], stripped[key_end:].lstrip(" \t\f")
        if rest[:1] in ("=", ":"):
            rest = rest[1:]
        key, value = _unescape(key), _unescape(rest).strip()
        if key in entries:
            problems.append(Problem(key, f"given twice (lines {entries[key][1]} and {number})"))
            continue
        entries[key] = (value, number)
    return entries, problems


def _logical_lines(text: str) -> Iterable[tuple[int, str]]:
    """Join continuation lines (an odd number of trailing backslashes); yield (first line number, text)."""
    pending, start = "", 0
    for number, line in enumerate(text.splitlines(), start=1):
        if pending:
            line = line.lstrip(" \t\f")
        else:
            start = number
        trailing = len(line) - len(line.rstrip("\\"))
        if trailing % 2:
            pending += line[:-1]
            continue
        yield start, pending + line
        pending = ""
    if pending:
        yield start, pending


def _unescape(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        body = match.group(1)
        if body.startswith("u") and len(body) == 5:
            return chr(int(body[1:], 16))
        return _ESCAPES.get(body, body)

    text = re.sub(r"\\(u[0-9a-fA-F]{4}|.)", replace, text)
    # a character beyond U+FFFF arrives as two \u escapes (a surrogate pair), as Java writes it
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")

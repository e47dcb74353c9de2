"""The JSON Schemas under `schema/`: load them once, check data against them, and word the problems.

Every schema is draft 2020-12 with an `$id` under `SCHEMA_BASE`, so cross-file `$ref`s (match.json embeds the
game config) resolve from this registry without any network access. Integers are strict: `1.0` and `true`
are not integers here (draft 2020-12 would accept `1.0`; the official files never hold one, and the engine
must not receive a float).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

import attrs

from runner import fastschema

if TYPE_CHECKING:
    import jsonschema
    import referencing
    from jsonschema.exceptions import ValidationError

# jsonschema (and referencing) load only when a document fails the fast check and problems must be worded:
# importing them costs ~80 ms, which quick commands such as `td-runner verify` should not pay.

def _schema_dir() -> Path:
    """The schemas inside the package (`runner/schema`: in a clone a symlink to the repository's `schema/`,
    in an installed wheel real package data, so any install finds them: venv, --user, --target); else the
    repository's `schema/` beside the package (a clone checked out without symlinks)."""
    packaged = Path(__file__).resolve().parent / "schema"
    return packaged.resolve() if packaged.is_dir() else packaged.parent.parent / "schema"


#: Folder of the shipped schemas.
SCHEMA_DIR = _schema_dir()

#: Base of every schema's `$id`. `.invalid` is a reserved domain: these ids name, they are never fetched.
SCHEMA_BASE = "https://td-runner.invalid/schema/"

#: Schema names (file `schema/<name>.schema.json`) by the kind of file they describe.
GAME_CONFIG, RUNNER_CONFIG, STATE, MATCH, BOT = "game-config", "runner-config", "state", "match", "bot"

#: At most this many problems are listed per file; the rest are counted.
MAX_PROBLEMS = 50


@attrs.frozen
class Problem:
    """One thing wrong in a file: where (a JSON path like `$.players[0].seat`, a .properties key, or "" for
    the whole file) and what."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


def _is_strict_integer(checker: Any, instance: object) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


@functools.cache
def _validator_class() -> type:
    import jsonschema

    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_strict_integer)
    return jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=checker)


def schema_path(name: str) -> Path:
    return SCHEMA_DIR / f"{name}.schema.json"


def is_available(name: str) -> bool:
    """Whether `schema/<name>.schema.json` is shipped (bot.schema.json comes from the bots work)."""
    return schema_path(name).is_file()


@functools.cache
def _schemas_by_id() -> dict[str, Any]:
    """Every shipped schema by its `$id` (cross-file `$ref`s resolve among these, never over the network)."""
    schemas = {}
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        try:
            contents = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # a broken schema fails when it is itself used, not every other schema
        schemas[contents.get("$id", SCHEMA_BASE + path.name)] = contents
    return schemas


@functools.cache
def _registry() -> "referencing.Registry":
    import referencing
    from referencing.jsonschema import DRAFT202012

    resources = [(uri, DRAFT202012.create_resource(contents)) for uri, contents in _schemas_by_id().items()]
    return referencing.Registry().with_resources(resources)


@functools.cache
def _schema(name: str) -> Any:
    return json.loads(schema_path(name).read_text(encoding="utf-8"))


@functools.cache
def validator(name: str) -> "jsonschema.protocols.Validator":
    """The compiled validator for `schema/<name>.schema.json` (cached: compile once, check many files)."""
    schema = _schema(name)
    validator_class = _validator_class()
    validator_class.check_schema(schema)
    return validator_class(schema, registry=_registry())


@functools.cache
def _quick_check(name: str) -> fastschema.Check:
    """A fast sufficient test of validity (runner/fastschema.py); jsonschema alone when it cannot compile."""
    schema = _schema(name)
    uri = schema.get("$id", SCHEMA_BASE + schema_path(name).name)
    try:
        return fastschema.compile_schema(schema, fastschema.LocalResolver(_schemas_by_id(), uri))
    except (fastschema.Unsupported, KeyError, IndexError):
        return lambda data: False


def check_schema(name: str, data: object) -> list[Problem]:
    """Check `data` against one schema; problems in document order, worded for a person."""
    if _quick_check(name)(data):
        return []
    errors = sorted(validator(name).iter_errors(data), key=_document_order)
    return [problem for error in errors for problem in _problems_of(error)]


def _document_order(error: ValidationError) -> tuple:
    # array indexes sort as numbers, keys as text; (False, 3) < (True, "a") keeps the types apart
    return tuple((isinstance(part, str), part) for part in error.absolute_path)


def _problems_of(error: ValidationError) -> Iterator[Problem]:
    """Reword the messages users meet most: missing keys, unknown keys (with a close match), wrong enums."""
    where = json_path(error.absolute_path)
    instance, schema = error.instance, error.schema
    if error.validator == "required" and isinstance(instance, dict):
        for key in schema["required"]:
            if key not in instance:
                yield Problem(where, f"missing key {key!r}")
        return
    if error.validator == "additionalProperties" and isinstance(instance, dict):
        known = list(schema.get("properties", {}))
        for key in instance:
            if key not in known and not _matches_pattern(schema, key):
                yield Problem(where, f"unknown key {key!r}{did_you_mean(key, known)}")
        return
    if "propertyNames" in error.schema_path:
        yield Problem(where, f"bad key {instance!r}: {error.message}")
        return
    if error.validator == "enum":
        yield Problem(where, f"{instance!r} is not one of {', '.join(map(repr, schema['enum']))}")
        return
    if error.validator == "const":
        yield Problem(where, f"{instance!r} should be {schema['const']!r}")
        return
    yield Problem(where, error.message)


def json_path(parts: Iterable[str | int]) -> str:
    """`$.players[0].seat`; keys that are not plain words are quoted: `$["odd key"]` (hyphens count as plain)."""
    text = "$"
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _PLAIN_KEY.fullmatch(part):
            text += f".{part}"
        else:
            text += f"[{json.dumps(part)}]"
    return text


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_$-]+")


def _matches_pattern(schema: dict, key: str) -> bool:
    return any(re.search(pattern, key) for pattern in schema.get("patternProperties", {}))


def did_you_mean(word: str, choices: list[str]) -> str:
    """` (did you mean 'x'?)` for the closest choice, or '' when none is close."""
    by_shape = {_shape(choice): choice for choice in choices}
    if _shape(word) in by_shape:  # playerA, player_a, PLAYER-A all mean player-a
        return f" (did you mean {by_shape[_shape(word)]!r}?)"
    import difflib  # only for this message (2 ms of every command's start at module level)

    close = difflib.get_close_matches(word.lower(), [choice.lower() for choice in choices], n=1, cutoff=0.6)
    if not close:
        return ""
    return f" (did you mean {next(c for c in choices if c.lower() == close[0])!r}?)"


def _shape(word: str) -> str:
    return re.sub(r"[-_.\s]", "", word.lower())


class JSONSyntaxError(ValueError):
    """Not a JSON document we accept (syntax error, duplicate key, NaN); the message says where."""


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        duplicate = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise JSONSyntaxError(f"duplicate key {duplicate!r}")
    return result


def _reject_constant(name: str) -> None:
    raise JSONSyntaxError(f"{name} is not valid JSON")


def parse_json(text: str) -> Any:
    """Parse strict JSON: no duplicate keys (Python would keep the last silently), no NaN/Infinity."""
    try:
        return json.loads(text, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise JSONSyntaxError(f"not valid JSON: {exc.msg} (line {exc.lineno} column {exc.colno})") from None

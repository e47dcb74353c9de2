"""The JSON Schemas in schema/invaders/ describe what the game really sends and writes; the rules and protocol
modules stay pure and the package imports no other game."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

import runner.games.invaders as package
from runner.games.interface import Answer
from runner.games.invaders import GAME

ROOT = Path(__file__).parents[3]
SCHEMAS = {p.name.removesuffix(".schema.json"): json.loads(p.read_text()) for p in (ROOT / "schema" / "invaders").glob("*.schema.json")}
REGISTRY = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in SCHEMAS.values())
PACKAGE = Path(package.__file__).parent
FORBIDDEN = {"os", "subprocess", "time", "random", "pathlib", "io", "shutil", "socket", "threading", "datetime"}


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(SCHEMAS[name], registry=REGISTRY)


def test_schemas_are_valid_draft_2020_12() -> None:
    assert set(SCHEMAS) == {"state", "request", "action", "game-config", "log-record"}
    for schema in SCHEMAS.values():
        jsonschema.Draft202012Validator.check_schema(schema)


def test_requests_records_and_config_match_their_schemas() -> None:
    session = GAME.new_session(GAME.configure(None, {"max_turns": 60, "faults": "ignore"}), GAME.seats(2), 0, {})
    answers = [
        ('{"action":"build","type":"stunner","pos":0}', "{}"),
        ('{"action":"upgrade","stat":"power","pos":0}', '{"hp":-1}'),
        ("not json", "null"),
    ]
    while session.outcome() is None:
        for line in (i.line for i in session.inputs().values()):
            validator("request").validate(json.loads(line))
        defender, invader = answers[session.turn % len(answers)]
        record = session.play_turn({"defender": Answer(defender), "invader": Answer(invader)}).record
        validator("log-record").validate(record)
    validator("game-config").validate(GAME.config_json(session.config))


def test_action_schema_accepts_valid_actions_only() -> None:
    schema = validator("action")
    for good in (None, {"hp": 3, "defense": 1}, {"action": "spawn"}, {"action": "build", "type": "bomb", "pos": 4},
                 {"action": "upgrade", "stat": "range", "pos": 0}, {"action": "destroy", "pos": 99}):
        assert schema.is_valid(good), good
    for bad in ({"hp": 1.5}, {"action": "build", "type": "laser", "pos": 4}, {"action": "destroy", "pos": "5"},
                {"action": "upgrade", "stat": "speed", "pos": 1}):
        assert not schema.is_valid(bad), bad


@pytest.mark.parametrize(
    "path",
    sorted((PACKAGE / "rules").glob("*.py")) + sorted((PACKAGE / "protocol").glob("*.py")),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_rules_and_protocol_import_no_io(path: Path) -> None:
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_package_imports_no_other_game(path: Path) -> None:
    """Invaders may use the core's helpers (errors, config files, the HTML replay record), never another game."""
    allowed = ("runner.games.invaders", "runner.games.interface")
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("runner.games."):
            assert node.module.startswith(allowed), node.module
        elif isinstance(node, ast.Import):
            assert not any(alias.name.startswith("runner.games.") and not alias.name.startswith(allowed)
                           for alias in node.names)

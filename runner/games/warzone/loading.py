"""Read configs and maps from disk (the I/O the pure rules and protocol leave to their callers)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from runner.errors import UserError
from runner.games.warzone.protocol.config import ConfigError, WarzoneConfig, parse_config
from runner.games.warzone.rules.board import WarMap
from runner.games.warzone.rules.mapfile import MAX_BYTES, MapReading, parse_map

#: The maps shipped with the package: `--map NAME` plays `<NAME>.map` from here (`td-runner warzone-map --list`).
MAPS_DIR = Path(__file__).resolve().parent / "maps"


def shipped_maps() -> dict[str, Path]:
    """Each shipped map's file by its name (the file's stem), sorted by name."""
    return {path.stem: path for path in sorted(MAPS_DIR.glob("*.map"))}


def shipped_map(given: str) -> Path | None:
    """The shipped map `given` names (`td-harbour` or `td-harbour.map`; a path with a folder never does)."""
    if "/" in given or "\\" in given:
        return None
    return shipped_maps().get(given.removesuffix(".map"))


def locate_map(given: str) -> Path:
    """The map file `given` names: a file by that path first, else the shipped map of that name; UserError
    naming the shipped maps when a plain name is neither."""
    path = Path(given)
    if path.is_file():
        return path
    shipped = shipped_map(given)
    if shipped is not None:
        return shipped
    if path.exists() or given != path.name:
        return path  # not a plain name (a folder, a path with folders): read_map says why it cannot be read
    raise UserError(f"map {given}: no such file, nor a shipped map's name ({', '.join(shipped_maps())}; "
                    "`td-runner warzone-map --list` shows them)")


@attrs.frozen
class LoadedConfig:
    """A config with its map read and validated: what `Game.configure` returns."""

    config: WarzoneConfig
    map_bytes: bytes
    warmap: WarMap
    reading: MapReading

    @property
    def map_sha256(self) -> str:
        return hashlib.sha256(self.map_bytes).hexdigest()


def read_map_bytes(path: Path) -> bytes:
    """At most 4 MiB + 1 bytes (a bigger file is E_TOO_LARGE, spec 3.1); UserError when unreadable."""
    try:
        with path.open("rb") as handle:
            return handle.read(MAX_BYTES + 1)
    except OSError as problem:
        raise UserError(f"map {path}: cannot read: {problem.strerror or problem}") from None


def read_map(path: Path, lenient: bool, default_name: str | None = None) -> tuple[bytes, MapReading]:
    """The bytes and reading of a map file; an unnamed map is named after `default_name` or the file."""
    data = read_map_bytes(path)
    return data, parse_map(data, lenient=lenient, default_name=path.stem if default_name is None else default_name)


def check_map(shown: str, reading: MapReading) -> WarMap:
    """The map, or UserError naming the file, line and code of the first error."""
    if reading.map is None:
        first = next(f for f in reading.findings if f.error)
        more = sum(f.error for f in reading.findings) - 1
        raise UserError(f"map {first.render(shown)}" + (f" (and {more} more errors)" if more else ""))
    return reading.map


def load_config(config_file: Path | None, options: Mapping[str, Any]) -> LoadedConfig:
    """The config file's object (None: defaults) with the options applied, and its map read; the map path
    of a config file is relative to that file's folder."""
    data: dict[str, Any] = {}
    if config_file is not None:
        try:
            data = json.loads(config_file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as problem:
            raise UserError(f"game config {config_file}: cannot read: {problem}") from None
        if not isinstance(data, dict):
            raise UserError(f"game config {config_file}: expected a JSON object")
        given = data.get("map")
        if isinstance(given, str) and given and ((config_file.parent / given).is_file() or shipped_map(given) is None):
            data["map"] = str(config_file.parent / given)  # a file beside the config; else a shipped map's name
    overrides = {key: options.get(key) for key in ("map", "max_turns", "map_validation")}
    try:
        config = parse_config(data, overrides)
    except ConfigError as problem:
        raise UserError(f"game config{' ' + str(config_file) if config_file else ''}: {problem}") from None
    return load_map_for(config, locate_map(config.map))


def load_map_for(config: WarzoneConfig, map_path: Path, shown: str | None = None) -> LoadedConfig:
    """Read `map_path` as `config` says (strict or lenient)."""
    data, reading = read_map(map_path, config.map_validation == "lenient")
    return LoadedConfig(config, data, check_map(shown or str(map_path), reading), reading)

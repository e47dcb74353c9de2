"""The launch table: which argv starts a bot of each `botLanguage` (spec 8.3), kept as data.

A template is a list of argv elements. These placeholders are replaced inside any element:

    {file}    botFileName from bot.json
    {dir}     the absolute bot folder (the process's working directory)
    {cores}   arguments.coreCount from bot.json
    {python}  the Python interpreter running td-runner (sys.executable)
    {entry}   bot.json's `entry` (the expression that yields a koth-js AI)

Any other text, braces included, is passed through unchanged. The runner config may override an entry or
add a language with a plain list (`"languages": {"python3": ["python3", "{file}"]}`); the botLanguage
`custom` takes its template from bot.json's `command` list instead of this table. A game may add languages
of its own (`Game.languages`: Invaders' `koth-js` runs a JavaScript AI inside the host the game ships).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping, Sequence

import attrs


@attrs.frozen
class LaunchTemplate:
    """How to start one language; `with_cores` is appended only when bot.json gives arguments.coreCount.

    `unset_env`: variables the bot's process does without, for a game's own host that cannot use them and pays
    for them at every start (Invaders' koth-js: node loads the certificates named by NODE_EXTRA_CA_CERTS at
    start-up, 40-90 ms, although the host never opens a TLS connection)."""

    argv: tuple[str, ...]
    with_cores: tuple[str, ...] = ()
    unset_env: tuple[str, ...] = ()


#: The official runner's table on Linux (spec 8.3), with `c` added and three deliberate differences: python3 runs the
#: interpreter running td-runner (the official `python` often does not exist or is Python 2), python2 runs
#: `python2`, and arguments are real argv elements (no shell-style splitting, so spaces in names are safe).
DEFAULT_LANGUAGES: Mapping[str, LaunchTemplate] = {
    "java": LaunchTemplate(("java", "-jar", "{file}")),
    "kotlin": LaunchTemplate(("java", "-jar", "{file}")),
    "scala": LaunchTemplate(("java", "-jar", "{file}")),
    "c#core": LaunchTemplate(("dotnet", "{file}")),
    "javascript": LaunchTemplate(("node", "{file}")),
    "python2": LaunchTemplate(("python2", "{file}")),
    "python3": LaunchTemplate(("{python}", "{file}")),
    "php": LaunchTemplate(("php", "{file}")),
    "golang": LaunchTemplate(("go", "run", "{dir}/{file}")),
    "rust": LaunchTemplate(("./{file}",)),
    "c": LaunchTemplate(("./{file}",)),  # td-runner's own (the official table has c++ only): a compiled C bot
    "c++": LaunchTemplate(("./{file}",)),
    "lisp": LaunchTemplate(("./{file}",)),
    "haskell": LaunchTemplate(("./{file}",), with_cores=("+RTS", "-N{cores}", "-RTS")),
}

#: Takes its argv from bot.json's `command` list.
CUSTOM = "custom"

#: Parsed by the official runner but refused when the match starts ("Invalid bot language", spec 8.2).
UNSUPPORTED = {"c#": "use 'c#core' for a .NET Core bot (the official runner refuses 'c#' too)"}

_PLACEHOLDER = re.compile(r"\{(file|dir|cores|python|entry)\}")


def language_table(overrides: Mapping[str, Sequence[str] | LaunchTemplate] | None = None) -> dict[str, LaunchTemplate]:
    """The default table with the games' and the runner config's entries laid over it (an argv list, or a
    game's LaunchTemplate)."""
    table = dict(DEFAULT_LANGUAGES)
    for language, argv in (overrides or {}).items():
        table[language] = argv if isinstance(argv, LaunchTemplate) else LaunchTemplate(tuple(argv))
    return table


def uses_placeholder(template: Sequence[str], name: str) -> bool:
    return any(f"{{{name}}}" in element for element in template)


def expand(
    template: LaunchTemplate, *, file: str, directory: str, cores: int | None, entry: str | None = None
) -> tuple[str, ...]:
    """Fill in the placeholders; the caller has checked that {cores} and {entry} are only used when given."""
    values = {"file": file, "dir": directory, "cores": "" if cores is None else str(cores), "python": sys.executable,
              "entry": entry or ""}
    argv = template.argv + (template.with_cores if cores is not None else ())
    return tuple(_PLACEHOLDER.sub(lambda match: values[match.group(1)], element) for element in argv)

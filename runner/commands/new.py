"""`td-runner new BOT_DIR --game G --language L`: write a starter bot that builds and plays as written.

The starters are package data (runner/templates/, see runner/bundled.py): per game a README (the protocol
in one screen) and one source per language; per compiled language its build files (runner/templates/
buildfiles/<language>/). A compiled starter is a `custom` bot whose `build.sh` runs the toolchain, with the
toolchain's own project file beside it (Makefile, go.mod, Cargo.toml), so `td-runner build` and the
language's usual command both build it. Every starter reads its input with the standard library only (no
package to download) and checks its moves before sending them.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import attrs

from runner.bundled import TEMPLATES, data_folder
from runner.errors import ExitCode, UserError
from runner.games import GAMES, get_game
from runner.games.interface import BotMode

EXITS = "exit codes: 0 written, 2 bad input (unknown game or language, a folder that is not empty), 70 a bug"


@attrs.frozen
class Language:
    """How a starter of one language is laid out, started and built."""

    key: str  # the `--language` value and the template folder's name
    title: str  # for the README
    source: str  # the template file under templates/<game>/<language>/
    target: str  # where it goes in the bot folder
    bot_json: dict[str, object]  # botLanguage, botFileName (and command) of bot.json
    run: str  # how the runner starts it, in the README's words
    build: str | None  # the README's build line; None: nothing to build
    flush: str  # how this language's answer lines leave at once (persistent games)


_COMPILED = {"botLanguage": "custom", "botFileName": "bot", "command": ["./{file}"]}

#: `--language` -> its starter. Aliases: ALIASES.
LANGUAGES: dict[str, Language] = {
    "python": Language("python", "Python", "bot.py", "bot.py", {"botLanguage": "python3", "botFileName": "bot.py"},
                       "botLanguage python3, started as `python3 bot.py`", None,
                       "Here: `print(..., flush=True)`."),
    "c": Language("c", "C", "bot.c", "bot.c", _COMPILED, "a `custom` bot running the compiled `./bot`",
                  "./build.sh                    # or: make; or: td-runner build {dir}",
                  "Here: `setvbuf(stdout, NULL, _IOLBF, 0)` once, and `fflush(stdout)` after each answer."),
    "go": Language("go", "Go", "main.go", "main.go", _COMPILED, "a `custom` bot running the compiled `./bot`",
                   "./build.sh                    # or: go build -o bot .; or: td-runner build {dir}",
                   "Here: answers go straight to `os.Stdout`; a `bufio.Writer` needs `Flush()` after each."),
    "rust": Language("rust", "Rust", "main.rs", "src/main.rs", _COMPILED, "a `custom` bot running the compiled `./bot`",
                     "./build.sh                    # or: td-runner build {dir}",
                     "Here: `out.flush()` after each `writeln!`."),
}
ALIASES = {"python3": "python", "py": "python", "golang": "go", "rs": "rust"}


def add_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    parser.add_argument("folder", type=Path, metavar="BOT_DIR", help="the folder to create (new or empty)")
    parser.add_argument("--game", required=True, help=f"the game: {', '.join(GAMES)}")
    parser.add_argument("--language", required=True, help=f"the language: {', '.join(LANGUAGES)}")
    parser.add_argument("--name", help="the bot's nickName (default: the folder's name)")


def language(name: str) -> Language:
    """The starter of `--language name`; UserError naming the languages otherwise."""
    key = ALIASES.get(name.lower(), name.lower())
    if key not in LANGUAGES:
        raise UserError(f"--language {name}: no starter in that language; the languages are: {', '.join(LANGUAGES)}")
    return LANGUAGES[key]


def write_starter(folder: Path, game_name: str, language_name: str, nick: str | None = None) -> list[Path]:
    """Write the starter of `game_name` in `language_name` into `folder` (created; must be new or empty).
    The files written, relative to `folder`."""
    game = get_game(game_name)  # UserError naming the games
    lang = language(language_name)
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{folder}: exists and is not a folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise UserError(f"{folder}: exists and is not empty; give a new folder")
    templates = TEMPLATES / data_folder(game.name)
    nick = nick or _nick(folder)
    files: dict[str, str] = {lang.target: (templates / lang.key / lang.source).read_text(encoding="utf-8")}
    build_files = TEMPLATES / "buildfiles" / lang.key
    if build_files.is_dir():
        files.update({path.name: path.read_text(encoding="utf-8") for path in sorted(build_files.iterdir())})
    files["bot.json"] = json.dumps(_bot_json(game, lang, nick), indent=2) + "\n"
    files["README.md"] = _readme(templates / "README.md", lang, nick, folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if name == "build.sh":
            path.chmod(0o755)
        written.append(Path(name))
    return written


def _nick(folder: Path) -> str:
    """A nickName from the folder's name: letters, digits, '-' and '_' kept (the log folders use it)."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", folder.resolve().name).strip("-")
    return name or "MyBot"


def _bot_json(game, lang: Language, nick: str) -> dict[str, object]:
    data: dict[str, object] = {"author": "me", "email": "me@example.invalid", "nickName": nick, "botLocation": "/"}
    data.update(lang.bot_json)
    if game.default_mode is BotMode.PERSISTENT:  # Invaders: one process a match (the starters are written so)
        data["persistent"] = True
    return data


def _readme(template: Path, lang: Language, nick: str, folder: Path) -> str:
    """The game's README with this starter's names, build line and flushing advice filled in."""
    build = "" if lang.build is None else lang.build.format(dir=folder) + "\n"
    values = {"NAME": nick, "LANGUAGE": lang.title, "BUILD": build, "DIR": str(folder), "RUN": lang.run,
              "SOURCE": lang.target, "FLUSH": lang.flush}
    text = template.read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def run(args: argparse.Namespace, streams) -> int:
    written = write_starter(args.folder, args.game, args.language, args.name)
    game = get_game(args.game)
    lang = language(args.language)
    print(f"{args.folder}: a {game.name} starter in {lang.title} ({', '.join(map(str, written))})", file=streams.out)
    flag = "" if game.name == "tower-defence" else f" --game {game.name}"
    if lang.build is not None:
        print(f"next: td-runner build {args.folder}", file=streams.out)
    print(f"then: td-runner watch{flag} {args.folder}   (plays the reference bot after every change)",
          file=streams.out)
    return ExitCode.OK

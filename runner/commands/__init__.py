"""One module per `td-runner` subcommand, plus the helpers some share or split out (`options.py`: game options
as flags; `watch_run.py`, `watch_summary.py`: one watch run and its summary).

Each subcommand module exposes `EXITS` (its exit codes), `add_arguments(parser, argv)` and `run(args, streams) ->
int`; its one-line help is in `COMMANDS` below, so `td-runner --help` lists every command without importing one
(the tournament and league modules alone take ~0.2 s to load). Modules raise `UserError` for problems the user
can fix; only runner/cli.py turns exceptions into exit codes.
"""

#: Subcommand (module `runner/commands/<name>.py`) -> its one-line help, in the order `--help` lists them.
COMMANDS: dict[str, str] = {
    "match": "run a match between bot folders and write its log",
    "verify": "replay a match log's commands through the rules and compare every turn's files",
    "diff": "compare two match logs turn by turn (exit 0 identical, 1 different, 2 bad input)",
    "replay": ("show a match log turn by turn in the terminal: the board, each player's numbers, commands and errors; "
               "--html writes a self-contained HTML replay"),
    "validate": "check bot.json, runner configs, match.json, each game's configs, states and maps, or whole match logs",
    "new": "write a starter bot for a game in a language (python, c, go, rust) that builds and plays as written",
    "build": ("build bot folders: build.sh, else by language (Maven/Gradle, cargo, go, dotnet, make; a Python bot's "
              "requirements.txt into its own .venv)"),
    "games": "list the games: name, number of players, how bots run, one line of description",
    "languages": ("print the launch table: each botLanguage, its command line, and whether its program is on this "
                  "machine"),
    "tournament": "play a tournament between bot folders (every pair, seats swapped; tables; sides) and rate the bots",
    "standings": ("print a tournament's standings (ratings, wins/draws/losses, faults, crosstable) from its folder; "
                  "--html writes them as static web pages"),
    "grades": ("a tournament's or a league's grade sheet: each bot's folder, author, W-D-L, points, score margin, each fault kind, "
               "rating and rank range (tied places shown); --against BOT_DIR adds win rates; --csv OUT"),
    "watch": "watch a bot folder and re-run seeded matches against opponents after every change, with a summary",
    "league": "run a league: matches chosen by rating between submitted bots, until stopped; its standings and pages",
}

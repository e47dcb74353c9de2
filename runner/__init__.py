"""td-runner: a file-protocol runner for bot-vs-bot games (first game: Entelect 2018 Tower Defence)."""

__version__ = "0.1.0"

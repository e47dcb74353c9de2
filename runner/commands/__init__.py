"""One module per `td-runner` subcommand, plus the helpers some share or split out (`options.py`: game options
as flags; `watch_run.py`, `watch_summary.py`: one watch run and its summary).

Each subcommand module exposes `HELP` (one line), `add_arguments(parser)` and `run(args, streams) -> int`. Modules
raise `UserError` for problems the user can fix; only runner/cli.py turns exceptions into exit codes.
"""

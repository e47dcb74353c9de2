"""How `td-runner replay` shows one Tower Defence round: rich text lines from a RoundView."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from rich.text import Text

from runner.games.tower_defence.engine.state import PLAYERS, CommandOrder
from runner.games.tower_defence.logs.layout import log_game_config, open_match_log, recorded_order
from runner.games.tower_defence.logs.replay import MatchReplay, PlayerSummary, RoundView

STYLE = {"A": "bold cyan", "B": "bold magenta"}
FRAME = {"A": "cyan", "B": "magenta"}
LABEL = "dim"
CURTAIN = "bold black on yellow"
BOT_OUTPUT_LINES = 20

def render_map_row(row: str) -> Text:
    """Colour one console-map row (spec 7.3): A's half and missiles (`>`) in A's colour, B's in B's,
    buildings in their owner's colour (upper case = constructed), the curtain column highlighted."""
    text = Text()
    cells = row.count("[")
    half = cells // 2
    column = 0
    inside = False
    for char in row:
        side = "A" if column < half else "B"
        if char == "[":
            inside = True
            text.append(char, FRAME[side])
        elif char == "]":
            inside = False
            column += 1
            text.append(char, FRAME[side])
        elif not inside:
            text.append(char, CURTAIN)  # the pseudo-column between the halves: ` \ / `
        elif char == ">":
            text.append(char, STYLE["A"])
        elif char == "<":
            text.append(char, STYLE["B"])
        elif char.isalpha():
            text.append(char, STYLE[side] if char.isupper() else f"{FRAME[side]} italic")
        else:
            text.append(char, LABEL)
    return text


def _curtain(summary: PlayerSummary) -> str:
    if summary.iron_curtain_active:
        return "active"
    return "available" if summary.iron_curtain_available else "-"


def _player_line(seat: str, name: str, summary: PlayerSummary | None, width: int) -> Text:
    line = Text(f"{name:<{width}}", STYLE[seat])
    if summary is None:
        return line.append("  (no readable JsonMap.json this round)")
    return line.append(
        f"  health {summary.health:>3}  energy {summary.energy:>5}  score {summary.score:>6}  "
        f"hits taken {summary.hits_taken:>3}  iron curtain {_curtain(summary)}"
    )


def _command_text(command: str | None) -> str:
    if command is None:
        return "(no PlayerCommand.txt)"
    return command if command else "(nothing)"


def render_round(view: RoundView, names: dict[str, str], last: int, player: str | None = None) -> list[Text]:
    """The lines shown for one round; plain text when printed to a non-terminal."""
    width = max(len(name) for name in names.values())
    lines = [Text(f"Round {view.number:03d} of {last:03d}", "bold")]
    if view.warning:
        lines.append(Text(f"warning: {view.warning}", "yellow"))
    lines.extend(_player_line(seat, names[seat], view.players[seat], width) for seat in PLAYERS)
    if view.console_map:
        lines.extend(render_map_row(row) for row in view.console_map)
    else:
        lines.append(Text("(no Console/Console.txt this round)", LABEL))
    if view.is_final and view.end_game_state is not None:
        lines.append(Text("final state; game over:", "bold"))
        lines.extend(Text(f"  {line}") for line in view.end_game_state.rstrip("\n").split("\n") if line)
        return lines
    lines.append(Text("commands:"))
    for seat in PLAYERS:
        lines.append(Text(f"  {names[seat]:<{width}}  ", STYLE[seat]).append(_command_text(view.commands[seat])))
    if view.errors:
        lines.append(Text("errors:"))
        lines.extend(Text(f"  {error}", "red") for error in view.errors)
    else:
        lines.append(Text("errors: none"))
    if player is not None:
        lines.extend(_bot_output(names[player], player, view.bot_output[player]))
    if view.is_final:
        lines.append(Text("the log stops here without endGameState.txt (the match did not finish)", "yellow"))
    return lines


def _bot_output(name: str, seat: str, output: str | None) -> Iterator[Text]:
    if output is None:
        yield Text(f"bot output of {name}: (no Console/BotOutput.txt)")
        return
    rows = output.rstrip("\n").split("\n") if output else []
    yield Text(f"bot output of {name}:" + ("" if rows else " (empty)"), STYLE[seat])
    yield from (Text(f"  {row}") for row in rows[:BOT_OUTPUT_LINES])
    if len(rows) > BOT_OUTPUT_LINES:
        yield Text(f"  ... ({len(rows) - BOT_OUTPUT_LINES} more lines)", LABEL)


class TowerDefenceReplay:
    """A Tower Defence log opened for the terminal replay (the `Replay` interface)."""

    def __init__(self, path: Path) -> None:
        log = open_match_log(path)
        config, _ = log_game_config(log)
        self.log = log
        self.replay = MatchReplay(log, config, recorded_order(log) or CommandOrder.B_FIRST)
        self.turns = tuple(self.replay.rounds)
        self.seats = PLAYERS
        self.names = dict(log.player_dirs)

    def render(self, turn: int, seat: str | None = None) -> list[Text]:
        return render_round(self.replay.round(turn), self.names, self.log.final_round, seat)

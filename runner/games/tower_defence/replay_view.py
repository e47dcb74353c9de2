"""Tower Defence's part of `td-runner replay` (the rest is the core's, runner/logtools/replay.py): the official
console view of a state (spec 7.3) in colour, each player's line under its folder name with its hits taken,
which the console leaves out."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from runner.games.tower_defence.session import TowerDefenceSession

STYLE = {"A": "bold cyan", "B": "bold magenta"}
FRAME = {"A": "cyan", "B": "magenta"}
LABEL = "dim"
CURTAIN = "bold black on yellow"


def render_map_row(row: str) -> Text:
    """Colour one console-map row (spec 7.3): A's half and missiles (`>`) in A's colour, B's in B's,
    buildings in their owner's colour (upper case = constructed), the curtain column highlighted."""
    text = Text()
    half = row.count("[") // 2
    column = 0
    inside = False
    for char in row:
        side = "A" if column < half else "B"
        if char in "[]":
            inside = char == "["
            column += char == "]"
            text.append(char, FRAME[side])
        elif not inside:
            text.append(char, CURTAIN)  # the pseudo-column between the halves: ` \ / `
        elif char in "<>":
            text.append(char, STYLE["A" if char == ">" else "B"])
        elif char.isalpha():
            text.append(char, STYLE[side] if char.isupper() else f"{FRAME[side]} italic")
        else:
            text.append(char, LABEL)
    return text


class _Line(str):
    """A line of the view as plain text, coloured only when rich prints it (only the turns shown pay for that)."""

    def __rich__(self) -> Text:
        if self.startswith("["):
            return render_map_row(self)
        return Text(self, STYLE.get(self[0], "") if self[1:4] == " - " else "")  # a player's line: its name first


def replay_view(session: TowerDefenceSession, names: Mapping[str, str]) -> list[str]:
    """The console view, `Player A, Health=...` as `A - Nick, Health=..., HitsTaken=N`."""
    players = session.state.players
    return [_Line(f"{names.get(line[7], line[7])}{line[8:]}, HitsTaken={players[line[7]].hits_taken}"
                  if line.startswith("Player ") else line) for line in session.text_view().splitlines() if line]

"""Render `state.txt` (spec 4.3): the current state as space-separated lines, names last, ending in `end`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def _ids(ids: Iterable[int]) -> str:
    """`1,2,3`; an empty list is `-` (spec 4.3)."""
    return ",".join(map(str, ids)) or "-"


def _one_line(text: str) -> str:
    return " ".join(str(text).split("\n")).replace("\r", " ")


def render_board_lines(document: Mapping[str, Any]) -> list[str]:
    """The `continent` and `territory` lines: the same for every seat in one turn."""
    lines = []
    for continent in document["map"]["continents"]:
        lines.append(f"continent {continent['id']} {continent['bonus']} {_ids(continent['territories'])} "
                     f"{continent['name']}")
    territories = document["map"]["territories"]
    for territory, square in zip(territories, document["board"]):
        lines.append(f"territory {territory['id']} {square['owner']} {square['armies']} {territory['continent']} "
                     f"{_ids(territory['neighbours'])} {territory['name']}")
    return lines


def render_state_txt(document: Mapping[str, Any], board_lines: list[str] | None = None) -> str:
    """The text form of a `state_document` (the previous turn's events are only in state.json);
    `board_lines` are this turn's `render_board_lines` when the caller renders them once for every seat."""
    rules = document["rules"]
    me = document["me"]
    lines = [
        "warzone 1",
        f"turn {document['turn']} {document['max_turns']}",
        f"you {document['you']}",
        "turn_order " + " ".join(document["turn_order"]),
        "rules {} {} {} {} {} {}".format(rules["attack_kill_pct"], rules["defend_kill_pct"],
                                         rules["blockade_multiplier"], rules["min_reinforcement"],
                                         rules["reinforcement_card_armies"], int(rules["one_army_stands_guard"])),
    ]
    for player in document["players"]:
        lines.append("player {} {} {} {} {} {} {}".format(
            player["seat"], "alive" if player["alive"] else "out", player["territories"], player["armies"],
            player["pool"], player["cards"], _one_line(player["name"])))
    lines.append(f"pool {me['pool']}")
    lines.append("hand " + " ".join(str(count) for count in me["hand"].values()))
    lines.extend(render_board_lines(document) if board_lines is None else board_lines)
    for rejection in (document["last_turn"] or {}).get("rejected", ()):
        lines.append(f"rejected {rejection['line']} {rejection['code']} {_one_line(rejection['text'])}")
    lines.append("end")
    return "\n".join(lines) + "\n"

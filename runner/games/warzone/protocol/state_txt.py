"""Render `state.txt` (spec 4.3): the current state as space-separated lines, names last, ending in `end`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def _ids(ids: Iterable[int]) -> str:
    """`1,2,3`; an empty list is `-` (spec 4.3)."""
    return ",".join(map(str, ids)) or "-"


def _one_line(text: str) -> str:
    return " ".join(str(text).split("\n")).replace("\r", " ")


def render_state_txt(document: Mapping[str, Any]) -> str:
    """The text form of a `state_document` (the previous turn's events are only in state.json)."""
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
    for continent in document["map"]["continents"]:
        lines.append(f"continent {continent['id']} {continent['bonus']} {_ids(continent['territories'])} "
                     f"{continent['name']}")
    territories = document["map"]["territories"]
    for territory, square in zip(territories, document["board"]):
        lines.append(f"territory {territory['id']} {square['owner']} {square['armies']} {territory['continent']} "
                     f"{_ids(territory['neighbours'])} {territory['name']}")
    for rejection in (document["last_turn"] or {}).get("rejected", ()):
        lines.append(f"rejected {rejection['line']} {rejection['code']} {_one_line(rejection['text'])}")
    lines.append("end")
    return "\n".join(lines) + "\n"

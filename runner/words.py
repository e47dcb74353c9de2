"""Counts and places in English, for every command's output: `1 match`, `2 matches`, `3rd`, `11th`.

Kept in one place because hand-written endings drift ("1 matches", "in 1 turns", "every 3th").
"""

from __future__ import annotations


def plural(count: int, word: str) -> str:
    """1 match, 2 matches, 1 seed, 0 seeds (words ending in s, sh, ch or x take -es)."""
    ending = "es" if word.endswith(("s", "sh", "ch", "x")) else "s"
    return f"{count} {word}{'' if count == 1 else ending}"


def ordinal(place: int | None, tied: bool = False) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st...; a shared place as =2nd; no ranking as '-'."""
    if place is None:
        return "-"
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{'=' if tied else ''}{place}{suffix}"

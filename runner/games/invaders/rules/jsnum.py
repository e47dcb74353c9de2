"""JavaScript number semantics the reference relies on (spec 4 I, 8, 15): truthiness, ToInt32, JSON output."""

from __future__ import annotations

import math
from typing import Any

_TWO_32 = 1 << 32
_TWO_31 = 1 << 31


def is_truthy(value: Any) -> bool:
    """Whether a JSON value is truthy in JavaScript (spec 8): `{}` and `[]` are truthy, unlike in Python."""
    if value is None or value is False:
        return False
    if isinstance(value, (int, float)):
        return value == value and value != 0  # NaN and +-0 are falsy
    if isinstance(value, str):
        return value != ""
    return True  # true, objects and arrays, even empty


def to_int32(number: float) -> int:
    """JavaScript `x | 0` (ToInt32), used for a spawned invader's hp (spec 4 I, 13 #15)."""
    if not math.isfinite(number):
        return 0
    wrapped = int(number) % _TWO_32  # int() truncates toward zero, as ToInt32 does before wrapping
    return wrapped - _TWO_32 if wrapped >= _TWO_31 else wrapped


def js_number(number: float) -> int | float:
    """A number as JavaScript's JSON.stringify writes it: an integral double has no `.0` (hpm 1, not 1.0)."""
    if isinstance(number, float) and number.is_integer() and abs(number) < 2**53:
        return int(number)
    return number

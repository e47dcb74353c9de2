"""Deterministic missile ids: UUID-shaped (version 4 layout) but derived from the match seed (spec 9.2.1)."""

from __future__ import annotations

_MASK64 = (1 << 64) - 1


def _splitmix64(value: int) -> int:
    value = (value + 0x9E3779B97F4A7C15) & _MASK64
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _MASK64
    return value ^ (value >> 31)


def missile_id(seed: int, serial: int) -> str:
    """Return the id of the `serial`-th missile of a match played with `seed`.

    The official engine uses random UUIDs; ids only need to be unique within a match and, for us,
    reproducible, so they are a hash of (seed, serial) laid out as a version-4 UUID.
    """
    base = _splitmix64((seed & _MASK64) ^ _splitmix64(serial))
    high = _splitmix64(base)
    low = _splitmix64(high)
    high = (high & 0xFFFFFFFFFFFF0FFF) | 0x0000000000004000  # version 4
    low = (low & 0x3FFFFFFFFFFFFFFF) | 0x8000000000000000  # RFC 4122 variant
    text = f"{high:016x}{low:016x}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"

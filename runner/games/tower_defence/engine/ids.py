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
    # _splitmix64 four times, inlined (this runs for every missile the renderers show)
    mask = _MASK64
    z = (serial + 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    z = ((seed & mask) ^ z ^ (z >> 31)) + 0x9E3779B97F4A7C15 & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    z = (z ^ (z >> 31)) + 0x9E3779B97F4A7C15 & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    high = z ^ (z >> 31)
    z = high + 0x9E3779B97F4A7C15 & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    low = z ^ (z >> 31)
    # version 4 in the high half, the RFC 4122 variant in the low half; one format for all five groups
    return "%08x-%04x-4%03x-%04x-%012x" % (
        high >> 32, (high >> 16) & 0xFFFF, high & 0x0FFF, (low >> 48) & 0x3FFF | 0x8000, low & 0xFFFFFFFFFFFF
    )

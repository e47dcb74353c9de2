"""Lanes: the two-lane tower-defence game (spec: shared/spec/lanes.md), played through the file protocol."""

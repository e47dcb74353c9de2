"""The rules of Lanes (spec sections 1-8): pure functions over attrs records, no I/O."""

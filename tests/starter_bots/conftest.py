"""Session fixture: every starter bot built once, in a private copy of starter-bots/."""

from __future__ import annotations

import pytest
from starterbuild import BuiltBots, build_all


@pytest.fixture(scope="session")
def built_bots(tmp_path_factory: pytest.TempPathFactory) -> BuiltBots:
    return build_all(tmp_path_factory.mktemp("starter-bots"))

"""A persistent bot's own output reaches the log (issue 26.3): a Python bot that raises at import shows the
exception's last line in the match's warning and in `bot-output/<seat>.txt`, the file the warning names."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

from runner.cli import main

REPO = Path(__file__).resolve().parents[3]


def test_a_bot_that_raises_at_import_shows_why(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    shutil.copytree(REPO / "starter-bots" / "invaders" / "python3", bad)
    (bad / "bot.py").write_text("import not_a_module_xyz\n")
    out, err = io.StringIO(), io.StringIO()
    code = main(["match", "--game", "invaders", str(bad), str(REPO / "starter-bots" / "invaders" / "python3"),
                 "--max-turns", "20", "--output", str(tmp_path / "out"), "--name", "m"], out, err)
    assert code == 0, err.getvalue()
    why = "ModuleNotFoundError: No module named 'not_a_module_xyz'"
    warning = err.getvalue()
    assert why in warning
    named = re.search(r"see its bot output in (\S+)", warning)
    assert named and Path(named.group(1)).is_file()
    written = (tmp_path / "out" / "m" / "bot-output" / "defender.txt").read_text()
    assert Path(named.group(1)).resolve() == (tmp_path / "out" / "m" / "bot-output" / "defender.txt").resolve()
    assert why in written and "[td-runner]" in written
    assert main(["verify", str(tmp_path / "out" / "m")], io.StringIO(), io.StringIO()) == 0

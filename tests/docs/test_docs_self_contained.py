"""Every page a user reads, every runner docstring and every test stands on its own in the repository: none
points into the project's `shared` folder (specs, reference traces; a user's clone has none) or at a path of
one machine. The files come from git (`git ls-files`, untracked files not ignored included), so a new page or
test is checked without a list to keep. benchmarks/ is developer tooling and may point at the shared folder (its docstrings say so)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: what must not appear: the shared folder beside the repository (by a relative path, or by the names of its
#: subfolders), and the absolute path of the machine the project is developed on. Spelled in pieces so this
#: file does not match itself.
FORBIDDEN = re.compile("|".join([
    re.escape(".." + "/shared"),
    r"(?<![\w.-])" + "shared" + r"/(spec|conformance|seeds|bench)\b",
    re.escape("/" + "work" + "/"),
]))

#: which tracked files are read: user pages (any Markdown), the package's code and schemas (docstrings,
#: comments, descriptions), the starter bots (their comments are for users), and the tests with their data
CHECKED = re.compile(r"(\.md$|^runner/|^schema/|^starter-bots/|^tests/)")


def tracked_files() -> list[str]:
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the file list comes from git ls-files")
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True)
    if listed.returncode != 0:
        pytest.skip(f"{ROOT} is not a git checkout: nothing to list")
    return [name for name in listed.stdout.decode("utf-8").split("\0") if name and CHECKED.search(name)]


def test_the_checked_set_is_the_users_and_the_tests() -> None:
    files = tracked_files()
    for expected in ("README.md", "docs/rules/lanes.md", "docs/rules/warzone.md", "docs/rules/invaders.md",
                     "runner/games/lanes/README.md", "starter-bots/lanes/README.md",
                     "tests/games/invaders/test_invaders_live_reference.py"):
        assert expected in files
    assert not any(name.startswith("benchmarks/") for name in files)


def test_no_user_page_docstring_or_test_points_outside_the_repository() -> None:
    found = []
    for name in tracked_files():
        path = ROOT / name
        if not path.is_file():  # deleted in the work tree, not yet in the index
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:  # binary (gzip traces, images)
            continue
        for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
            if FORBIDDEN.search(line):
                found.append(f"{name}:{number}: {line.strip()[:120]}")
    assert found == [], "paths outside the repository:\n" + "\n".join(found)


@pytest.mark.parametrize("text", ["see ../" + "shared" + "/spec/lanes.md", "shared" + "/conformance/koth/x.gz",
                                  "Path('/" + "work/shared/x')", "`shared" + "/spec/invaders.md`"])
def test_the_pattern_catches_what_it_is_for(text: str) -> None:
    assert FORBIDDEN.search(text)


@pytest.mark.parametrize("text", ["read-only shared data", "shared_caches", "the shared/noisy machine",
                                  "runner/games/shared_helpers.py", "homework/x"])
def test_the_pattern_lets_ordinary_words_through(text: str) -> None:
    assert not FORBIDDEN.search(text)


#: a Markdown link `[text](target)` or a link definition `[name]: target`
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)|^\[[^\]]+\]:\s*(\S+)", re.MULTILINE)


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_relative_link_of_a_page_reaches_a_file_of_the_repository() -> None:
    broken = []
    for name in tracked_files():
        if not name.endswith(".md") or not (ROOT / name).is_file():
            continue
        page = ROOT / name
        for match in LINK.finditer(page.read_text(encoding="utf-8")):
            target = match.group(1) or match.group(2)
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            path, _, fragment = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists() or ROOT not in (linked, *linked.parents):
                broken.append(f"{name}: {target}")
            elif fragment and linked.suffix == ".md":
                headings = re.findall(r"^#+ (.*)$", linked.read_text(encoding="utf-8"), re.MULTILINE)
                if fragment not in {anchor(h) for h in headings}:
                    broken.append(f"{name}: {target} (no such heading)")
    assert broken == []

"""The docs describe the present in a size a reader can take in (issue 41 item 2), their links
lead somewhere, and ``docs/architecture.md``'s map names files that exist (issue 41 item 5).

History (earlier benchmarks, superseded tables) lives in ``CHANGELOG.md``, one entry per issue.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md")) + sorted((ROOT / "docs" / "rules").glob("*.md"))
#: Issue 41 item 2: "The README is an entrance ... in at most 200 lines"; "docs/bots.md keeps
#: the method and today's figures, in at most 600 lines".
MAX_LINES = {"README.md": 200, "docs/bots.md": 600}
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("name", sorted(MAX_LINES))
def test_the_entrance_and_the_bots_doc_stay_short(name: str) -> None:
    """Issue 41 item 2: README at most 200 lines, docs/bots.md at most 600."""
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_LINES[name], f"{name}: {len(lines)} lines (history: CHANGELOG.md)"


def test_the_quick_start_is_two_commands() -> None:
    """Issue 41 item 2: the README's quick start is exactly ``make play`` and ``make test``."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    commands = [line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip()]
    assert commands == ["make play", "make test"]


def _relative_links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # code is not a link
    return [
        target
        for target in LINK.findall(text)
        if not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")
    ]


@pytest.mark.parametrize(
    "doc", [README, ROOT / "CHANGELOG.md", *DOCS], ids=lambda p: str(p.relative_to(ROOT))
)
def test_every_relative_link_resolves(doc: Path) -> None:
    """Issue 41 item 2: a relative link in the README or a doc names a file or folder that
    exists (its ``#anchor`` aside)."""
    broken = [
        target
        for target in _relative_links(doc)
        if not (doc.parent / target.split("#", 1)[0]).exists()
    ]
    assert not broken, f"{doc.name}: links to nothing: {broken}"


def test_the_readme_links_every_doc() -> None:
    """Issue 41 item 2: "where to read on" reaches every doc of ``docs/``."""
    targets = {Path(t.split("#", 1)[0]).as_posix() for t in _relative_links(README)}
    missing = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "docs").glob("*.md"))
        if path.relative_to(ROOT).as_posix() not in targets
    ]
    assert not missing, f"README.md does not link {missing}"


def _map_rows() -> list[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index("## How to find your way")
    end = text.index("## The core API")
    return [line for line in text[start:end].splitlines() if line.startswith("| ")]


def test_the_architecture_map_names_files_that_exist() -> None:
    """Issue 41 item 5: every file the map ("How to find your way", "Who owns what") names
    exists: under the folder its row is about, else under ``src/pendragon`` or the repository."""
    package = ROOT / "src" / "pendragon"
    missing = []
    for row in _map_rows():
        first = row.split(" | ")[0].strip("| `").split("`")[0]
        folder = ROOT / first if (ROOT / first).is_dir() else None
        for name in re.findall(r"`([\w./-]+\.(?:py|js|json|html|track))`", row):
            places = [folder] if folder is not None else []
            places += [package, ROOT]
            if not any(
                (place / name).exists() or any(place.rglob(name)) for place in places
            ):
                missing.append(name)
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"


def _repository_files() -> list[str]:
    skip = {".git", ".venv", "build", "node_modules", "__pycache__", ".mypy_cache"}
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(part in skip or part.endswith(".egg-info") for part in parts):
            continue
        if path.is_file():
            found.append(path.relative_to(ROOT).as_posix())
    return found


def test_every_source_path_a_doc_names_exists() -> None:
    """Issue 41 items 2 and 5: a path to a source file the README or a doc names
    (``web/hints.py``, ``tests/web/test_limits.py``) exists in the repository; outputs that
    a run writes (``bench/results/``, the build's manifest) and templates (``<game>``) aside."""
    files = _repository_files()
    missing = []
    for doc in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        for name in sorted(set(re.findall(r"`([\w./-]+/[\w.-]+\.(?:py|js|html|css|yaml))`", text))):
            if not any(f == name.lstrip("/") or f.endswith("/" + name.lstrip("/")) for f in files):
                missing.append(f"{doc.name}: {name}")
    assert not missing, f"docs name files that do not exist: {missing}"

"""Golden playthroughs of The Sword in the Stone, kept with the game, checked byte for byte.

Regenerate (and review the diff) from the repository root with::

    python -m pendragon.tools.golden --write --dir examples/plugin-game/tests/golden \\
        --game sword-stone
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pendragon.tools import golden
from pendragon.tools.golden import GoldenConfig

GOLDEN_DIR = Path(__file__).parent / "golden"


@pytest.mark.parametrize("config", golden.configs_for("sword-stone"), ids=lambda c: c.label)
def test_transcript_matches_golden_file(config: GoldenConfig) -> None:
    path = golden.golden_path(GOLDEN_DIR, "sword-stone", config)
    assert path.exists(), f"no golden file {path}"
    expected = path.read_text(encoding="utf-8")
    actual = golden.transcript("sword-stone", config)
    assert actual == expected, golden.diff(expected, actual, path.name)

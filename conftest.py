"""Test-session settings for the whole repository (tests, doctests of ``src``, the example).

In the compiled build the doctests of the compiled modules are not collected: pytest cannot
import a ``.py`` file whose module is an extension (``make test``'s pure pass runs them).
``PENDRAGON_EXPECT=compiled`` (or ``pure``) makes the session refuse to start in the other
mode, so that a failed build can never pass for a compiled test run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pendragon import build


def pytest_configure(config: pytest.Config) -> None:
    expected = os.environ.get("PENDRAGON_EXPECT", "")
    if expected and expected != build.MODE:
        raise pytest.UsageError(
            f"PENDRAGON_EXPECT={expected}, but this session runs {build.describe()}")


def pytest_report_header(config: pytest.Config) -> str:
    return f"pendragon: {build.describe()}"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if build.MODE == "compiled" and build.is_compiled_source(collection_path):
        return True
    return None

"""The project's packaging metadata stays in the form its build backend reads without
complaint (issue 27, item 10: `make play` printed setuptools' "project.license as a TOML
table is deprecated" box three times)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_pyproject_declares_its_license_as_an_spdx_expression() -> None:
    files = [ROOT / "pyproject.toml", *sorted(ROOT.glob("examples/*/pyproject.toml"))]
    for path in files:
        project = tomllib.loads(path.read_text(encoding="utf-8"))["project"]
        license_ = project.get("license")
        assert isinstance(license_, str) and license_.strip(), (path, license_)
        classifiers = project.get("classifiers", [])
        # setuptools refuses a License classifier beside an SPDX expression.
        assert not any(c.startswith("License ::") for c in classifiers), path

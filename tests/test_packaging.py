"""The project's packaging metadata stays in the form its build backend reads without
complaint (issue 27, item 10: `make play` printed setuptools' "project.license as a TOML
table is deprecated" box three times)."""

from __future__ import annotations

import os
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


def test_an_installed_wheel_serves_the_rules_pages(tmp_path: Path) -> None:
    """Issue 39, item 12: the rules pages the table links to were read from the repository's
    ``docs/`` beside the source tree, so a server installed from the wheel answered 404. The
    wheel now carries them as package data (``pendragon/web/rules``): built here (pure
    Python) from a copy of the project, unpacked alone, and asked for a Russian page."""
    import shutil
    import subprocess
    import sys
    import zipfile

    copy = tmp_path / "project"
    copy.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, copy / name)
    shutil.copytree(ROOT / "docs" / "rules", copy / "docs" / "rules")
    shutil.copytree(ROOT / "src", copy / "src", symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "_compiled.json"))
    out = tmp_path / "wheels"
    env = {**os.environ, "PENDRAGON_PURE": "1"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--quiet", "-w", str(out), str(copy)], check=True, env=env, cwd=tmp_path)
    (wheel,) = out.glob("pendragon-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for game in ("soc", "soc-card", "grail-cup"):
        assert f"pendragon/web/rules/{game}.md" in names
        for language in ("en", "ru", "pl", "cs"):
            assert f"pendragon/web/rules/play/{game}.{language}.md" in names
    installed = tmp_path / "installed"
    zipfile.ZipFile(wheel).extractall(installed)
    probe = (
        "import pendragon, pendragon.web.routes_site as site\n"
        "print(pendragon.__file__)\n"
        "print(site.play_page_path('soc', 'ru')[0])\n"
        "print(site.rules_html('grail-cup', 'pl').decode().splitlines()[1])\n"
    )
    shown = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                           text=True, cwd=tmp_path,
                           env={**env, "PYTHONPATH": str(installed)}).stdout.splitlines()
    assert shown[0].startswith(str(installed)), shown  # the wheel's package, not the source's
    assert shown[1] == str(installed / "pendragon" / "web" / "rules" / "play" / "soc.ru.md")
    assert shown[2] == '<html lang="pl"><head><meta charset="utf-8">', shown

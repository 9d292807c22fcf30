"""The build hook: compiles the rules of every game, the core and the bots with mypyc.

``pyproject.toml`` holds the project's metadata; this file only adds the compiled modules:
every module of ``pendragon/core`` and of each game's ``rules`` package, the search bots
(``pendragon/bots``) and each game's heuristic, the ISMCTS rollout policy (``__init__``
files, ``core/errors.py`` and ``bots/base.py`` stay Python). The same ``.py`` files stay
installed beside their compiled modules and are the reference: ``pendragon.build`` runs
them instead when ``PENDRAGON_PURE=1`` is set, when nothing was compiled, or when a source
changed after the build (it names the stale module). The build writes
``pendragon/_compiled.json``: each compiled module with the SHA-256 of the source it was
built from.

The build falls back to pure Python, saying so in one line, when ``PENDRAGON_PURE=1`` is set
at build time, when mypyc is not installed, or when no C compiler works. Compiling takes
about a minute on 2 idle cores from nothing (docs/architecture.md, "The compiled core").
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
#: The compiled modules, as globs under ``src``; a game plugged in from another package is
#: never compiled here (it runs as Python, subclassing the compiled core). Beside the rules
#: and the core: the search bots and each game's heuristic (the ISMCTS rollout policy, where
#: a search spends nine tenths of its time), with what the heuristics import on that path.
COMPILED = (
    "pendragon/core/*.py",
    "pendragon/games/*/rules/*.py",
    "pendragon/bots/*.py",
    "pendragon/games/*/heuristic*.py",
    "pendragon/games/soc/evidence.py",
    "pendragon/games/soc/saboteur.py",
    "pendragon/games/soc/talk.py",
    "pendragon/games/soc_card/leaf.py",
)
#: Modules of those that stay Python: the error classes (cold, and a compiled exception
#: class would lose its class-level ``code``), and the bots' protocols (checked with
#: ``isinstance``, which a compiled protocol does not allow; ``bots/policy.py`` holds the
#: compiled base of the policies).
KEPT_PYTHON = ("pendragon/core/errors.py", "pendragon/bots/base.py")
#: The file the runtime reads to know what was compiled and from which sources.
MANIFEST = "pendragon/_compiled.json"
#: The shared library's name (``pendragon__mypyc``, a top-level module).
GROUP = "pendragon"


def compiled_sources() -> list[Path]:
    """The ``.py`` files to compile, sorted (``__init__`` files excluded)."""
    found = {path for pattern in COMPILED for path in SRC.glob(pattern)}
    kept = {SRC / name for name in KEPT_PYTHON}
    return sorted(path for path in found if path.name != "__init__.py" and path not in kept)


def module_name(path: Path) -> str:
    """``src/pendragon/core/api.py`` -> ``pendragon.core.api``."""
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


def manifest_text(sources: list[Path]) -> str:
    """The manifest: every compiled module with the hash of its source."""
    modules = {
        module_name(path): hashlib.sha256(path.read_bytes()).hexdigest() for path in sources
    }
    return json.dumps({"format": "pendragon-compiled", "version": 1, "modules": modules},
                      indent=1, sort_keys=True) + "\n"


def why_pure() -> str | None:
    """Why this build cannot compile (``None``: it can)."""
    if os.environ.get("PENDRAGON_PURE", "") not in ("", "0"):
        return "PENDRAGON_PURE is set"
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "mypyc is not installed"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        return "no Python headers (Python.h)"
    return None


class BuildCompiled(build_ext):
    """Builds the compiled modules, then writes the manifest beside them (in place for an
    editable install). A failed build leaves no manifest: the package then runs pure."""

    def _target(self) -> Path:
        """Where the compiled modules land: the sources (in place, or an editable install)
        or the build directory (a wheel)."""
        return SRC if self.inplace or self.editable_mode else Path(self.build_lib)

    def run(self) -> None:
        target = self._target()
        manifest = target / MANIFEST
        manifest.unlink(missing_ok=True)
        # A module compiled by an earlier build and no longer now would shadow its source.
        wanted = {module_name(path) for path in compiled_sources()}
        for built in (target / "pendragon").rglob("*.so"):
            name = ".".join(built.relative_to(target).parts).split(".cpython")[0]
            if name not in wanted:
                built.unlink()
        super().run()
        if self.extensions:  # (none when the build is pure)
            manifest.parent.mkdir(parents=True, exist_ok=True)
            manifest.write_text(manifest_text(compiled_sources()))

    def build_extension(self, ext: Any) -> None:
        """Compile the C files of one extension on every core (mypyc writes one file per
        module into a single extension, which setuptools would compile one at a time)."""
        compile_files = self.compiler.compile

        def compile_each(sources: list[str], **options: Any) -> list[str]:
            with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                parts = pool.map(lambda source: compile_files([source], **options), sources)
                return [obj for part in parts for obj in part]

        self.compiler.compile = compile_each
        try:
            super().build_extension(ext)
        finally:
            self.compiler.compile = compile_files

    def get_outputs(self) -> list[str]:
        """The manifest is an output too (so an editable install or a wheel keeps it)."""
        return [*super().get_outputs(), str(self._target() / MANIFEST)]


def extensions() -> list[object]:
    """mypyc's extension modules, or none (with one line saying why)."""
    reason = why_pure()
    if reason is not None:
        print(f"pendragon: building pure Python ({reason})", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    previous = os.getcwd()
    os.chdir(ROOT)  # mypyc names modules from paths relative to the working directory
    try:
        sources = [str(path.relative_to(ROOT)) for path in compiled_sources()]
        # The compiled modules are type-checked in full; the rest of the package, which they
        # reach only lazily (core.api's words come from i18n), is followed silently: the
        # build may run before the project's dependencies (babel, rich...) are installed.
        options = ["--follow-imports=silent"]
        built = mypycify([*options, *sources], opt_level="3", multi_file=True,
                         group_name=GROUP)
        for extension in built:
            # Signed overflow wraps, as core.rng's native mixer needs (C leaves it undefined).
            extension.extra_compile_args = [*extension.extra_compile_args, "-fwrapv"]
        return list(built)
    finally:
        os.chdir(previous)


def expected_mode() -> str:
    """The build this machine should run: ``compiled`` where it can compile (``make test``
    checks that the test session runs it, so that a failed build never passes unseen)."""
    return "pure" if why_pure() else "compiled"


if __name__ == "__main__":  # (the build backend runs this file as __main__)
    setup(ext_modules=extensions(), cmdclass={"build_ext": BuildCompiled})

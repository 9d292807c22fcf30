"""Compiled or pure: which build of the rules and the core this process runs.

``setup.py`` compiles ``pendragon/core``, every game's ``rules``, the bots and the games'
heuristics with mypyc and writes
``_compiled.json``: each compiled module with the SHA-256 of the ``.py`` it was built from.
The ``.py`` files stay beside the compiled modules and are the reference. Before anything of
the package is imported, :func:`select` decides:

* compiled, when the manifest is there, every compiled module's file is there, and every
  source still has the hash it was built from;
* pure, when ``PENDRAGON_PURE=1`` is set, when nothing was compiled, or when a source
  changed since the build (the warning names the stale modules: a developer never runs an
  old build of code he edited). Pure means every compiled module of the manifest is loaded
  from its ``.py`` (an import hook), never a mix of the two builds.

:data:`MODE` says which ("compiled" or "pure") and :data:`REASON` why, in a few words;
``pendragon games`` and the benchmarks print it.

>>> MODE in ("compiled", "pure")
True
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: Set to anything but "" or "0" to run the pure Python build.
PURE_VARIABLE = "PENDRAGON_PURE"
_PACKAGE = Path(__file__).resolve().parent
_ROOT = _PACKAGE.parent
MANIFEST = _PACKAGE / "_compiled.json"


class StaleBuildWarning(UserWarning):
    """A compiled module's source changed after the build: the package runs pure."""


def _source(module: str) -> Path:
    return _ROOT.joinpath(*module.split(".")).with_suffix(".py")


def _has_extension(module: str) -> bool:
    base = _ROOT.joinpath(*module.split("."))
    return any(base.with_name(base.name + suffix).exists()
               for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def _manifest() -> dict[str, str] | None:
    """The compiled modules and their sources' hashes, or ``None`` (nothing compiled)."""
    try:
        data = json.loads(MANIFEST.read_text(encoding="utf-8"))
        modules = data["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if data.get("format") != "pendragon-compiled" or not isinstance(modules, dict):
        return None
    return {str(name): str(digest) for name, digest in modules.items()}


def stale_modules(modules: dict[str, str]) -> list[str]:
    """The compiled modules whose source differs from the one they were built from (or
    whose compiled file is missing)."""
    stale = []
    for name, digest in modules.items():
        try:
            text = _source(name).read_bytes()
        except OSError:
            continue  # an installed build without its sources: nothing to compare
        if hashlib.sha256(text).hexdigest() != digest or not _has_extension(name):
            stale.append(name)
    return stale


class _PureFinder(importlib.abc.MetaPathFinder):
    """Loads every module of the package from its ``.py`` file, whatever compiled module
    lies beside it (packages are left to the usual finders)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("pendragon."):
            return None
        source = _source(fullname)
        return importlib.util.spec_from_file_location(fullname, source) if source.is_file() \
            else None


#: The modules this process runs compiled (empty when it runs pure).
_COMPILED: set[str] = set()


def select() -> tuple[str, str]:
    """Decide the mode (and install the pure import hook when pure); ``(mode, reason)``."""
    modules = _manifest()
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        mode, reason = "pure", f"{PURE_VARIABLE} is set"
    elif modules is None:
        mode, reason = "pure", "not compiled"
    else:
        stale = stale_modules(modules)
        if stale:
            mode, reason = "pure", "stale build: " + ", ".join(stale)
            warnings.warn(
                f"pendragon: {', '.join(stale)} changed since the compiled build; running "
                "pure Python (`make build` compiles again)", StaleBuildWarning, stacklevel=3)
        else:
            _COMPILED.update(modules)
            return "compiled", f"{len(modules)} modules compiled with mypyc"
    sys.meta_path.insert(0, _PureFinder())
    return mode, reason


MODE, REASON = select()


def is_compiled_source(path: Path) -> bool:
    """Whether ``path`` is the source of a module this process runs compiled."""
    if MODE != "compiled" or path.suffix != ".py":
        return False
    try:
        parts = path.resolve().relative_to(_ROOT).with_suffix("").parts
    except ValueError:
        return False
    return ".".join(parts) in _COMPILED


def describe() -> str:
    """One line for ``pendragon games`` and the benchmarks.

    >>> describe().startswith(("compiled", "pure"))
    True
    """
    return f"{MODE} ({REASON})"

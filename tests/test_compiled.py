"""The compiled core (issue 30): two builds of one source, which one runs, and that they agree.

``setup.py`` compiles ``pendragon/core`` and every game's ``rules`` with mypyc;
``pendragon.build`` chooses at import: compiled, or pure with ``PENDRAGON_PURE=1``, with
nothing compiled, or with a source edited after the build (a warning names it). These tests
run in both of ``make test``'s passes; the ones that need a compiled build skip, saying so,
where none was made.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import pendragon
from pendragon import build

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
GAMES = ("soc", "soc-card", "grail-cup")

def _current_build() -> bool:
    """Whether a compiled build is here and matches every source."""
    modules = build._manifest()
    return modules is not None and not build.stale_modules(modules)


needs_compiled = pytest.mark.skipif(
    not _current_build(), reason="no compiled build of these sources here (no C compiler?)")


def _run(code: str, env: dict[str, str] | None = None, path: Path = SRC) -> tuple[str, str]:
    """Run ``code`` in a new interpreter importing the package from ``path``: (its
    standard output, its standard error)."""
    environment = {k: v for k, v in os.environ.items() if k != build.PURE_VARIABLE}
    environment.update(env or {})
    environment["PYTHONPATH"] = str(path)
    done = subprocess.run([sys.executable, "-W", "always", "-c", code], env=environment,
                          capture_output=True, text=True, check=True, cwd=path)
    return done.stdout, done.stderr


def _games_digest() -> str:
    """Twelve seeded random games of each game, every state's text hashed: the code that
    plays them is the same in both builds, so the digests must be too."""
    import random

    digest = hashlib.sha256()
    for name in GAMES:
        for seed in range(4):
            game = pendragon.load_game(name, players=4, seed=seed)
            state = game.new_initial_state()
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(state.sample_chance())
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                digest.update(state.serialize().encode())
            digest.update(repr(state.returns()).encode())
    return digest.hexdigest()


DIGEST_CODE = ("import sys; sys.path.insert(0, {tests!r}); from tests.test_compiled import "
               "_games_digest; import pendragon; print(pendragon.build.MODE, _games_digest())")


def test_the_other_build_plays_the_same_games() -> None:
    """Issue 30 item 2: the same seed plays the same game in both builds (states compared
    at every step, in a second interpreter running the other build)."""
    other = {"PENDRAGON_PURE": "1"} if build.MODE == "compiled" else {}
    mode, digest = _run(DIGEST_CODE.format(tests=str(ROOT)), other)[0].split()
    if build.MODE == "pure" and mode == "pure":
        pytest.skip("no compiled build here: both runs are pure")
    assert mode != build.MODE
    assert digest == _games_digest()


@pytest.mark.parametrize("game", GAMES)
def test_an_interpreted_subclass_declares_the_games_own_utilities(game: str) -> None:
    """A variant may subclass a compiled game in Python (docs/architecture.md): its
    ``info`` is the game's, utilities included (-1 lost, +1 won). With float defaults in
    ``declare_info`` the compiled glue read both as 0.0 for such a subclass."""
    base = pendragon.game_class(game)

    class Variant(base):  # type: ignore[valid-type,misc]
        pass

    own = pendragon.load_game(game, seed=3).info
    variant = Variant({"seed": 3}).info
    assert (variant.min_utility, variant.max_utility) == (own.min_utility, own.max_utility)
    assert (own.min_utility, own.max_utility) == (-1.0, 1.0)
    assert variant == own


@pytest.mark.skipif(build.MODE != "compiled", reason="the pure build runs the reference mixer")
def test_the_native_mixer_gives_the_reference_bits() -> None:
    """Issue 30 item 4: compiled, ``rng`` draws with machine words (wrapping ``i64``); each
    draw must be bit for bit the unbounded-int SplitMix64 the pure build runs, for seeds and
    counters of any size or sign (every seeded game depends on it)."""
    import random

    from pendragon.core import rng

    assert rng._NATIVE  # compiled: the machine-word path is the one that runs
    draw = random.Random(30)
    edges = [0, 1, (1 << 62) - 1, 1 << 62, (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64,
             -1, -(1 << 63), (1 << 70) + 5]
    values = edges + [draw.getrandbits(64) for _ in range(2000)] + [draw.getrandbits(100)
                                                                    - (1 << 99) for _ in range(200)]
    for seed in values:
        counter = draw.choice(edges + [draw.randrange(1 << 20)])
        reference = rng._mix_reference(seed, counter)
        assert rng.mix(seed, counter) == reference
        assert rng.uniform(seed, counter) == (reference >> 11) * (1.0 / (1 << 53))


def test_pure_variable_runs_every_module_from_its_source() -> None:
    """Issue 30 item 1: PENDRAGON_PURE=1 runs the pure build, and says so."""
    out, _ = _run("import pendragon, pendragon.core.api as a, pendragon.games.soc.rules.engine"
                  " as e; print(pendragon.build.describe(), a.__file__, e.__file__)",
                  {"PENDRAGON_PURE": "1"})
    assert out.startswith("pure (PENDRAGON_PURE is set)")
    assert out.split()[-2].endswith("api.py") and out.split()[-1].endswith("engine.py")


@needs_compiled
def test_the_compiled_build_runs_when_it_matches_its_sources() -> None:
    out, _ = _run("import pendragon, pendragon.core.api as a; print(pendragon.build.MODE,"
                  " a.__file__)")
    mode, where = out.split()
    assert mode == "compiled" and not where.endswith(".py")


@needs_compiled
def test_an_edited_source_runs_pure_and_the_warning_names_it(tmp_path: Path) -> None:
    """Issue 30 item 3: after a compiled module's source is edited, what runs is the edited
    code (every module pure, never a mix of the builds), with a warning naming it."""
    copy = tmp_path / "src"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("__pycache__"))
    engine = copy / "pendragon" / "games" / "grail_cup" / "rules" / "engine.py"
    engine.write_text(engine.read_text(encoding="utf-8") + "\nEDITED = 1\n", encoding="utf-8")
    out, warned = _run("import pendragon, pendragon.core.api as a;"
                       " import pendragon.games.grail_cup.rules.engine as e;"
                       " print(pendragon.build.MODE, a.__file__, e.EDITED)", path=copy)
    assert "pendragon.games.grail_cup.rules.engine changed since the compiled build" in warned
    assert "StaleBuildWarning" in warned
    mode, where, edited = out.split()
    assert (mode, edited) == ("pure", "1") and where.endswith("api.py")


@needs_compiled
def test_the_manifest_lists_every_compiled_module_with_its_source_hash() -> None:
    manifest = json.loads(build.MANIFEST.read_text(encoding="utf-8"))
    sys.path.insert(0, str(ROOT))
    try:
        import setup
    finally:
        sys.path.remove(str(ROOT))
    sources = setup.compiled_sources()
    assert "pendragon.core.api" in manifest["modules"]
    assert "pendragon.core.errors" not in manifest["modules"]
    assert sorted(manifest["modules"]) == sorted(
        ".".join(p.relative_to(SRC).with_suffix("").parts) for p in sources)
    for path in sources:
        name = ".".join(path.relative_to(SRC).with_suffix("").parts)
        assert manifest["modules"][name] == hashlib.sha256(path.read_bytes()).hexdigest()


def _ours(said: str) -> list[str]:
    return [line for line in said.splitlines() if line.startswith("pendragon:")]


def test_a_build_without_a_c_compiler_is_pure_and_says_why() -> None:
    """Issue 30 item 1: no compiler (or PENDRAGON_PURE at build time) builds pure, with one
    line saying why, instead of failing the install."""
    code = "import setup; exts = setup.extensions(); print('extensions', len(exts))"
    out, said = _run(code, {"CC": "/nonexistent/cc"}, path=ROOT)
    assert _ours(said) == ["pendragon: building pure Python (no C compiler (/nonexistent/cc))"]
    assert out.split() == ["extensions", "0"]
    out, said = _run(code, {"PENDRAGON_PURE": "1"}, path=ROOT)
    assert _ours(said) == ["pendragon: building pure Python (PENDRAGON_PURE is set)"]


def test_the_makefile_installs_the_build_requirements_of_pyproject() -> None:
    """The Makefile builds without isolation, so it installs what the build backend needs:
    exactly pyproject's [build-system] requires."""
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    line = re.search(r"^BUILD_REQUIRES := (.*)$", makefile, re.M)
    assert line is not None and sorted(line.group(1).split()) == sorted(requires)


def test_the_makefile_rebuilds_when_any_module_setup_py_compiles_changes() -> None:
    """``make build`` rebuilds when a file of ``COMPILED_SOURCES`` changed: the Makefile's list
    names every module ``setup.py`` compiles (a module compiled but missing there would stay
    stale after an edit, and run pure until someone rebuilt by hand)."""
    sys.path.insert(0, str(ROOT))
    try:
        import setup
    finally:
        sys.path.remove(str(ROOT))
    out = subprocess.run(["make", "-s", "-C", str(ROOT), "-p", "-n", "-f", "Makefile",
                          "print-nothing"], capture_output=True, text=True, check=False).stdout
    line = re.search(r"^COMPILED_SOURCES := (.*)$", out, re.M)
    assert line is not None
    listed = {ROOT / name for name in line.group(1).split()}
    assert set(setup.compiled_sources()) == listed


def test_games_command_says_which_build_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from pendragon.cli.main import main

    assert main(["games"]) == 0
    assert f"Rules and core: {build.describe()}." in capsys.readouterr().out.replace("\n", " ")

"""The learning baseline (issue 40 item 4): ``examples/maskable_ppo.py`` runs end to end on a
tiny budget — MaskablePPO with action masks, self-play against frozen copies of the learner,
and the paired-seed evaluation against every panel of opponents."""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
import warnings
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "maskable_ppo.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["maskable_ppo"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def temp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The process's temporary directory for one test (where SB3's default logger would
    make its ``SB3-<date>`` folders)."""
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_the_learning_example_trains_self_plays_and_evaluates(tmp_path: Path,
                                                              temp_dir: Path) -> None:
    """Issue 40 item 4: the example on a tiny budget: training (half of it in self-play,
    so frozen copies were seated), then each panel's paired figures, internally consistent.
    Issue 41 (review): its training leaves no ``SB3-<date>`` folder behind."""
    example = _example()
    out = tmp_path / "figures.json"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SB3's notes about the tiny batch
        figures = example.main(["--steps", "256", "--snapshot", "64", "--eval", "3",
                                "--ismcts-eval", "1", "--players", "3", "--out", str(out)])
    assert json.loads(out.read_text())["evaluation"] == figures["evaluation"]
    assert figures["self_play_snapshots"] >= 2
    assert set(figures["evaluation"]) == {"random", "heuristic", "ismcts", "self-play"}
    for panel, line in figures["evaluation"].items():
        assert line["deals"] == (1 if panel == "ismcts" else 3)
        rates = {name: line[f"{name} win %"] for name in ("trained", "random", "heuristic")}
        for entry in rates.values():
            assert 0.0 <= entry["low"] <= entry["rate"] <= entry["high"] <= 100.0
            assert entry["games"] == line["deals"]
        for other in ("random", "heuristic"):
            difference = line[f"trained - {other}"]
            assert difference["points"] == pytest.approx(
                rates["trained"]["rate"] - rates[other]["rate"])
            assert difference["low"] <= difference["points"] <= difference["high"]
    assert not list(temp_dir.glob("SB3-*"))


def test_paired_differences_and_rates() -> None:
    """The evaluation's statistics: a paired mean difference with its 95% interval."""
    example = _example()
    figures = example.paired([1, 1, 0, 1], [0, 1, 0, 0])
    assert figures["points"] == pytest.approx(50.0)
    assert figures["low"] < 50.0 < figures["high"]
    assert example.rate([1, 0, 0, 0])["rate"] == pytest.approx(25.0)


def test_a_frozen_maskable_ppo_plays_opponents_and_does_not_learn_on(temp_dir: Path) -> None:
    """Issue 40 item 1: a frozen copy of a real MaskablePPO learner (its predict with the
    mask) fills the other seats of a Gymnasium environment, and the learner's training
    after the copy leaves the copy as it was (and, issue 41 (review), no ``SB3-<date>``
    folder: the example's silent logger)."""
    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO

    from pendragon.envs.gymnasium_env import ModelPolicy, PendragonGymEnv

    torch.set_num_threads(1)
    env = PendragonGymEnv("grail-cup", seat=None, players=3, opponents="random")
    model = MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=32, seed=1,
                        device="cpu")
    model.set_logger(_example().silent_logger())
    frozen = ModelPolicy.frozen(model)
    before = [p.detach().clone() for p in frozen.model.parameters()]
    env.set_opponents(frozen)
    observation, _ = env.reset(seed=2)
    terminated, decisions = False, 0
    while not terminated:
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, terminated, _, _ = env.step(int(legal[0]))
        decisions += 1
    assert env.game_state.is_terminal() and decisions > 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.learn(total_timesteps=64)
    assert all(torch.equal(a, b) for a, b in zip(before, frozen.model.parameters(),
                                                  strict=True))
    assert not all(torch.equal(a, b) for a, b in zip(before, model.policy.parameters(),
                                                      strict=True)), "the learner did not learn"
    assert not list(temp_dir.glob("SB3-*"))

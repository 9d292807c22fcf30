"""Research environments: PettingZoo, Gymnasium and OpenSpiel adapters (``pendragon[rl]``).

Every module here sits on top of the game-agnostic API (``pendragon.core.api``) and could be
deleted without touching a rule.

* :data:`ENVIRONMENTS` and :class:`EnvironmentSpec` (from :mod:`pendragon.envs.spec`):
  the games that have environments, their versions and tensor bounds.
* ``pendragon.envs.<game>_v<version>`` (``soc_v2``, ...): each installed game whose plugin
  declares an :class:`~pendragon.core.plugins.Environment` as a PettingZoo AEC environment
  (``soc_v2.env(players=5)``), built on :mod:`pendragon.envs.pettingzoo_base`. These
  modules are made on first import from the plugin: no file per game.
* :mod:`pendragon.envs.gymnasium_env`: one seat learns, the other seats are pendragon bots
  or policies, for self-play (``gymnasium.make("pendragon/soc-v2")``).
* :mod:`pendragon.envs.openspiel`: importing it registers ``python_pendragon_<game>`` with
  ``pyspiel`` for every such game.

The adapters need the optional dependencies (``pip install 'pendragon[rl]'``); this package
itself imports none of them. See ``docs/research.md``.

>>> ENVIRONMENTS["soc"].pettingzoo_name
'soc_v2'
>>> from pendragon.envs import soc_v2
>>> soc_v2.env(players=3).possible_agents
['player_0', 'player_1', 'player_2']
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

import pendragon
from pendragon.envs.spec import ENVIRONMENTS, EnvironmentSpec

__all__ = ["ENVIRONMENTS", "EnvironmentSpec"]


def _environment_module(spec: EnvironmentSpec) -> ModuleType:
    """The PettingZoo module of ``spec``'s game: ``env()`` and ``raw_env``."""
    from pendragon.envs.pettingzoo_base import PendragonAECEnv

    game_class = pendragon.game_class(spec.game)
    long_name = game_class.__doc__.splitlines()[0] if game_class.__doc__ else spec.game

    def env(render_mode: str | None = None, **options: Any) -> PendragonAECEnv:
        """The environment; ``options`` are those of ``pendragon.load_game`` (``players``
        and the game's options; an option given as ``None`` keeps its default).

        It checks the call order and the action ids itself and raises on a misuse, so it
        is not wrapped in PettingZoo's ``OrderEnforcingWrapper``/``AssertOutOfBoundsWrapper``:
        they would repeat those checks through ``__getattr__`` forwarding at a third of the
        step cost.
        """
        given = {name: value for name, value in options.items() if value is not None}
        return PendragonAECEnv(spec, render_mode=render_mode, **given)

    module = ModuleType(f"{__name__}.{spec.pettingzoo_name}")
    module.__doc__ = (
        f"{long_name} as a PettingZoo AEC environment: ``{spec.pettingzoo_name}``.\n\n"
        f"Agents ``player_0`` ... ``player_{{n-1}}``; actions the ids of the game's catalog "
        f"(``Discrete``); observations ``Dict(observation=Box({spec.observation_low}, "
        f"{spec.observation_high}, (tensor size,)), action_mask)``; rewards 0 until the end, "
        f"then ``state.returns()``. Chance is resolved inside from ``reset(seed=...)``. "
        f"See ``docs/research.md``."
    )
    module.env = env  # type: ignore[attr-defined]
    module.raw_env = env  # type: ignore[attr-defined]
    return module


def __getattr__(name: str) -> Any:
    """``pendragon.envs.soc_v2`` and every other installed game's environment module."""
    for spec in ENVIRONMENTS.values():
        if spec.pettingzoo_name == name:
            module = _environment_module(spec)
            sys.modules[module.__name__] = module
            globals()[name] = module
            return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""Which installed games have research environments, and what the adapters know of each.

The bottom layer of :mod:`pendragon.envs`: it reads the plugins' declarations and imports
no adapter, so every adapter (PettingZoo, Gymnasium, OpenSpiel) and the package itself may
import it without an import cycle. ``pendragon.envs`` re-exports both names.

>>> ENVIRONMENTS["soc"].gymnasium_id
'pendragon/soc-v2'
"""

from __future__ import annotations

from dataclasses import dataclass

from pendragon.core.plugins import installed_plugins


@dataclass(frozen=True, slots=True)
class EnvironmentSpec:
    """What the adapters need to know about one game beyond the core API."""

    #: Registered pendragon game name.
    game: str
    #: Environment version: goes up whenever observations, actions or rewards change.
    version: int
    #: Bounds of every entry of ``observation_tensor`` (the observation ``Box``).
    observation_low: float
    observation_high: float

    @property
    def pettingzoo_name(self) -> str:
        """The PettingZoo module name, e.g. ``soc_v2``."""
        return f"{self.game.replace('-', '_')}_v{self.version}"

    @property
    def gymnasium_id(self) -> str:
        """The Gymnasium id, e.g. ``pendragon/soc-v2``."""
        return f"pendragon/{self.game}-v{self.version}"


def _environments() -> dict[str, EnvironmentSpec]:
    found = {}
    for name, plugin in installed_plugins().items():
        declared = plugin.environment
        if declared is not None:
            found[name] = EnvironmentSpec(
                name, declared.version, declared.observation_low, declared.observation_high
            )
    return found


#: Every installed game with research environments (from its plugin's ``environment``).
ENVIRONMENTS: dict[str, EnvironmentSpec] = _environments()

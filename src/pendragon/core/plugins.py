"""Games as plugins: one registration names every piece of a game.

A game is a package that declares a :class:`GamePlugin` and publishes it as a Python entry
point in the group ``pendragon.games``::

    [project.entry-points."pendragon.games"]
    soc = "pendragon.games.soc.plugin:PLUGIN"

The plugin names its pieces by import path (``"module:attribute"``), so that loading the
registry imports nothing but the plugin declarations, and the rules never import the
terminal, the web table or a learning library. Only ``rules`` is required; a game without a
heuristic, a terminal renderer or a board module gets the generic ones.

A game in one package names it once (``package=``): then a module path that starts with a
dot is relative to it, as in a relative import, a file path without ``package:`` lies in
it, and the catalogs are its ``locale`` folder unless the plugin says otherwise. The
plugin's fields hold the absolute paths either way:

>>> toy = GamePlugin(name="toy", package="toy_game", rules=".rules.game:ToyGame",
...                  heuristic=".heuristic:ToyBot", web_module="board.js")
>>> toy.rules, toy.heuristic, toy.locale, toy.web_module
('toy_game.rules.game:ToyGame', 'toy_game.heuristic:ToyBot', 'toy_game:locale', 'toy_game:board.js')

>>> plugin = installed_plugins()["soc"]
>>> plugin.rules
'pendragon.games.soc.rules.game:SocGame'
>>> plugin.load("rules").name
'soc'
>>> plugin.locale_path().name
'locale'
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from importlib.resources import files
from importlib.util import resolve_name
from pathlib import Path
from typing import Any, Final

#: The entry-point group games are published in.
ENTRY_POINT_GROUP: Final = "pendragon.games"
#: A plugin's catalogs when it names its package and no other folder.
_LOCALE: Final = "locale"
#: The pieces named by ``"module:attribute"`` besides the rules.
_MODULE_PIECES: Final = ("heuristic", "rollout", "search", "terminal", "web_adapter", "fixtures",
                         "stats", "balance")


class PluginError(ValueError):
    """A plugin declaration is malformed or names a piece that cannot be imported."""


@dataclass(frozen=True, slots=True)
class Environment:
    """The research environments of a game (PettingZoo, Gymnasium, OpenSpiel names).

    ``version`` goes up whenever observations, actions or rewards change; every entry of
    ``observation_tensor`` lies in ``[observation_low, observation_high]``.
    """

    version: int = 1
    observation_low: float = 0.0
    observation_high: float = float("inf")


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """Every piece of one game, by import path (``"package.module:attribute"``)."""

    #: Registry name (``load_game(name)``), also the prefix of its message keys.
    name: str
    #: The :class:`~pendragon.core.api.Game` subclass: the pure rules.
    rules: str
    #: The package resource folder of its catalogs: ``"package:folder"`` holding
    #: ``messages.pot`` and ``<language>.po`` (with ``package``: its ``locale`` folder).
    locale: str = _LOCALE
    #: A factory ``(seed) -> Bot`` of its hand-written policy (``heuristic`` bot).
    heuristic: str | None = None
    #: A factory ``(seed) -> Bot`` of a fast policy for search rollouts.
    rollout: str | None = None
    #: A factory ``(seed) -> Bot`` of the game's ``ismcts`` bot: the search with the settings
    #: measured to play it best (``None``: ``ISMCTSBot(seed)``, the generic defaults).
    search: str | None = None
    #: ``(observation, catalog) -> rich renderable``: the terminal's drawing of a seat's view
    #: in the catalog's language.
    terminal: str | None = None
    #: A :class:`~pendragon.web.adapters.base.GameAdapter` subclass for the web table.
    web_adapter: str | None = None
    #: ``"package:path/to/board.js"``: the page's ES module drawing the board.
    web_module: str | None = None
    #: Research environments (``None``: the game has none).
    environment: Environment | None = None
    #: ``(data) -> State``: builds a position from a scenario fixture
    #: (see :mod:`pendragon.scenarios`).
    fixtures: str | None = None
    #: ``(final_state) -> dict``: the game's own figures of a finished game for the
    #: simulator (booleans become rates with intervals, numbers means).
    stats: str | None = None
    #: A :class:`~pendragon.simulate.BalanceTable`: the designer's questions
    #: ``pendragon balance <game>`` answers.
    balance: str | None = None
    #: The game's own bots, besides the generic ``heuristic``, ``ismcts`` and ``random``:
    #: name -> factory ``(seed) -> Bot`` by import path (:func:`pendragon.bots.make_bot`
    #: with ``game=`` finds them; a table or a run of this game may seat them).
    bots: Mapping[str, str] = field(default_factory=dict, hash=False)
    #: Those of ``bots`` that play only where every seat is a bot (a simulation, a
    #: tournament, a bench): a bot that talks with its fellows (soc's ``talking``). A table
    #: with people neither offers nor seats them (:func:`pendragon.bots.table_bots`).
    among_bots: tuple[str, ...] = ()
    #: The bot a table of this game offers first: the lobby's choice for a bot seat, the one
    #: a player's seat is handed to, and the web API's for a bot seat that names none
    #: (``heuristic`` unless the game says otherwise).
    table_bot: str = "heuristic"
    #: The game's package, when its pieces live in one: a module path starting with ``.``
    #: is relative to it (``".heuristic:Bot"``) and a file path without ``package:`` lies
    #: in it (``"board.js"``); the fields above hold the absolute paths.
    package: str | None = None

    def __post_init__(self) -> None:
        for piece in ("rules", *_MODULE_PIECES):
            reference = getattr(self, piece)
            if reference is not None:
                object.__setattr__(self, piece, self._absolute(reference, piece))
        bots = {bot: self._absolute(path, f"bots.{bot}") for bot, path in self.bots.items()}
        object.__setattr__(self, "bots", bots)
        strangers = sorted(set(self.among_bots) - set(bots))
        if strangers:
            raise PluginError(f"{self.name}.among_bots: {strangers} are none of its own bots")
        for piece in ("locale", "web_module"):
            reference = getattr(self, piece)
            if reference is not None and ":" not in reference:
                if self.package is None:
                    raise PluginError(f"{self.name}.{piece}: {reference!r} is not "
                                      "'package:path' (or give the plugin its package)")
                object.__setattr__(self, piece, f"{self.package}:{reference}")

    def _absolute(self, reference: str, piece: str) -> str:
        if not reference.startswith("."):
            return reference
        if self.package is None:
            raise PluginError(f"{self.name}.{piece}: {reference!r} is relative to no package")
        module, _, attribute = reference.partition(":")
        return f"{resolve_name(module, self.package)}:{attribute}"

    def pieces(self) -> list[str]:
        """The pieces this plugin provides besides its rules, by field name."""
        optional = ("heuristic", "rollout", "search", "terminal", "web_adapter", "web_module",
                    "fixtures", "stats", "balance")
        found = [piece for piece in optional if getattr(self, piece) is not None]
        return found + (["environment"] if self.environment is not None else [])

    def load(self, piece: str) -> Any:
        """Import the piece named by field ``piece``; ``None`` if the plugin has none."""
        reference = getattr(self, piece)
        if reference is None:
            return None
        return _import(reference, f"{self.name}.{piece}")

    def load_bot(self, name: str) -> Any:
        """Import the factory of the game's own bot ``name`` (``KeyError`` if it has none)."""
        return _import(self.bots[name], f"{self.name}.bots.{name}")

    def resource(self, reference: str) -> Path:
        """The file or folder named ``"package:relative/path"``."""
        package, _, relative = reference.partition(":")
        if not package or not relative:
            raise PluginError(f"{self.name}: {reference!r} is not 'package:path'")
        return Path(str(files(package).joinpath(relative)))

    def locale_path(self) -> Path:
        """The folder of the game's message catalogs."""
        return self.resource(self.locale)

    def web_module_path(self) -> Path | None:
        """The board module's file, if the game has one."""
        return self.resource(self.web_module) if self.web_module else None

    @property
    def pettingzoo_name(self) -> str | None:
        """``soc_v2``: the module name under :mod:`pendragon.envs`."""
        if self.environment is None:
            return None
        return f"{self.name.replace('-', '_')}_v{self.environment.version}"

    @property
    def gymnasium_id(self) -> str | None:
        """``pendragon/soc-v2``."""
        if self.environment is None:
            return None
        return f"pendragon/{self.name}-v{self.environment.version}"

    @property
    def openspiel_name(self) -> str | None:
        """``python_pendragon_soc``."""
        if self.environment is None:
            return None
        return f"python_pendragon_{self.name.replace('-', '_')}"


def _import(reference: str, what: str) -> Any:
    module_name, _, attribute = reference.partition(":")
    if not module_name or not attribute:
        raise PluginError(f"{what}: {reference!r} is not 'module:attribute'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise PluginError(f"{what}: cannot import {module_name}: {error}") from error
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise PluginError(f"{what}: {module_name} has no {attribute!r}") from None


_SOURCES: Final[dict[str, str]] = {}


def plugin_source(name: str) -> str | None:
    """The distribution (installed package) that published game ``name``.

    >>> plugin_source("soc")
    'pendragon'
    """
    installed_plugins()
    return _SOURCES.get(name)


@cache
def installed_plugins() -> dict[str, GamePlugin]:
    """Every game published in the ``pendragon.games`` entry-point group, by name.

    A broken entry (it does not import, or is not a :class:`GamePlugin` of its own name)
    raises :class:`PluginError` naming it: a half-installed game is an error to fix, not
    something to skip in silence.
    """
    found: dict[str, GamePlugin] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        _SOURCES[point.name] = point.dist.name if point.dist is not None else "?"
        plugin = _import(point.value, f"entry point {point.name!r}")
        if not isinstance(plugin, GamePlugin):
            raise PluginError(f"entry point {point.name!r} is not a GamePlugin")
        if plugin.name != point.name:
            raise PluginError(f"entry point {point.name!r} declares the game {plugin.name!r}")
        found[plugin.name] = plugin
    return dict(sorted(found.items()))


def plugin_for(name: str) -> GamePlugin | None:
    """The plugin of game ``name``, if one is installed."""
    return installed_plugins().get(name)

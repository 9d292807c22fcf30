"""The layout the three bundled games share: one helper that registers such a game.

Each bundled game keeps its pieces at the same places in its package
(``pendragon.games.<package>``, ``<Name>`` its name in CamelCase): the rules'
``<Name>Game`` in ``rules.game``, the rollout bot in ``heuristic``, the fixture loader in
``rules.fixtures``, the terminal drawing in ``terminal`` (``render_<package>``), the web
table's ``<Name>Adapter`` in ``web`` and its board in ``board.js``, the simulator's figures in
``stats`` (``<package>_stats`` and ``BALANCE``). A plugin of another package names every
piece itself (:class:`~pendragon.core.plugins.GamePlugin`).

>>> from pendragon.games.grail_cup.plugin import PLUGIN
>>> PLUGIN.rules
'pendragon.games.grail_cup.rules.game:GrailCupGame'
>>> PLUGIN.terminal
'pendragon.games.grail_cup.terminal:render_grail_cup'
>>> from pendragon.games.soc.plugin import PLUGIN as SOC
>>> from pendragon.games.soc_card.plugin import PLUGIN as CARD
>>> for plugin in (PLUGIN, SOC, CARD):
...     print(plugin.name, plugin.pettingzoo_name, plugin.openspiel_name)
grail-cup grail_cup_v3 python_pendragon_grail_cup
soc soc_v2 python_pendragon_soc
soc-card soc_card_v2 python_pendragon_soc_card
"""

from __future__ import annotations

from collections.abc import Mapping

from pendragon.core.plugins import Environment, GamePlugin

__all__ = ["Environment", "bundled_game"]


def bundled_game(
    name: str,
    *,
    heuristic: str,
    environment: Environment,
    bots: Mapping[str, str] | None = None,
    among_bots: tuple[str, ...] = (),
    table_bot: str = "heuristic",
    search: str | None = None,
) -> GamePlugin:
    """The plugin of the bundled game ``name`` (its package: ``name`` with ``_`` for ``-``);
    the pieces given are relative to its package (``".heuristic:SocHeuristicBot"``)."""
    package = name.replace("-", "_")
    camel = "".join(word.capitalize() for word in package.split("_"))
    return GamePlugin(
        name=name,
        package=f"pendragon.games.{package}",
        rules=f".rules.game:{camel}Game",
        heuristic=heuristic,
        rollout=".heuristic:rollout_bot",
        search=search,
        terminal=f".terminal:render_{package}",
        web_adapter=f".web:{camel}Adapter",
        web_module="board.js",
        environment=environment,
        fixtures=".rules.fixtures:load_state",
        stats=f".stats:{package}_stats",
        balance=".stats:BALANCE",
        bots=bots or {},
        among_bots=among_bots,
        table_bot=table_bot,
    )

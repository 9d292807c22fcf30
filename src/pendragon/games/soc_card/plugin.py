"""The registration of Shadows over Camelot: The Card Game (entry point ``soc-card``).

>>> PLUGIN.name, PLUGIN.pettingzoo_name, PLUGIN.openspiel_name
('soc-card', 'soc_card_v1', 'python_pendragon_soc_card')
"""

from pendragon.core.plugins import Environment, GamePlugin

PLUGIN = GamePlugin(
    name="soc-card",
    package="pendragon.games.soc_card",
    rules=".rules.game:SocCardGame",
    heuristic=".heuristic:SocCardHeuristicBot",
    rollout=".heuristic:rollout_bot",
    # The heuristic with a careful traitor (docs/bots.md, "The stealth traitor"): the
    # heuristic's own traitor fails quests from its first turn, which a person reads at once.
    bots={"stealth": ".heuristic:SocCardStealthBot"},
    table_bot="stealth",
    terminal=".terminal:render_soc_card",
    web_adapter=".web:SocCardAdapter",
    web_module="board.js",
    # Every entry of the observation tensor is a flag or a count scaled into [0, 1].
    environment=Environment(version=1, observation_low=0.0, observation_high=1.0),
    fixtures=".rules.fixtures:load_state",
    stats=".stats:soc_card_stats",
    balance=".stats:BALANCE",
)

"""The registration of Shadows over Camelot: The Card Game (entry point ``soc-card``).

>>> PLUGIN.name, PLUGIN.pettingzoo_name, PLUGIN.openspiel_name
('soc-card', 'soc_card_v1', 'python_pendragon_soc_card')
"""

from pendragon.core.plugins import Environment, GamePlugin

PLUGIN = GamePlugin(
    name="soc-card",
    rules="pendragon.games.soc_card.rules.game:SocCardGame",
    locale="pendragon.games.soc_card:locale",
    heuristic="pendragon.games.soc_card.heuristic:SocCardHeuristicBot",
    rollout="pendragon.games.soc_card.heuristic:rollout_bot",
    # The heuristic with a careful traitor (docs/bots.md, "The stealth traitor"): the
    # heuristic's own traitor fails quests from its first turn, which a person reads at once.
    bots={"stealth": "pendragon.games.soc_card.heuristic:SocCardStealthBot"},
    table_bot="stealth",
    terminal="pendragon.games.soc_card.terminal:render_soc_card",
    web_adapter="pendragon.games.soc_card.web:SocCardAdapter",
    web_module="pendragon.games.soc_card:board.js",
    # Every entry of the observation tensor is a flag or a count scaled into [0, 1].
    environment=Environment(version=1, observation_low=0.0, observation_high=1.0),
    fixtures="pendragon.games.soc_card.rules.fixtures:load_state",
    stats="pendragon.games.soc_card.stats:soc_card_stats",
    balance="pendragon.games.soc_card.stats:BALANCE",
)

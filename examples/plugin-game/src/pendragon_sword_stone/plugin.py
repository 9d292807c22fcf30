"""The registration of The Sword in the Stone (entry point ``pendragon.games: sword-stone``).

>>> PLUGIN.name, PLUGIN.pettingzoo_name, PLUGIN.gymnasium_id
('sword-stone', 'sword_stone_v1', 'pendragon/sword-stone-v1')
"""

from pendragon.core.plugins import Environment, GamePlugin

PLUGIN = GamePlugin(
    name="sword-stone",
    rules="pendragon_sword_stone.rules.game:SwordStoneGame",
    locale="pendragon_sword_stone:locale",
    heuristic="pendragon_sword_stone.heuristic:SwordStoneBot",
    rollout="pendragon_sword_stone.heuristic:rollout_bot",
    terminal="pendragon_sword_stone.terminal:render_sword_stone",
    web_adapter="pendragon_sword_stone.web:SwordStoneAdapter",
    web_module="pendragon_sword_stone:board.js",
    # Every entry of the observation tensor is a flag or a share of a bounded count.
    environment=Environment(version=1, observation_low=0.0, observation_high=1.0),
)

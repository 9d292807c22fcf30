"""The registration of The Sword in the Stone (entry point ``pendragon.games: sword-stone``).

>>> PLUGIN.name, PLUGIN.pettingzoo_name, PLUGIN.gymnasium_id
('sword-stone', 'sword_stone_v1', 'pendragon/sword-stone-v1')
"""

from pendragon.core.plugins import Environment, GamePlugin

PLUGIN = GamePlugin(
    name="sword-stone",
    package="pendragon_sword_stone",
    rules=".rules.game:SwordStoneGame",
    heuristic=".heuristic:SwordStoneBot",
    rollout=".heuristic:rollout_bot",
    terminal=".terminal:render_sword_stone",
    web_adapter=".web:SwordStoneAdapter",
    web_module="board.js",
    # Every entry of the observation tensor is a flag or a share of a bounded count.
    environment=Environment(version=1, observation_low=0.0, observation_high=1.0),
)

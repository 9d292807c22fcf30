"""The registration of Grail Cup (entry point ``pendragon.games: grail-cup``).

>>> PLUGIN.name, PLUGIN.pettingzoo_name, PLUGIN.openspiel_name
('grail-cup', 'grail_cup_v2', 'python_pendragon_grail_cup')
"""

from pendragon.core.plugins import Environment, GamePlugin

PLUGIN = GamePlugin(
    name="grail-cup",
    package="pendragon.games.grail_cup",
    rules=".rules.game:GrailCupGame",
    heuristic=".heuristic:GrailCupBot",
    rollout=".heuristic:rollout_bot",
    # Every entry of observation_tensor is a flag or a value scaled into [0, 1].
    # Version 2: the rules and the tensor's task block changed with issue 28 (.rules.game).
    environment=Environment(version=2, observation_low=0.0, observation_high=1.0),
    fixtures=".rules.fixtures:load_state",
    terminal=".terminal:render_grail_cup",
    web_adapter=".web:GrailCupAdapter",
    web_module="board.js",
    stats=".stats:grail_cup_stats",
    balance=".stats:BALANCE",
)

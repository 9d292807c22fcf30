"""The registration of Grail Cup (entry point ``pendragon.games: grail-cup``)."""

from pendragon.games.bundled import Environment, bundled_game

PLUGIN = bundled_game(
    "grail-cup",
    heuristic=".heuristic:GrailCupBot",
    # Every entry of observation_tensor is a flag or a value scaled into [0, 1].
    # Version 2: the rules and the tensor's task block changed with issue 28 (.rules.game).
    environment=Environment(version=3, observation_low=0.0, observation_high=1.0),
    # ismcts: the search reading the learned evaluator 10 decisions on, measured as strong
    # as the full rollouts in half their time (docs/bots.md, "Search strength").
    search=".heuristic:model_search",
)

"""The registration of Shadows over Camelot: The Card Game (entry point ``soc-card``)."""

from pendragon.games.bundled import Environment, bundled_game

PLUGIN = bundled_game(
    "soc-card",
    heuristic=".heuristic:SocCardHeuristicBot",
    # The heuristic with a careful traitor (docs/bots.md, "The stealth traitor"): the
    # heuristic's own traitor fails quests from its first turn, which a person reads at once.
    bots={"stealth": ".heuristic:SocCardStealthBot"},
    table_bot="stealth",
    # Every entry of the observation tensor is a flag or a count scaled into [0, 1].
    # Version 2: the tensor's last block, ``known`` (rules/view.py).
    environment=Environment(version=2, observation_low=0.0, observation_high=1.0),
)

"""The registration of Shadows over Camelot (entry point ``pendragon.games: soc``)."""

from pendragon.games.bundled import Environment, bundled_game

PLUGIN = bundled_game(
    "soc",
    heuristic=".heuristic:SocHeuristicBot",
    # Observation entries are non-negative flags and scaled counts; the scaling is not a
    # cap (a hand of 15 cards reads 1.25), so no finite upper bound is declared.
    environment=Environment(version=2, observation_low=0.0, observation_high=float("inf")),
    # Loyal, it plays the heuristic; dealt the traitor card, it plays as a loyal knight until
    # its decisive moment (docs/bots.md, "Traitor panel"): the traitor a person cannot read.
    # talking: the search listening to its fellow bots' table talk (SOC-TURN-3), for
    # tables of bots only: a person's words are not machine-readable, and people do not
    # see the bots' (docs/bots.md, "Table talk").
    bots={"stealth": ".traitors:StealthTraitor", "talking": ".talk:TalkingSearch"},
    among_bots=("talking",),
    # At a table of people a bot dealt the traitor card hides (the heuristic's open traitor
    # is the strongest against bots, and read at once by a person).
    table_bot="stealth",
    # ismcts: the search reading the learned evaluator at its rollouts' horizon, with the
    # settings measured best (docs/bots.md, "Search strength").
    search=".heuristic:model_search",
)

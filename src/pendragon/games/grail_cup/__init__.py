"""Grail Cup (Faidutti / Kovalic): a race of knights helped by secretly drafted allies.

The pure rules live in :mod:`pendragon.games.grail_cup.rules`; ``locale/`` holds the
message catalogs and :mod:`pendragon.games.grail_cup.plugin` registers the game.
"""

"""The games: one package of pure rules per game."""

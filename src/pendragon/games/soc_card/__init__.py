"""Shadows over Camelot: The Card Game (registered as ``soc-card``)."""

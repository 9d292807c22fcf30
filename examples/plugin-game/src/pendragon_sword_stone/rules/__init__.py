"""The rules of The Sword in the Stone: pure, importing only ``pendragon.core`` and the
standard library (``game.py`` documents the rules, the action catalog and the views)."""

from pendragon_sword_stone.rules.game import (
    CARDS,
    NAME,
    Card,
    SwordStoneGame,
    SwordStoneState,
)

__all__ = ["CARDS", "NAME", "Card", "SwordStoneGame", "SwordStoneState"]

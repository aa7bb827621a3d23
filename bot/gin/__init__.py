"""Gin Rummy rules engine: pure Python, no I/O, no clock, no global random state."""

from bot.gin.cards import DECK, Card, format_cards, parse_card, parse_cards
from bot.gin.errors import CardError, GinError, IllegalMove, SettingsError

__all__ = [
    "DECK",
    "Card",
    "CardError",
    "GinError",
    "IllegalMove",
    "SettingsError",
    "format_cards",
    "parse_card",
    "parse_cards",
]

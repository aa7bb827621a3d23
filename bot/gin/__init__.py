"""Gin Rummy rules engine: pure Python, no I/O, no clock, no global random state.

The three checkable functions take cards in any text form of the rule book (``10♥``, ``Th``,
``qs``) or as ``Card`` values, and return ints (cards returned print in canonical form):

- ``min_deadwood(cards)``: least deadwood of a hand of up to 10 cards;
- ``best_discard(cards)``: for 11 cards, a discard leaving the least deadwood and that
  deadwood, or ``(None, 0)`` when all 11 cards meld (Big Gin);
- ``lay_off(knocker_melds, defender_cards)``: the defender's least deadwood after choosing
  their own melds and laying off onto the knocker's melds.

``min_deadwood``, ``best_discard``, ``discard_options`` and ``arrange`` also take hands from
several decks (a card up to four times, RULES.md 10.3); ``distinct_suits=True`` asks that a
set's suits all differ. ``lay_off`` and the other knocking functions take one deck only.

The two-player variants (RULES.md 12) are a setting, ``Settings.variant``: Oklahoma's hands
read their ``KnockCard`` (``Hand.knock_card``, ``HandResult.knock_card``); a Hollywood match
holds its three ``HollywoodGame`` (``Match.games``), each ending with a ``GameResult``.
"""

from bot.gin.cards import DECK, Card, format_cards, parse_card, parse_cards
from bot.gin.errors import (
    CardError,
    GinError,
    IllegalMove,
    KnockLimitError,
    SettingsError,
    VariantNotAllowed,
)
from bot.gin.hand import Action, ActionKind, Hand, HandResult, KnockCard, Outcome, Phase
from bot.gin.hollywood import GameResult, HollywoodGame
from bot.gin.match import EndReason, HandScore, Match, MatchResult, Player
from bot.gin.melds import (
    Arrangement,
    arrange,
    best_discard,
    best_lay_off,
    discard_options,
    lay_off,
    min_deadwood,
)
from bot.gin.settings import (
    USUAL_TARGETS,
    VARIANT_TARGET,
    NextDealer,
    OklahomaAce,
    Settings,
    Variant,
)

__all__ = [
    "DECK",
    "USUAL_TARGETS",
    "VARIANT_TARGET",
    "Action",
    "ActionKind",
    "Arrangement",
    "Card",
    "CardError",
    "EndReason",
    "GameResult",
    "GinError",
    "Hand",
    "HandResult",
    "HandScore",
    "HollywoodGame",
    "IllegalMove",
    "KnockCard",
    "KnockLimitError",
    "Match",
    "MatchResult",
    "NextDealer",
    "OklahomaAce",
    "Outcome",
    "Phase",
    "Player",
    "Settings",
    "SettingsError",
    "Variant",
    "VariantNotAllowed",
    "arrange",
    "best_discard",
    "best_lay_off",
    "discard_options",
    "format_cards",
    "lay_off",
    "min_deadwood",
    "parse_card",
    "parse_cards",
]

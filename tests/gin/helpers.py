"""Building hands in a chosen position, for rule tests."""

from __future__ import annotations

from bot.gin.cards import DECK, Card, parse_cards
from bot.gin.hand import Hand, Phase
from bot.gin.settings import Settings

NAMES = ("Alice", "Bob")


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def position(
    alice: str,
    bob: str,
    *,
    discard_pile: str = "",
    stock: str | None = None,
    stock_size: int | None = None,
    phase: Phase = Phase.DRAW,
    turn: int = 0,
    dealer: int = 1,
    settings: Settings | None = None,
    taken_from_discard: str | None = None,
) -> Hand:
    """A hand with Alice (seat 0) and Bob (seat 1) holding the given cards.

    The stock is the given cards (top last) or, by default, the remaining cards of the deck
    (cut to ``stock_size`` when given), so every card of the deck is somewhere at most once.
    """
    hands = {0: cards(alice), 1: cards(bob)}
    pile = cards(discard_pile)
    used = set(hands[0]) | set(hands[1]) | set(pile)
    assert len(used) == len(hands[0]) + len(hands[1]) + len(pile), "a card is used twice"
    if stock is None:
        rest = [c for c in DECK if c not in used]
        stock_cards = rest if stock_size is None else rest[:stock_size]
    else:
        stock_cards = cards(stock)
        assert not set(stock_cards) & used, "a stock card is also elsewhere"
    seats = (1 - dealer, dealer)
    taken = None if taken_from_discard is None else cards(taken_from_discard)[0]
    return Hand(
        seats=seats,
        dealer=dealer,
        names=NAMES,
        settings=settings or Settings(),
        seed="test",
        hands=hands,
        stock=stock_cards,
        discard_pile=pile,
        phase=phase,
        turn=turn,
        taken_from_discard=taken,
        first_upcard=pile[-1] if pile else None,
    )

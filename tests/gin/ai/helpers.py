"""Playing AI hands for tests, and rearranging what a seat cannot see."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from bot.gin.ai import Level, decide, view_for
from bot.gin.cards import DECK
from bot.gin.hand import Hand
from bot.gin.settings import Settings

NAMES = ("Alice", "Bob")
MAX_HAND_MOVES = 2 * (32 + 2 * 52) + 2


def all_cards(hand: Hand) -> list[int]:
    cards = [int(c) for s in hand.seats for c in hand.hands[s]]
    cards += [int(c) for c in hand.discard_pile] + [int(c) for c in hand.stock]
    if hand.result is not None and hand.result.knock_discard is not None:
        cards.append(int(hand.result.knock_discard))
    return sorted(cards)


def play_hand(
    seed: str,
    levels: tuple[Level, Level],
    rng: random.Random,
    settings: Settings | None = None,
    on_decision: Callable[[Hand, int], None] | None = None,
) -> Hand:
    """One hand between two levels; every move is checked legal and every card kept."""
    hand = Hand.deal((0, 1), 1, NAMES, settings or Settings(), seed)
    while not hand.is_over:
        seat = hand.turn
        if on_decision is not None:
            on_decision(hand, seat)
        action = decide(view_for(hand, seat), levels[seat], rng)
        assert action in hand.legal_actions(seat), (action, str(hand))
        hand.apply(action)
        assert all_cards(hand) == list(range(len(DECK)))
        # No card is taken from the pile twice by one player, so a hand cannot go round forever.
        assert len(hand.actions) <= MAX_HAND_MOVES
    return hand


def scramble(hand: Hand, seat: int, rng: random.Random) -> Hand:
    """The same hand with the opponent's unnamed cards and the stock dealt anew among them."""
    opponent = next(s for s in hand.seats if s != seat)
    known = view_for(hand, seat).opponent_known
    kept = [c for c in hand.hands[opponent] if c in known]
    hidden = [c for c in hand.hands[opponent] if c not in known]
    pool = hidden + list(hand.stock)
    rng.shuffle(pool)
    hands = {seat: list(hand.hands[seat]), opponent: kept + pool[: len(hidden)]}
    return dataclasses.replace(
        hand,
        hands=hands,
        stock=pool[len(hidden) :],
        discard_pile=list(hand.discard_pile),
        actions=list(hand.actions),
        passed=list(hand.passed),
    )

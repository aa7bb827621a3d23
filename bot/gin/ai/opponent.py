"""What the opponent probably holds, from the public history alone.

Every unseen card is either in the stock or hidden in the opponent's hand. A card near one the
opponent took from the pile is more likely to be in their hand (they took it to meld); a card
near one they discarded or left on the pile is less likely (they would have kept a pair). The
probabilities are scaled so that they add up to the number of hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.gin.ai.cardmath import NEAR, PAIRS, cards_in, melds_with
from bot.gin.ai.view import PlayerView
from bot.gin.melds import best_discard

TOOK_NEAR = 2.0
DISCARDED_NEAR = 0.6
DECLINED_NEAR = 0.8
CAP = 0.95


def hold_probabilities(view: PlayerView) -> list[float]:
    """For each card 0-51, the chance the opponent holds it now."""
    hold = [0.0] * 52
    for card in view.opponent_known:
        hold[card] = 1.0
    unseen = [int(c) for c in view.unseen]
    hidden = view.opponent_hidden
    if not unseen or hidden <= 0:
        return hold
    factor = [1.0] * 52
    for card in view.opponent_discards:
        for near in cards_in(NEAR[card]):
            factor[near] *= DISCARDED_NEAR
    for card in view.opponent_declined:
        for near in cards_in(NEAR[card]):
            factor[near] *= DECLINED_NEAR
    for card in view.opponent_known:
        for near in cards_in(NEAR[card]):
            factor[near] *= TOOK_NEAR
    total = sum(factor[c] for c in unseen)
    scale = hidden / total
    for c in unseen:
        hold[c] = min(CAP, factor[c] * scale)
    return hold


def meld_chance(card: int, hold: Sequence[float]) -> float:
    """The chance the opponent holds two cards that meld with ``card`` (pairs independent)."""
    miss = 1.0
    for a, b in PAIRS[card]:
        miss *= 1.0 - hold[a] * hold[b]
    return 1.0 - miss


def sample_hidden(
    unseen: Sequence[int], weights: Sequence[float], count: int, rng: random.Random
) -> list[int]:
    """``count`` distinct unseen cards, each drawn in proportion to its weight."""
    if count >= len(unseen):
        return list(unseen)
    # Weighted sampling without replacement: the cards with the largest u ** (1 / w).
    keyed = sorted(
        unseen, key=lambda c: rng.random() ** (1.0 / max(weights[c], 1e-6)), reverse=True
    )
    return keyed[:count]


def sample_opponent_hands(
    view: PlayerView, hold: Sequence[float], samples: int, rng: random.Random, refine: int
) -> list[list[int]]:
    """Possible ten-card hands of the opponent that fit the public history.

    ``refine`` extra unseen cards are dealt to each sampled hand and its worst cards thrown
    away, since a player who has drawn for a while keeps their best cards, not random ones.
    """
    known = [int(c) for c in view.opponent_known]
    unseen = [int(c) for c in view.unseen]
    hidden = view.opponent_hidden
    out = []
    for _ in range(samples):
        drawn = sample_hidden(unseen, hold, min(len(unseen), hidden + refine), rng)
        cards = known + drawn[:hidden]
        for extra in drawn[hidden:]:
            cards.append(extra)
            throw, _ = best_discard(cards)
            # All eleven melding would be Big Gin; drop the new card to keep ten.
            cards.remove(extra if throw is None else int(throw))
        out.append(cards)
    return out


def feeds(card: int, hands: Sequence[Sequence[int]]) -> float:
    """The share of sampled hands that ``card`` would give a meld."""
    if not hands:
        return 0.0
    hits = 0
    for cards in hands:
        mask = 0
        for c in cards:
            mask |= 1 << c
        if melds_with(card, mask):
            hits += 1
    return hits / len(hands)

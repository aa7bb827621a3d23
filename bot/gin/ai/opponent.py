"""What the opponent probably holds, from the public history alone.

Every unseen card is either in the stock or hidden in the opponent's hand. A card near one the
opponent took from the pile is more likely to be in their hand (they took it to meld); a card
near one they discarded or left on the pile is less likely (they would have kept a pair). The
probabilities are scaled so that they add up to the number of hidden cards.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence

from bot.gin.ai.cardmath import NEAR, PAIRS, cards_in, completions, melds_with
from bot.gin.ai.view import PlayerView
from bot.gin.melds import best_discard, min_deadwood

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


class HiddenSampler:
    """Draws distinct unseen cards, each in proportion to its weight."""

    def __init__(self, unseen: Sequence[int], weights: Sequence[float]) -> None:
        self.unseen = list(unseen)
        self.cumulative = []
        running = 0.0
        for c in self.unseen:
            running += max(weights[c], 1e-6)
            self.cumulative.append(running)
        self.total = running

    def draw(self, count: int, rng: random.Random) -> list[int]:
        unseen = self.unseen
        if count >= len(unseen):
            return list(unseen)
        cumulative = self.cumulative
        total = self.total
        pick = rng.random
        last = len(unseen) - 1
        chosen: list[int] = []
        taken = 0
        while len(chosen) < count:
            # Drawing again on a repeat is the same as drawing from the cards not yet taken.
            c = unseen[min(last, bisect_right(cumulative, pick() * total))]
            if not taken >> c & 1:
                taken |= 1 << c
                chosen.append(c)
        return chosen


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
    sampler = HiddenSampler(unseen, hold)
    out = []
    for _ in range(samples):
        drawn = sampler.draw(min(len(unseen), hidden + refine), rng)
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


DECLINED_MELD = 0.25
DISCARDED_MELD = 0.4
TOOK_ALONE = 0.4
COULD_KNOCK = 0.3


def consistency(cards: Sequence[int], view: PlayerView) -> float:
    """How well a possible opponent hand fits what the opponent did, as a weight in (0, 1].

    A player rarely leaves on the pile, or throws away, a card that makes a meld with two cards
    they hold, rarely takes a card from the pile that melds with nothing they hold, and
    seldom passes up a knock.
    """
    mask = 0
    for c in cards:
        mask |= 1 << c
    wanted = completions(mask)
    weight = 1.0
    for card in view.opponent_declined:
        if wanted >> card & 1:
            weight *= DECLINED_MELD
    for card in view.opponent_discards:
        if wanted >> card & 1:
            weight *= DISCARDED_MELD
    for card in view.opponent_known:
        if not melds_with(card, mask & ~(1 << card)):
            weight *= TOOK_ALONE
    if view.opponent_draws and min_deadwood(cards) <= view.knock_limit:
        weight *= COULD_KNOCK
    return weight

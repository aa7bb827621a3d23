"""A slow, obviously correct solver for hands from several decks, to check bot.gin.multiset.

Brute force over explicit multisets (sorted tuples of card numbers): list every meld the hand
holds, then walk every way of taking disjoint melds out of it, card by card. The only help is
remembering the answer for a multiset already walked. No tables, no bit tricks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from bot.gin.cards import card_value

Hand = tuple[int, ...]  # sorted card numbers, a card repeated once per copy


def is_meld(cards: Sequence[int], distinct_suits: bool) -> bool:
    """A set (3+ of a rank; suits all different if asked) or a run (3+ of a suit in a row)."""
    if len(cards) < 3:
        return False
    ranks = [c % 13 for c in cards]
    suits = [c // 13 for c in cards]
    if len(set(ranks)) == 1:
        return not distinct_suits or len(set(suits)) == len(suits)
    if len(set(suits)) != 1:
        return False
    ordered = sorted(ranks)
    return all(ordered[i + 1] == ordered[i] + 1 for i in range(len(ordered) - 1))


def candidate_melds(hand: Hand, distinct_suits: bool) -> list[Hand]:
    """Every meld that can be taken out of the hand, each as a sorted tuple, once."""
    found: set[Hand] = set()
    for rank in range(13):
        same = [c for c in hand if c % 13 == rank]
        for size in range(3, len(same) + 1):
            for group in combinations(same, size):  # repeats come out several times: a set
                if is_meld(group, distinct_suits):
                    found.add(tuple(sorted(group)))
    present = set(hand)
    for suit in range(4):
        for low in range(13):
            for high in range(low + 2, 13):
                run = tuple(suit * 13 + r for r in range(low, high + 1))
                if present.issuperset(run):
                    found.add(run)
    return sorted(found)


def _take(hand: Hand, meld: Hand) -> Hand | None:
    """The hand without the meld's cards, or None when the hand does not hold them all."""
    left = Counter(hand)
    left.subtract(meld)
    if min(left.values()) < 0:
        return None
    return tuple(sorted(left.elements()))


def min_deadwood(cards: Iterable[int], distinct_suits: bool = False) -> int:
    """Least deadwood: the lowest card is either dead or in one of the melds that hold it."""
    hand: Hand = tuple(sorted(cards))
    melds = candidate_melds(hand, distinct_suits)
    memo: dict[Hand, int] = {}

    def walk(left: Hand) -> int:
        if not left:
            return 0
        if left in memo:
            return memo[left]
        card = left[0]
        best = card_value(card) + walk(left[1:])
        for meld in melds:
            if card in meld:
                rest = _take(left, meld)
                if rest is not None:
                    best = min(best, walk(rest))
        memo[left] = best
        return best

    return walk(hand)


def discard_options(cards: Iterable[int], distinct_suits: bool = False) -> dict[int, int]:
    """For each different card, the least deadwood after throwing one copy of it."""
    hand = sorted(cards)
    out = {}
    for card in sorted(set(hand)):
        rest = list(hand)
        rest.remove(card)
        out[card] = min_deadwood(rest, distinct_suits)
    return out


def pick_discard(options: dict[int, int], whole: int) -> tuple[int | None, int]:
    """The best discard from ``discard_options`` and the hand's own least deadwood: (None, 0)
    when every card melds; ties go to the highest value, then the highest card number."""
    if whole == 0:
        return None, 0
    best = min(options.values())
    pick = max((c for c, dw in options.items() if dw == best), key=lambda c: (card_value(c), c))
    return pick, best


def best_discard(cards: Iterable[int], distinct_suits: bool = False) -> tuple[int | None, int]:
    hand = list(cards)
    return pick_discard(discard_options(hand, distinct_suits), min_deadwood(hand, distinct_suits))

"""A slow, obviously correct meld solver, used only to check bot.gin.melds.

Everything here is brute force over explicit card sets: list every meld the hand holds, walk
every way of splitting the hand into disjoint melds plus deadwood, and for lay-offs play every
legal sequence of single cards onto the knocker's melds. No tables, no bit tricks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from bot.gin.cards import card_value, parse_card

Meld = frozenset[int]


def to_ints(cards: Iterable[str | int]) -> list[int]:
    return [int(parse_card(c)) for c in cards]


def is_meld(cards: Iterable[int]) -> bool:
    group = sorted(set(cards))
    if len(group) < 3:
        return False
    ranks = [c % 13 for c in group]
    suits = [c // 13 for c in group]
    if len(group) <= 4 and len(set(ranks)) == 1:
        return True
    if len(set(suits)) != 1:
        return False
    return all(ranks[i + 1] == ranks[i] + 1 for i in range(len(ranks) - 1))


def candidate_melds(cards: Iterable[int]) -> list[Meld]:
    """Every set (3 or 4 of a rank) and every run (3+ in a row, one suit) inside the cards."""
    hand = set(cards)
    melds: list[Meld] = []
    for rank in range(13):
        same = sorted(c for c in hand if c % 13 == rank)
        for size in (3, 4):
            for group in combinations(same, size):
                melds.append(frozenset(group))
    for suit in range(4):
        for low in range(13):
            for high in range(low + 2, 13):
                run = frozenset(suit * 13 + r for r in range(low, high + 1))
                if run <= hand:
                    melds.append(run)
    return melds


def arrangements(cards: Iterable[int]) -> list[tuple[list[Meld], list[int]]]:
    """Every split of the cards into disjoint melds plus deadwood, each exactly once."""
    hand = frozenset(cards)
    melds = candidate_melds(hand)
    found: list[tuple[list[Meld], list[int]]] = []

    def walk(left: frozenset[int], chosen: list[Meld], dead: list[int]) -> None:
        if not left:
            found.append((list(chosen), list(dead)))
            return
        card = min(left)
        walk(left - {card}, chosen, [*dead, card])
        for meld in melds:
            if card in meld and meld <= left:
                walk(left - meld, [*chosen, meld], dead)

    walk(hand, [], [])
    return found


def value(cards: Iterable[int]) -> int:
    return sum(card_value(c) for c in cards)


def min_deadwood(cards: Iterable[str | int]) -> int:
    return min(value(dead) for _, dead in arrangements(to_ints(cards)))


def min_meld_sets(cards: Iterable[str | int]) -> set[frozenset[Meld]]:
    """The meld choices of every arrangement with the least deadwood."""
    found = arrangements(to_ints(cards))
    best = min(value(dead) for _, dead in found)
    return {frozenset(melds) for melds, dead in found if value(dead) == best}


def best_discard(cards: Iterable[str | int]) -> tuple[int | None, int]:
    """Discard each card in turn; Big Gin (every card melds) gives (None, 0).

    Ties: the highest-value card, then the highest card number.
    """
    hand = to_ints(cards)
    if min_deadwood(hand) == 0:
        return None, 0
    options = discard_options(hand)
    best = min(options.values())
    pick = max((c for c, dw in options.items() if dw == best), key=lambda c: (card_value(c), c))
    return pick, best


def discard_options(cards: Iterable[str | int]) -> dict[int, int]:
    hand = to_ints(cards)
    return {c: min_deadwood([d for d in hand if d != c]) for c in hand}


def most_laid_off(knocker_melds: Sequence[Iterable[int]], cards: Iterable[int]) -> int:
    """The greatest total value of cards that can be laid off, one legal card at a time."""
    start = tuple(frozenset(m) for m in knocker_melds)
    memo: dict[tuple[tuple[frozenset[int], ...], frozenset[int]], int] = {}

    def play(table: tuple[frozenset[int], ...], left: frozenset[int]) -> int:
        key = (table, left)
        if key in memo:
            return memo[key]
        best = 0
        for card in left:
            for i, meld in enumerate(table):
                if is_meld(meld | {card}):
                    grown = (*table[:i], meld | {card}, *table[i + 1 :])
                    best = max(best, card_value(card) + play(grown, left - {card}))
        memo[key] = best
        return best

    return play(start, frozenset(cards))


def lay_off(knocker_melds: Sequence[Iterable[str | int]], defender: Iterable[str | int]) -> int:
    """The defender's least deadwood: own melds chosen together with lay-offs."""
    knocker = [to_ints(m) for m in knocker_melds]
    best = None
    for _, dead in arrangements(to_ints(defender)):
        left = value(dead) - most_laid_off(knocker, dead)
        if best is None or left < best:
            best = left
    assert best is not None
    return best

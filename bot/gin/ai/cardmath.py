"""Card masks and the small facts about melds the strategies ask over and over.

A set of cards is a 52-bit int (bit ``suit * 13 + rank``, as in ``bot.gin.melds``), so the
questions "does this card meld with these two?" and "is this card near my hand?" are a few bit
operations instead of solver calls.
"""

from __future__ import annotations

from collections.abc import Iterable

SUIT_BITS = 0x1FFF


def _near(card: int) -> int:
    suit, rank = divmod(card, 13)
    mask = 0
    for other in range(4):
        if other != suit:
            mask |= 1 << (other * 13 + rank)
    for step in (-2, -1, 1, 2):
        if 0 <= rank + step < 13:
            mask |= 1 << (suit * 13 + rank + step)
    return mask


NEAR: tuple[int, ...] = tuple(_near(c) for c in range(52))
"""For each card, the cards that can sit in a three-card meld with it."""

RANK_MASK: tuple[int, ...] = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))

VALUE: tuple[int, ...] = tuple(min(c % 13 + 1, 10) for c in range(52))


def _partner_pairs(card: int) -> tuple[tuple[int, int], ...]:
    suit, rank = divmod(card, 13)
    others = [s * 13 + rank for s in range(4) if s != suit]
    pairs = [(others[0], others[1]), (others[0], others[2]), (others[1], others[2])]
    base = suit * 13
    for low, high in ((-2, -1), (-1, 1), (1, 2)):
        if rank + low >= 0 and rank + high < 13:
            pairs.append((base + rank + low, base + rank + high))
    return tuple(pairs)


PAIRS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_partner_pairs(c) for c in range(52))
"""For each card, every pair of other cards that makes a three-card meld with it."""


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_in(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def melds_with(card: int, mask: int) -> bool:
    """Whether ``card`` makes a meld with two cards of ``mask`` (a set, or a run through it)."""
    return any(mask >> a & 1 and mask >> b & 1 for a, b in PAIRS[card])


def near_mask(cards: Iterable[int]) -> int:
    """Every card that could join a meld with one of ``cards``."""
    mask = 0
    for c in cards:
        mask |= NEAR[c]
    return mask


def completions(mask: int) -> int:
    """Every card that makes a three-card meld with two cards of ``mask``.

    Computed with a few shifts per suit, so asking about many cards against one hand costs one
    call and then a bit test each.
    """
    suits = [mask >> (13 * s) & SUIT_BITS for s in range(4)]
    out = 0
    for s, m in enumerate(suits):
        adjacent = m & (m >> 1)  # bit r: ranks r and r + 1 held
        gapped = m & (m >> 2)  # bit r: ranks r and r + 2 held
        run = (adjacent >> 1) | (adjacent << 2) | (gapped << 1)
        out |= (run & SUIT_BITS) << (13 * s)
    a, b, c, d = suits
    pairs = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    return out | pairs | pairs << 13 | pairs << 26 | pairs << 39

"""The distance from gin agrees with a plain search over every meld, and the quick outs with
asking the distance after each card."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from bot.gin.ai.ginmath import MAX_MISSING, ONE, GinMath, pack
from bot.gin.cards import DECK, parse_cards


def targets(hand: Counter[int], live: list[int], distinct: bool) -> list[tuple[Counter[int], int]]:
    """Every meld the hand could still grow into: (its cards held, its size)."""
    out: list[tuple[Counter[int], int]] = []
    for suit in range(4):
        for low in range(13):
            for size in range(3, 11):
                if low + size > 13:
                    break
                run = [13 * suit + r for r in range(low, low + size)]
                if any(not hand[c] and live[c] <= 0 for c in run):
                    continue
                out.append((Counter(c for c in run if hand[c]), size))
    for rank in range(13):
        suits = [13 * s + rank for s in range(4)]
        held_copies = sum(hand[c] for c in suits)
        most = 4 if distinct else min(10, held_copies + MAX_MISSING)
        for size in range(3, most + 1):
            pick = itertools.combinations if distinct else itertools.combinations_with_replacement
            for meld in map(Counter, pick(suits, size)):
                held = Counter({c: min(n, hand[c]) for c, n in meld.items() if hand[c]})
                missing = meld - held
                if distinct:
                    ok = all(live[c] >= n for c, n in missing.items())
                else:
                    ok = sum(missing.values()) <= sum(live[c] for c in suits)
                if ok:
                    out.append((held, size))
    return out


def brute_cover(cards: list[int], live: list[int], distinct: bool) -> int:
    """At most three disjoint melds to be, ten cards in all, as many held cards as can be;
    groups of one card (or missing too many) count as the lone cards ``GinMath`` assumes."""
    hand = Counter(cards)
    groups = [
        (held, size)
        for held, size in targets(hand, live, distinct)
        if sum(held.values()) >= 2 and size - sum(held.values()) <= MAX_MISSING
    ]
    n = len(cards)

    def fits(used: Counter[int]) -> bool:
        return all(used[c] <= hand[c] for c in used)

    def fill(k: int, size: int, covered: int) -> int:
        return covered + min(3 - k, (10 - size) // 3, n - covered)

    best = min(3, n)
    for i, (hi, si) in enumerate(groups):
        ci = sum(hi.values())
        best = max(best, fill(1, si, ci))
        for j in range(i + 1, len(groups)):
            hj, sj = groups[j]
            uij = hi + hj
            if si + sj > 10 or not fits(uij):
                continue
            cij = sum(uij.values())
            best = max(best, fill(2, si + sj, cij))
            for k in range(j + 1, len(groups)):
                hk, sk = groups[k]
                if si + sj + sk <= 10 and fits(uij + hk):
                    best = max(best, cij + sum(hk.values()))
    return best


def test_cover_matches_a_plain_search() -> None:
    rng = random.Random(7)
    for _ in range(80):
        decks = rng.choice([1, 2, 3])
        distinct = rng.random() < 0.5
        top = rng.randint(5, 13)  # a narrow deck makes hands full of melds
        pool = [int(c) for c in DECK * decks if c % 13 < top]
        rng.shuffle(pool)
        cards = pool[: rng.choice([10, 11])]
        live = [decks] * 52
        for c in cards:
            live[c] -= 1
        for c in rng.sample(range(52), 10):
            live[c] = 0
        math = GinMath(live, distinct)
        assert math.cover(pack(cards), len(cards)) == brute_cover(cards, live, distinct), cards


def test_quick_outs_are_the_cards_that_shorten_the_hand() -> None:
    rng = random.Random(3)
    for _ in range(150):
        decks = rng.choice([1, 2, 4])
        cards = [int(c) for c in rng.sample(DECK * decks, 10)]
        live = [decks] * 52
        for c in cards:
            live[c] -= 1
        for c in rng.sample(range(52), 8):
            live[c] = 0
        distinct = rng.random() < 0.5
        packed = pack(cards)
        distance, weight, found = GinMath(live, distinct).outs(packed, range(52))
        plain = GinMath(live, distinct)
        base = plain.cover(packed, 10)
        assert distance == 10 - base
        shorter = [c for c in range(52) if live[c] > 0 and plain.cover(packed + ONE[c], 11) > base]
        assert found == shorter and weight == sum(live[c] for c in shorter)


def test_a_dead_card_cuts_a_meld_to_be() -> None:
    cards = [
        int(c) for c in parse_cards(["5♥", "7♥", "2♠", "2♦", "9♣", "J♣", "K♠", "4♦", "6♣", "Q♥"])
    ]
    live = [1] * 52
    for c in cards:
        live[c] = 0
    math = GinMath(live, False)
    _, _, found = math.outs(pack(cards), range(52))
    six = int(parse_cards(["6♥"])[0])
    assert six in found
    live[six] = 0  # every 6♥ seen: 5♥ 7♥ can no longer become a run
    _, _, found = GinMath(live, False).outs(pack(cards), range(52))
    assert six not in found

"""The mask solver agrees with the engine's solver on every question it answers."""

from __future__ import annotations

import random

from bot.gin import melds
from bot.gin.ai import handmath as hm


def _hands(count: int, size: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), size) for _ in range(count)]


def test_deadwood_matches_the_engine() -> None:
    for size in (3, 7, 10, 11, 13):
        for cards in _hands(800, size, size):
            assert hm.deadwood(hm.mask_of(cards)) == melds.min_deadwood(cards), cards


def test_discards_match_the_engine() -> None:
    for cards in _hands(2000, 11, 1):
        mask = hm.mask_of(cards)
        left, card = hm.best_discard(mask)
        assert left == melds.best_discard(cards)[1], cards
        assert hm.deadwood(mask & ~(1 << card)) == left
        options = {int(c): v for c, v in melds.discard_options(cards).items()}
        assert hm.discard_deadwoods(mask) == options, cards


def test_a_fully_melded_hand_throws_a_card_that_keeps_gin() -> None:
    # Four kings, four queens, A-2-3 of spades: only a king or a queen keeps gin.
    cards = [12, 25, 38, 51, 11, 24, 37, 50, 0, 1, 2]
    left, card = hm.best_discard(hm.mask_of(cards))
    assert left == 0
    assert card % 13 in (11, 12)


def test_lay_offs_match_the_engine() -> None:
    rng = random.Random(5)
    for _ in range(1500):
        deck = rng.sample(range(52), 20)
        knocker, defender = deck[:10], deck[10:]
        arrangement = melds.arrange(knocker)
        runs = sets = 0
        for meld in arrangement.melds:
            if melds.is_run(meld):
                runs |= hm.mask_of(meld)
            else:
                sets |= hm.mask_of(meld)
        _, my_runs, my_sets = hm.meld_cards(hm.mask_of(knocker))
        expected = melds.lay_off(arrangement.melds, defender)
        assert hm.defender_deadwood(hm.mask_of(defender), runs, sets) == expected
        if (my_runs, my_sets) == (runs, sets):
            continue
        # Another least-deadwood arrangement: the same deadwood, whatever the lay-offs.
        assert hm.deadwood(hm.mask_of(knocker) & ~(my_runs | my_sets)) == melds.min_deadwood(
            knocker
        )


def test_completions_are_the_cards_that_make_a_meld() -> None:
    rng = random.Random(2)
    for _ in range(300):
        cards = rng.sample(range(52), rng.randrange(2, 12))
        wanted = hm.completions(hm.mask_of(cards))
        for card in range(52):
            if card in cards:
                continue
            direct = any(
                melds.is_meld([card, a, b]) for i, a in enumerate(cards) for b in cards[i + 1 :]
            )
            assert bool(wanted >> card & 1) == direct

"""The bit tricks agree with the plain definitions."""

from __future__ import annotations

import random

from bot.gin.ai.cardmath import completions, melds_with
from bot.gin.melds import is_meld


def test_completions_match_melds_with_and_the_solver() -> None:
    rng = random.Random(4)
    for _ in range(600):
        cards = rng.sample(range(52), rng.randrange(0, 14))
        mask = sum(1 << c for c in cards)
        wanted = completions(mask)
        for card in range(52):
            if mask >> card & 1:
                continue
            direct = any(is_meld([card, a, b]) for i, a in enumerate(cards) for b in cards[i + 1 :])
            assert bool(wanted >> card & 1) == melds_with(card, mask) == direct

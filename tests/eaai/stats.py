"""The figures a benchmark of mirrored pairs reports: win share, its interval, a sign test.

The two games of a pair share their deals, so they are not independent: the interval treats
each pair as one observation (its share of the two games: 0, 1/2 or 1). The sign test counts
only pairs one side swept 2-0, and asks how likely so lopsided a split of them would be if
both sides were equally strong (exact, two-sided).
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share of independent trials."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def pair_interval(pair_wins: Sequence[int], z: float = 1.96) -> tuple[float, float, float]:
    """(share, low, high) of games won, from each pair's wins (0, 1 or 2), pairs as clusters."""
    n = len(pair_wins)
    if n == 0:
        return 0.0, 0.0, 1.0
    shares = [w / 2 for w in pair_wins]
    mean = sum(shares) / n
    if n == 1:
        return mean, 0.0, 1.0
    variance = sum((s - mean) ** 2 for s in shares) / (n - 1)
    half = z * math.sqrt(variance / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def sign_test(sweeps: int, swept: int) -> float:
    """Exact two-sided sign test: ``sweeps`` pairs won 2-0 against ``swept`` lost 0-2."""
    n = sweeps + swept
    if n == 0:
        return 1.0
    k = min(sweeps, swept)
    tail: int = sum(math.comb(n, i) for i in range(k + 1))
    return min(1.0, 2 * tail / (1 << n))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of already sorted values."""
    if not values:
        return 0.0
    index = min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))
    return values[index]

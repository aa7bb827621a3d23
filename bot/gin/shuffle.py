"""Shuffling: secure by default, reproducible from a seed for tests and replays.

A hand's seed is 128 bits from the operating system's secure source unless one is given. The
deck order is derived from the seed with SHA-256 in counter mode, so the order is unpredictable
without the seed, every one of the 52! orders is reachable, and a stored seed replays the deal.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def new_seed() -> str:
    """A fresh seed from the operating system's secure random source."""
    return secrets.token_hex(16)


def derive_seed(seed: str, label: str) -> str:
    """A seed for one part of a seeded match (a hand, the cut), independent of the others."""
    return hashlib.sha256(f"{seed}/{label}".encode()).hexdigest()[:32]


class SeededStream:
    """Unbiased random integers from a seed (SHA-256 in counter mode)."""

    def __init__(self, seed: str) -> None:
        self._seed = seed.encode()
        self._counter = 0
        self._pool = 0
        self._bits = 0

    def _refill(self) -> None:
        block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._pool = (self._pool << 256) | int.from_bytes(block, "big")
        self._bits += 256

    def _take(self, bits: int) -> int:
        while self._bits < bits:
            self._refill()
        self._bits -= bits
        value = self._pool >> self._bits
        self._pool &= (1 << self._bits) - 1
        return value

    def below(self, n: int) -> int:
        """An integer in [0, n), by rejection sampling so every value is equally likely."""
        bits = max(1, (n - 1).bit_length())
        while True:
            value = self._take(bits)
            if value < n:
                return value


def shuffled(items: Sequence[T], seed: str) -> list[T]:
    """A Fisher-Yates shuffle of items driven by the seed."""
    stream = SeededStream(seed)
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = stream.below(i + 1)
        result[i], result[j] = result[j], result[i]
    return result

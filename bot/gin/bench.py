"""Timing of the meld solver: ``python -m bot.gin.bench [--hands N] [--seed S]``.

Hands come from a fixed seed, so every run times the same hands. Two kinds:

- random: cards drawn at random from the deck;
- meld-rich: two or three random melds (sets or runs of 3 to 5 cards, not overlapping), then
  random cards up to the size needed.

For ``lay_off`` the knocker's melds come from a real knocking hand (a meld-rich hand of ten cards
with deadwood of 10 or less, arranged by ``arrange``) and the defender holds ten of the other
cards, random or meld-rich.

Each hand is timed as the fastest of a few back-to-back calls (``time.perf_counter_ns``); nothing
is remembered between calls, so every call does the whole search. The table shows the median,
the 99th percentile and the slowest hand, against the targets.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.gin.cards import Card
from bot.gin.melds import (
    arrange,
    best_discard,
    discard_options,
    lay_off,
    min_deadwood,
)

P99_TARGET_US = 250.0
MAX_TARGET_US = 1000.0


def random_hand(rng: random.Random, size: int, exclude: Sequence[int] = ()) -> list[int]:
    """``size`` distinct random cards, none of them in ``exclude``."""
    banned = set(exclude)
    return rng.sample([c for c in range(52) if c not in banned], size)


def random_meld(rng: random.Random, used: set[int]) -> list[int]:
    """A random set or run of 3 to 5 cards that shares no card with ``used``."""
    while True:
        if rng.random() < 0.5:
            rank = rng.randrange(13)
            suits = rng.sample(range(4), rng.choice((3, 4)))
            cards = [s * 13 + rank for s in suits]
        else:
            suit = rng.randrange(4)
            length = rng.choice((3, 4, 5))
            low = rng.randrange(14 - length)
            cards = [suit * 13 + r for r in range(low, low + length)]
        if not used.intersection(cards):
            return cards


def meld_rich_hand(rng: random.Random, size: int, exclude: Sequence[int] = ()) -> list[int]:
    """Two or three random melds that fit in ``size`` cards, then random filler."""
    while True:
        used = set(exclude)
        hand: list[int] = []
        for _ in range(rng.choice((2, 3))):
            meld = random_meld(rng, used)
            used.update(meld)
            hand += meld
        if len(hand) <= size:
            break
    return hand + random_hand(rng, size - len(hand), sorted(used))


def knocking_hand(rng: random.Random) -> list[int]:
    """A meld-rich ten-card hand with deadwood of 10 or less."""
    while True:
        hand = meld_rich_hand(rng, 10)
        if min_deadwood(hand) <= 10:
            return hand


def _time_calls(
    call: Callable[..., Any], cases: Sequence[tuple[Any, ...]], repeat: int
) -> list[float]:
    """Per case, the fastest of ``repeat`` calls, in microseconds."""
    clock = time.perf_counter_ns
    out = []
    for args in cases:
        best = None
        for _ in range(repeat):
            start = clock()
            call(*args)
            took = clock() - start
            if best is None or took < best:
                best = took
        assert best is not None
        out.append(best / 1000)
    return out


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def build_cases(hands: int, seed: int) -> list[tuple[str, str, float, list[tuple[Any, ...]]]]:
    """(call, hand kind, median target in µs, argument tuples) for every row of the table."""
    rng = random.Random(seed)
    rows: list[tuple[str, str, float, list[tuple[Any, ...]]]] = []
    for kind, make in (("random", random_hand), ("meld-rich", meld_rich_hand)):
        ten = [(make(rng, 10),) for _ in range(hands)]
        eleven = [(make(rng, 11),) for _ in range(hands)]
        rows.append(("min_deadwood", kind, 10.0 if kind == "random" else 25.0, ten))
        rows.append(("best_discard", kind, 10.0 if kind == "random" else 50.0, eleven))
        rows.append(("discard_options", kind, 100.0, eleven))
    for kind, make in (("random", random_hand), ("meld-rich", meld_rich_hand)):
        cases: list[tuple[Any, ...]] = []
        for _ in range(hands):
            knocker = knocking_hand(rng)
            melds: tuple[tuple[Card, ...], ...] = arrange(knocker).melds
            cases.append((melds, make(rng, 10, knocker)))
        rows.append(("lay_off", kind, 100.0 if kind == "random" else 200.0, cases))
    order = {"min_deadwood": 0, "best_discard": 1, "lay_off": 2, "discard_options": 3}
    rows.sort(key=lambda row: order[row[0]])
    return rows


CALLS: dict[str, Callable[..., Any]] = {
    "min_deadwood": min_deadwood,
    "best_discard": best_discard,
    "lay_off": lay_off,
    "discard_options": discard_options,
}


def run(hands: int, seed: int, repeat: int) -> bool:
    """Time every row and print the table; True when every target is met."""
    started = time.perf_counter()
    rows = build_cases(hands, seed)
    header = (
        f"{'call':<16} {'kind':<10} {'median µs':>10} {'p99 µs':>8} {'max µs':>8}  "
        f"{'target (median / p99 / max µs)':<31} met"
    )
    print(f"{hands} hands per row, seed {seed}, each hand timed as the fastest of {repeat} calls")
    print(header)
    print("-" * len(header))
    all_met = True
    for name, kind, median_target, cases in rows:
        gc.collect()
        times = sorted(_time_calls(CALLS[name], cases, repeat))
        median = _percentile(times, 0.5)
        p99 = _percentile(times, 0.99)
        worst = times[-1]
        met = median <= median_target and p99 <= P99_TARGET_US and worst <= MAX_TARGET_US
        all_met &= met
        target = f"{median_target:g} / {P99_TARGET_US:g} / {MAX_TARGET_US:g}"
        print(
            f"{name:<16} {kind:<10} {median:>10.1f} {p99:>8.1f} {worst:>8.1f}  "
            f"{target:<31} {'yes' if met else 'NO'}"
        )
    print(f"all targets met: {'yes' if all_met else 'NO'}")
    print(f"took {time.perf_counter() - started:.1f} s")
    return all_met


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time the meld solver on fixed-seed hands.")
    parser.add_argument("--hands", type=int, default=2000, help="hands per row (2000)")
    parser.add_argument("--seed", type=int, default=20261130, help="random seed")
    parser.add_argument("--repeat", type=int, default=3, help="calls per hand (3)")
    args = parser.parse_args(argv)
    return 0 if run(args.hands, args.seed, args.repeat) else 1


if __name__ == "__main__":
    raise SystemExit(main())

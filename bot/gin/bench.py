"""Timing of the meld solver: ``python -m bot.gin.bench [--hands N] [--seed S]``.

Hands come from a fixed seed, so every run times the same hands. The kinds:

- random: cards drawn at random from the deck;
- meld-rich: two or three random melds (sets or runs of 3 to 5 cards, not overlapping), then
  random cards up to the size needed;
- multi-random: cards drawn at random from 2, 3 or 4 decks shuffled together, kept only when
  some card is there twice or more;
- multi-rich: two or three random melds drawn from 2 to 4 decks (sets of 3 to 5 cards that may
  repeat a card, runs of 3 to 5; a card may be in two melds, as two copies), then random cards
  from the rest, kept only when some card repeats.

The row "min_deadwood (strings)" passes the random hands as canonical text (``10♥``) to time
reading the cards too; "(distinct)" rows ask that a set's suits differ.

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
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from bot.gin import multiset  # noqa: F401  (its tables are built on import, not while timed)
from bot.gin.cards import DECK, Card
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


def shoe_hand(rng: random.Random, size: int, decks: int) -> list[int]:
    """``size`` random cards from ``decks`` decks shuffled together."""
    return rng.sample([c for c in range(52) for _ in range(decks)], size)


def _repeats(hand: Sequence[int]) -> bool:
    return len(set(hand)) < len(hand)


def multi_random_hand(rng: random.Random, size: int) -> list[int]:
    """Random cards from 2 to 4 decks, holding at least one card twice."""
    decks = rng.choice((2, 3, 4))
    while True:
        hand = shoe_hand(rng, size, decks)
        if _repeats(hand):
            return hand


def multi_meld(rng: random.Random, left: Counter[int]) -> list[int]:
    """A random set (3 to 5 cards of a rank, identical cards allowed) or run (3 to 5 cards)
    that the cards in ``left`` can still supply."""
    while True:
        if rng.random() < 0.5:
            rank = rng.randrange(13)
            pool = [s * 13 + rank for s in range(4) for _ in range(left[s * 13 + rank])]
            size = rng.choice((3, 3, 4, 5))
            if len(pool) >= size:
                return rng.sample(pool, size)
        else:
            suit = rng.randrange(4)
            length = rng.choice((3, 4, 5))
            low = rng.randrange(14 - length)
            cards = [suit * 13 + r for r in range(low, low + length)]
            if all(left[c] for c in cards):
                return cards


def multi_meld_rich_hand(rng: random.Random, size: int) -> list[int]:
    """Two or three melds from 2 to 4 decks (they may share cards, as copies), then random
    cards from what is left, holding at least one card twice. ``size`` is six or more."""
    decks = rng.choice((2, 3, 4))
    while True:
        left = Counter({c: decks for c in range(52)})
        hand: list[int] = []
        for _ in range(rng.choice((2, 3))):
            meld = multi_meld(rng, left)
            left.subtract(meld)
            hand += meld
        if len(hand) > size:
            continue
        hand += rng.sample(sorted(left.elements()), size - len(hand))
        if _repeats(hand):
            return hand


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
    # Rows added later draw their hands after the ones above, which stay the same hands.
    texts = [([str(DECK[c]) for c in random_hand(rng, 10)],) for _ in range(hands)]
    rows.append(("min_deadwood (strings)", "random", 4.0, texts))
    multi: tuple[tuple[str, Callable[[random.Random, int], list[int]]], ...] = (
        ("multi-random", multi_random_hand),
        ("multi-rich", multi_meld_rich_hand),
    )
    for kind, deal in multi:
        ten = [(deal(rng, 10),) for _ in range(hands)]
        eleven = [(deal(rng, 11),) for _ in range(hands)]
        rows.append(("min_deadwood", kind, MULTI_MEDIAN_US, ten))
        rows.append(("min_deadwood (distinct)", kind, MULTI_MEDIAN_US, ten))
        rows.append(("best_discard", kind, MULTI_MEDIAN_US, eleven))
        rows.append(("best_discard (distinct)", kind, MULTI_MEDIAN_US, eleven))
        rows.append(("discard_options", kind, 100.0, eleven))
    # Each call together, one deck before several; the sort keeps each call's kinds in order.
    order = {name: i for i, name in enumerate(CALLS)}
    calls = {name: order[name.split(" (")[0]] for name in CALLS}
    rows.sort(key=lambda row: (calls[row[0]], row[1].startswith("multi"), order[row[0]]))
    return rows


MULTI_MEDIAN_US = 30.0
"""Median target for hands from several decks (they hold a repeated card)."""

CALLS: dict[str, Callable[..., Any]] = {
    "min_deadwood": min_deadwood,
    "min_deadwood (strings)": min_deadwood,
    "min_deadwood (distinct)": partial(min_deadwood, distinct_suits=True),
    "best_discard": best_discard,
    "best_discard (distinct)": partial(best_discard, distinct_suits=True),
    "lay_off": lay_off,
    "discard_options": discard_options,
}
"""Each row's call; "(distinct)" asks that a set's suits differ (``distinct_suits=True``)."""


def run(hands: int, seed: int, repeat: int) -> bool:
    """Time every row and print the table; True when every target is met."""
    started = time.perf_counter()
    rows = build_cases(hands, seed)
    header = (
        f"{'call':<24} {'kind':<12} {'median µs':>10} {'p99 µs':>8} {'max µs':>8}  "
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
            f"{name:<24} {kind:<12} {median:>10.1f} {p99:>8.1f} {worst:>8.1f}  "
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

"""How long the coach takes, and that the event loop keeps moving meanwhile:
``python -m tests.coach_bench --hands 30``.

Plays hands (easy against hard), then reviews one seat of each through the coach as the bot
runs it (the expert's worker processes, one decision at a time) while a ticker on the loop
measures how late it wakes; then asks a hint for each of that seat's decisions. Prints the
review times, the per-decision times, the hint times and the loop's worst lateness.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time

from bot.coaching import Coach
from bot.gin.ai import Level, bot_move
from bot.gin.coach import decisions
from bot.gin.hand import Hand
from bot.gin.match import HandRecord
from bot.gin.settings import Settings
from bot.tables.thinker import Thinker

TICK = 0.005


def played(index: int) -> HandRecord:
    hand = Hand.deal((0, 1), 1, ("A", "B"), Settings(), f"bench/{index}")
    rng = random.Random(index)
    while not hand.is_over:
        level = Level.EASY if hand.turn == 0 else Level.HARD
        hand.apply(bot_move(hand, hand.turn, level, rng))
    assert hand.result is not None
    return HandRecord(1, hand.seats, hand.dealer, hand.seed, tuple(hand.actions), hand.result)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(hands: int, workers: int) -> None:
    thinker = Thinker(workers)
    coach = Coach(thinker)
    thinker.start()
    await thinker.run(int)  # the workers are up before anything is timed
    late: list[float] = []
    stop = False

    async def ticker() -> None:
        while not stop:
            started = time.perf_counter()
            await asyncio.sleep(TICK)
            late.append(time.perf_counter() - started - TICK)

    records = [played(i) for i in range(hands)]  # before the ticker: only the coach is timed
    ticking = asyncio.create_task(ticker())
    reviews: list[float] = []
    counts: list[int] = []
    hints: list[float] = []
    for record in records:
        started = time.perf_counter()
        review = await coach.review(record, Settings(), 0)
        reviews.append(time.perf_counter() - started)
        counts.append(review.decisions)
    for index, record in enumerate(records[: max(1, hands // 3)]):
        for number, decision in enumerate(decisions(record, Settings(), 0)):
            started = time.perf_counter()
            await coach.hint(decision.view, f"bench/{index}/{number}")
            hints.append(time.perf_counter() - started)
    stop = True
    await ticking
    thinker.close()
    per_decision = [r / c for r, c in zip(reviews, counts, strict=True) if c]
    print(f"hands reviewed: {hands}, decisions judged: {sum(counts)}, workers: {workers}")
    print(
        f"review: median {statistics.median(reviews):.2f} s, p99 {percentile(reviews, 0.99):.2f} s,"
        f" max {max(reviews):.2f} s"
    )
    middle, high = statistics.median(per_decision), percentile(per_decision, 0.99)
    print(
        f"per decision (review time / decisions): median {middle * 1000:.0f} ms,"
        f" p99 {high * 1000:.0f} ms"
    )
    print(
        f"hint: {len(hints)} asked, median {statistics.median(hints) * 1000:.0f} ms,"
        f" p99 {percentile(hints, 0.99) * 1000:.0f} ms"
    )
    print(
        f"event loop lateness over {len(late)} ticks of {TICK * 1000:.0f} ms: median"
        f" {statistics.median(late) * 1000:.1f} ms, p99 {percentile(late, 0.99) * 1000:.1f} ms,"
        f" max {max(late) * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.hands, args.workers))


if __name__ == "__main__":
    main()

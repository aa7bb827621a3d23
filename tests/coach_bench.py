"""The coach, measured. Three runs, each a few minutes on a shared machine (run them with
``nice -n 10``):

``python -m tests.coach_bench --hands 30``: how long the coach takes, and that the event loop
keeps moving meanwhile. Plays hands (easy against hard), then reviews one seat of each through
the coach as the bot runs it (the expert's worker processes, one look at a time) while a
ticker on the loop measures how late it wakes; then asks a hint for each of that seat's
decisions. Prints the review times, the per-decision times, the hint times and the loop's
worst lateness.

``python -m tests.coach_bench --signs --hands 40``: whether what reviews name holds. Reviews
the easy seat of each hand, then judges every item shown again with 20 times the worlds of
the review's second look and another seed, and prints the share whose sign holds (the
expert's move still worth more), and the share still worth a point or more.

``python -m tests.coach_bench --follow --pairs 40``: a player who always takes the hint
against the expert itself. Both play whole matches (to 100) against hard over the same
mirrored deals (each deal twice, seats swapped), the hint-taker through the coach's hints as
the bot computes them; prints each side's match and hand win rates with 95 % intervals.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time

from bot.coaching import Coach, review_seed
from bot.gin.ai import Level, bot_move, decide, view_for
from bot.gin.ai.advice import margin
from bot.gin.ai.arena import wilson
from bot.gin.ai.view import PlayerView
from bot.gin.coach import decisions
from bot.gin.hand import Action, Hand
from bot.gin.match import HandRecord, Match, Player
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


RECHECK_TIMES = 20


async def signs(hands: int, workers: int) -> None:
    """Reviews ``hands`` hands, then judges each item shown again, far more finely."""
    thinker = Thinker(workers)
    coach = Coach(thinker)
    thinker.start()
    records = [played(1000 + i) for i in range(hands)]
    worlds = RECHECK_TIMES * coach.second_samples
    shown = held = clear = decided = 0
    started = time.perf_counter()
    for record in records:
        review = await coach.review(record, Settings(), 0)
        found = decisions(record, Settings(), 0)
        decided += len(found)
        by_turn = {(d.turn, d.chosen): d for d in found}
        for mistake in review.mistakes:
            decision = by_turn[(mistake.turn, mistake.chosen)]
            seed = f"{review_seed(record, 0)}/recheck/{mistake.turn}"
            again = await thinker.run(
                _recheck, decision.view, mistake.better, mistake.chosen, worlds, seed
            )
            shown += 1
            held += again > 0.0
            clear += again >= 1.0
            print(
                f"  hand {record.seed} turn {mistake.turn}: named {mistake.points:+.1f}"
                f" (±{mistake.error:.1f}), at {worlds} worlds {again:+.1f}",
                flush=True,
            )
    thinker.close()
    low, high = wilson(held, shown)
    print(
        f"hands reviewed: {hands}, decisions: {decided}, items shown: {shown}"
        f" (review worlds: {coach.first_samples}, then {coach.second_samples}; re-judged at"
        f" {worlds} with another seed) in {time.perf_counter() - started:.0f} s"
    )
    if shown:
        print(
            f"sign held: {held}/{shown} = {held / shown:.1%} (95 % interval {low:.1%}-{high:.1%});"
            f" still worth a point or more: {clear}/{shown} = {clear / shown:.1%}"
        )


def _recheck(view: PlayerView, better: Action, chosen: Action, worlds: int, seed: str) -> float:
    """Runs in a worker: the named move's margin judged again over ``worlds`` worlds."""
    return margin(view, better, chosen, random.Random(seed), worlds).points


async def follow(pairs: int, workers: int) -> None:
    """Hint-taker and expert, each against hard over the same mirrored deals."""
    thinker = Thinker(workers)
    coach = Coach(thinker)
    thinker.start()
    started = time.perf_counter()
    tally = {"hints": [0, 0, 0, 0], "expert": [0, 0, 0, 0]}  # matches won, played, hands
    for pair in range(pairs):
        for seat in (0, 1):
            for side in tally:
                result = await _match(coach, side, pair, seat)
                counts = tally[side]
                counts[0] += result[0]
                counts[1] += 1
                counts[2] += result[1]
                counts[3] += result[2]
        if (pair + 1) % 10 == 0:
            print(f"  {pair + 1} pairs in {time.perf_counter() - started:.0f} s", flush=True)
    thinker.close()
    print(f"mirrored pairs of deals: {pairs}, each side {2 * pairs} matches to 100 against hard")
    for side, (won, played_, hands_won, hands) in tally.items():
        low, high = wilson(won, played_)
        hand_low, hand_high = wilson(hands_won, hands)
        name = "always takes the hint" if side == "hints" else "the expert itself"
        print(
            f"{name:>22}: matches {won}/{played_} = {won / played_:.1%}"
            f" ({low:.1%}-{high:.1%}); hands won {hands_won}/{hands} ="
            f" {hands_won / hands:.1%} ({hand_low:.1%}-{hand_high:.1%})"
        )


async def _match(coach: Coach, side: str, pair: int, seat: int) -> tuple[bool, int, int]:
    """One match against hard from deal seed ``pair``, ``side`` sitting in ``seat``."""
    match = Match.start(
        [Player("0", "Seat 0"), Player("1", "Seat 1")], Settings(), seed=f"follow/{pair}"
    )
    rngs = {s: random.Random(f"follow/{pair}/{seat}/{s}") for s in (0, 1)}
    moves = 0
    while not match.is_over:
        turn = match.hand.turn
        view = view_for(match, turn)
        if turn != seat:
            action = decide(view, Level.HARD, rngs[turn])
        elif side == "expert":
            action = decide(view, Level.EXPERT, rngs[turn])
        elif len(view.legal_actions) == 1:
            action = view.legal_actions[0]
        else:
            advice = await coach.hint(view, f"follow/{pair}/{seat}/{moves}")
            assert advice is not None
            action = advice.action
        match.apply(action)
        moves += 1
    assert match.result is not None
    won = sum(1 for r in match.history if r.result.winner == seat)
    return match.result.winner == seat, won, len(match.history)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--signs", action="store_true", help="re-judge what reviews name")
    parser.add_argument("--follow", action="store_true", help="hint-taker against the expert")
    parser.add_argument("--pairs", type=int, default=40)
    args = parser.parse_args()
    if args.signs:
        asyncio.run(signs(args.hands, args.workers))
    elif args.follow:
        asyncio.run(follow(args.pairs, args.workers))
    else:
        asyncio.run(run(args.hands, args.workers))


if __name__ == "__main__":
    main()

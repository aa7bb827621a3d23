"""Levels played against each other: ``python -m bot.gin.ai.arena --matches 1000``.

Each pairing plays whole matches with the default settings (to 100). Matches come in twos that
share a seed, with the levels swapping seats, so both sides get the same deals and the dealer
role in turn; every run with the same ``--seed`` plays the same games. Decisions are timed here,
around each ``decide`` call, so the strategies themselves never read a clock.

For each pairing it prints the win rate of the first level with a 95 % Wilson interval, the
average points per hand of each side, and the median and 99th percentile decision time of each
level.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.gin.ai.players import Level, decide
from bot.gin.ai.view import view_for
from bot.gin.hand import Outcome
from bot.gin.match import Match, Player
from bot.gin.settings import Settings

DEFAULT_PAIRS = ("normal:easy", "hard:easy", "hard:normal")
MAX_MOVES = 20_000  # far beyond any real match; more means the players are stuck


@dataclass
class MatchOutcome:
    """One match seen from the pairing's two sides (0: first level, 1: second)."""

    first_won: bool
    points: tuple[int, int]
    hands: int
    outcomes: Counter[str]
    times: tuple[list[float], list[float]]


def play_match(first: Level, second: Level, seed: str, index: int) -> MatchOutcome:
    """Match ``index`` of a pairing; the first level sits in seat ``index % 2``."""
    first_seat = index % 2
    levels = {first_seat: first, 1 - first_seat: second}
    rngs = {s: random.Random(f"{seed}/{index}/{s}") for s in (0, 1)}
    match = Match.start(
        [Player("0", "Seat 0"), Player("1", "Seat 1")],
        Settings(),
        seed=f"arena/{seed}/{index // 2}",
    )
    times: dict[int, list[float]] = {0: [], 1: []}
    moves = 0
    while not match.is_over:
        seat = match.hand.turn
        view = view_for(match, seat)
        started = time.perf_counter()
        action = decide(view, levels[seat], rngs[seat])
        times[seat].append(time.perf_counter() - started)
        match.apply(action)
        moves += 1
        if moves > MAX_MOVES:
            raise RuntimeError(f"match {index} did not end")
    assert match.result is not None
    points = [0, 0]
    outcomes: Counter[str] = Counter()
    for record in match.history:
        result = record.result
        if result.winner is None:
            outcomes["void"] += 1
            continue
        side = 0 if result.winner == first_seat else 1
        points[side] += result.points
        kind = "knock" if result.outcome is Outcome.KNOCK else result.outcome.value
        outcomes[f"{kind}:{side}"] += 1
    return MatchOutcome(
        first_won=match.result.winner == first_seat,
        points=(points[0], points[1]),
        hands=len(match.history),
        outcomes=outcomes,
        times=(times[first_seat], times[1 - first_seat]),
    )


def _job(args: tuple[str, str, str, int]) -> MatchOutcome:
    first, second, seed, index = args
    return play_match(Level(first), Level(second), seed, index)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def percentile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[index]


@dataclass
class PairingStats:
    first: Level
    second: Level
    matches: int = 0
    wins: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    hands: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))

    def add(self, outcome: MatchOutcome) -> None:
        self.matches += 1
        self.wins += outcome.first_won
        self.points[0] += outcome.points[0]
        self.points[1] += outcome.points[1]
        self.hands += outcome.hands
        self.outcomes.update(outcome.outcomes)
        self.times[0].extend(outcome.times[0])
        self.times[1].extend(outcome.times[1])


def run_pairing(first: Level, second: Level, matches: int, workers: int, seed: str) -> PairingStats:
    stats = PairingStats(first, second)
    jobs = [(first.value, second.value, seed, i) for i in range(matches)]
    step = max(1, matches // 10)
    if workers <= 1:
        results = map(_job, jobs)
        for outcome in results:
            stats.add(outcome)
            _progress(stats, matches, step)
        return stats
    with multiprocessing.Pool(workers) as pool:
        for outcome in pool.imap_unordered(_job, jobs, chunksize=4):
            stats.add(outcome)
            _progress(stats, matches, step)
    return stats


def _progress(stats: PairingStats, matches: int, step: int) -> None:
    if stats.matches % step == 0 or stats.matches == matches:
        print(
            f"  {stats.first} vs {stats.second}: {stats.matches}/{matches} "
            f"({stats.wins / stats.matches:.1%})",
            file=sys.stderr,
            flush=True,
        )


HEADER = (
    f"{'pairing':<16} {'matches':>7} {'win% first':>10} {'95% CI':>15} "
    f"{'pts/hand first':>14} {'pts/hand second':>15} "
    f"{'median ms first/second':>23} {'p99 ms first/second':>20}"
)


def format_row(stats: PairingStats) -> str:
    low, high = wilson(stats.wins, stats.matches)
    rate = stats.wins / stats.matches if stats.matches else 0.0
    hands = max(1, stats.hands)
    t0, t1 = sorted(stats.times[0]), sorted(stats.times[1])
    median = f"{percentile(t0, 0.5) * 1e3:.2f} / {percentile(t1, 0.5) * 1e3:.2f}"
    p99 = f"{percentile(t0, 0.99) * 1e3:.1f} / {percentile(t1, 0.99) * 1e3:.1f}"
    return (
        f"{stats.first + ':' + stats.second:<16} {stats.matches:>7} {rate * 100:>9.1f}% "
        f"{f'{low * 100:.1f}-{high * 100:.1f}%':>15} "
        f"{stats.points[0] / hands:>14.2f} {stats.points[1] / hands:>15.2f} "
        f"{median:>23} {p99:>20}"
    )


def format_outcomes(stats: PairingStats) -> str:
    parts = [f"hands {stats.hands}"]
    for side, level in ((0, stats.first), (1, stats.second)):
        counts = ", ".join(
            f"{kind} {stats.outcomes[f'{kind}:{side}']}"
            for kind in ("knock", "gin", "undercut", "big_gin")
        )
        parts.append(f"{level} wins {counts}")
    parts.append(f"void {stats.outcomes['void']}")
    return "    " + "; ".join(parts)


def parse_pair(text: str) -> tuple[Level, Level]:
    try:
        first, second = text.split(":")
        return Level(first), Level(second)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a pairing like normal:easy (levels: easy, normal, hard)"
        ) from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play the AI levels against each other.")
    parser.add_argument("--matches", type=int, default=1000, help="matches per pairing (1000)")
    parser.add_argument(
        "--pair",
        action="append",
        type=parse_pair,
        help="first:second, repeatable (default: normal:easy, hard:easy, hard:normal)",
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--seed", default="1", help="seed of the deals and decisions (1)")
    args = parser.parse_args(argv)
    pairs = args.pair or [parse_pair(p) for p in DEFAULT_PAIRS]
    started = time.perf_counter()
    rows = []
    for first, second in pairs:
        rows.append(run_pairing(first, second, args.matches, args.workers, args.seed))
    print(f"matches to 100 with default settings, seed {args.seed}, {args.workers} workers")
    print(HEADER)
    print("-" * len(HEADER))
    for stats in rows:
        print(format_row(stats))
    for stats in rows:
        print(format_outcomes(stats))
    print(f"took {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

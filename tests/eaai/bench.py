"""Mirrored pairs of games under the EAAI-2021 rules: ``python -m tests.eaai.bench``.

    python -m tests.eaai.bench --a expert --b marjj --pairs 1000 --seed 1 --workers 1

Each pair is one seed played twice with the seats swapped, so both agents get the same deals
(mirroring is of the deals: a hand that one seating plays to a void can send the next deals of
the two games apart). It prints the share of games the first agent won with a 95 % interval
over pairs, the exact sign test of the pairs one side swept, the points and how hands ended,
and each agent's decision times (median and 99th percentile, one decision per move: a draw,
a discard or a knock).

Agents: the bot's levels (``easy``, ``normal``, ``hard``, ``expert``), ``simple`` (the
challenge's SimpleGinRummyPlayer) and ``marjj`` (the 2021 winner).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.gin.ai import Level
from tests.eaai.marjj import MarjjPlayer
from tests.eaai.players import HostAgent, LevelAgent
from tests.eaai.rules import Agent, GameRecord, play_game
from tests.eaai.simple import SimplePlayer
from tests.eaai.stats import pair_interval, percentile, sign_test, wilson

HOST_PLAYERS = {"simple": SimplePlayer, "marjj": MarjjPlayer}
AGENTS = (*(level.value for level in Level), *HOST_PLAYERS)


def make_agent(name: str, rng: random.Random) -> Agent:
    host = HOST_PLAYERS.get(name)
    if host is not None:
        return HostAgent(host(rng))
    return LevelAgent(Level(name), rng)


@dataclass
class PairResult:
    wins: int  # games of the pair the first agent won (0-2)
    games: list[GameRecord]


def play_pair(a: str, b: str, seed: str, index: int) -> PairResult:
    """Pair ``index``: one deal seed, the first agent in seat 0 and then in seat 1."""
    deal = f"eaai/{seed}/{index}"
    games = []
    for first_seat in (0, 1):
        tag = f"{seed}/{index}/{first_seat}"
        first = make_agent(a, random.Random(f"{tag}/a"))
        second = make_agent(b, random.Random(f"{tag}/b"))
        games.append(play_game(first, second, deal, first_seat))
    return PairResult(sum(g.winner == 0 for g in games), games)


def _job(args: tuple[str, str, str, int]) -> PairResult:
    return play_pair(*args)


@dataclass
class Totals:
    a: str
    b: str
    pair_wins: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=lambda: [0, 0])
    hands: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))

    def add(self, pair: PairResult) -> None:
        self.pair_wins.append(pair.wins)
        for game in pair.games:
            self.points[0] += game.scores[0]
            self.points[1] += game.scores[1]
            self.hands += game.hands
            self.outcomes.update(game.outcomes)
            self.times[0].extend(game.times[0])
            self.times[1].extend(game.times[1])

    @property
    def games(self) -> int:
        return 2 * len(self.pair_wins)

    @property
    def wins(self) -> int:
        return sum(self.pair_wins)


def run(a: str, b: str, pairs: int, seed: str, workers: int, start: int = 0) -> Totals:
    totals = Totals(a, b)
    jobs = [(a, b, seed, i) for i in range(start, start + pairs)]
    step = max(1, pairs // 20)
    if workers <= 1:
        for pair in map(_job, jobs):
            totals.add(pair)
            _progress(totals, pairs, step)
        return totals
    with multiprocessing.Pool(workers) as pool:
        for pair in pool.imap_unordered(_job, jobs):
            totals.add(pair)
            _progress(totals, pairs, step)
    return totals


def _progress(totals: Totals, pairs: int, step: int) -> None:
    done = len(totals.pair_wins)
    if done % step == 0 or done == pairs:
        print(
            f"  {totals.a} vs {totals.b}: {done}/{pairs} pairs, "
            f"{totals.wins}/{totals.games} games ({totals.wins / totals.games:.1%})",
            file=sys.stderr,
            flush=True,
        )


def report(totals: Totals) -> list[str]:
    """The lines a run prints."""
    share, low, high = pair_interval(totals.pair_wins)
    w_low, w_high = wilson(totals.wins, totals.games)
    sweeps = totals.pair_wins.count(2)
    swept = totals.pair_wins.count(0)
    games = max(1, totals.games)
    lines = [
        f"{totals.a} vs {totals.b}: {len(totals.pair_wins)} mirrored pairs, {totals.games} games",
        f"  {totals.a} won {totals.wins} games: {share * 100:.2f} % "
        f"(95 % interval over pairs {low * 100:.2f}-{high * 100:.2f} %; "
        f"Wilson over games {w_low * 100:.2f}-{w_high * 100:.2f} %)",
        f"  pairs swept {sweeps}-{swept} (split {totals.pair_wins.count(1)}); "
        f"exact sign test p = {sign_test(sweeps, swept):.3g}",
        f"  points a game {totals.points[0] / games:.1f} - {totals.points[1] / games:.1f}; "
        f"hands a game {totals.hands / games:.2f}",
    ]
    for side, name in ((0, totals.a), (1, totals.b)):
        counts = ", ".join(
            f"{kind} {totals.outcomes[f'{kind}:{side}']}" for kind in ("knock", "gin", "undercut")
        )
        lines.append(f"  {name} won hands by {counts}")
    lines.append(f"  void hands {totals.outcomes['void']}")
    for side, name in ((0, totals.a), (1, totals.b)):
        times = sorted(totals.times[side])
        longest = times[-1] * 1e3 if times else 0.0
        lines.append(
            f"  {name} decisions {len(times)}: median {percentile(times, 0.5) * 1e3:.2f} ms, "
            f"p99 {percentile(times, 0.99) * 1e3:.1f} ms, max {longest:.0f} ms"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Mirrored pairs under the EAAI-2021 rules.")
    parser.add_argument("--a", choices=AGENTS, default="marjj", help="the agent measured")
    parser.add_argument("--b", choices=AGENTS, default="simple", help="its opponent")
    parser.add_argument("--pairs", type=int, default=200, help="mirrored pairs (200)")
    parser.add_argument("--start", type=int, default=0, help="index of the first pair (0)")
    parser.add_argument("--seed", default="1", help="seed of the deals and decisions (1)")
    parser.add_argument("--workers", type=int, default=1, help="processes (1)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    totals = run(args.a, args.b, args.pairs, args.seed, args.workers, args.start)
    print(f"EAAI-2021 rules, seed {args.seed}, pairs {args.start}-{args.start + args.pairs - 1}")
    for line in report(totals):
        print(line)
    print(f"took {time.perf_counter() - started:.0f} s with {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Levels played against each other, in any mode.

Two-player pairings (the classic game): ``python -m bot.gin.ai.arena --matches 1000``. Each
pairing plays whole matches with the default settings (to 100). Matches come in twos that
share a seed, with the levels swapping seats, so both sides get the same deals and the dealer
role in turn. For each pairing it prints the win rate of the first level with a 95 % Wilson
interval, the average points per hand of each side, and the median and 99th percentile
decision time of each level.

Tables of any mode: ``python -m bot.gin.ai.arena --mode elimination --players 6 --lineup
hard,easy*5 --games 2000``. Each game is a whole match with one level per player (the lineup);
the players are seated in a new random order every game (so no seat, and no place in the first
deal, favours a level), and in teams the first half of the lineup is one team. For each level
it prints the share of every place (1st to last) with a 95 % Wilson interval, the share of
last places, and decision times; for three players and teams, the share of matches won. A level
that fills several seats of one game counts each of them, so its intervals are a little too
narrow; a level alone in its seat counts once per game and its intervals are exact.

Both kinds of run take the two-player variants of RULES.md 12 (``--variant oklahoma`` with
``--ace`` and ``--spades-double``, or ``--variant hollywood``) and ``--target`` (default: the
variant's usual target, Oklahoma 150): ``python -m bot.gin.ai.arena --pair hard:easy
--matches 2000 --variant oklahoma``.

Every run with the same ``--seed`` plays the same games. Decisions are timed here, around
building the seat's view and deciding from it (what a table pays for a bot move), so the
strategies themselves never read a clock.
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
from bot.gin.ai.view import seat_view, view_for
from bot.gin.errors import SettingsError
from bot.gin.hand import Outcome
from bot.gin.match import Match, Player
from bot.gin.modes import find_mode
from bot.gin.settings import VARIANT_TARGET, OklahomaAce, SetSuits, Settings, Variant

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


def play_match(
    first: Level, second: Level, seed: str, index: int, settings: Settings | None = None
) -> MatchOutcome:
    """Match ``index`` of a pairing; the first level sits in seat ``index % 2``."""
    first_seat = index % 2
    levels = {first_seat: first, 1 - first_seat: second}
    rngs = {s: random.Random(f"{seed}/{index}/{s}") for s in (0, 1)}
    match = Match.start(
        [Player("0", "Seat 0"), Player("1", "Seat 1")],
        settings or Settings(),
        seed=f"arena/{seed}/{index // 2}",
    )
    times: dict[int, list[float]] = {0: [], 1: []}
    moves = 0
    while not match.is_over:
        seat = match.hand.turn
        started = time.perf_counter()
        action = decide(view_for(match, seat), levels[seat], rngs[seat])
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


def _job(args: tuple[str, str, str, int, dict[str, object]]) -> MatchOutcome:
    first, second, seed, index, settings = args
    return play_match(Level(first), Level(second), seed, index, Settings.from_dict(settings))


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


def run_pairing(
    first: Level,
    second: Level,
    matches: int,
    workers: int,
    seed: str,
    settings: Settings | None = None,
) -> PairingStats:
    stats = PairingStats(first, second)
    data = (settings or Settings()).to_dict()
    jobs = [(first.value, second.value, seed, i, data) for i in range(matches)]
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


# --- tables of any mode ----------------------------------------------------------------------

TABLE_MAX_MOVES = 400_000  # far beyond any real match; more means the players are stuck


@dataclass
class GameOutcome:
    """One match of a table: each level's places and decision times, and how long it ran."""

    places: list[tuple[str, int]]  # (level, place) per player
    times: dict[str, list[float]]
    hands: int
    moves: int
    longest: float  # the most turns per player that one hand (round) took


def play_game(
    mode: str, lineup: Sequence[str], settings: Settings, seed: str, index: int
) -> GameOutcome:
    """Game ``index`` of a table: the lineup seated in a random order drawn from the seed."""
    order = list(range(len(lineup)))
    random.Random(f"{seed}/order/{index}").shuffle(order)
    players = [Player(str(i), f"Seat {i}") for i in order]
    teams: list[int | None] | None = None
    if find_mode(mode).team_play:  # the first half of the lineup against the second
        teams = [0 if i < len(lineup) // 2 else 1 for i in order]
    match = Match.start(
        players, settings, seed=f"arena/{seed}/{mode}/{index}", mode=mode, teams=teams
    )
    level_of = [Level(lineup[int(p.id)]) for p in match.players]
    rngs = [random.Random(f"{seed}/{index}/{s}") for s in range(len(lineup))]
    times: dict[str, list[float]] = {}
    moves = 0
    longest = 0.0
    round_number, round_draws = match.hand_number, 0
    while not match.is_over:
        if match.hand_number != round_number:
            round_number, round_draws = match.hand_number, 0
        for seat in match.to_act():
            started = time.perf_counter()
            action = decide(seat_view(match, seat), level_of[seat], rngs[seat])
            times.setdefault(level_of[seat].value, []).append(time.perf_counter() - started)
            board = match.board_of(seat)
            seated = len(board.seats) if board is not None else 2
            if action.kind.value.startswith("draw"):
                round_draws += 1
                longest = max(longest, round_draws / seated)
            match.apply(action)
            moves += 1
            if match.is_over or match.hand_number != round_number:
                break
        if moves > TABLE_MAX_MOVES:
            raise RuntimeError(f"game {index} did not end")
    assert match.result is not None
    places = [(level_of[s].value, match.result.place_of(s)) for s in range(len(lineup))]
    return GameOutcome(places, times, match.hand_number, moves, longest)


def _game_job(args: tuple[str, tuple[str, ...], dict[str, object], str, int]) -> GameOutcome:
    mode, lineup, settings, seed, index = args
    return play_game(mode, lineup, Settings.from_dict(settings), seed, index)


@dataclass
class TableStats:
    """Places and decision times per level over a run of games."""

    mode: str
    lineup: tuple[str, ...]
    games: int = 0
    places: dict[str, Counter[int]] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)
    hands: int = 0
    moves: int = 0
    longest: float = 0.0

    def add(self, outcome: GameOutcome) -> None:
        self.games += 1
        for level, place in outcome.places:
            self.places.setdefault(level, Counter())[place] += 1
        for level, values in outcome.times.items():
            self.times.setdefault(level, []).extend(values)
        self.hands += outcome.hands
        self.moves += outcome.moves
        self.longest = max(self.longest, outcome.longest)

    @property
    def levels(self) -> list[str]:
        return list(dict.fromkeys(self.lineup))

    @property
    def last_place(self) -> int:
        """The worst place a player can get: the table size, or 2 for two-sided results."""
        if self.mode == "elimination":
            return len(self.lineup)
        if self.mode == "teams":
            return 2
        return len(self.lineup)


def run_table(
    mode: str,
    lineup: Sequence[str],
    games: int,
    workers: int,
    seed: str,
    settings: Settings | None = None,
) -> TableStats:
    stats = TableStats(mode, tuple(lineup))
    data = (settings or Settings()).to_dict()
    jobs = [(mode, tuple(lineup), data, seed, i) for i in range(games)]
    step = max(1, games // 10)
    if workers <= 1:
        for outcome in map(_game_job, jobs):
            stats.add(outcome)
            _table_progress(stats, games, step)
        return stats
    with multiprocessing.Pool(workers) as pool:
        for outcome in pool.imap_unordered(_game_job, jobs, chunksize=2):
            stats.add(outcome)
            _table_progress(stats, games, step)
    return stats


def _table_progress(stats: TableStats, games: int, step: int) -> None:
    if stats.games % step == 0 or stats.games == games:
        print(f"  {stats.mode}: {stats.games}/{games} games", file=sys.stderr, flush=True)


def _share(hits: int, n: int) -> str:
    low, high = wilson(hits, n)
    rate = hits / n if n else 0.0
    return f"{rate * 100:.1f} ({low * 100:.1f}-{high * 100:.1f})"


def format_table(stats: TableStats) -> list[str]:
    """The table of places (elimination) or wins (three, teams) per level, then the times."""
    lines = []
    last = stats.last_place
    ranked = stats.mode == "elimination"
    places = range(1, last + 1) if ranked else range(1, 2)
    cells = 20
    head = f"{'level':<7} {'seats':>6} " + " ".join(
        f"{(_ordinal(p) if ranked else 'won'):>{cells}}" for p in places
    )
    if ranked:
        head += f" {'last':>{cells}}"
    head += f" {'median ms':>10} {'p99 ms':>8}"
    lines.append(head)
    lines.append("-" * len(head))
    for level in stats.levels:
        counts = stats.places.get(level, Counter())
        n = sum(counts.values())
        row = f"{level:<7} {n:>6} " + " ".join(f"{_share(counts[p], n):>{cells}}" for p in places)
        if ranked:
            row += f" {_share(counts[last], n):>{cells}}"
        times = sorted(stats.times.get(level, []))
        row += f" {percentile(times, 0.5) * 1e3:>10.2f} {percentile(times, 0.99) * 1e3:>8.1f}"
        lines.append(row)
    return lines


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix} %"


def parse_lineup(text: str) -> list[str]:
    """``hard,easy*5`` into six levels."""
    out: list[str] = []
    for part in text.split(","):
        name, _, times = part.strip().partition("*")
        try:
            level = Level(name.strip())
            count = int(times) if times else 1
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a lineup like hard,easy*5 (levels: easy, normal, hard, expert)"
            ) from None
        out += [level.value] * count
    return out


def parse_pair(text: str) -> tuple[Level, Level]:
    try:
        first, second = text.split(":")
        return Level(first), Level(second)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a pairing like normal:easy (levels: easy, normal, hard, expert)"
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
    parser.add_argument(
        "--mode",
        help="play tables of this mode (classic, three, teams, elimination) with --lineup",
    )
    parser.add_argument("--players", type=int, help="players at the table (the lineup's size)")
    parser.add_argument(
        "--lineup",
        type=parse_lineup,
        help="a level per player, like hard,easy,easy or hard,easy*5 (teams: first half "
        "against second half)",
    )
    parser.add_argument("--games", type=int, default=200, help="games (matches) of a table (200)")
    parser.add_argument(
        "--set-suits",
        choices=[s.value for s in SetSuits],
        default=SetSuits.ANY.value,
        help="elimination: may a set hold identical cards (any) or not (different)",
    )
    parser.add_argument(
        "--variant",
        choices=[v.value for v in Variant],
        default=Variant.CLASSIC.value,
        help="two-player variant (classic, oklahoma, hollywood)",
    )
    parser.add_argument(
        "--ace",
        choices=[a.value for a in OklahomaAce],
        default=OklahomaAce.GIN.value,
        help="oklahoma: an ace upcard means gin only (gin) or a 1-point knock (one)",
    )
    parser.add_argument(
        "--spades-double",
        action="store_true",
        help="oklahoma: a spade upcard doubles every score of the hand",
    )
    parser.add_argument(
        "--target", type=int, help="points to win (default: the variant's usual target)"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--seed", default="1", help="seed of the deals and decisions (1)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.mode is not None or args.lineup is not None:
        return _main_table(parser, args, started)
    pairs = args.pair or [parse_pair(p) for p in DEFAULT_PAIRS]
    settings = _settings(parser, args)
    rows = []
    for first, second in pairs:
        rows.append(run_pairing(first, second, args.matches, args.workers, args.seed, settings))
    print(f"matches {describe(settings)}, seed {args.seed}, {args.workers} workers")
    print(HEADER)
    print("-" * len(HEADER))
    for stats in rows:
        print(format_row(stats))
    for stats in rows:
        print(format_outcomes(stats))
    print(f"took {time.perf_counter() - started:.0f} s")
    return 0


def _main_table(parser: argparse.ArgumentParser, args: argparse.Namespace, started: float) -> int:
    mode = find_mode(args.mode or "classic")
    lineup: list[str] | None = args.lineup
    players = args.players or (len(lineup) if lineup else mode.default_players)
    if lineup is None:
        lineup = [Level.HARD.value] + [Level.EASY.value] * (players - 1)
    if len(lineup) != players:
        parser.error(f"the lineup has {len(lineup)} levels for {players} players")
    try:
        mode.check_players(players)
    except ValueError as error:
        parser.error(str(error))
    settings = _settings(parser, args)
    try:
        mode.check_settings(settings)
    except ValueError as error:
        parser.error(str(error))
    except SettingsError as error:
        parser.error(error.reason)
    stats = run_table(mode.name, lineup, args.games, args.workers, args.seed, settings)
    print(
        f"{mode.name}, {players} players, lineup {','.join(lineup)}, {stats.games} games, "
        f"seed {args.seed}, {args.workers} workers"
        + (f", set suits {args.set_suits}" if mode.name == "elimination" else "")
        + (f", {describe(settings)}" if mode.two_player_variants else "")
    )
    print("shares in % with 95% Wilson intervals; decision = view + decide")
    for line in format_table(stats):
        print(line)
    rounds = "rounds" if mode.name == "elimination" else "hands"
    print(
        f"{rounds} {stats.hands} ({stats.hands / max(1, stats.games):.1f} a game), moves "
        f"{stats.moves}, longest {rounds[:-1]} {stats.longest:.0f} turns per player"
    )
    print(f"took {time.perf_counter() - started:.0f} s")
    return 0


def _settings(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Settings:
    """The rules of a run from the command line (bounds checked as a table checks them)."""
    try:
        return Settings(
            target=VARIANT_TARGET if args.target is None else args.target,
            set_suits=SetSuits(args.set_suits),
            variant=Variant(args.variant),
            ace=OklahomaAce(args.ace),
            spades_double=args.spades_double,
        )
    except SettingsError as error:
        parser.error(error.reason)


def describe(settings: Settings) -> str:
    """``to 150, oklahoma (ace gin, spades double)``: what a run plays."""
    text = f"to {settings.target}"
    if settings.variant is Variant.CLASSIC:
        return text + " with default settings"
    text += f", {settings.variant.value}"
    if settings.variant is Variant.OKLAHOMA:
        text += f" (ace {settings.ace.value}"
        text += ", spades double)" if settings.spades_double else ")"
    return text


if __name__ == "__main__":
    raise SystemExit(main())

"""Rate benchmark: many tables of people who take ``--pace`` seconds a move, under Discord's
rate limits as the fake enforces them: ``python -m tests.e2e.ratebench --tables 200``.

Discord lets a bot token make about 50 REST calls a second in all (interaction answers
aside), and that, not CPU, caps how many tables one bot serves. The bot runs as its own
process with its default budget; the fake answers a call past 50 in a sliding second with a
global 429, and a sixth new message in one channel within 5 s with a route 429. Players move
by the buttons of their DM hands, each table one move per ``--pace`` seconds (a random start
within the first), for ``--seconds`` or until the tables' matches end (``--target`` points).

It prints, with the targets: counted REST calls per move, route by route; the 429s; the turn
hand-off (from a move's answer to the next player's live buttons) at p50/p99; how far behind
the move the spectators' table was (from a move's answer to the next edit of the table's
public message); the tables one token serves at this pace, from the calls a move costs; and
the CPU figures of the bot while it did so.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import gc
import json
import math
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.pacing import DEFAULT_PER_SECOND
from bot.tables.model import TOKEN_HAND
from tests.e2e.conftest import add_card_emojis
from tests.e2e.loadbench import (
    WAIT_S,
    Panels,
    TableRun,
    _seat_players,
    bot_process,
    choose,
    percentile,
    start_table,
)
from tests.fakediscord import FakeDiscord, FakeDiscordError, RateLimits
from tests.fakediscord.limits import EXEMPT

TOKEN = "fake.bot.token"
GLOBAL_LIMIT = 50  # Discord's global limit, as the fake enforces it
BUDGET = DEFAULT_PER_SECOND  # the bot's default budget
TARGET_CALLS_PER_MOVE = 1.0
TARGET_TABLES = 200
TARGET_HANDOFF_P99_MS = 1000.0
TARGET_SPECTATOR_LAG_S = 10.0
CATCH_UP_S = 30.0  # after play: how long the spectators' last edits may take
LABEL = 52


@dataclass
class Played:
    """One move as the benchmark saw it."""

    table: int
    mover: int  # the user's id
    answered: float  # perf_counter when the mover's answer came
    next_shown: float | None = None  # when the next move's buttons showed
    next_mover: int | None = None
    new_hand: bool = False  # the next move was a new hand's first
    next_in_hand: int = 0  # the next move's place in its hand (0: the first)
    next_hand: int = 0  # the next move's hand number


@dataclass
class RateFigures:
    tables: int
    pace: float
    mode: str
    players: int
    seconds: float
    target: int | None
    moves: int = 0
    play_s: float = 0.0
    calls: Counter[str] = field(default_factory=Counter)
    global_429s: int = 0
    route_429s: Counter[str] = field(default_factory=Counter)
    peak_per_second: int = 0
    handoffs_ms: list[float] = field(default_factory=list)
    new_hand_handoffs_ms: list[float] = field(default_factory=list)  # a new hand's first turn
    early_handoffs_ms: list[float] = field(default_factory=list)  # its next three moves'
    # after each table's first hand, which every table plays at once as the run starts
    later_handoffs_ms: list[float] = field(default_factory=list)
    spectator_lag_s: list[float] = field(default_factory=list)
    spectators_never: int = 0  # moves the public table had not shown by the end
    dispatch_ms: list[float] = field(default_factory=list)
    bot_cpu_s: float = 0.0
    here_cpu_s: float = 0.0  # the fake Discord and the players, in this process
    finished_tables: int = 0
    errors: list[str] = field(default_factory=list)
    budget: dict[str, Any] = field(default_factory=dict)  # what the bot's budget did
    stagger: float = 0.0  # seconds over which the tables' first moves were spread

    @property
    def counted(self) -> int:
        return sum(n for route, n in self.calls.items() if not any(e in route for e in EXEMPT))

    @property
    def calls_per_move(self) -> float:
        return self.counted / self.moves if self.moves else math.nan

    @property
    def tables_served(self) -> float:
        """Tables of this pace one token's budget carries at this cost a move."""
        per_table = self.calls_per_move / self.pace
        return BUDGET / per_table if per_table > 0 else math.inf


class PublicEdits:
    """When each channel's messages were posted or edited by the bot (the fake's events)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.at: dict[int, list[float]] = {}
        fake.store.sinks.append(self._on_event)

    def _on_event(self, event: str, data: dict[str, Any], guild_id: int | None) -> None:
        if guild_id is None or event not in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
            return
        if data.get("interaction") or data.get("interaction_metadata"):
            return  # an answer to a command, not the table
        channel = int(data.get("channel_id") or 0)
        self.at.setdefault(channel, []).append(time.perf_counter())

    def next_after(self, channel: int, moment: float) -> float | None:
        times = self.at.get(channel, [])
        index = bisect.bisect_left(times, moment)
        return times[index] if index < len(times) else None


async def play_paced(
    fake: FakeDiscord,
    panels: Panels,
    run: TableRun,
    rng: random.Random,
    pace: float,
    until: float,
    played: list[Played],
    stagger: float,
) -> None:
    """Move by the DM buttons, one move per ``pace`` seconds from a moment within the first
    ``stagger`` seconds, until ``until`` or the match's end; each move's answer and the next
    move's buttons are recorded."""
    users = {fake.dm_channel(u).id: u for u in run.players}
    start = time.perf_counter() + rng.random() * stagger
    last: Played | None = None
    last_token = 0
    try:
        move = 0
        while True:
            delay = start + move * pace - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            if time.perf_counter() >= until:
                return
            message_id = await panels.next_move(run.table_id, move, timeout=WAIT_S * 2)
            if message_id is None:
                run.finished = True
                return
            message = fake.message(message_id)
            user = users[message.channel_id]
            token = panels.tokens[(run.table_id, move)]
            if last is not None:
                last.next_shown = panels.shown_at.get((run.table_id, move), time.perf_counter())
                last.next_mover = user.id
                last.new_hand = token // TOKEN_HAND != last_token // TOKEN_HAND
                last.next_in_hand = token % TOKEN_HAND
                last.next_hand = token // TOKEN_HAND
            last_token = token
            custom_id, kind, value = choose(message, run.table_id, token, rng)
            if value:
                result = await fake.select(user, message, custom_id, [value], timeout=WAIT_S)
            else:
                result = await fake.click(user, message, custom_id, timeout=WAIT_S)
            if "⚠️" in result.text:
                run.error = f"move {move} ({kind}) refused: {result.text}"
                return
            last = Played(run.channel.id, user.id, time.perf_counter())
            played.append(last)
            run.moves += 1
            run.kinds[kind] += 1
            if result.latency is not None:
                run.latencies.append(result.latency)
            move += 1
    except (FakeDiscordError, TimeoutError) as error:
        run.error = f"move {run.moves}: {type(error).__name__}: {error}"


async def run_benchmark(
    tables: int,
    pace: float,
    seconds: float,
    *,
    mode: str = "classic",
    players: int = 2,
    target: int | None = None,
    seed: int = 1,
    db: str | None = None,
    processes: int = 1,
    stagger: float | None = None,
) -> RateFigures:
    figures = RateFigures(tables, pace, mode, players, seconds, target)
    figures.stagger = pace if stagger is None else stagger
    async with contextlib.AsyncExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="ratebench-")))
        database = str(workdir / "gin.sqlite3")
        if db is not None:
            from bot.store.postgres import scratch_schema

            database = await stack.enter_async_context(scratch_schema(db, prefix="gin_rate"))
        fake = FakeDiscord(token=TOKEN, shard_count=processes, rate_limits=RateLimits())
        await fake.start()
        try:
            panels = Panels(fake)
            edits = PublicEdits(fake)
            add_card_emojis(fake)
            host = fake.add_user("host")
            guilds = [
                fake.add_guild(f"Rate Test {k}", owner=host, shard=k) for k in range(processes)
            ]
            runs = _seat_players(fake, guilds, tables, mode, players)
            for run in runs:
                run.target = target
            starter = bot_process(
                fake,
                database,
                workdir / "bot.log",
                workdir / "figures.json",
                processes,
                rest_per_second=None,  # the bot's own default budget
            )
            async with starter as bot:
                if processes == 1:
                    await fake.wait_until_connected(timeout=WAIT_S)
                else:
                    await fake.wait_for(
                        lambda: len(fake.connected_shards()) == processes,
                        timeout=WAIT_S,
                        what="every shard to connect",
                    )
                await fake.wait_for_command("gin", guilds[0], timeout=WAIT_S)
                # Tables open a few at a time, as people start them: a new table's messages
                # are new messages, and the budget serves them too.
                opening = asyncio.Semaphore(8)

                async def open_table(run: TableRun) -> None:
                    async with opening:
                        await start_table(fake, panels, run)

                await asyncio.gather(*(open_table(run) for run in runs))
                limiter = fake.rest.limiter
                limiter.peak_per_second = 0
                before = Counter(fake.rest.requests_by_place)
                global_before, routes_before = limiter.global_429s, Counter(limiter.route_429s)
                cpu_before, here_before = bot.cpu_seconds(), time.process_time()
                rng = random.Random(seed)
                played: list[Played] = []
                # The fake keeps every message it ever saw: a full collection in this process
                # would stall it for 100 ms and more, and the calls it then takes in at once
                # would look to its rate limiter like a burst the bot never sent.
                gc.collect()
                gc.disable()
                started = time.perf_counter()
                until = started + seconds
                try:
                    await asyncio.gather(
                        *(
                            play_paced(
                                fake,
                                panels,
                                run,
                                random.Random(rng.getrandbits(64)),
                                pace,
                                until,
                                played,
                                figures.stagger,
                            )
                            for run in runs
                        )
                    )
                finally:
                    gc.enable()
                figures.play_s = time.perf_counter() - started
                figures.bot_cpu_s = bot.cpu_seconds() - cpu_before
                figures.here_cpu_s = time.process_time() - here_before
                figures.calls = fake.rest.requests_by_place - before
                figures.global_429s = limiter.global_429s - global_before
                figures.route_429s = limiter.route_429s - routes_before
                figures.peak_per_second = limiter.peak_per_second
                with contextlib.suppress(FakeDiscordError, TimeoutError):
                    await fake.wait_for(
                        lambda: all(
                            edits.next_after(p.table, p.answered) is not None for p in played
                        ),
                        timeout=CATCH_UP_S,
                        what="spectators to see the last moves",
                    )
            for path in sorted(workdir.glob("figures.json.*")):
                figures.budget = json.loads(path.read_text()).get("budget", {})
        finally:
            await fake.stop()
    _summarise(figures, runs, played, edits)
    return figures


def _summarise(
    figures: RateFigures,
    runs: Sequence[TableRun],
    played: list[Played],
    edits: PublicEdits,
) -> None:
    figures.moves = len(played)
    for p in played:
        if p.next_shown is not None and p.next_mover != p.mover:
            figures.handoffs_ms.append(max(0.0, p.next_shown - p.answered) * 1000.0)
            if p.new_hand:
                figures.new_hand_handoffs_ms.append(figures.handoffs_ms[-1])
            elif p.next_in_hand <= 3:
                figures.early_handoffs_ms.append(figures.handoffs_ms[-1])
            if p.next_hand > 1:
                figures.later_handoffs_ms.append(figures.handoffs_ms[-1])
        seen = edits.next_after(p.table, p.answered)
        if seen is None:
            figures.spectators_never += 1
        else:
            figures.spectator_lag_s.append(seen - p.answered)
    for run in runs:
        figures.dispatch_ms.extend(x * 1000.0 for x in run.latencies)
        figures.finished_tables += run.finished
        if run.error:
            figures.errors.append(f"table {run.table_id}: {run.error}")


def report(f: RateFigures) -> str:
    what = (
        f"{f.tables} {f.mode} tables of {f.players}"
        if f.mode != "classic"
        else (f"{f.tables} two-player tables")
    )
    lines = [
        f"rate benchmark: {what}, a move every {f.pace:g} s at each table (the first within"
        f" {f.stagger:g} s), {f.play_s:.0f} s of play"
        + (f", matches to {f.target}" if f.target else "")
        + f"; the fake enforces {GLOBAL_LIMIT} calls/s and 5 messages per 5 s per channel",
        f"moves {f.moves} ({f.moves / f.play_s:.1f}/s), matches finished {f.finished_tables}",
        "",
        f"{'figure':<{LABEL}}{'value':>12}   target",
        _row(
            "counted REST calls per move",
            f"{f.calls_per_move:.3f}",
            f"<= {TARGET_CALLS_PER_MOVE:g}",
            f.calls_per_move <= TARGET_CALLS_PER_MOVE,
        ),
        _row(
            "counted REST calls per second",
            f"{f.counted / f.play_s:.1f}" if f.play_s else "nan",
            f"<= {BUDGET:g} (budget)",
            None,
        ),
        _row(
            "most counted calls in one sliding second",
            str(f.peak_per_second),
            f"<= {GLOBAL_LIMIT}",
            f.peak_per_second <= GLOBAL_LIMIT,
        ),
        _row("global 429s", str(f.global_429s), "0", f.global_429s == 0),
        _row("route 429s", str(sum(f.route_429s.values())), "0", not f.route_429s),
        _row(
            "turn hand-off p50 (answer to next player's buttons)",
            f"{statistics.median(f.handoffs_ms):.0f} ms" if f.handoffs_ms else "nan",
        ),
        _row(
            "turn hand-off p99",
            f"{percentile(f.handoffs_ms, 99):.0f} ms",
            f"< {TARGET_HANDOFF_P99_MS:g} ms",
            percentile(f.handoffs_ms, 99) < TARGET_HANDOFF_P99_MS,
        ),
        _row(
            "  of them a new hand's first turn: p50 / p99",
            f"{statistics.median(f.new_hand_handoffs_ms):.0f} / "
            f"{percentile(f.new_hand_handoffs_ms, 99):.0f} ms"
            if f.new_hand_handoffs_ms
            else "nan",
        ),
        _row(
            "  after each table's first hand: p99",
            f"{percentile(f.later_handoffs_ms, 99):.0f} ms" if f.later_handoffs_ms else "nan",
            f"< {TARGET_HANDOFF_P99_MS:g} ms",
            percentile(f.later_handoffs_ms, 99) < TARGET_HANDOFF_P99_MS
            if f.later_handoffs_ms
            else None,
        ),
        _row(
            "  of them a hand's 2nd to 4th moves: p50 / p99",
            f"{statistics.median(f.early_handoffs_ms):.0f} / "
            f"{percentile(f.early_handoffs_ms, 99):.0f} ms"
            if f.early_handoffs_ms
            else "nan",
        ),
        _row(
            "spectators behind the move, p50",
            f"{statistics.median(f.spectator_lag_s):.1f} s" if f.spectator_lag_s else "nan",
        ),
        _row(
            "spectators behind the move, p99",
            f"{percentile(f.spectator_lag_s, 99):.1f} s",
            f"<= {TARGET_SPECTATOR_LAG_S:g} s",
            percentile(f.spectator_lag_s, 99) <= TARGET_SPECTATOR_LAG_S and not f.spectators_never,
        ),
        _row(
            "spectators behind the move, most", f"{max(f.spectator_lag_s, default=math.nan):.1f} s"
        ),
        _row(
            "moves spectators never saw by the end",
            str(f.spectators_never),
            "0",
            f.spectators_never == 0,
        ),
        _row(
            f"tables one token serves at {f.pace:g} s a move",
            f"{f.tables_served:.0f}",
            f">= {TARGET_TABLES}" if f.players == 2 else "",
            f.tables_served >= TARGET_TABLES if f.players == 2 else None,
        ),
        _row("p99 dispatch to answer", f"{percentile(f.dispatch_ms, 99):.1f} ms"),
        _row(
            "bot CPU per move",
            f"{1000.0 * f.bot_cpu_s / f.moves:.2f} ms" if f.moves else "nan",
        ),
        _row("bot CPU, share of a core", f"{100.0 * f.bot_cpu_s / f.play_s:.0f} %"),
        _row(
            "fake Discord and players' CPU, share of a core",
            f"{100.0 * f.here_cpu_s / f.play_s:.0f} %",
        ),
    ]
    if f.budget:
        lines += [
            "",
            f"{'the bot budget, by priority':<{LABEL}}{'calls':>12}   mean wait   p99 wait"
            "   longest",
        ]
        for level, row in f.budget.items():
            if not isinstance(row, dict) or not row["calls"]:
                continue
            mean = 1000.0 * row["waited_s"] / row["calls"]
            lines.append(
                f"  {level:<{LABEL - 2}}{row['calls']:>12}   {mean:7.0f} ms  "
                f"{1000.0 * row.get('p99_s', math.nan):6.0f} ms  "
                f"{1000.0 * row['longest_s']:6.0f} ms"
            )
        lines.append(
            f"  deletions dropped: {f.budget.get('dropped', 0)}; calls whose end was never seen:"
            f" {f.budget.get('stuck', 0)}, under way at the end: {f.budget.get('under_way', 0)}"
        )
    lines += ["", f"{'counted calls per move, by route':<{LABEL}}{'per move':>12}   calls"]
    counted = {r: n for r, n in f.calls.items() if not any(e in r for e in EXEMPT)}
    for route, n in sorted(counted.items(), key=lambda item: -item[1]):
        lines.append(f"  {route:<{LABEL - 2}}{n / max(f.moves, 1):>12.3f}   {n}")
    if f.errors:
        lines += ["", f"errors ({len(f.errors)}):", *[f"  {e}" for e in f.errors[:10]]]
    return "\n".join(lines)


def _row(label: str, value: str, target: str = "", ok: bool | None = None) -> str:
    verdict = "" if ok is None else ("met" if ok else "MISSED")
    return f"{label:<{LABEL}}{value:>12}   {target:<18} {verdict}".rstrip()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.ratebench", description=__doc__)
    parser.add_argument("--tables", type=int, default=200, help="tables playing at once (200)")
    parser.add_argument("--pace", type=float, default=4.0, help="seconds a move at a table (4)")
    parser.add_argument("--seconds", type=float, default=300.0, help="seconds of play (300)")
    parser.add_argument("--target", type=int, default=None, help="the matches' target points")
    parser.add_argument("--mode", choices=("classic", "three", "elimination"), default="classic")
    parser.add_argument("--players", type=int, default=None, help="players a table (elimination)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None, help="a postgresql:// URL (default: SQLite)")
    parser.add_argument("--processes", type=int, default=1, help="bot processes (needs --db)")
    parser.add_argument(
        "--stagger",
        type=float,
        default=None,
        help="seconds over which the tables' first moves are spread (default: one pace)",
    )
    args = parser.parse_args(argv)
    if args.processes > 1 and not args.db:
        parser.error("--processes above 1 needs --db postgresql://…")
    players = args.players or {"classic": 2, "three": 3, "elimination": 6}[args.mode]
    figures = asyncio.run(
        run_benchmark(
            args.tables,
            args.pace,
            args.seconds,
            mode=args.mode,
            players=players,
            target=args.target,
            seed=args.seed,
            db=args.db,
            processes=args.processes,
            stagger=args.stagger,
        )
    )
    print(report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

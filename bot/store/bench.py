"""Move-rate check: ``python -m bot.store.bench [--db postgresql://...]``. Prints figures,
asserts nothing.

Many tables play at once on a temporary file database with the production pragmas (or, with
``--db``, in a schema of its own on that PostgreSQL server, dropped afterwards), each
making its moves one after another the way the table service does: a state of about 10 KB,
the table's display JSON, and a new turn deadline every other move. ``--pattern combined``
writes all of that with one ``record_move``; ``separate`` writes the move, then calls
``set_display`` and ``set_deadline``, to compare the two ways.

Two runs by default: flat out (each table moves again as soon as its move is committed,
which gives the store's ceiling) and paced (a think time between a table's moves, about
1,000 moves/s in all, so the latency is the one a player sees at that load rather than a
queue the bench built itself: flat out, the tables wait for each other's JSON encoding).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from bot.store.base import Store
from bot.store.codec import dump
from bot.store.postgres import POOL_SIZE, PostgresStore, redact, scratch_schema
from bot.store.rows import JsonObject, MoveRecord
from bot.store.sqlite import SqliteStore

NOW = "2025-01-01T00:00:00Z"
RANKS = "A23456789TJQK"
SUITS = "cdhs"
Pattern = Literal["combined", "separate"]


def fake_state(rng: random.Random, move: int) -> JsonObject:
    """A state shaped like the engine's: hands, piles, a long history; about 10 KB as JSON."""
    deck = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(deck)
    history = [
        {"seat": i % 2, "kind": rng.choice(["draw", "take", "discard"]), "card": rng.choice(deck)}
        for i in range(260)
    ]
    return {
        "players": [{"id": "100000000000000001", "name": "Alice"}, {"id": "2", "name": "Bob"}],
        "scores": [rng.randrange(100), rng.randrange(100)],
        "hand": {"hands": [deck[:10], deck[10:20]], "stock": deck[21:], "discard": deck[20:21]},
        "history": history,
        "move": move,
    }


def fake_display(seq: int) -> JsonObject:
    """Message ids, names and the turn timer, like the table service keeps."""
    return {
        "names": {"0": "Alice", "1": "Bob"},
        "table_message": "1300000000000000001",
        "hands": {"0": "1300000000000000002", "1": "1300000000000000003"},
        "timer": {"key": f"1:{seq % 2}:{seq}", "started": NOW, "reminded": False},
    }


@dataclass(frozen=True, slots=True)
class Figures:
    moves: int
    seconds: float
    latencies: list[float]

    def line(self, label: str) -> str:
        cuts = statistics.quantiles(self.latencies, n=100)
        return (
            f"{label:<16}{self.moves} moves in {self.seconds:.2f} s = "
            f"{self.moves / self.seconds:,.0f} moves/s; latency p50 {cuts[49] * 1000:.1f} ms, "
            f"p99 {cuts[98] * 1000:.1f} ms, max {max(self.latencies) * 1000:.1f} ms"
        )


async def table(
    store: Store,
    match_id: int,
    states: list[JsonObject],
    moves: int,
    pattern: Pattern,
    think: float,
    latencies: list[float],
) -> None:
    rng = random.Random(match_id)
    if think:
        await asyncio.sleep(rng.uniform(0, think))  # tables do not all start in step
    for seq in range(1, moves + 1):
        # The turn passes on every other move (draw, then discard): a new deadline then.
        turn_passes = seq % 2 == 0
        deadline = f"2025-01-01T00:{seq // 60 % 60:02d}:{seq % 60:02d}Z"
        move = MoveRecord(
            match_id=match_id,
            seq=seq,
            hand_number=1,
            seat=seq % 2,
            action={"kind": "discard", "card": "7h"},
            state={**states[seq % 4], "move": seq},
            now=NOW,
        )
        start = time.perf_counter()
        if pattern == "combined":
            await store.record_move(
                replace(
                    move,
                    display=fake_display(seq),
                    deadline=deadline if turn_passes else None,
                    change_deadline=turn_passes,
                )
            )
        else:
            await store.record_move(move)
            await store.set_display(match_id, fake_display(seq), NOW)
            if turn_passes:
                await store.set_deadline(match_id, deadline, NOW)
        latencies.append(time.perf_counter() - start)
        if think:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)


@asynccontextmanager
async def fresh_store(postgres: str | None) -> AsyncIterator[Store]:
    """An empty, open store: a SQLite file in a temporary folder, or a scratch schema."""
    if postgres is None:
        with tempfile.TemporaryDirectory() as folder:
            async with SqliteStore(Path(folder) / "bench.sqlite3") as store:
                yield store
        return
    async with (
        scratch_schema(postgres, prefix="gin_bench") as url,
        PostgresStore(url, max_size=POOL) as store,
    ):
        yield store


# PostgreSQL connections: one move in flight each.
POOL = 20


async def run(
    matches: int, moves: int, pattern: Pattern, think: float, postgres: str | None = None
) -> Figures:
    async with fresh_store(postgres) as store:
        ids = []
        for n in range(matches):
            mid = await store.create_challenge("g", f"c{n}", f"a{n}", f"b{n}", {"target": 100}, NOW)
            await store.start_match(mid, fake_state(random.Random(n), 0), NOW)
            ids.append(mid)
        # Built before timing, so the figure is the store's cost (JSON encoding included).
        states = {mid: [fake_state(random.Random(mid), n) for n in range(4)] for mid in ids}
        latencies: list[float] = []
        start = time.perf_counter()
        await asyncio.gather(
            *(table(store, mid, states[mid], moves, pattern, think, latencies) for mid in ids)
        )
        elapsed = time.perf_counter() - start
        total = (await store.counts())["moves"]
    return Figures(total, elapsed, latencies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=100, help="tables playing at once")
    parser.add_argument("--moves", type=int, default=50, help="moves per table")
    parser.add_argument("--pattern", choices=["combined", "separate"], default="combined")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="a postgresql:// URL: run on PostgreSQL (in a scratch schema) instead of SQLite",
    )
    parser.add_argument(
        "--think-ms",
        type=float,
        action="append",
        help="mean pause between a table's moves; repeat for several runs (default 0 and 80)",
    )
    args = parser.parse_args()
    size = len(dump(fake_state(random.Random(0), 0))) / 1024
    where = "SQLite file" if args.db is None else f"PostgreSQL {redact(args.db)}, pool {POOL_SIZE}"
    print(
        f"{where}: {args.matches} tables x {args.moves} moves, state ~{size:.1f} KB, display"
        f" every move, deadline every other move, pattern {args.pattern}"
    )
    for think_ms in args.think_ms or [0.0, 80.0]:
        figures = asyncio.run(run(args.matches, args.moves, args.pattern, think_ms / 1000, args.db))
        label = "flat out" if not think_ms else f"think {think_ms:g} ms"
        print(figures.line(label + ":"))


if __name__ == "__main__":
    main()

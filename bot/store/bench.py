"""Rough move-rate check: ``python -m bot.store.bench``. Prints figures, asserts nothing.

Many tables record moves at once on a temporary file database with the production pragmas,
each move carrying a state of about 10 KB like a real match.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.store.codec import dump
from bot.store.rows import JsonObject, MoveRecord
from bot.store.sqlite import SqliteStore

NOW = "2025-01-01T00:00:00Z"
RANKS = "A23456789TJQK"
SUITS = "cdhs"


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


async def table(
    store: SqliteStore, match_id: int, states: list[JsonObject], moves: int, latencies: list[float]
) -> None:
    for seq in range(1, moves + 1):
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
        await store.record_move(move)
        latencies.append(time.perf_counter() - start)


async def run(matches: int, moves: int, folder: Path) -> None:
    async with SqliteStore(folder / "bench.sqlite3") as store:
        ids = []
        for n in range(matches):
            mid = await store.create_challenge("g", f"c{n}", f"a{n}", f"b{n}", {"target": 100}, NOW)
            await store.start_match(mid, fake_state(random.Random(n), 0), NOW)
            ids.append(mid)
        size = len(dump(fake_state(random.Random(0), 0)))
        # Built before timing, so the figure is the store's cost (JSON encoding included).
        states = {mid: [fake_state(random.Random(mid), n) for n in range(4)] for mid in ids}
        latencies: list[float] = []
        start = time.perf_counter()
        await asyncio.gather(*(table(store, mid, states[mid], moves, latencies) for mid in ids))
        elapsed = time.perf_counter() - start
        total = (await store.counts())["moves"]
    cuts = statistics.quantiles(latencies, n=100)
    print(f"{total} moves over {matches} tables, state ~{size / 1024:.1f} KB")
    print(f"{total / elapsed:,.0f} moves/s ({elapsed:.2f} s)")
    print(f"latency p50 {cuts[49] * 1000:.1f} ms, p99 {cuts[98] * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--moves", type=int, default=50, help="moves per match")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args.matches, args.moves, Path(folder)))


if __name__ == "__main__":
    main()

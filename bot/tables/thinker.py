"""Where the expert opponent thinks: worker processes, so a search never holds the event loop.

The expert plays out hundreds of sampled hands for each move; done on the loop, every other
table would wait for it. The loop computes the seat's view (cheap), draws a seed from the
table's generator (so a seeded table still repeats its moves), and awaits the decision from a
pool of processes sized by ``GIN_EXPERT_WORKERS``. The pool starts with the bot and stops with
it; if it cannot start or dies, the next decision starts a new one, and meanwhile a decision
runs on a thread (it still never blocks the loop outright).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.gin.ai import AnyView, Level, decide
from bot.gin.hand import Action
from bot.pools import WorkerPool, leave_with_parent

log = logging.getLogger(__name__)
T = TypeVar("T")

ORPHAN_CHECK_SECONDS = 1.0
TIMES_KEPT = 100_000
"""Decision times kept for the load benchmark's report (a few MB at most)."""
OFF_LOOP_LEVELS = frozenset({Level.EXPERT})
"""Levels whose decisions go to the workers; the others are quick enough to run inline."""


def start_worker(parent: int) -> None:
    """Runs first in each worker: it leaves with the bot's process, then it warms up (the
    card tables are built on import)."""
    leave_with_parent(parent)
    import bot.gin.ai.expert  # noqa: F401  (the tables are built here, not at the first move)


def think(view: AnyView, level: str, seed: int) -> tuple[Action, float]:
    """Runs in a worker: the decision for this view, from a generator seeded by the loop,
    and the seconds it took there."""
    started = time.perf_counter()
    action = decide(view, level, random.Random(seed))
    return action, time.perf_counter() - started


class Thinker:
    """A pool of worker processes deciding the slow levels' moves."""

    def __init__(self, workers: int = 1, *, processes: bool = True) -> None:
        self.pool = WorkerPool("expert", start_worker, workers=workers, processes=processes)
        self.think_ms: deque[float] = deque(maxlen=TIMES_KEPT)
        """Each decision's time in its worker."""
        self.decide_ms: deque[float] = deque(maxlen=TIMES_KEPT)
        """Each decision's time as its table waited for it: the worker's, and the queue's
        when every worker was busy."""

    def resize(self, workers: int) -> None:
        """Sets how many workers the next pool starts (the running one keeps its size)."""
        self.pool.workers = max(1, workers)

    def start(self) -> None:
        """Starts the workers if they are not running, without waiting for them."""
        self.pool.executor()

    def worker_pids(self) -> list[int]:
        return self.pool.pids()

    async def decide(self, view: AnyView, level: str, rng: random.Random) -> Action:
        """The level's move for the view, thought out in a worker; the loop goes on meanwhile."""
        seed = rng.getrandbits(64)
        pool = self.pool.executor()
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        try:
            action, seconds = await loop.run_in_executor(pool, think, view, level, seed)
        except BrokenProcessPool:
            self.pool.discard(pool)  # a worker died: the next decision starts new ones
            log.warning("the expert's workers died; this move is thought out on a thread")
            action, seconds = await asyncio.to_thread(think, view, level, seed)
        self.think_ms.append(seconds * 1000)
        self.decide_ms.append((time.perf_counter() - started) * 1000)
        return action

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        """Any other slow, pure work (the coach's valuing) in the same workers: a picklable
        top-level ``job`` and its arguments. Callers keep each job short, so a move of the
        expert never waits behind much."""
        pool = self.pool.executor()
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(pool, job, *args)
        except BrokenProcessPool:
            self.pool.discard(pool)  # a worker died: the next job starts new ones
            return await asyncio.to_thread(job, *args)

    def close(self) -> None:
        """Stops the workers at once, whatever they are doing."""
        self.pool.close()


THINKER = Thinker()
"""The expert's workers of this process (one pool serves every bot in it, as in tests)."""

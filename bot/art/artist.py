"""Where showdown pictures are drawn: a process of their own, so drawing never holds the bot's
interpreter lock and a picture costs the event loop nothing but sending a few bytes.

One artist serves every bot in a process (tests start many). Its worker starts in the
background at the first ``start()``, draws one picture to load its fonts and card tiles, and
then draws one picture at a time. Pictures are cached by what they show, so a retried post
never draws twice. If the worker cannot be started or dies, the next picture starts a new one;
a picture that fails or takes too long is skipped, and the showdown goes out as text.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from concurrent.futures.process import BrokenProcessPool

from bot.art.showdown import ShowdownPicture, draw_showdown, warm_up
from bot.pools import WorkerPool, leave_with_parent

CACHE_SIZE = 16  # a showdown is posted once; the cache serves retries and restarts
DEADLINE_SECONDS = 10.0  # past this the showdown goes out without its picture
TIMES_KEPT = 100_000


def start_worker(parent: int) -> None:
    """Runs first in the worker: it leaves with the bot's process, then it warms up."""
    leave_with_parent(parent)
    warm_up()


def timed_draw(picture: ShowdownPicture) -> tuple[bytes, float]:
    """Runs in the worker: the PNG and how long drawing it took, in milliseconds."""
    started = time.perf_counter()
    data = draw_showdown(picture)
    return data, (time.perf_counter() - started) * 1000


class Artist:
    """Draws showdown pictures off the event loop and remembers how long each took.

    ``draw_ms`` are the worker's drawing times; ``wait_ms`` what the bot waited for each
    picture it did not have cached (drawing, queueing and the trip between processes).
    """

    def __init__(self, *, processes: bool = True) -> None:
        self.draw_ms: deque[float] = deque(maxlen=TIMES_KEPT)
        self.wait_ms: deque[float] = deque(maxlen=TIMES_KEPT)
        self._cache: OrderedDict[ShowdownPicture, bytes] = OrderedDict()
        self.pool = WorkerPool("art", start_worker, processes=processes, warm_thread=warm_up)

    def start(self) -> None:
        """Starts the worker if it is not running, without waiting for it."""
        self.pool.executor()

    def worker_pids(self) -> list[int]:
        """The worker processes' ids (none when drawing on a thread or not started)."""
        return self.pool.pids()

    async def showdown(self, picture: ShowdownPicture) -> bytes:
        """The picture as PNG bytes. Raises when it cannot be drawn in time."""
        cached = self._cache.get(picture)
        if cached is not None:
            self._cache.move_to_end(picture)
            return cached
        started = time.perf_counter()
        pool = self.pool.executor()
        loop = asyncio.get_running_loop()
        try:
            data, draw_ms = await asyncio.wait_for(
                loop.run_in_executor(pool, timed_draw, picture), DEADLINE_SECONDS
            )
        except BrokenProcessPool:
            self.pool.discard(pool)  # the worker died: the next picture starts another
            raise
        self.draw_ms.append(draw_ms)
        self.wait_ms.append((time.perf_counter() - started) * 1000)
        self._cache[picture] = data
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return data

    def close(self) -> None:
        """Stops the worker at once, whatever it is doing: a shutdown never waits for a
        picture or for the worker's warm-up (the interpreter's exit would join it)."""
        self.pool.close()


ARTIST = Artist()
"""The artist of this process."""

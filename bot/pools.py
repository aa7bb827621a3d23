"""Worker process pools for slow, pure work (showdown pictures, the expert's search): started in
the background, started again after a worker dies, stopped at once (a shutdown never waits for
work under way), and a thread pool instead where processes cannot start."""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

log = logging.getLogger(__name__)

ORPHAN_CHECK_SECONDS = 1.0


def leave_with_parent(parent: int) -> None:
    """In a worker: exit when the bot's process is gone (killed, say, with no chance to stop
    its workers)."""

    def watch() -> None:
        while True:
            time.sleep(ORPHAN_CHECK_SECONDS)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()


def stop_now(pool: Executor) -> None:
    """Cancel what waits, then terminate and reap the pool's processes (if it has any)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(timeout=1.0)


class WorkerPool:
    """One lazily started pool of ``workers`` processes, shared by every bot of the process.

    ``start_worker(parent_pid)`` runs first in each worker (a top-level function: workers are
    spawned); ``warm_thread``, if given, warms up the thread pool used when processes cannot
    start.
    """

    def __init__(
        self,
        name: str,
        start_worker: Callable[[int], None],
        *,
        workers: int = 1,
        processes: bool = True,
        warm_thread: Callable[[], object] | None = None,
    ) -> None:
        self.name = name
        self.workers = max(1, workers)
        self.processes = processes
        self._start_worker = start_worker
        self._warm_thread = warm_thread
        self._pool: Executor | None = None
        self._lock = threading.Lock()  # bots on several loops may share one pool

    def executor(self) -> Executor:
        """The running pool, started (in the background) if there is none."""
        with self._lock:
            if self._pool is None:
                self._pool = self._new_pool()
            return self._pool

    def pids(self) -> list[int]:
        """The worker processes' ids (none on threads or before the start)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return sorted(processes)

    def discard(self, pool: Executor) -> None:
        """A worker of ``pool`` died: the next call of ``executor`` starts a new pool."""
        with self._lock:
            if self._pool is pool:
                self._pool = None
        with contextlib.suppress(Exception):
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stops the workers at once, whatever they are doing."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            stop_now(pool)

    def _new_pool(self) -> Executor:
        if self.processes:
            try:
                pool = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=self._start_worker,
                    initargs=(os.getpid(),),
                )
                for _ in range(self.workers):
                    pool.submit(int)  # starts the workers now, in the background
                return pool
            except (OSError, NotImplementedError, BrokenProcessPool):
                log.exception("%s: no worker processes; working on a thread instead", self.name)
        threads = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix=self.name)
        if self._warm_thread is not None:
            threads.submit(self._warm_thread)
        return threads

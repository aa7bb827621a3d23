"""Worker process pools that stop at once: a shutdown never waits for work under way."""

from __future__ import annotations

import contextlib
from concurrent.futures import Executor


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

"""WAL checkpoints off the event loop's thread.

The connection that commits moves runs on the event loop's thread, so it has SQLite's
automatic checkpoint turned off: a checkpoint started by a commit copies pages back into the
database file and syncs it, and the loop (every table) would stand still meanwhile. This
runs the checkpoint on a thread of its own with a connection of its own instead; in WAL
mode that goes on alongside new commits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from pathlib import Path

log = logging.getLogger(__name__)

# Moves between checkpoints: at a few KB each, the WAL stays within a few MB.
CHECKPOINT_EVERY = 1000


class Checkpointer:
    """Starts a checkpoint after every ``every`` moves written, one at a time."""

    def __init__(self, path: str | Path, every: int = CHECKPOINT_EVERY) -> None:
        self.path = path
        self.every = every
        self.runs = 0
        self._since = 0
        self._task: asyncio.Task[None] | None = None

    def written(self, moves: int) -> None:
        """Count moves just committed; start a checkpoint when enough have piled up."""
        self._since += moves
        if self._since >= self.every and self._task is None:
            self._since = 0
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            await asyncio.to_thread(checkpoint, self.path)
            self.runs += 1
        except Exception:  # the next one retries; the data is safe in the WAL meanwhile
            log.warning("WAL checkpoint of %s failed", self.path, exc_info=True)
        finally:
            self._task = None

    async def close(self) -> None:
        """Wait for a checkpoint under way (closing the last connection does the final one)."""
        if self._task is not None:
            await asyncio.wait([self._task])


def checkpoint(path: str | Path) -> tuple[int, int, int]:
    """A PASSIVE checkpoint: copies what no reader still needs, never blocks writers.

    Returns SQLite's (busy, WAL frames, frames checkpointed).
    """
    with contextlib.closing(sqlite3.connect(path, timeout=5)) as db:
        row = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    return int(row[0]), int(row[1]), int(row[2])

"""Moves are committed on the event loop's thread; the WAL is checkpointed on another."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from bot.store import SqliteStore
from bot.store.checkpoint import Checkpointer, checkpoint
from tests.store.helpers import move, new_match

pytestmark = pytest.mark.sqlite_only


async def test_a_file_database_leaves_checkpoints_to_the_checkpointer(
    sqlite_file_store: SqliteStore,
) -> None:
    assert await sqlite_file_store.pragma("wal_autocheckpoint") == 0


async def test_an_in_memory_database_keeps_sqlite_s_own_checkpoints(
    sqlite_store: SqliteStore,
) -> None:
    assert sqlite_store._checkpointer is None


async def test_checkpoints_run_off_the_loop_and_empty_the_wal(db_path: Path) -> None:
    async with SqliteStore(db_path) as store:
        assert store._checkpointer is not None
        store._checkpointer.every = 10
        threads: list[int] = []
        real = checkpoint

        def watched(path: str | Path) -> tuple[int, int, int]:
            threads.append(threading.get_ident())
            return real(path)

        import bot.store.checkpoint as module

        module.checkpoint = watched  # type: ignore[assignment]
        try:
            mid = await new_match(store)
            for seq in range(1, 26):
                await store.record_move(move(mid, seq))
                if seq % 10 == 0:  # the 10th and 20th moves each start one
                    await store._checkpointer.close()
            await store._checkpointer.close()
        finally:
            module.checkpoint = real
        assert store._checkpointer.runs == 2 and len(threads) == 2
        assert all(t != threading.get_ident() for t in threads)
        # Everything was copied back: a checkpoint now finds nothing left to do.
        busy, frames, done = await asyncio.to_thread(checkpoint, db_path)
        assert busy == 0 and frames == done
        assert [m.seq for m in await store.moves(mid)] == list(range(1, 26))


async def test_one_checkpoint_at_a_time(db_path: Path) -> None:
    async with SqliteStore(db_path) as store:
        checkpointer = Checkpointer(db_path, every=1)
        checkpointer.written(5)
        first = checkpointer._task
        checkpointer.written(5)  # while the first runs: no second one
        assert first is not None and checkpointer._task is first
        await checkpointer.close()
        assert checkpointer.runs == 1 and checkpointer._task is None
        assert await store.pragma("journal_mode") == "wal"


async def test_a_failing_checkpoint_is_logged_and_the_next_one_runs(tmp_path: Path) -> None:
    checkpointer = Checkpointer(tmp_path / "missing" / "nowhere.sqlite3", every=1)
    checkpointer.written(1)
    await checkpointer.close()
    assert checkpointer.runs == 0 and checkpointer._task is None
    checkpointer.written(1)
    assert checkpointer._task is not None
    await checkpointer.close()


async def test_move_batches_are_written_on_the_loop_s_thread(
    sqlite_store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.store.writes as writes

    seen: list[int] = []
    real = writes.write_moves

    def watched(db: object, moves: list[writes.EncodedMove]) -> list[BaseException | None]:
        seen.append(threading.get_ident())
        return real(db, moves)  # type: ignore[arg-type]

    monkeypatch.setattr(writes, "write_moves", watched)
    mid = await new_match(sqlite_store)
    await asyncio.gather(*(sqlite_store.record_move(move(mid, s)) for s in (1, 2, 3)))
    assert seen == [threading.get_ident()]
    assert [m.seq for m in await sqlite_store.moves(mid)] == [1, 2, 3]

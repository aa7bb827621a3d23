"""What several processes on one database need of the store: a match ended, the display and
the deadline written under the table lock; and news of other processes' changes."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import MatchEnd
from tests.store.helpers import AnyStore, Database, at, finish, move, new_match


async def test_end_display_and_deadline_under_the_lock(store: AnyStore) -> None:
    mid = await new_match(store)
    async with store.lock_table(mid) as locked:
        await locked.set_display({"timers": {"0": {"seat": 0}}}, at(1))
        await locked.set_deadline(at(5), at(1))
    table = await store.get_table(mid)
    assert table is not None and table.display == {"timers": {"0": {"seat": 0}}}
    assert table.deadline == at(5)
    ended = finish("alice", "bob", "alice", reason="forfeit")
    async with store.lock_table(mid) as locked:
        await locked.end_match(None, ended, at(2))
    table = await store.get_table(mid)
    assert table is not None and table.status == "finished" and table.deadline is None
    assert len(await store.results(mid)) == 2


async def test_a_failing_block_undoes_its_display_and_end(store: AnyStore) -> None:
    mid = await new_match(store)
    with pytest.raises(RuntimeError):
        async with store.lock_table(mid) as locked:
            await locked.set_display({"public": 1}, at(1))
            await locked.end_match(None, MatchEnd.cancelled("test"), at(1))
            raise RuntimeError("undo")
    table = await store.get_table(mid)
    assert table is not None and table.status == "playing" and table.display != {"public": 1}


async def test_other_processes_hear_of_changes(backend: str, database: Database) -> None:
    if backend == "sqlite":
        async with database.store() as alone:
            assert not await alone.watch(lambda *news: None)
        return
    heard: list[tuple[int, int, str, int]] = []
    async with database.store() as writer, database.store() as reader:
        assert await reader.watch(lambda *news: heard.append(news))
        await writer.watch(lambda *news: pytest.fail(f"heard its own change: {news}"))
        mid = await new_match(writer)
        await writer.record_move(move(mid, 1))
        async with writer.lock_table(mid) as locked:
            await locked.record_move(move(mid, 2))
        for _ in range(50):
            if len(heard) >= 3:
                break
            await asyncio.sleep(0.05)
    assert heard[-2:] == [(mid, 1, "playing", 1), (mid, 2, "playing", 0)]

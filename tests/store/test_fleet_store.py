"""What several processes on one database need of the store: a match ended, the display and
the deadline written under the table lock; and news of other processes' changes."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.store import MatchEnd, TableChange, codec
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


async def test_a_move_may_write_only_the_clocks(store: AnyStore) -> None:
    mid = await new_match(store)
    await store.set_display(mid, {"public": 7, "timer": {"started": "x"}, "timers": {}}, at(1))
    clocks = {"0": {"seat": 1, "started": at(2)}}
    await store.record_move(replace(move(mid, 1), timers=clocks))
    table = await store.get_table(mid)
    # The clocks replaced, the old single clock gone, the message ids kept as stored.
    assert table is not None and table.display == {"public": 7, "timers": clocks}
    async with store.lock_table(mid) as locked:
        await locked.record_move(replace(move(mid, 2), timers={}))
    table = await store.get_table(mid)
    assert table is not None and table.display == {"public": 7, "timers": {}}
    with pytest.raises(ValueError, match="not both"):
        replace(move(mid, 3), timers={}, display={})


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
    heard: list[TableChange] = []
    async with database.store() as writer, database.store() as reader:
        assert await reader.watch(heard.append)
        await writer.watch(lambda news: pytest.fail(f"heard its own change: {news}"))
        mid = await new_match(writer)
        first = move(mid, 1)
        await writer.record_move(first)
        async with writer.lock_table(mid) as locked:
            await locked.record_move(move(mid, 2))
        for _ in range(50):
            if len(heard) >= 3:
                break
            await asyncio.sleep(0.05)
    plain, locked_move = heard[-2:]
    # A plain move recorded on its own comes with the move, so the others can make it.
    assert (plain.table_id, plain.count, plain.status, plain.seat) == (mid, 1, "playing", 1)
    assert plain.move is not None and plain.move.action == first.action
    assert plain.move.state_check == codec.state_check(codec.dump(first.state))
    assert locked_move == TableChange(mid, 2, "playing", 0)

"""Many tables writing at once on one connection: every move lands, races are refused."""

from __future__ import annotations

import asyncio

from bot.store import StaleMove
from tests.store.helpers import AnyStore, move, new_match, state

TABLES = 50
MOVES = 20


async def play_moves(store: AnyStore, match_id: int) -> None:
    for seq in range(1, MOVES + 1):
        await store.record_move(move(match_id, seq))


async def test_fifty_tables_at_once(file_store: AnyStore) -> None:
    ids = [await new_match(file_store, f"a{n}", f"b{n}") for n in range(TABLES)]
    await asyncio.gather(*(play_moves(file_store, mid) for mid in ids))
    assert (await file_store.counts())["moves"] == TABLES * MOVES
    tables = await file_store.open_tables()
    assert {t.move_count for t in tables} == {MOVES}
    assert {t.state == state(MOVES) for t in tables} == {True}


async def test_racing_duplicates_one_wins(file_store: AnyStore) -> None:
    mid = await new_match(file_store)
    outcomes = await asyncio.gather(
        *(file_store.record_move(move(mid, 1)) for _ in range(5)), return_exceptions=True
    )
    assert outcomes.count(None) == 1
    assert all(isinstance(o, StaleMove) for o in outcomes if o is not None)
    assert [m.seq for m in await file_store.moves(mid)] == [1]


async def test_a_cancelled_move_leaves_the_store_usable(file_store: AnyStore) -> None:
    """Cancel at many points of the transaction: the move lands whole or not at all."""
    mid = await new_match(file_store)
    for step in range(60):
        table = await file_store.get_table(mid)
        assert table is not None
        task = asyncio.create_task(file_store.record_move(move(mid, table.move_count + 1)))
        await asyncio.sleep(step * 0.00002)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        table = await file_store.get_table(mid)
        assert table is not None
        assert [m.seq for m in await file_store.moves(mid)] == list(range(1, table.move_count + 1))
        assert table.state == state(table.move_count)
        await file_store.record_move(move(mid, table.move_count + 1))  # no transaction left open

"""Guild settings, and table deadlines that outlive the process."""

from __future__ import annotations

import pytest

from bot.store import MatchEnd, StaleMove, StartClocks
from tests.store.helpers import AnyStore, Database, at, finish, hand, move, new_match, state


async def test_guild_settings_round_trip(store: AnyStore) -> None:
    assert await store.get_guild_settings("g1") is None
    first = {"turn_seconds": 600, "channels": ["1", "2"], "rules": {"big_gin": 31}}
    await store.set_guild_settings("g1", first, at(1))
    assert await store.get_guild_settings("g1") == first
    assert await store.get_guild_settings("g2") is None
    await store.set_guild_settings("g1", {"turn_seconds": 60}, at(2))  # replaced, not merged
    assert await store.get_guild_settings("g1") == {"turn_seconds": 60}
    rows = await store._all("SELECT guild_id, updated_at FROM guild_settings")
    assert [tuple(r) for r in rows] == [("g1", at(2))]
    with pytest.raises(TypeError):
        await store.set_guild_settings("g1", ["not", "an", "object"], at(3))  # type: ignore[arg-type]


async def test_deadlines_set_clear_due_and_next(store: AnyStore) -> None:
    assert await store.next_deadline() is None
    assert await store.due_deadlines(at(100)) == []
    waiting = await new_match(store, start=False)
    playing = await new_match(store, "carol", "dave")
    quiet = await new_match(store, "erin", "fred")  # no deadline at all

    await store.set_deadline(waiting, at(30), at(1))
    await store.set_deadline(playing, at(20), at(2))
    table = await store.get_table(playing)
    assert table is not None and (table.deadline, table.updated_at) == (at(20), at(2))
    assert await store.next_deadline() == at(20)
    assert await store.due_deadlines(at(19)) == []
    assert await store.due_deadlines(at(20)) == [(playing, at(20))]  # due at the very time
    assert await store.due_deadlines(at(99)) == [(playing, at(20)), (waiting, at(30))]

    await store.set_deadline(playing, None, at(3))  # cleared
    assert await store.next_deadline() == at(30)
    assert await store.due_deadlines(at(99)) == [(waiting, at(30))]
    await store.set_deadline(quiet, at(30), at(4))  # same time: by match id
    assert await store.due_deadlines(at(30)) == [(waiting, at(30)), (quiet, at(30))]


async def test_moves_and_starting_keep_the_deadline(store: AnyStore) -> None:
    mid = await new_match(store, start=False)
    await store.set_deadline(mid, at(50), at(1))
    await store.start_match(mid, state(0), at(2))
    await store.record_move(move(mid, 1))
    await store.record_move(move(mid, 2, finished_hand=hand(mid, 1, "knock", 0)))
    await store.set_display(mid, {"message": "1"}, at(3))
    table = await store.get_table(mid)
    assert table is not None and table.deadline == at(50)
    assert await store.due_deadlines(at(50)) == [(mid, at(50))]


async def test_a_match_starts_with_its_clocks_in_one_write(store: AnyStore) -> None:
    expiring = await new_match(store, start=False)
    await store.set_deadline(expiring, at(50), at(1))  # the challenge's expiry
    clocks = StartClocks({"timers": {"0": {"seat": 1}}, "message": "7"}, at(20))
    await store.start_match(expiring, state(0), at(2), clocks=clocks)
    table = await store.get_table(expiring)
    assert table is not None and table.status == "playing"
    assert (table.deadline, table.display, table.updated_at) == (at(20), clocks.display, at(2))
    assert await store.due_deadlines(at(50)) == [(expiring, at(20))]
    # A match with no clock (bots to move) starts with no deadline at all.
    quiet = await new_match(store, "erin", "fred", start=False)
    await store.set_deadline(quiet, at(50), at(1))
    await store.start_match(quiet, state(0), at(2), clocks=StartClocks({}, None))
    table = await store.get_table(quiet)
    assert table is not None and (table.deadline, table.display) == (None, {})


async def test_a_refused_start_writes_no_clocks(store: AnyStore) -> None:
    mid = await new_match(store)  # started already
    await store.set_deadline(mid, at(50), at(1))
    with pytest.raises(StaleMove):
        await store.start_match(mid, state(0), at(2), clocks=StartClocks({"x": 1}, at(9)))
    table = await store.get_table(mid)
    assert table is not None and (table.deadline, table.display) == (at(50), {})


async def test_closing_or_finishing_clears_the_deadline(store: AnyStore) -> None:
    declined = await new_match(store, start=False)
    finished = await new_match(store)
    resigned = await new_match(store)
    cancelled = await new_match(store)
    for mid in (declined, finished, resigned, cancelled):
        await store.set_deadline(mid, at(10), at(1))

    await store.close_challenge(declined, "declined", at(2))
    await store.record_move(move(finished, 1, finished=finish("alice", "bob", "alice")))
    await store.end_match(resigned, None, finish("alice", "bob", "bob", reason="resign"), at(3))
    await store.end_match(cancelled, None, MatchEnd.cancelled("admin"), at(4))

    for mid in (declined, finished, resigned, cancelled):
        table = await store.get_table(mid)
        assert table is not None and table.deadline is None
    assert await store.due_deadlines(at(99)) == []
    assert await store.next_deadline() is None
    with pytest.raises(StaleMove):
        await store.set_deadline(finished, at(20), at(5))  # a late timer finds nothing to do
    await store.set_deadline(declined, None, at(5))  # clearing again is harmless
    for deadline in (at(20), None):
        with pytest.raises(StaleMove):
            await store.set_deadline(9999, deadline, at(5))


async def test_deadlines_survive_a_restart(database: Database) -> None:
    async with database.store() as store:
        mid = await new_match(store)
        await store.set_deadline(mid, at(40), at(1))
    async with database.store() as store:
        (table,) = await store.open_tables()
        assert table.deadline == at(40)
        assert await store.next_deadline() == at(40)
        assert await store.due_deadlines(at(40)) == [(mid, at(40))]

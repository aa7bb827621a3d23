"""Several writers of one table, in one process or several: the table lock, moves applied
exactly once, and timers claimed once."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.store import RatingRow, StaleMove
from tests.store.helpers import AnyStore, Database, at, finish, move, new_match, state


async def test_a_locked_table_reads_then_writes(store: AnyStore) -> None:
    mid = await new_match(store)
    await store.record_move(move(mid, 1))
    async with store.lock_table(mid) as locked:
        assert (locked.table.id, locked.table.move_count, locked.table.state) == (mid, 1, state(1))
        assert [s.user_id for s in locked.table.seats] == ["alice", "bob"]
        await locked.record_move(move(mid, 2))
        await locked.record_move(move(mid, 3))
        with pytest.raises(StaleMove, match="not the next move"):
            await locked.record_move(move(mid, 3))  # counted from the moves made here
    table = await store.get_table(mid)
    assert table is not None and (table.move_count, table.state) == (3, state(3))
    assert [m.seq for m in await store.moves(mid)] == [1, 2, 3]


async def test_a_failing_block_undoes_its_moves(store: AnyStore) -> None:
    mid = await new_match(store)
    with pytest.raises(RuntimeError, match="the engine broke"):
        async with store.lock_table(mid) as locked:
            await locked.record_move(move(mid, 1))
            raise RuntimeError("the engine broke")
    table = await store.get_table(mid)
    assert table is not None and table.move_count == 0
    assert await store.moves(mid) == []
    await store.record_move(move(mid, 1))  # nothing left held


async def test_a_refused_move_in_a_block_undoes_itself_alone(store: AnyStore) -> None:
    mid = await new_match(store)
    # Refused once its rows are written: the stranger's rating does not belong to the match.
    stranger = RatingRow("g1", "stranger", 30.0, 5.0, 1)
    bad = move(mid, 2, finished=finish("alice", "bob", "alice"), ratings=(stranger,))
    async with store.lock_table(mid) as locked:
        await locked.record_move(move(mid, 1))
        with pytest.raises(ValueError):
            await locked.record_move(bad)
        await locked.record_move(move(mid, 2))
    table = await store.get_table(mid)
    assert table is not None and (table.status, table.move_count) == ("playing", 2)
    assert await store.results(mid) == []


async def test_a_finished_match_takes_no_more_moves_under_the_lock(store: AnyStore) -> None:
    mid = await new_match(store)
    async with store.lock_table(mid) as locked:
        await locked.record_move(move(mid, 1, finished=finish("alice", "bob", "alice")))
        with pytest.raises(StaleMove, match="finished"):
            await locked.record_move(move(mid, 2))
    with pytest.raises(StaleMove):
        async with store.lock_table(9999):
            pass


async def test_two_processes_apply_each_move_exactly_once(database: Database) -> None:
    """Two stores on one database (two bot processes) send the same moves of the same
    tables at once: every move is applied once, the other copy refused as stale."""
    async with database.store() as one, database.store() as two:
        ids = [await new_match(one, f"a{n}", f"b{n}") for n in range(5)]

        async def play(store: AnyStore, mid: int) -> list[bool]:
            won = []
            for seq in range(1, 11):
                try:
                    await store.record_move(replace(move(mid, seq), display={"by": id(store)}))
                    won.append(True)
                except StaleMove:
                    won.append(False)
            return won

        outcomes = await asyncio.gather(*(play(store, mid) for mid in ids for store in (one, two)))
        for mid in ids:
            table = await one.get_table(mid)
            assert table is not None and table.move_count == 10
            assert [m.seq for m in await one.moves(mid)] == list(range(1, 11))
        for first, second in zip(outcomes[::2], outcomes[1::2], strict=True):
            # Each move went to exactly one of the two: the other was told it was stale.
            assert [a != b for a, b in zip(first, second, strict=True)] == [True] * 10


@pytest.mark.postgres
async def test_a_move_waits_for_the_row_lock(postgres_url_fixture: str) -> None:
    """While one process holds a table's row, another's move of that table waits, then
    finds the count moved on; a move of another table goes straight through."""
    from bot.store import PostgresStore

    async with (
        PostgresStore(postgres_url_fixture) as one,
        PostgresStore(postgres_url_fixture) as two,
    ):
        mid = await new_match(one)
        other = await new_match(one, "carol", "dave")
        async with one.lock_table(mid) as locked:
            racing = asyncio.create_task(two.record_move(move(mid, 1)))
            await asyncio.wait_for(two.record_move(move(other, 1)), timeout=5)
            await asyncio.sleep(0.3)
            assert not racing.done(), "the second writer did not wait for the row"
            await locked.record_move(move(mid, 1))
        with pytest.raises(StaleMove, match="1 recorded"):
            await asyncio.wait_for(racing, timeout=5)
        await two.record_move(move(mid, 2))
        assert [m.seq for m in await one.moves(mid)] == [1, 2]


async def test_a_due_deadline_is_claimed_once(store: AnyStore) -> None:
    mid = await new_match(store)
    await store.set_deadline(mid, at(10), at(1))
    assert not await store.claim_deadline(mid, at(10), "early", at(9), at(99))  # not due
    assert not await store.claim_deadline(mid, at(11), "wrong", at(20), at(99))  # not its own
    claims = await asyncio.gather(
        *(store.claim_deadline(mid, at(10), f"p{n}", at(20), at(30)) for n in range(5))
    )
    assert claims.count(True) == 1
    assert await store.due_deadlines(at(29)) == []  # claimed: due to nobody else meanwhile
    assert not await store.claim_deadline(mid, at(10), "late", at(29), at(99))
    assert await store.due_deadlines(at(30)) == [(mid, at(10))]  # the claim lapsed
    # The claimant died: the claim lapses at its end and someone else may take it.
    assert await store.claim_deadline(mid, at(10), "heir", at(30), at(40))
    # A new deadline starts without a claim; a move that keeps the deadline keeps the claim.
    await store.set_deadline(mid, at(50), at(31))
    assert await store.claim_deadline(mid, at(50), "p1", at(50), at(60))
    await store.record_move(move(mid, 1))
    assert not await store.claim_deadline(mid, at(50), "p2", at(51), at(60))
    await store.record_move(replace(move(mid, 2), deadline=at(70), change_deadline=True))
    assert await store.claim_deadline(mid, at(70), "p2", at(70), at(80))


async def test_closed_tables_have_no_deadline_to_claim(store: AnyStore) -> None:
    challenge = await new_match(store, start=False)
    playing = await new_match(store, "carol", "dave")
    for mid in (challenge, playing):
        await store.set_deadline(mid, at(10), at(1))
        assert await store.claim_deadline(mid, at(10), "p1", at(10), at(20))
    await store.close_challenge(challenge, "expired", at(11))
    await store.record_move(move(playing, 1, finished=finish("carol", "dave", "dave")))
    for mid in (challenge, playing):
        assert not await store.claim_deadline(mid, at(10), "p2", at(30), at(40))
        rows = await store._all(
            "SELECT deadline, deadline_claim, deadline_claim_until FROM matches WHERE id = ?",
            (mid,),
        )
        assert [tuple(r) for r in rows] == [(None, None, None)]
    assert not await store.claim_deadline(9999, at(10), "p1", at(10), at(20))

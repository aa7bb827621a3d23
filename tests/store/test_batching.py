"""Moves of many tables share a transaction (on SQLite), yet each one keeps its own outcome."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.store import MoveRecord, RatingRow, SqliteStore, StaleMove
from tests.store.helpers import (
    INTEGRITY,
    AnyStore,
    Database,
    finish,
    hand,
    move,
    new_match,
    state,
)

ROOT = Path(__file__).resolve().parents[2]


async def together(store: AnyStore, *moves: MoveRecord) -> list[BaseException | None]:
    """Record the moves at once; on SQLite, check they went out in a single transaction
    (PostgreSQL gives each move a transaction of its own, locking its table's row)."""
    before = store.move_transactions
    outcomes = await asyncio.gather(*(store.record_move(m) for m in moves), return_exceptions=True)
    batches = 1 if isinstance(store, SqliteStore) else len(moves)
    assert store.move_transactions == before + batches, "the moves were not written together"
    return outcomes


async def seqs(store: AnyStore, match_id: int) -> list[int]:
    return [m.seq for m in await store.moves(match_id)]


async def test_display_and_deadline_ride_with_the_move(store: AnyStore) -> None:
    mid = await new_match(store)
    await store.set_display(mid, {"old": True}, "t0")
    await store.set_deadline(mid, "d0", "t0")

    await store.record_move(move(mid, 1))  # defaults: both left as they were
    table = await store.get_table(mid)
    assert table is not None and (table.display, table.deadline) == ({"old": True}, "d0")

    shown = {"table_message": "42", "timer": {"key": "1:0:1"}}
    await store.record_move(
        replace(move(mid, 2), display=shown, deadline="d2", change_deadline=True)
    )
    table = await store.get_table(mid)
    assert table is not None and (table.display, table.deadline) == (shown, "d2")
    assert await store.due_deadlines("d2") == [(mid, "d2")]

    await store.record_move(replace(move(mid, 3), change_deadline=True))  # cleared
    table = await store.get_table(mid)
    assert table is not None and (table.display, table.deadline) == (shown, None)
    assert await store.next_deadline() is None


async def test_a_deadline_without_the_flag_is_refused() -> None:
    with pytest.raises(ValueError, match="change_deadline"):
        replace(move(1, 1), deadline="d1")


async def test_a_stale_move_writes_nothing_of_its_own(store: AnyStore) -> None:
    mid = await new_match(store)
    await store.set_display(mid, {"keep": 1}, "t0")
    stale = replace(move(mid, 5), display={"lost": 1}, deadline="d5", change_deadline=True)
    with pytest.raises(StaleMove):
        await store.record_move(stale)
    table = await store.get_table(mid)
    assert table is not None and (table.display, table.deadline) == ({"keep": 1}, None)


async def test_a_finishing_move_clears_the_deadline_it_is_given(store: AnyStore) -> None:
    mid = await new_match(store)
    last = move(
        mid, 1, finished_hand=hand(mid, 1, "gin", 0), finished=finish("alice", "bob", "alice")
    )
    await store.record_move(replace(last, display={"over": 1}, deadline="d9", change_deadline=True))
    table = await store.get_table(mid)
    assert table is not None
    assert (table.status, table.display, table.deadline) == ("finished", {"over": 1}, None)


async def test_a_stale_move_in_a_batch_fails_alone(file_store: AnyStore) -> None:
    a, b, c = [await new_match(file_store, f"a{n}", f"b{n}") for n in range(3)]
    outcomes = await together(
        file_store,
        replace(move(a, 1), display={"a": 1}),
        replace(move(b, 2), display={"b": 1}),  # b has no move 1 yet
        replace(move(c, 1), deadline="dc", change_deadline=True),
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StaleMove) and outcomes[1].match_id == b
    assert (await seqs(file_store, a), await seqs(file_store, b), await seqs(file_store, c)) == (
        [1],
        [],
        [1],
    )
    tables = {t.id: t for t in await file_store.open_tables()}
    assert (tables[a].move_count, tables[a].display, tables[a].state) == (1, {"a": 1}, state(1))
    assert (tables[b].move_count, tables[b].display, tables[b].state) == (0, {}, state(0))
    assert (tables[c].move_count, tables[c].deadline) == (1, "dc")


async def test_one_table_s_moves_in_a_batch_land_in_order(file_store: AnyStore) -> None:
    a = await new_match(file_store)
    outcomes = await together(file_store, move(a, 1), move(a, 2), move(a, 2), move(a, 3))
    assert outcomes[:2] == [None, None] and outcomes[3] is None
    assert isinstance(outcomes[2], StaleMove)  # the repeated click
    assert await seqs(file_store, a) == [1, 2, 3]


async def test_a_finishing_move_in_a_batch(file_store: AnyStore) -> None:
    a, b, c = [await new_match(file_store, f"a{n}", f"b{n}") for n in range(3)]
    rating = RatingRow("g1", "a1", 30.0, 5.0, 1)
    done = move(
        b,
        1,
        finished_hand=hand(b, 1, "knock", 0, knocker_seat=0),
        finished=finish("a1", "b1", "a1"),
        ratings=(rating,),
    )
    outcomes = await together(file_store, move(a, 1), done, move(b, 2), move(c, 1))
    assert outcomes[0] is None and outcomes[1] is None and outcomes[3] is None
    assert isinstance(outcomes[2], StaleMove)  # b finished just before it
    table = await file_store.get_table(b)
    assert table is not None and (table.status, table.winner_id) == ("finished", "a1")
    assert [h.number for h in await file_store.hands(b)] == [1]
    assert {r.user_id for r in await file_store.results(b)} == {"a1", "b1"}
    assert await file_store.get_ratings("g1", ["a1"]) == {"a1": rating}
    assert (await seqs(file_store, a), await seqs(file_store, c)) == ([1], [1])


async def test_a_failing_finish_undoes_only_its_move(file_store: AnyStore) -> None:
    a, b, c = [await new_match(file_store, f"a{n}", f"b{n}") for n in range(3)]
    bad = move(
        b,
        1,
        finished_hand=hand(b, 1, "knock", 0, knocker_seat=0),
        finished=finish("a1", "b1", "a1"),
        ratings=(RatingRow("g1", "stranger", 30.0, 5.0, 1),),  # not a player: refused
    )
    outcomes = await together(file_store, move(a, 1), bad, move(c, 1))
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], ValueError)
    table = await file_store.get_table(b)
    assert table is not None and (table.status, table.move_count) == ("playing", 0)
    assert await file_store.moves(b) == [] and await file_store.hands(b) == []
    assert await file_store.results(b) == []
    assert (await file_store.counts())["ratings"] == 0
    assert (await seqs(file_store, a), await seqs(file_store, c)) == ([1], [1])
    await file_store.record_move(move(b, 1))  # the table goes on


async def test_a_failing_hand_row_undoes_only_its_move(file_store: AnyStore) -> None:
    """A plain move whose own row breaks a constraint: the batch is redone move by move."""
    a, b = [await new_match(file_store, f"a{n}", f"b{n}") for n in range(2)]
    await file_store.record_move(move(a, 1, finished_hand=hand(a, 1, "void", None)))
    again = move(a, 2, hand_number=2, finished_hand=hand(a, 1, "gin", 1))  # hand 1 twice
    outcomes = await together(file_store, move(b, 1), again, move(b, 2))
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], INTEGRITY)
    assert (await seqs(file_store, a), await seqs(file_store, b)) == ([1], [1, 2])
    table = await file_store.get_table(a)
    assert table is not None and (table.move_count, table.state) == (1, state(1))


@pytest.mark.sqlite_only
async def test_a_caller_cancelled_in_the_queue_is_dropped(sqlite_file_store: SqliteStore) -> None:
    store = sqlite_file_store
    a, b = [await new_match(store, f"a{n}", f"b{n}") for n in range(2)]
    async with store._lock:  # the writer cannot start: both moves wait in the queue
        gone = asyncio.create_task(store.record_move(move(a, 1)))
        kept = asyncio.create_task(store.record_move(move(b, 1)))
        await asyncio.sleep(0.01)
        gone.cancel()
        await asyncio.sleep(0)
    await kept
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert (await seqs(store, a), await seqs(store, b)) == ([], [1])
    await store.record_move(move(a, 1))


async def test_cancelled_callers_never_leave_half_moves(file_store: AnyStore) -> None:
    """Cancel callers at random points while other tables keep the writer busy: when a
    cancelled call ends, its move is committed or gone for good, and every table is whole."""
    ids = [await new_match(file_store, f"a{n}", f"b{n}") for n in range(12)]

    async def table(mid: int, n: int) -> None:
        for step in range(25):
            current = await file_store.get_table(mid)
            assert current is not None
            task = asyncio.create_task(file_store.record_move(move(mid, current.move_count + 1)))
            if (step + n) % 3 == 0:
                await asyncio.sleep((step % 5) * 0.0003)
                task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                seen = await file_store.get_table(mid)
                assert seen is not None
                await asyncio.sleep(0.002)
                later = await file_store.get_table(mid)
                assert later is not None and later.move_count == seen.move_count

    await asyncio.gather(*(table(mid, n) for n, mid in enumerate(ids)))
    for mid in ids:
        current = await file_store.get_table(mid)
        assert current is not None and current.state == state(current.move_count)
        assert await seqs(file_store, mid) == list(range(1, current.move_count + 1))


@pytest.mark.sqlite_only
async def test_a_move_is_visible_to_another_connection_once_recorded(
    sqlite_file_store: SqliteStore, db_path: Path
) -> None:
    ids = [await new_match(sqlite_file_store, f"a{n}", f"b{n}") for n in range(5)]
    other = sqlite3.connect(db_path)
    try:
        for seq in (1, 2):
            await asyncio.gather(*(sqlite_file_store.record_move(move(mid, seq)) for mid in ids))
            rows = other.execute("SELECT match_id, MAX(seq) FROM moves GROUP BY match_id")
            assert dict(rows.fetchall()) == dict.fromkeys(ids, seq)
    finally:
        other.close()


CRASHER = """
import asyncio, os, signal, sys
from dataclasses import replace
from bot.store import SqliteStore
from tests.store.helpers import move, new_match

async def main() -> None:
    store = SqliteStore(sys.argv[1])
    await store.open()
    ids = [await new_match(store, f"a{n}", f"b{n}") for n in range(20)]
    async def table(mid: int) -> None:
        for seq in range(1, 11):
            await store.record_move(replace(move(mid, seq), display={"seq": seq}))
            print(mid, seq, flush=True)
    await asyncio.gather(*(table(mid) for mid in ids))
    os.kill(os.getpid(), signal.SIGKILL)  # no close, no checkpoint: only the WAL holds them

asyncio.run(main())
"""


@pytest.mark.sqlite_only
def test_recorded_moves_survive_the_process_being_killed(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    done = subprocess.run(
        [sys.executable, "-c", CRASHER, str(db_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    told: dict[int, int] = {}
    for line in done.stdout.splitlines():
        mid, seq = map(int, line.split())
        told[mid] = max(told.get(mid, 0), seq)
    assert len(told) == 20
    db = sqlite3.connect(db_path)
    try:
        rows = db.execute("SELECT id, move_count, display FROM matches").fetchall()
        moves = dict(db.execute("SELECT match_id, COUNT(*) FROM moves GROUP BY match_id"))
    finally:
        db.close()
    for mid, count, display in rows:
        assert count >= told[mid] and moves[mid] == count
        assert display == f'{{"seq":{count}}}'


async def test_set_display_after_a_move_is_not_overwritten(file_store: AnyStore) -> None:
    """A display saved after ``record_move`` returns wins, though other tables' batches go on."""
    mid, *others = [await new_match(file_store, f"a{n}", f"b{n}") for n in range(20)]

    async def busy(other: int) -> None:
        for seq in range(1, 6):
            await file_store.record_move(replace(move(other, seq), display={"other": seq}))

    traffic = [asyncio.create_task(busy(other)) for other in others]
    for seq in range(1, 6):
        await file_store.record_move(replace(move(mid, seq), display={"from move": seq}))
        await file_store.set_display(mid, {"after move": seq}, "t")
        table = await file_store.get_table(mid)
        assert table is not None and table.display == {"after move": seq}
    await asyncio.gather(*traffic)
    table = await file_store.get_table(mid)
    assert table is not None and table.display == {"after move": 5}


async def test_close_writes_the_queued_moves_first(database: Database) -> None:
    store = database.store()
    await store.open()
    ids = [await new_match(store, f"a{n}", f"b{n}") for n in range(10)]
    tasks = [asyncio.create_task(store.record_move(move(mid, 1))) for mid in ids]
    await asyncio.sleep(0)
    await store.close()
    assert [t.result() for t in tasks] == [None] * len(ids)
    with pytest.raises(RuntimeError, match="not open"):
        await store.record_move(move(ids[0], 2))
    async with database.store() as again:
        assert (await again.counts())["moves"] == len(ids)


@pytest.mark.sqlite_only
async def test_a_batch_that_cannot_begin_fails_its_moves_and_the_next_one_works(
    db_path: Path,
) -> None:
    async with SqliteStore(db_path, busy_timeout_ms=50) as store:
        a, b = [await new_match(store, f"a{n}", f"b{n}") for n in range(2)]
        other = sqlite3.connect(db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            outcomes = await asyncio.gather(
                store.record_move(move(a, 1)), store.record_move(move(b, 1)), return_exceptions=True
            )
            assert all(isinstance(o, sqlite3.OperationalError) for o in outcomes)
            other.execute("ROLLBACK")
        finally:
            other.close()
        await asyncio.gather(store.record_move(move(a, 1)), store.record_move(move(b, 1)))
        assert (await seqs(store, a), await seqs(store, b)) == ([1], [1])

"""A bot process alone on its PostgreSQL database records a plain move in one statement: the
same moves, the same refusals, exactly once under racing writers, as the full transaction."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.store import StaleMove
from bot.store.postgres import PostgresStore
from tests.store.helpers import finish, hand, move, new_match, state


@pytest.fixture
async def alone(postgres_url_fixture: str) -> AsyncIterator[PostgresStore]:
    store = PostgresStore(postgres_url_fixture)
    store.news.announce = False
    async with store:
        yield store


async def test_plain_moves_advance_the_table_and_are_logged(alone: PostgresStore) -> None:
    mid = await new_match(alone)
    for seq in (1, 2, 3):
        await alone.record_move(move(mid, seq))
    table = await alone.get_table(mid)
    assert table is not None and (table.move_count, table.state) == (3, state(3))
    logged = await alone.moves(mid)
    assert [(m.seq, m.seat, m.action["seq"]) for m in logged] == [(1, 1, 1), (2, 0, 2), (3, 1, 3)]


async def test_a_repeated_or_skipped_move_is_refused_and_writes_nothing(
    alone: PostgresStore,
) -> None:
    mid = await new_match(alone)
    await alone.record_move(move(mid, 1))
    with pytest.raises(StaleMove):
        await alone.record_move(move(mid, 1))
    with pytest.raises(StaleMove):
        await alone.record_move(move(mid, 3))
    table = await alone.get_table(mid)
    assert table is not None and table.move_count == 1
    assert [m.seq for m in await alone.moves(mid)] == [1]


async def test_a_move_on_a_finished_match_is_refused(alone: PostgresStore) -> None:
    mid = await new_match(alone)
    ended = hand(mid, 1, "gin", 0)
    await alone.record_move(move(mid, 1, finished_hand=ended))  # the full transaction
    await alone.record_move(move(mid, 2, finished=finish("alice", "bob", "alice")))
    with pytest.raises(StaleMove):
        await alone.record_move(move(mid, 3))
    assert [m.seq for m in await alone.moves(mid)] == [1, 2]


async def test_racing_writers_of_one_move_write_it_once(alone: PostgresStore) -> None:
    mid = await new_match(alone)
    other = PostgresStore(alone.url)
    other.news.announce = False
    async with other:
        outcomes = await asyncio.gather(
            alone.record_move(move(mid, 1)),
            other.record_move(move(mid, 1)),
            return_exceptions=True,
        )
    assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleMove"]
    assert [m.seq for m in await alone.moves(mid)] == [1]

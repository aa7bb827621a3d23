"""The table service with a real SQLite store: challenges, moves, locks and restarts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.gin.errors import IllegalMove
from bot.gin.hand import ActionKind
from bot.gin.match import Player
from bot.server_settings import ServerSettings
from bot.store import SqliteStore
from bot.tables import Status, Table, TableError, TableService
from bot.tables.events import TableClosed
from bot.tables.model import IdleLock
from tests.gin.players import choose

ALICE, BOB, CAROL = Player("1", "Alice"), Player("2", "Bob"), Player("3", "Carol")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = SqliteStore(tmp_path / "gin.sqlite3")
    await store.open()
    yield TableService(store)
    await store.close()


async def started(service: TableService, channel: str = "100") -> Table:
    table = await service.opening.challenge("9", channel, ALICE, BOB, ServerSettings())
    await service.opening.accept(table, BOB.id)
    return table


async def test_challenge_refusals(service: TableService) -> None:
    with pytest.raises(TableError, match="can't challenge yourself"):
        await service.opening.challenge("9", "100", ALICE, ALICE, ServerSettings())
    with pytest.raises(TableError, match="Other bots can't play"):
        await service.opening.challenge(
            "9", "100", ALICE, BOB, ServerSettings(), opponent_is_bot=True
        )
    table = await service.opening.challenge("9", "100", ALICE, BOB, ServerSettings())
    with pytest.raises(TableError, match="already has an open challenge"):
        await service.opening.challenge("9", "100", CAROL, BOB, ServerSettings())
    with pytest.raises(TableError, match="Only Bob can accept"):
        await service.opening.accept(table, CAROL.id)
    with pytest.raises(TableError, match="your own challenge"):
        await service.opening.accept(table, ALICE.id)
    with pytest.raises(TableError, match="hasn't accepted"):
        await service.play(table, ALICE.id, ActionKind.PASS)
    await service.opening.decline(table, BOB.id)
    assert service.in_channel("100") is None
    again = await service.opening.challenge("9", "100", CAROL, BOB, ServerSettings())
    assert again.status is Status.CHALLENGE


async def test_two_openings_in_a_channel_queue_and_leave_no_lock_behind(
    service: TableService,
) -> None:
    """Openings in one channel take turns (the second is told of the first's table); the
    channels' locks go once nobody holds them, however many channels were used."""
    first, second = await asyncio.gather(
        service.opening.challenge("9", "100", ALICE, BOB, ServerSettings()),
        service.opening.challenge("9", "100", CAROL, BOB, ServerSettings()),
        return_exceptions=True,
    )
    opened = [r for r in (first, second) if isinstance(r, Table)]
    refused = [r for r in (first, second) if isinstance(r, TableError)]
    assert len(opened) == 1 and len(refused) == 1
    assert "already has an open challenge" in str(refused[0])
    for channel in range(200, 230):
        await service.opening.challenge("9", str(channel), ALICE, BOB, ServerSettings())
    assert service.core.registry.channels_opening == 0


async def test_moves_are_checked_committed_and_counted(service: TableService) -> None:
    table = await started(service)
    match = table.match
    assert match is not None
    first = match.hand.turn
    other = 1 - first
    with pytest.raises(IllegalMove, match="turn"):
        await service.play(table, table.players[other].id, ActionKind.PASS)
    with pytest.raises(TableError, match="not playing at this table"):
        await service.play(table, CAROL.id, ActionKind.PASS)
    outcome = await service.play(table, table.players[first].id, ActionKind.PASS)
    assert outcome.move_count == 1 == table.move_count
    moves = await service.store.moves(table.id)
    assert [m.action["kind"] for m in moves] == ["pass"]
    stored = await service.store.get_table(table.id)
    assert stored is not None and stored.state == match.to_dict(history=False)


async def test_stale_buttons_and_double_clicks_apply_once(service: TableService) -> None:
    table = await started(service)
    assert table.match is not None
    seat = table.match.hand.turn
    player = table.players[seat].id
    token = table.token(seat)
    results = await asyncio.gather(
        service.play(table, player, ActionKind.PASS, expected_move=token),
        service.play(table, player, ActionKind.PASS, expected_move=token),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and "out of date" in str(errors[0])
    assert table.move_count == 1
    assert len(await service.store.moves(table.id)) == 1


async def test_a_whole_match_is_recorded_and_survives_a_restart(
    service: TableService, tmp_path: Path
) -> None:
    import random

    table = await started(service)
    rng = random.Random(5)
    match = table.match
    assert match is not None
    # Into the third hand: the finished hands live in rows of their own, not in each move,
    # and the table keeps only the last one in memory.
    while match.hand_number < 3 or len(match.hand.actions) < 3:
        action = choose(match.hand, "knocker", rng)
        await service.play(table, table.players[action.seat].id, action.kind, action.card)
    stored = await service.store.get_table(table.id)
    assert stored is not None and stored.state is not None and "history" not in stored.state
    # Restart: a new service on the same database file sees the same table and state.
    store2 = SqliteStore(tmp_path / "gin.sqlite3")
    await store2.open()
    service2 = TableService(store2)
    (loaded,) = await service2.load()
    assert [h.number for h in await store2.hands(table.id)] == [1, 2]
    assert loaded.match is not None and [h.number for h in loaded.match.history] == [2]
    assert loaded.match == match and loaded.move_count == table.move_count
    assert loaded.players == table.players
    while loaded.match is not None and not loaded.match.is_over:
        action = choose(loaded.match.hand, "knocker", rng)
        await service2.play(loaded, loaded.players[action.seat].id, action.kind, action.card)
    assert loaded.status is Status.FINISHED and service2.in_channel("100") is None
    rows, total = await store2.leaderboard("9", 10, 0)
    assert total == 2 and rows[0].won == 1 and rows[1].won == 0
    await store2.close()


async def test_a_move_that_cannot_be_committed_leaves_the_match_as_it_was(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    import copy
    import random

    table = await started(service)
    rng = random.Random(11)
    match = table.match
    assert match is not None
    while not match.history:  # the first hand, played to its last move
        action = choose(match.hand, "knocker", rng)
        before = copy.deepcopy(match)
        if action.kind in (ActionKind.KNOCK, ActionKind.BIG_GIN):
            break
        await service.play(table, table.players[action.seat].id, action.kind, action.card)
    else:
        pytest.fail("the hand ended without a knock")

    async def failing(record: object) -> None:
        raise OSError("disk full")

    # Alone on its database, the service records each move in the store's own transaction.
    monkeypatch.setattr(service.store, "record_move", failing)
    with pytest.raises(OSError):
        await service.play(table, table.players[action.seat].id, action.kind, action.card)
    assert table.match == before and not table.match.history
    monkeypatch.undo()
    await service.play(table, table.players[action.seat].id, action.kind, action.card)
    assert table.match is not None and len(table.match.history) == 1


async def test_resign_records_the_result(service: TableService) -> None:
    table = await started(service)
    result = await service.resign(table, ALICE.id)
    assert result.winner == 1
    stats = await service.store.player_stats("9", BOB.id)
    assert stats is not None and stats.won == 1
    with pytest.raises(TableError, match="no game in this channel"):
        service.require_table("100")


async def test_twenty_tables_at_once_do_not_interfere(service: TableService) -> None:
    import random

    tables = [await started(service, channel=str(200 + i)) for i in range(20)]

    async def play(table: Table, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(30):
            match = table.match
            if match is None or match.is_over:
                break
            action = choose(match.hand, "hunter", rng)
            await service.play(table, table.players[action.seat].id, action.kind, action.card)

    await asyncio.gather(*(play(t, i) for i, t in enumerate(tables)))
    for table in tables:
        rows = await service.store.moves(table.id)
        assert len(rows) == table.move_count == 30 or table.status is Status.FINISHED


async def test_a_match_opened_at_once_keeps_its_seats_and_its_seed(
    service: TableService,
) -> None:
    closed: list[tuple[int, Status]] = []
    service.events.subscribe(TableClosed, lambda e: closed.append((e.table.id, e.status)))
    first = await service.opening.open_match(
        "9", "201", (BOB, ALICE), ServerSettings(), seed="round-1"
    )
    second = await service.opening.open_match(
        "9", "202", (CAROL, ALICE), ServerSettings(), seed="round-1"
    )
    for table in (first, second):
        assert table.status is Status.PLAYING and table.deadline is not None  # turn clocks
        assert table.match is not None and table.match.seed == "round-1"
    assert [p.id for p in first.players] == [BOB.id, ALICE.id]  # seat 0 as given
    assert first.match is not None and second.match is not None
    # The same seed: the same cut, the same dealer and the same cards in each seat.
    assert first.match.hand.dealer == second.match.hand.dealer
    assert first.match.hand.hands == second.match.hand.hands
    with pytest.raises(TableError, match="already has a game"):
        await service.opening.open_match("9", "201", (CAROL, BOB), ServerSettings())
    await service.resign(first, ALICE.id)
    assert closed == [(first.id, Status.FINISHED)]
    await service.end(second)
    assert closed[-1] == (second.id, Status.CANCELLED)


async def test_a_table_lock_serves_its_waiters_in_turn_and_keeps_no_queue_when_idle() -> None:
    lock = IdleLock()
    served: list[int] = []

    async def wait(n: int) -> None:
        async with lock:
            served.append(n)

    async with lock:
        waiting = [asyncio.create_task(wait(n)) for n in range(4)]
        while len(lock._waiters or ()) < 4:
            await asyncio.sleep(0)
        waiting[1].cancel()  # a waiter that gives up is skipped, the others still come
    await asyncio.gather(*waiting, return_exceptions=True)
    assert served == [0, 2, 3]
    assert not lock.locked()
    assert lock._waiters is None  # let go of once the last waiter was served
    async with lock:  # and usable again
        served.append(4)
    assert served == [0, 2, 3, 4]

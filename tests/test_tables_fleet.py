"""Two table services as two bot processes on one PostgreSQL database: a move recorded by one
is made by the other on its own copy (no read of the table), and a move made on a copy that
fell behind is tried again under the row lock with the table as stored."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.config import Shards
from bot.gin.match import Player
from bot.server_settings import ServerSettings
from bot.store import PostgresStore, TableRow
from bot.store.postgres import scratch_schema
from bot.tables import Table, TableError, TableService
from bot.tables.events import ChangedElsewhere
from bot.tables.fleet import Fleet
from bot.tables.model import HeardOutcome
from tests.gin.players import choose
from tests.store.conftest import require_postgres

pytestmark = pytest.mark.postgres

ALICE, BOB = Player("1", "Alice"), Player("2", "Bob")
GUILD = str(1 << 22)  # on shard 1 of 2: the second process owns its tables
WAIT_S = 20.0


class Reads:
    """Counts a store's reads of whole tables (what catching up the slow way costs)."""

    def __init__(self, store: PostgresStore) -> None:
        self.count = 0
        read = store.get_table

        async def counted(match_id: int) -> TableRow | None:
            self.count += 1
            return await read(match_id)

        store.get_table = counted  # type: ignore[method-assign]


@pytest.fixture
async def stores() -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    async with scratch_schema(require_postgres(), prefix="gin_test") as url:
        first, second = PostgresStore(url), PostgresStore(url)
        async with first, second:
            yield first, second


def fleet_service(store: PostgresStore, shard: int) -> TableService:
    return TableService(store, fleet=Fleet(Shards(2, (shard,)), name=f"shard-{shard}"))


async def eventually(check: Callable[[], Any], what: str) -> None:
    loop = asyncio.get_running_loop()
    until = loop.time() + WAIT_S
    while not check():
        if loop.time() > until:
            pytest.fail(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def started(owner: TableService) -> Table:
    table = await owner.opening.challenge(GUILD, "100", ALICE, BOB, ServerSettings())
    await owner.opening.accept(table, BOB.id)
    return table


async def test_a_move_heard_of_is_made_on_the_copy_without_reading_the_table(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    dms, owner = fleet_service(stores[0], 0), fleet_service(stores[1], 1)
    await dms.watch()
    await owner.watch()
    table = await started(owner)
    await eventually(lambda: dms.by_id(table.id) is not None, "shard 0 to load the table")
    copy = dms.by_id(table.id)
    assert copy is not None
    await eventually(lambda: copy.match is not None, "shard 0 to see the deal")
    reads = Reads(stores[1])
    seen: list[tuple[int | None, list[HeardOutcome]]] = []
    owner.events.subscribe(ChangedElsewhere, lambda e: seen.append((e.seat, list(e.made))))
    rng = random.Random(3)
    assert copy.match is not None and table.match is not None
    hand_number = copy.match.hand_number
    plain = 0
    # Moves arrive at shard 0 (DM buttons); the owner makes each plain one itself.
    while copy.match.hand_number == hand_number and plain < 12:
        action = choose(copy.match.hand, "hunter", rng)  # knocks only at gin
        outcome = await dms.play(
            copy,
            copy.players[action.seat].id,
            action.kind,
            action.card,
            expected_move=copy.token(action.seat),
            shown_message=1000 + plain,
            language="es",
        )
        await eventually(lambda: table.move_count == copy.move_count, "the owner to catch up")
        if outcome.report.finished_hand is not None:
            break  # a move that ends the hand is read back: its hand has a row of its own
        plain += 1
        assert reads.count == 0  # each plain move made on the owner's copy, none read back
        assert table.match.to_dict(history=False) == copy.match.to_dict(history=False)
        assert table.display.get("timers") == copy.display.get("timers")
        assert table.deadline == copy.deadline
    assert plain >= 3
    # Each heard move comes with what it did, as the mover's process saw it.
    seen = seen[:plain]
    made = [heard for _, batch in seen for heard in batch]
    assert [heard.shown_message for heard in made] == [1000 + n for n in range(plain)]
    assert [heard.outcome.move_count for heard in made] == list(range(1, plain + 1))
    assert {heard.language for heard in made} == {"es"}  # the mover's language, told
    assert [seat for seat, _ in seen] == [heard.outcome.seat for heard in made]
    stored = await stores[1].get_table(table.id)
    assert stored is not None and stored.state == table.match.to_dict(history=False)


async def test_a_move_on_a_copy_that_fell_behind_is_made_again_under_the_lock(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    # Neither listens: each copy falls behind the other's moves, deterministically.
    first, second = fleet_service(stores[0], 0), fleet_service(stores[1], 1)
    table = await started(second)
    copy = await first.find(table.id)
    assert copy is not None and copy.match is not None and table.match is not None
    rng = random.Random(8)
    action = choose(copy.match.hand, "knocker", rng)
    player = copy.players[action.seat].id
    old_token = copy.token(action.seat)
    await first.play(copy, player, action.kind, action.card, expected_move=old_token)
    # The second process's copy is a move behind; its player presses the button they were
    # shown after that move (its token is the stored table's, not the copy's).
    nxt = choose(copy.match.hand, "knocker", rng)
    outcome = await second.play(
        table,
        copy.players[nxt.seat].id,
        nxt.kind,
        nxt.card,
        expected_move=copy.token(nxt.seat),
    )
    assert outcome.move_count == 2 == table.move_count
    # The first click again, through the second process: the move was made; said so.
    with pytest.raises(TableError, match="out of date"):
        await second.play(table, player, action.kind, action.card, expected_move=old_token)
    moves = await stores[0].moves(table.id)
    assert [m.seq for m in moves] == [1, 2]
    stored = await stores[0].get_table(table.id)
    assert stored is not None and stored.state == table.match.to_dict(history=False)


async def test_a_challenge_closed_by_another_process_is_answered_as_gone(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    # Neither listens: the owner's copy still shows the challenge the other one closed.
    owner, other = fleet_service(stores[1], 1), fleet_service(stores[0], 0)
    table = await owner.opening.challenge(GUILD, "100", ALICE, BOB, ServerSettings())
    copy = await other.find(table.id)
    assert copy is not None
    await other.opening.decline(copy, BOB.id)
    with pytest.raises(TableError, match="no longer open"):
        await owner.opening.accept(table, BOB.id)
    assert owner.in_channel("100") is None  # read again: closed here too
    stored = await stores[1].get_table(table.id)
    assert stored is not None and stored.status == "declined" and stored.move_count == 0
    # A new challenge in the channel is welcome at once.
    again = await owner.opening.challenge(GUILD, "100", ALICE, BOB, ServerSettings())
    await owner.opening.accept(again, BOB.id)
    assert again.match is not None

"""The tournaments hear the tables through events alone: a match played through the table
service records its result with no Discord layer loaded, once, and tells what it decided."""

from __future__ import annotations

import asyncio

from bot.client import connect_services
from bot.gin.match import Player
from bot.server_settings import ServerSettings
from bot.tables import Status, TableService
from bot.tables.events import EventHub, TableClosed
from bot.tournaments import Format, TournamentService, TournamentSettings
from bot.tournaments.events import TournamentUpdated
from tests.store.helpers import AnyStore
from tests.tournaments.conftest import Clock


async def test_a_finished_match_records_its_result_from_the_event(
    store: AnyStore, clock: Clock
) -> None:
    hub = EventHub()
    tables = TableService(store, clock, events=hub)
    tournaments = TournamentService(store, clock, events=hub)
    connect_services(tables, tournaments)
    told: list[TournamentUpdated] = []
    hub.subscribe(TournamentUpdated, told.append)
    knockout = TournamentSettings(format=Format.KNOCKOUT)
    tournament = await tournaments.open("g1", "lobby", "org", knockout)
    for user in ("p1", "p2"):
        await tournaments.join(tournament.id, user, user.upper())
    update = await tournaments.start(tournament.id, "org")
    (match,) = update.matches_to_start
    a, b = match.players
    table = await tables.opening.open_match(
        "g1", "thread-1", (Player(a, a.upper()), Player(b, b.upper())), ServerSettings()
    )
    assert await tournaments.match_started(match.tournament_id, match.round, match.board, table.id)

    await tables.resign(table, b)
    await hub.drain()

    assert table.status is Status.FINISHED
    (news,) = told  # recorded once, and told once
    (decided,) = news.update.decided
    assert decided.winner_id == a and news.update.finished
    stored = await tournaments.get(tournament.id)
    assert stored.state == "finished"
    # The same close heard again (another process, a restart) records nothing more.
    hub.publish(TableClosed(table=table, status=Status.FINISHED))
    await hub.drain()
    assert len(told) == 2 and not told[1].update.changed


async def test_a_subscriber_that_fails_never_breaks_the_move_nor_the_others(
    store: AnyStore, clock: Clock
) -> None:
    hub = EventHub()
    tables = TableService(store, clock, events=hub)
    heard: list[str] = []

    def broken(event: TableClosed) -> None:
        raise RuntimeError("a broken subscriber")

    async def broken_later(event: TableClosed) -> None:
        await asyncio.sleep(0)
        raise RuntimeError("a broken subscriber, later")

    hub.subscribe(TableClosed, broken)
    hub.subscribe(TableClosed, broken_later)
    hub.subscribe(TableClosed, lambda event: heard.append(event.table.channel_id))
    table = await tables.opening.open_match(
        "g1", "c1", (Player("a", "A"), Player("b", "B")), ServerSettings()
    )
    await tables.resign(table, "b")
    await hub.drain()
    assert table.status is Status.FINISHED and heard == ["c1"]
    row = await store.get_table(table.id)
    assert row is not None and row.status == "finished"

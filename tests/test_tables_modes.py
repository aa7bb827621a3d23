"""The table service for more than two: lobbies, seats, both boards of teams, elimination's
leavers, turn clocks per board, ratings per mode, and restarts on the same database."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.gin.errors import IllegalMove
from bot.gin.hand import ActionKind
from bot.gin.match import Player
from bot.server_settings import ServerSettings
from bot.store import SqliteStore
from bot.tables import Status, Table, TableError, TableService, TimerKind
from tests.gin.players import choose

PEOPLE = [Player(str(i), name) for i, name in enumerate(["Ann", "Ben", "Cal", "Dee", "Eve"], 1)]
ANN, BEN, CAL, DEE, EVE = PEOPLE
GUILD = "9"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = SqliteStore(tmp_path / "gin.sqlite3")
    await store.open()
    yield TableService(store, clock=Clock())
    await store.close()


async def lobby_of(
    service: TableService, mode: str, people: list[Player], **options: object
) -> Table:
    table = await service.opening.open_lobby(
        GUILD, "100", people[0], mode, ServerSettings(), **options
    )  # type: ignore[arg-type]
    for person in people[1:]:
        if table.status is Status.CHALLENGE:
            await service.opening.join(table, person)
    return table


async def play_moves(service: TableService, table: Table, count: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        match = table.match
        assert match is not None
        if match.is_over:
            return
        seat = rng.choice(match.to_act())
        board = match.board_of(seat)
        assert board is not None
        action = choose(board, "knocker", rng)
        await service.play(table, table.players[seat].id, action.kind, action.card)


async def test_a_lobby_fills_by_joining_and_starts_by_itself(service: TableService) -> None:
    table = await service.opening.open_lobby(GUILD, "100", ANN, "three", ServerSettings())
    assert table.is_lobby and table.size == 3 and table.host == ANN.id
    assert await service.opening.join(table, BEN) is False
    with pytest.raises(TableError, match="already have a seat"):
        await service.opening.join(table, BEN)
    assert await service.opening.join(table, CAL) is True
    assert table.status is Status.PLAYING and table.match is not None
    assert table.match.mode_name == "three"
    with pytest.raises(TableError, match="no longer taking seats"):
        await service.opening.join(table, DEE)
    stored = await service.store.get_table(table.id)
    assert stored is not None and stored.mode == "three" and len(stored.seats) == 3


async def test_lobby_refusals_and_the_host_passing_on(service: TableService) -> None:
    with pytest.raises(TableError, match="2 to 14"):
        await service.opening.open_lobby(
            GUILD, "100", ANN, "elimination", ServerSettings(), size=15
        )
    with pytest.raises(TableError, match="exactly 4"):
        await service.opening.open_lobby(GUILD, "100", ANN, "teams", ServerSettings(), size=6)
    table = await service.opening.open_lobby(
        GUILD, "100", ANN, "elimination", ServerSettings(), size=3
    )
    with pytest.raises(TableError, match="needs 2 players"):
        await service.opening.start_lobby(table, ANN.id)
    await service.opening.join(table, BEN)
    with pytest.raises(TableError, match="Only the host, Ann"):
        await service.opening.start_lobby(table, BEN.id)
    with pytest.raises(TableError, match="nothing to leave"):
        await service.opening.leave(table, CAL.id)
    await service.opening.leave(table, ANN.id)
    assert table.host == BEN.id
    with pytest.raises(TableError, match=r"not playing at this table|filling"):
        await service.play(table, BEN.id, ActionKind.DRAW_STOCK)
    assert await service.opening.leave(table, BEN.id) is True  # nobody left: the channel is free
    assert service.in_channel("100") is None


async def test_elimination_starts_with_two_or_more_when_the_host_says(
    service: TableService,
) -> None:
    table = await service.opening.open_lobby(GUILD, "100", ANN, "elimination", ServerSettings())
    assert table.size == 6
    await service.opening.join(table, BEN)
    await service.opening.join(table, CAL)
    await service.opening.start_lobby(table, ANN.id)
    assert table.match is not None and len(table.match.players) == 3


async def test_teams_picks_and_full_sides(service: TableService) -> None:
    table = await service.opening.open_lobby(GUILD, "100", ANN, "teams", ServerSettings(), team=0)
    await service.opening.join(table, BEN, team=0)
    with pytest.raises(TableError, match="Team 1 is full"):
        await service.opening.join(table, CAL, team=0)
    await service.opening.join(table, CAL, team=1)
    await service.opening.join(table, DEE)
    match = table.match
    assert match is not None
    side = {p.id: match.side_of(s) for s, p in enumerate(match.players)}
    assert side[ANN.id] == side[BEN.id] != side[CAL.id] == side[DEE.id]
    assert [s.player.id for s in table.seats] == [p.id for p in match.players]
    with pytest.raises(TableError, match="only picked at a teams table"):
        await service.opening.open_lobby(GUILD, "200", EVE, "three", ServerSettings(), team=1)


async def test_bots_fill_seats_and_play_their_turns(service: TableService) -> None:
    bots = [Player(f"bot:{i}", f"Bot {i}") for i in (1, 2)]
    table = await service.opening.open_lobby(
        GUILD, "100", ANN, "three", ServerSettings(), bots=bots, bot_level="easy"
    )
    assert table.status is Status.PLAYING and table.bot_seats and table.vs_bot
    rng = random.Random(3)
    for _ in range(200):
        match = table.match
        assert match is not None
        if match.is_over:
            break
        if table.bot_to_act():
            assert await service.bot_turn(table, rng) is not None
            continue
        seat = match.to_act()[0]
        board = match.board_of(seat)
        assert board is not None
        action = choose(board, "knocker", rng)
        await service.play(table, table.players[seat].id, action.kind, action.card)
    assert table.move_count > 20


async def test_the_two_boards_of_teams_move_at_once(service: TableService) -> None:
    table = await lobby_of(service, "teams", PEOPLE[:4])
    match = table.match
    assert match is not None
    first, second = (board.turn for board in match.boards)
    tokens = (table.token(first), table.token(second))
    board0, board1 = match.boards
    kind = ActionKind.PASS
    moves = await asyncio.gather(
        service.play(table, table.players[first].id, kind, expected_move=tokens[0]),
        service.play(table, table.players[second].id, kind, expected_move=tokens[1]),
    )
    assert {m.board for m in moves} == {0, 1} and table.move_count == 2
    assert len(board0.actions) == len(board1.actions) == 1
    with pytest.raises(IllegalMove):
        other = next(s for s in range(4) if s not in board0.seats)
        await service.play(table, table.players[other].id, ActionKind.DRAW_STOCK)


async def test_an_elimination_player_who_resigns_is_out_and_the_table_plays_on(
    service: TableService,
) -> None:
    table = await lobby_of(service, "elimination", PEOPLE[:4], size=4)
    assert table.status is Status.PLAYING
    assert await service.resign(table, BEN.id) is None
    match = table.match
    assert match is not None and match.dropped == [table.seat_of(BEN.id)]
    with pytest.raises(TableError, match="left this match"):
        await service.resign(table, BEN.id)
    moves = await service.store.moves(table.id)
    assert moves[-1].action["kind"] == "leave"
    await service.resign(table, CAL.id)
    result = await service.resign(table, DEE.id)
    assert result is not None and table.status is Status.FINISHED
    rows = {r.user_id: r for r in await service.store.results(table.id)}
    assert rows[ANN.id].place == 1 and rows[BEN.id].place == 4 and rows[DEE.id].place == 2


async def test_a_three_player_who_resigns_is_out_and_the_two_others_play_to_the_end(
    service: TableService, tmp_path: Path
) -> None:
    table = await lobby_of(service, "three", PEOPLE[:3])
    match = table.match
    assert match is not None and table.status is Status.PLAYING
    playing = match.hand.seats
    leaver = table.players[playing[1]]
    await play_moves(service, table, 3)
    number = match.hand_number
    assert await service.resign(table, leaver.id) is None  # the match goes on
    assert table.status is Status.PLAYING and match.dropped == [playing[1]]
    with pytest.raises(TableError, match="left this match"):
        await service.resign(table, leaver.id)
    # The hand they were playing is stored as ended, unplayed; the next is dealt to the two.
    moves = await service.store.moves(table.id)
    assert moves[-1].action["kind"] == "leave"
    hands = await service.store.hands(table.id)
    assert hands[-1].number == number and hands[-1].outcome == "void"
    assert hands[-1].result["result"]["left"] == playing[1]
    assert match.hand_number == number + 1 and playing[1] not in match.hand.seats
    # A restart finds the match as it was.
    store2 = SqliteStore(tmp_path / "gin.sqlite3")
    await store2.open()
    try:
        (loaded,) = await TableService(store2).load()
        assert loaded.match is not None
        assert loaded.match.to_dict(history=False) == match.to_dict(history=False)
    finally:
        await store2.close()
    await play_moves(service, table, 5000, seed=3)
    assert table.status is Status.FINISHED and match.result is not None
    rows = {r.user_id: r for r in await service.store.results(table.id)}
    assert rows[leaver.id].place == 3
    assert {rows[p.id].place for p in table.players if p != leaver} == {1, 2}


async def test_a_three_player_forfeit_puts_the_idle_player_out(service: TableService) -> None:
    table = await lobby_of(service, "three", PEOPLE[:3])
    match = table.match
    assert match is not None
    idle, other = match.hand.turn, next(s for s in match.hand.seats if s != match.hand.turn)
    sitter = match.hand.dealer
    clock = service.clock
    assert isinstance(clock, Clock)
    clock.now += timedelta(seconds=table.server.turn_seconds + 1)  # the whole turn passed
    (event,) = await service.deadlines.fire(table)
    assert event.kind is TimerKind.FORFEIT and event.result is None
    assert match.dropped == [idle] and table.is_open
    assert match.hand.seats == (other, sitter) and match.hand.dealer == sitter
    assert table.display["timers"]["0"]["seat"] == match.hand.turn == other
    # The second player out of time leaves the last one the winner.
    clock.now += timedelta(seconds=table.server.turn_seconds + 1)
    (event,) = await service.deadlines.fire(table)
    assert event.result is not None and table.status is Status.FINISHED
    assert event.result.winner == sitter and event.result.placings[idle] == 3


async def test_ratings_per_mode_from_places(service: TableService) -> None:
    table = await lobby_of(service, "elimination", PEOPLE[:3], size=3)
    for person in (BEN, CAL):
        await service.resign(table, person.id)
    ratings = await service.store.get_ratings(GUILD, [ANN.id, BEN.id, CAL.id], mode="elimination")
    assert ratings[ANN.id].mu > ratings[CAL.id].mu > ratings[BEN.id].mu
    assert await service.store.get_ratings(GUILD, [ANN.id]) == {}  # classic kept apart


async def test_turn_clocks_run_per_board_and_forfeit_ends_teams(service: TableService) -> None:
    table = await lobby_of(service, "teams", PEOPLE[:4])
    timers = table.display["timers"]
    assert set(timers) == {"0", "1"}
    clock = service.clock
    assert isinstance(clock, Clock)
    clock.now += timedelta(seconds=table.server.turn_seconds / 2 + 1)
    events = await service.deadlines.fire(table)
    assert [e.kind for e in events] == [TimerKind.REMINDER, TimerKind.REMINDER]
    clock.now += timedelta(seconds=table.server.turn_seconds)
    (event,) = await service.deadlines.fire(table)
    assert event.kind is TimerKind.FORFEIT and event.result is not None
    assert table.status is Status.FINISHED


async def test_elimination_forfeit_puts_the_idle_player_out(service: TableService) -> None:
    table = await lobby_of(service, "elimination", PEOPLE[:3], size=3)
    match = table.match
    assert match is not None
    idle = match.hand.turn
    clock = service.clock
    assert isinstance(clock, Clock)
    clock.now += timedelta(seconds=table.server.turn_seconds + 1)  # the whole turn passed
    (event,) = await service.deadlines.fire(table)
    assert event.kind is TimerKind.FORFEIT and event.result is None
    assert match.dropped == [idle] and table.is_open
    assert table.display["timers"]["0"]["seat"] == match.hand.turn != idle


@pytest.mark.parametrize(("mode", "count"), [("three", 3), ("teams", 4), ("elimination", 5)])
async def test_a_restart_mid_hand_goes_on_where_it_was(
    service: TableService, tmp_path: Path, mode: str, count: int
) -> None:
    table = await lobby_of(
        service, mode, PEOPLE[:count], **({"size": count} if mode == "elimination" else {})
    )
    if table.status is Status.CHALLENGE:
        await service.opening.start_lobby(table, ANN.id)
    await play_moves(service, table, 25)
    store2 = SqliteStore(tmp_path / "gin.sqlite3")
    await store2.open()
    try:
        (loaded,) = await TableService(store2).load()
        assert loaded.match is not None and table.match is not None
        assert loaded.match.to_dict(history=False) == table.match.to_dict(history=False)
        assert [s.player for s in loaded.seats] == [s.player for s in table.seats]
        assert loaded.mode_name == mode and loaded.move_count == table.move_count
        assert loaded.display["timers"] == table.display["timers"]
    finally:
        await store2.close()


async def test_a_lobby_survives_a_restart(service: TableService, tmp_path: Path) -> None:
    table = await service.opening.open_lobby(
        GUILD, "100", ANN, "elimination", ServerSettings(), size=4
    )
    await service.opening.join(table, BEN, None)
    store2 = SqliteStore(tmp_path / "gin.sqlite3")
    await store2.open()
    try:
        service2 = TableService(store2)
        (loaded,) = await service2.load()
        assert loaded.is_lobby and loaded.size == 4 and loaded.host == ANN.id
        assert [s.player for s in loaded.seats] == [ANN, BEN]
        await service2.opening.join(loaded, CAL)
        await service2.opening.start_lobby(loaded, ANN.id)
        assert loaded.match is not None and len(loaded.match.players) == 3
    finally:
        await store2.close()

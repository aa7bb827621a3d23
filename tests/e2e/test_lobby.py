"""Lobbies: seats taken and given up by buttons and commands, a host who leaves, a table that
nobody starts, and every refusal private, clear, and changing nothing."""

from __future__ import annotations

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.helpers_inputs import assert_refused, capture, refuse, settle
from tests.e2e.modes_driver import Seats, people
from tests.e2e.test_timers import short_timers


async def test_seats_change_and_the_lobby_message_follows(world: World, bot: GinBot) -> None:
    fake = world.fake
    users = people(world, 4)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "elimination", players=4)
    table = seats.table
    assert table is not None and seats.lobby is not None
    lobby = seats.lobby
    await seats.join_by_button(users[1])
    assert "2. Bob" in fake.message(lobby.id).text
    # A second seat, leaving without one, starting too early or without being the host.
    await refuse(
        fake, table, fake.slash(users[1], world.channel, "gin join"), "already have a seat"
    )
    await refuse(fake, table, fake.slash(users[2], world.channel, "gin leave"), "nothing to leave")
    await refuse(fake, table, fake.slash(users[1], world.channel, "gin start"), "only the host")
    # The host leaves: the next person seated becomes host.
    result = await fake.click(users[0], lobby, f"gin:lb:{table.id}:leave")
    assert "⚠️" not in result.text, result.text
    assert table.host == str(users[1].id)
    assert "1. Bob · host" in fake.message(lobby.id).text
    await refuse(fake, table, fake.slash(users[1], world.channel, "gin start"), "needs 2 players")
    await seats.join_by_command(users[2])
    start = await fake.click(users[1], lobby, f"gin:lb:{table.id}:start")
    assert "⚠️" not in start.text, start.text
    await seats.dealt()
    assert table.match is not None and len(table.match.players) == 2
    assert fake.message(lobby.id).components == []  # the lobby's buttons are gone
    await refuse(fake, table, fake.slash(users[3], world.channel, "gin join"), "no longer taking")
    await refuse(
        fake, table, fake.slash(users[3], world.channel, "gin open", mode="three"), "already"
    )


async def test_a_full_table_starts_by_itself_and_refuses_more(world: World, bot: GinBot) -> None:
    fake = world.fake
    users = people(world, 4)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "three")
    await seats.join_by_button(users[1])
    await seats.join_by_button(users[2])
    await seats.dealt()
    table = seats.table
    assert table is not None and seats.lobby is not None
    before = await capture(fake, table)
    # The old lobby message has no buttons any more; a forged click is answered all the same.
    result = await fake.forge_component(users[3], seats.lobby, f"gin:lb:{table.id}:join")
    await assert_refused(fake, table, before, result, "no longer taking seats")


async def test_team_sides_refused_when_full_or_not_teams(world: World, bot: GinBot) -> None:
    fake = world.fake
    users = people(world, 4)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "teams", team=1)
    await seats.join_by_button(users[1], team=1)
    table = seats.table
    assert table is not None
    await refuse(
        fake, table, fake.slash(users[2], world.channel, "gin join", team=1), "team 1 is full"
    )
    await seats.join_by_command(users[2], team=2)
    assert [s.team for s in table.seats] == [0, 0, 1]


async def test_refusals_at_a_three_player_lobby(world: World, bot: GinBot) -> None:
    fake = world.fake
    users = people(world, 3)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "three")
    table = seats.table
    assert table is not None
    await refuse(fake, table, fake.slash(users[1], world.channel, "gin join", team=2), "teams")
    await refuse(
        fake,
        table,
        fake.slash(users[0], world.channel, "gin draw", source="stock"),
        "hasn't started",
    )
    await refuse(fake, table, fake.slash(users[1], world.channel, "gin accept"), "lobby")
    await refuse(fake, table, fake.slash(users[0], world.channel, "gin start"), "needs 3")
    await refuse(
        fake,
        table,
        fake.slash(users[0], world.channel, "gin open", mode="teams"),
        "already",
    )


async def test_a_lobby_nobody_starts_expires(world: World, bot: GinBot) -> None:
    fake = world.fake
    await short_timers(bot, world, challenge_seconds=1)
    users = people(world, 2)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "elimination", players=4)
    await seats.join_by_button(users[1])
    table = seats.table
    assert table is not None and seats.lobby is not None
    lobby = seats.lobby
    await fake.wait_for(
        lambda: bot.service.in_channel(str(world.channel.id)) is None,
        timeout=10,
        what="the lobby to expire",
    )
    await fake.wait_for(lambda: fake.message(lobby.id).components == [], what="its buttons to go")
    assert "Nobody started this table" in fake.message(lobby.id).text
    result = await fake.slash(users[1], world.channel, "gin open", mode="three")
    assert "⚠️" not in result.text  # the channel is free again


async def test_end_closes_a_lobby_and_people_sit_at_several_tables(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    other = fake.add_channel(world.guild, "gin-2")
    users = people(world, 3)
    here = Seats(world, bot, users)
    await here.open(users[0], "elimination", players=3)
    there = Seats(world, bot, users)
    there.channel = other
    await there.open(users[1], "elimination", players=3)
    await here.join_by_command(users[1])
    await there.join_by_command(users[0])
    assert here.table is not None and there.table is not None
    assert here.table.seat_of(str(users[1].id)) is not None
    assert there.table.seat_of(str(users[0].id)) is not None
    ended = await fake.slash(world.alice, world.channel, "gin end")
    assert "closed this table" in ended.text
    await settle()
    assert bot.service.in_channel(str(world.channel.id)) is None
    assert bot.service.in_channel(str(other.id)) is there.table

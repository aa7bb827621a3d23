"""Every bad request about tournaments and seasons gets a clear private refusal and changes
nothing: joining twice, starting with too few, a non-organiser starting, a number out of
range, a second tournament in a channel, the wrong place, a forged button."""

from __future__ import annotations

from typing import Any

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.tournament_driver import Tourney
from tests.fakediscord import InteractionResult, User


async def refused(world: World, user: User, command: str, **options: Any) -> InteractionResult:
    result = await world.fake.slash(user, world.channel, command, **options)
    assert result.ephemeral and "⚠️" in result.text, result.text
    return result


async def test_bad_tournament_requests_are_refused_privately(world: World, bot: GinBot) -> None:
    fake = world.fake
    alice, bob, carol = world.alice, world.bob, world.carol
    # Nothing to join, start or call off yet.
    for command in ("gin tournament join", "gin tournament start", "gin tournament cancel"):
        answer = await refused(world, bob, command)
        assert "no tournament in this channel" in answer.text
    # Only organisers open one; numbers out of range for the format are named.
    answer = await refused(world, bob, "gin tournament open", format="swiss")
    assert "Only organisers" in answer.text
    answer = await refused(world, alice, "gin tournament open", format="knockout", rounds=3)
    assert "leave the rounds out" in answer.text
    answer = await refused(
        world, alice, "gin tournament open", format="swiss", rounds=9, max_players=8
    )
    assert "from 1 to 7 rounds (you asked for 9)" in answer.text
    answer = await refused(world, alice, "gin tournament open", format="swiss", max_players=2)
    assert "at least 3 players" in answer.text
    assert await bot.tournaments.in_channel(str(world.channel.id)) is None
    assert fake.channel_messages(world.channel) == []
    # Opened: a second one in the same channel is refused.
    tourney = Tourney(world, bot)
    tourney.people(3)
    await tourney.open(alice, format="swiss", target=50)
    answer = await refused(world, alice, "gin tournament open", format="knockout")
    assert "already has a tournament" in answer.text
    # Joining twice, leaving when not in, starting with too few, a non-organiser starting.
    await tourney.join([bob])
    assert tourney.signup is not None
    twice = await fake.click(bob, tourney.signup, f"gin:tn:{tourney.id}:join")
    assert twice.ephemeral and "already joined" in twice.text
    answer = await refused(world, carol, "gin tournament leave")
    assert "not in this tournament" in answer.text
    answer = await refused(world, alice, "gin tournament start")
    assert "needs at least 3 players to start; 1 have joined" in answer.text
    await tourney.join([carol, alice])
    answer = await refused(world, bob, "gin tournament start")
    assert "Only the organiser" in answer.text
    pressed = await fake.click(bob, tourney.signup, f"gin:tn:{tourney.id}:start")
    assert pressed.ephemeral and "Only the organiser" in pressed.text
    tournament = await tourney.tournament()
    assert tournament.state == "signup" and len(tournament.joined) == 3
    assert "3 of at most 32" in tourney.signup.text
    # A forged button naming another server's (or no) tournament.
    forged = await fake.forge_component(bob, tourney.signup, "gin:tn:999:join")
    assert forged.ephemeral and "no tournament #999" in forged.text
    odd = await fake.forge_component(bob, tourney.signup, "gin:tn:1:explode")
    assert odd.ephemeral and "⚠️" in odd.text
    # Started: joining is closed, and nobody opens a tournament in one of its threads.
    await tourney.start(alice)
    tables = await tourney.round_tables(1)
    late = fake.add_user("late", global_name="Late")
    fake.add_member(world.guild, late)
    answer = await refused(world, late, "gin tournament join")
    assert "sign-up is closed" in answer.text
    thread = next(iter(tables.values()))[0]
    inside = await fake.slash(alice, thread, "gin tournament open", format="swiss")
    assert inside.ephemeral and "not in a thread" in inside.text
    standing = await fake.slash(bob, thread, "gin tournament standings")
    assert standing.ephemeral and "Standings · round 1 under way" in standing.text  # the parent's
    assert len((await tourney.tournament()).joined) == 3


async def test_an_organiser_role_may_run_tournaments(world: World, bot: GinBot) -> None:
    fake = world.fake
    role = fake.add_role(world.guild, "Organisers")
    answer = await refused(world, world.bob, "gin tournament organisers", role=role)
    assert "Manage Server" in answer.text
    named = await fake.slash(world.alice, world.channel, "gin tournament organisers", role=role)
    assert named.ephemeral and "⚠️" not in named.text
    fake.give_role(world.guild, world.bob, role)
    opened = await fake.slash(world.bob, world.channel, "gin tournament open", format="knockout")
    assert not opened.ephemeral and "⚠️" not in opened.text
    cleared = await fake.slash(world.alice, world.channel, "gin tournament organisers")
    assert "Only members with the Manage Server permission" in cleared.text
    answer = await refused(world, world.carol, "gin tournament cancel")
    assert "Only the organiser" in answer.text
    called_off = await fake.slash(world.bob, world.channel, "gin tournament cancel")
    assert "⚠️" not in called_off.text  # the organiser, role or not
    await fake.wait_for(
        lambda: any(
            "called the tournament off" in m.text for m in fake.channel_messages(world.channel)
        ),
        what="the tournament called off in the channel",
    )


async def test_bad_season_requests_are_refused_privately(world: World, bot: GinBot) -> None:
    bob, alice = world.bob, world.alice
    answer = await refused(world, bob, "gin-season schedule", cadence="weekly")
    assert "Manage Server" in answer.text
    answer = await refused(world, alice, "gin-season schedule", cadence="monthly", days=10)
    assert "Only a season of days" in answer.text
    answer = await refused(world, alice, "gin-season schedule", cadence="days")
    assert "from 1 to 366 days" in answer.text
    answer = await refused(world, alice, "gin-season schedule", cadence="days", days=7, start="3/1")
    assert "2025-03-01" in answer.text
    answer = await refused(world, bob, "gin-season divisions", count=2)
    assert "Manage Server" in answer.text
    answer = await refused(world, alice, "gin-season show", season="not a season")
    assert "no such season" in answer.text
    answer = await refused(world, alice, "gin-season show", division=3)
    assert "no division 3" in answer.text
    config = await bot.tournaments.seasons.config(str(world.guild.id))
    assert config.calendar.changes == () and config.divisions == 0

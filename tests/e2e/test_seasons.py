"""Seasons through the fake Discord: matches land in the season they finished in, past seasons
stay viewable, the weekly standings post appears once, the season's final table says who went
up and down a division, and the next season's divisions are what it said."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.tournament_driver import cog_of
from tests.fakediscord import Message, User
from tests.tournaments.conftest import Clock


async def match(world: World, bot: GinBot, winner: User, loser: User) -> None:
    """A match through Discord: challenged, accepted, and resigned by the loser."""
    game = Game(world, bot)
    await game.start(winner, loser, target=50)
    resigned = await world.fake.slash(loser, world.channel, "gin resign")
    assert "⚠️" not in resigned.text, resigned.text


async def test_seasons_roll_over_with_posts_and_divisions(world: World, bot: GinBot) -> None:
    fake = world.fake
    alice, bob, carol = world.alice, world.bob, world.carol
    dan = fake.add_user("dan", global_name="Dan")
    fake.add_member(world.guild, dan)
    board = fake.add_channel(world.guild, "standings")
    clock = Clock(datetime(2025, 3, 31, 21, 0, tzinfo=UTC))  # a Monday, late in March
    bot.service.clock = clock
    bot.tournaments.clock = clock
    bot.tournaments.seasons.clock = clock
    cog = cog_of(bot)

    def posts() -> list[Message]:
        return [m for m in fake.channel_messages(board) if m.author.id == fake.bot.id]

    await match(world, bot, alice, bob)  # March
    answer = await fake.slash(
        alice, world.channel, "gin-season posts", channel=board, weekday=0, hour=23
    )
    assert "every Monday at 23:00 UTC" in answer.text, answer.text
    answer = await fake.slash(
        alice, world.channel, "gin-season divisions", count=2, promote=1, relegate=1
    )
    assert "2 divisions" in answer.text and "(1, 1)" in answer.text, answer.text  # Alice, Bob
    clock.advance(minutes=30)
    await match(world, bot, bob, alice)
    await match(world, bot, carol, dan)
    # The weekly slot (Monday 23:00) passes: this week's standings, posted once.
    clock.advance(hours=2)  # 23:30
    cog.seasons.posts_changed.set()
    weekly = await fake.wait_for(posts, what="the weekly standings post")
    assert "This week's standings of season 2025-03" in weekly[0].text
    await cog.seasons.post_due("another process")  # a second look, here or elsewhere
    assert len(posts()) == 1
    # The season ends: its final table, with who went up and down, once.
    clock.advance(hours=1)  # 1 April, 00:30
    cog.seasons.posts_changed.set()
    final = await fake.wait_for(lambda: posts()[1:], what="the final table")
    text = final[0].text
    assert "Season 2025-03 is over" in text
    assert f"Promoted: <@{bob.id}> (division 1)" in text
    assert f"Relegated: <@{alice.id}> (division 2)" in text
    assert f"<@{carol.id}> (division 2)" in text and f"<@{dan.id}> (division 2)" in text
    await cog.seasons.post_due("another process")
    assert len(posts()) == 2
    # April: a new table; March stays viewable.
    await match(world, bot, bob, carol)
    april = await fake.slash(alice, world.channel, "gin-season show")
    assert not april.ephemeral and "Season 2025-04" in april.text
    assert "1 won of 1" in april.text and "0 won of 1" in april.text
    offered = await fake.autocomplete(
        alice, world.channel, "gin-season show", focused="season", value="2025"
    )
    assert [c["name"] for c in offered] == ["2025-04", "2025-03"]
    march = await fake.slash(alice, world.channel, "gin-season show", season=offered[1]["value"])
    assert "Season 2025-03" in march.text and march.text.count("won of") == 4
    # Typed by hand as `/gin-season list` shows it, not picked from the list: the same.
    typed = await fake.slash(alice, world.channel, "gin-season show", season="2025-03")
    assert not typed.ephemeral and typed.text == march.text
    listed = await fake.slash(alice, world.channel, "gin-season list")
    assert "**2025-03**" in listed.text
    wrong = await fake.slash(alice, world.channel, "gin-season show", season="2025-13")
    assert wrong.ephemeral and "There is no such season" in wrong.text
    # The divisions of April are what the final table said.
    top = await fake.slash(alice, world.channel, "gin-season show", division=1)
    assert f"<@{bob.id}>" in top.text or "Bob" in top.text
    assert "Carol" not in top.text and f"<@{carol.id}>" not in top.text
    bottom = await fake.slash(alice, world.channel, "gin-season show", division=2)
    assert "Carol" in bottom.text or f"<@{carol.id}>" in bottom.text

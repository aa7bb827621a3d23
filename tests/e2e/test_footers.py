"""Where a table is played, as a DM hand's footer names it: written as it is, since Discord
shows a footer's text without reading markdown (``game_night``, not ``game\\_night``; a
tournament thread's ``#1 R1 · …``, not ``\\#1``), and escaped where it is read as markdown."""

from __future__ import annotations

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.tournament_driver import Tourney
from tests.fakediscord import FakeDiscord, User


def footers(fake: FakeDiscord, user: User) -> list[str]:
    """The footers of every version of the user's DMs from the bot."""
    return [
        str((embed.get("footer") or {}).get("text", ""))
        for message in fake.dm_messages(user)
        for version in message.history
        for embed in version.get("embeds") or []
    ]


async def test_a_channel_named_with_underscores_shows_as_it_is(world: World, bot: GinBot) -> None:
    fake = world.fake
    channel = fake.add_channel(world.guild, "game_night")
    game = Game(world, bot, channel)
    await game.start(world.alice, world.bob)
    shown = await fake.wait_for(
        lambda: [f for f in footers(fake, world.alice) if "game" in f],
        what="alice's hand with where it is played",
    )
    assert all("#game_night in " in f and "\\" not in f for f in shown), shown


async def test_a_tournament_thread_shows_as_it_is(world: World, bot: GinBot) -> None:
    fake = world.fake
    tourney = Tourney(world, bot)
    people = tourney.people(2)
    await tourney.open(world.alice, format="knockout", target=50)
    await tourney.join(people)
    await tourney.start(world.alice)
    (thread,) = (await tourney.round_tables(1)).values()
    name = thread[0].name
    assert name.startswith(f"#{tourney.id} R1 · ")
    shown = await fake.wait_for(
        lambda: [f for f in footers(fake, world.alice) if " R1 · " in f],
        what="alice's hand with its thread",
    )
    assert all(f"#{name} in " in f and "\\" not in f for f in shown), shown

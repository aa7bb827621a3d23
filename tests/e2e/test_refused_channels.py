"""A channel or thread that refuses the bot for want of a permission is not asked again, as a
player sees it: the bot says once what it lacks, the players play on by DM, and it writes
there again only once the permission may have come back (here, a role update from the
gateway). Discord bans a bot for a while at 10,000 invalid requests in 10 minutes."""

from __future__ import annotations

from bot.client import GinBot
from bot.tables import Table
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import INVITE_PERMISSIONS, settle
from tests.e2e.tournament_driver import Tourney
from tests.fakediscord import Channel, FakeDiscord

SEND_MESSAGES = 1 << 11
SEND_MESSAGES_IN_THREADS = 1 << 38


def refused_posts(fake: FakeDiscord, channel: Channel) -> int:
    """The bot's posts the channel answered with 403."""
    path = f"/channels/{channel.id}/messages"
    return sum(
        1
        for method, where, status, _body in fake.errors
        if method == "POST" and where.endswith(path) and status == 403
    )


def bot_posts(fake: FakeDiscord, channel: Channel) -> int:
    return sum(1 for m in fake.channel_messages(channel) if m.author.id == fake.bot.id)


async def test_a_match_thread_that_refuses_posts_is_asked_once(world: World, bot: GinBot) -> None:
    fake = world.fake
    fake.set_permissions(world.guild, fake.bot, INVITE_PERMISSIONS & ~SEND_MESSAGES_IN_THREADS)
    tourney = Tourney(world, bot)
    people = tourney.people(2)
    await tourney.open(world.alice, format="knockout", target=250)
    await tourney.join(people)
    await tourney.start(world.alice)
    await fake.wait_for(
        lambda: any("Send Messages in Threads" in m.text for m in tourney.channel_posts()),
        what="the missing permission named in the channel",
    )
    (thread,) = tourney.threads()

    def table_of() -> Table | None:
        rows = tourney.stored()[1]
        table_id = rows[0]["table_id"] if rows else None
        return None if table_id is None else bot.service.by_id(table_id)

    table = await fake.wait_for(table_of, what="the match's table")
    game = Game(world, bot, thread)
    game.table = table
    game.users = {p.id: tourney.users[p.id] for p in table.players}
    # The players play on, by their DM hands: every change would post in the thread.
    while game.match.hand_number == 1 and not game.match.is_over:  # a showdown comes and goes
        await game.play_out(via="button", stop_after=10)
    await settle()
    assert refused_posts(fake, thread) == 1  # the match's first line, and nothing after it
    assert bot_posts(fake, thread) == 0
    # The permission comes back (a role update): the thread is written to again.
    fake.set_permissions(world.guild, fake.bot, INVITE_PERMISSIONS)
    if not game.match.is_over:
        await game.play_out(via="button", stop_after=4)
    await fake.wait_for(lambda: bot_posts(fake, thread) > 0, what="the thread written to again")
    assert refused_posts(fake, thread) == 1


async def test_a_channel_that_refuses_posts_mid_match_is_asked_once(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    fake.set_permissions(world.guild, fake.bot, INVITE_PERMISSIONS)
    game = Game(world, bot)
    await game.start(world.alice, world.bob, target=250)
    await fake.wait_for(lambda: bot_posts(fake, world.channel) > 0, what="the table posted")
    # Send Messages taken away in the middle of the match (edits of its table still work).
    fake.set_permissions(world.guild, fake.bot, INVITE_PERMISSIONS & ~SEND_MESSAGES)
    posted = bot_posts(fake, world.channel)
    first_hand = game.match.hand_number
    while game.match.hand_number <= first_hand + 1 and not game.match.is_over:  # showdowns due
        await game.play_out(via="button", stop_after=10)
    await settle()
    assert refused_posts(fake, world.channel) == 1
    assert bot_posts(fake, world.channel) == posted
    fake.set_permissions(world.guild, fake.bot, INVITE_PERMISSIONS)
    if not game.match.is_over:
        await game.play_out(via="button", stop_after=60)
    await fake.wait_for(
        lambda: bot_posts(fake, world.channel) > posted, what="the channel written to again"
    )

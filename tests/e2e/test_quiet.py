"""A bot that never nags: at most one "your turn" DM at a time and none left behind, none for
a player who is watching, and the result of a match as a DM of its own."""

from __future__ import annotations

from bot.client import GinBot
from tests.e2e.conftest import World, looked_away
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import settle
from tests.fakediscord import FakeDiscord, Message, User

PING = "🃏 Your turn"


def pings(fake: FakeDiscord, user: User, *, deleted: bool = False) -> list[Message]:
    """The turn pings the bot sent this user by DM (the live ones, or every one)."""
    channel = fake.store.dm_by_user.get(user.id)
    if channel is None:
        return []
    messages = [fake.store.messages[i] for i in fake.store.channel_messages[channel.id]]
    return [m for m in messages if PING in m.text and (deleted or not m.deleted)]


async def test_no_ping_for_a_player_who_just_moved(world: World, bot: GinBot) -> None:
    """Quick players are pinged at most once: on a turn that came before they had moved."""
    game = Game(world, bot)
    await game.start(world.alice, world.bob)
    await game.play_out(via="button", stop_after=30)
    await settle()
    for user in (world.alice, world.bob):
        assert len(pings(world.fake, user, deleted=True)) <= 1


async def test_no_ping_against_the_bot(world: World, bot: GinBot) -> None:
    game = Game(world, bot)
    await game.practice(world.alice, "easy")
    await game.play_against_bot(via="button", seed=2)
    await settle()
    assert not pings(world.fake, world.alice, deleted=True)


async def test_one_ping_at_a_time_none_left_and_the_result_stays(world: World, bot: GinBot) -> None:
    """Players who look away get a ping per turn; the old one goes when the next comes, the
    last ones go with the hand, and the match's result is a DM that nothing overwrites."""
    looked_away(bot)  # everyone has looked away
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    most_live = 0
    moves = 0
    while not game.match.is_over:
        await game.play_out(via="button", stop_after=1, seed=moves)
        moves += 1
        await settle()  # the new ping sent, the old one deleted
        for user in (world.alice, world.bob):
            most_live = max(most_live, len(pings(fake, user)))
    await settle()
    assert moves > 20
    assert pings(fake, world.alice, deleted=True) or pings(fake, world.bob, deleted=True)
    assert most_live <= 1, "a DM held more than one turn ping"
    hands = game.match.hand_number
    for user in (world.alice, world.bob):
        await fake.wait_for(lambda u=user: not pings(fake, u), what="the last pings to go")
        left = fake.dm_messages(user)
        assert len(left) <= hands + 1, [m.text[:40] for m in left]
        assert "Match over" in left[-1].text and "wins the match" in left[-1].text
        showdowns = [m for m in left if "Match over" not in m.text]
        assert showdowns and all("see the result in the channel" not in m.text for m in left)
    assert table.match is not None

"""First contact: a challenge is accepted and the first hand is dealt."""

from __future__ import annotations

from bot.client import GinBot
from tests.e2e.conftest import World


async def test_challenge_accept_deal(world: World, bot: GinBot) -> None:
    fake = world.fake
    result = await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob)
    assert "challenges" in result.text and not result.ephemeral
    message = result.message
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None
    accepted = await fake.click(world.bob, message, f"gin:ch:{table.id}:accept")
    assert "accepted" in accepted.text.lower()
    await fake.wait_for(
        lambda: len(fake.dm_messages(world.alice)) >= 1 and len(fake.dm_messages(world.bob)) >= 1
    )
    print(fake.dm_messages(world.alice)[0].text)
    print(fake.channel_messages(world.channel)[-1].text)

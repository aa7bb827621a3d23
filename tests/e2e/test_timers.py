"""Tables never get stuck: turn reminders, forfeits, expiring challenges, across restarts."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot.client import GinBot
from bot.server_settings import ServerSettings
from tests.e2e.conftest import World, start_bot
from tests.e2e.driver import Game
from tests.fakediscord import patch_discord


async def short_timers(bot: GinBot, world: World, **seconds: int) -> None:
    """Seconds-long timers, written the way an operator could edit the database."""
    server = ServerSettings(**seconds)
    now = datetime.now(UTC).isoformat()
    await bot.store.set_guild_settings(str(world.guild.id), server.to_dict(), now)


async def test_idle_player_is_reminded_then_forfeits(world: World, bot: GinBot) -> None:
    fake = world.fake
    await short_timers(bot, world, turn_seconds=2)
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    idle = game.user(game.match.hand.turn)
    await fake.wait_for(
        lambda: any("⏰" in m.text for m in fake.dm_messages(idle)), timeout=5, what="reminder"
    )
    await fake.wait_for(
        lambda: any("ran out of time" in m.text for m in fake.channel_messages(world.channel)),
        timeout=5,
        what="the forfeit",
    )
    results = await bot.store.results(table.id)
    assert {r.reason for r in results} == {"forfeit"}
    assert next(r for r in results if r.user_id == str(idle.id)).won is False
    await fake.wait_for(
        lambda: any("ran out of time" in m.text for m in fake.dm_messages(idle)),
        what="the forfeit DM",
    )
    assert bot.service.in_channel(str(world.channel.id)) is None


async def test_a_move_restarts_the_turn_clock(world: World, bot: GinBot) -> None:
    await short_timers(bot, world, turn_seconds=4)
    game = Game(world, bot)
    await game.start(world.alice, world.bob)
    import random

    from tests.gin.players import choose

    rng = random.Random(1)
    for _ in range(4):  # keep playing for longer than one turn's time
        await asyncio.sleep(0.9)
        await game.command(choose(game.match.hand, "knocker", rng))
    assert not game.match.is_over and game.table is not None and game.table.is_open


async def test_unanswered_challenge_expires(world: World, bot: GinBot) -> None:
    fake = world.fake
    await short_timers(bot, world, challenge_seconds=1)
    result = await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob)
    message = result.message
    await fake.wait_for(lambda: "expired" in message.text.lower(), timeout=5, what="expiry")
    assert message.custom_ids() == []
    assert bot.service.in_channel(str(world.channel.id)) is None
    again = await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.carol)
    assert not again.ephemeral


async def test_a_deadline_that_passed_while_stopped_fires_at_start(world: World) -> None:
    fake = world.fake
    with patch_discord(fake.http_base, fake.gateway_url):
        bot, task = await start_bot(world)
        await short_timers(bot, world, turn_seconds=2)
        game = Game(world, bot)
        table = await game.start(world.alice, world.bob)
        await bot.close()
        await task
        await asyncio.sleep(2.5)  # both the reminder and the forfeit fall due while it's down
        bot, task = await start_bot(world)
        try:
            await fake.wait_for(
                lambda: any(
                    "ran out of time" in m.text for m in fake.channel_messages(world.channel)
                ),
                timeout=5,
                what="the forfeit after the restart",
            )
            results = await bot.store.results(table.id)
            assert {r.reason for r in results} == {"forfeit"}
        finally:
            await bot.close()
            await task

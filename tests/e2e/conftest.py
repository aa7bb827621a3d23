"""A fake Discord with a server, a channel and three members, and the real bot running on it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pytest

from bot.art.cards import CardImages
from bot.client import GinBot, busy_tasks
from bot.config import Config
from cogs.gin.cog import GinCog
from cogs.gin.screens import Screens
from tests.fakediscord import Channel, FakeDiscord, Guild, User, patch_discord

TOKEN = "fake.bot.token"


@dataclass
class World:
    fake: FakeDiscord
    alice: User
    bob: User
    carol: User
    guild: Guild
    channel: Channel
    db_path: Path


def card_room(fake: FakeDiscord, db_path: Path) -> World:
    """The server "Card Room" with its #gin channel and Alice (its owner), Bob and Carol."""
    alice = fake.add_user("alice", global_name="Alice")
    bob = fake.add_user("bob", global_name="Bob")
    carol = fake.add_user("carol", global_name="Carol")
    guild = fake.add_guild("Card Room", owner=alice)
    channel = fake.add_channel(guild, "gin")
    fake.add_member(guild, bob)
    fake.add_member(guild, carol)
    return World(fake, alice, bob, carol, guild, channel, db_path)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    fake = FakeDiscord(token=TOKEN)
    await fake.start()
    room = card_room(fake, tmp_path / "gin.sqlite3")
    add_card_emojis(fake)
    try:
        yield room
    finally:
        await fake.stop()


def add_card_emojis(fake: FakeDiscord) -> None:
    """The card emojis as an earlier start would have left them (tiny images): a test's bot
    finds them all and uploads none, so cards show as emojis from the first message."""
    for name in CardImages():
        fake.add_application_emoji(name)


async def start_bot(world: World) -> tuple[GinBot, asyncio.Task[None]]:
    config = Config(
        token=TOKEN, db_path=world.db_path, dev_guild=None, log_level="INFO", bot_delay=0.0
    )
    bot = GinBot(config)

    async def no_wait(shard_id: int | None, *, initial: bool = False) -> None:
        return None

    bot.before_identify_hook = no_wait  # type: ignore[method-assign]
    await bot.login(TOKEN)
    task = asyncio.create_task(bot.connect())
    await world.fake.wait_until_connected()
    await world.fake.wait_for_command("gin", world.guild)
    await asyncio.wait_for(bot.card_emojis.wait(), 30)  # found at once: the fake has them
    return bot, task


@pytest.fixture
async def bot(world: World) -> AsyncIterator[GinBot]:
    """The unmodified bot, in this process, pointed at the fake."""
    with patch_discord(world.fake.http_base, world.fake.gateway_url):
        gin_bot, task = await start_bot(world)
        try:
            yield gin_bot
        finally:
            await stopped(gin_bot, task)
    assert world.fake.unknown_routes == []


async def stopped(gin_bot: GinBot, task: asyncio.Task[None], seconds: float = 120.0) -> None:
    """Close the bot and wait for its task; a shutdown that hangs fails with every task's
    place (asyncio's own tasks are not in a thread dump), not at the test's time limit."""
    try:
        await asyncio.wait_for(asyncio.shield(gin_bot.close()), seconds)
        await asyncio.wait_for(asyncio.shield(task), seconds)
    except TimeoutError:
        raise AssertionError("the bot did not stop:\n" + busy_tasks(6, "\n")) from None


def screens_of(bot: GinBot) -> Screens:
    """The bot's screens: what the tests' drivers ask which message carries a turn. (The
    extension is loaded afresh by each bot, so its classes are not the ones imported here.)"""
    cog = bot.get_cog("GinCog")
    assert cog is not None
    return cast(GinCog, cog).screens


def looked_away(bot: GinBot) -> None:
    """Every player counts as having looked away: their turns get a "your turn" ping even
    right after their own move (test players move far faster than people)."""
    screens_of(bot).looking_seconds = 0.0

"""The bot with its Activity's web server on a free port, against the fake Discord."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from bot.client import GinBot
from bot.config import Config, WebSettings
from tests.e2e.conftest import TOKEN, World, add_card_emojis, card_room
from tests.fakediscord import FakeDiscord, patch_discord
from tests.fakediscord.oauth import ActivityInstance

SECRET = "fake-client-secret"


@dataclass
class Site:
    """The bot's web server, an HTTP client for it, and the Activity launched in #gin."""

    bot: GinBot
    world: World
    http: aiohttp.ClientSession
    instance: ActivityInstance

    @property
    def base(self) -> str:
        assert self.bot.web is not None
        return f"http://127.0.0.1:{self.bot.web.port}"

    @property
    def channel(self) -> str:
        return str(self.world.channel.id)


def web_config(db_path: Path) -> Config:
    return Config(
        token=TOKEN,
        db_path=db_path,
        dev_guild=None,
        log_level="INFO",
        bot_delay=0.0,
        web=WebSettings(0, "127.0.0.1", SECRET),
    )


async def start_web_bot(world: World, config: Config) -> tuple[GinBot, asyncio.Task[None]]:
    bot = GinBot(config)

    async def no_wait(shard_id: int | None, *, initial: bool = False) -> None:
        return None

    bot.before_identify_hook = no_wait  # type: ignore[method-assign]
    await bot.login(TOKEN)
    task = asyncio.create_task(bot.connect())
    await world.fake.wait_until_connected()
    await world.fake.wait_for_command("gin", world.guild)
    await asyncio.wait_for(bot.card_emojis.wait(), 30)
    return bot, task


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    fake = FakeDiscord(token=TOKEN, client_secret=SECRET, activities=True)
    await fake.start()
    room = card_room(fake, tmp_path / "gin.sqlite3")
    add_card_emojis(fake)
    try:
        yield room
    finally:
        await fake.stop()


@pytest.fixture
async def site(world: World) -> AsyncIterator[Site]:
    with patch_discord(world.fake.http_base, world.fake.gateway_url):
        bot, task = await start_web_bot(world, web_config(world.db_path))
        instance = world.fake.add_activity_instance(
            world.channel, [world.alice, world.bob, world.carol]
        )
        try:
            async with aiohttp.ClientSession() as http:
                yield Site(bot, world, http, instance)
        finally:
            await bot.close()
            await task
    assert world.fake.unknown_routes == []

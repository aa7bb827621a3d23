"""The fake Discord shards like Discord: GET /gateway/bot's count, IDENTIFY's shard, guilds by
``(guild_id >> 22) % shard_count``, and DMs on shard 0; driven by discord.py's own
AutoShardedClient."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from tests.fakediscord import FakeDiscord, patch_discord

TOKEN = "fake-bot-token"


class Recorder(discord.AutoShardedClient):
    """A sharded client that answers every button click and notes what it got."""

    def __init__(self, **options: Any) -> None:
        super().__init__(intents=discord.Intents(guilds=True), **options)
        self.clicks: list[tuple[int | None, int | None]] = []  # (guild, shard) per click

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.clicks.append((interaction.guild_id, self._shard_of(interaction)))
        await interaction.response.send_message("got it", ephemeral=True)

    def _shard_of(self, interaction: discord.Interaction[Any]) -> int | None:
        guild = interaction.guild
        return None if guild is None else guild.shard_id


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN, shard_count=2) as fake:
        yield fake


async def running(client: discord.Client) -> asyncio.Task[None]:
    await client.login(TOKEN)
    return asyncio.create_task(client.connect())


async def stop(client: discord.Client, task: asyncio.Task[None]) -> None:
    await client.close()
    await asyncio.wait([task], timeout=5)


def test_guilds_can_be_placed_on_a_shard() -> None:
    fake = FakeDiscord(shard_count=3)
    owner = fake.add_user("owner")
    for shard in (2, 0, 1, 1, 2):
        guild = fake.add_guild(f"on {shard}", owner, shard=shard)
        assert (guild.id >> 22) % 3 == shard == fake.shard_of(guild)
    assert fake.shard_of(None) == 0
    with pytest.raises(ValueError, match="not one of the 3 shards"):
        fake.add_guild("nowhere", owner, shard=3)


async def test_gateway_bot_recommends_the_shard_count(fake: FakeDiscord) -> None:
    owner = fake.add_user("owner")
    guilds = [fake.add_guild("zero", owner, shard=0), fake.add_guild("one", owner, shard=1)]
    with patch_discord(fake.http_base, fake.gateway_url):
        client = Recorder()  # no count given: it asks GET /gateway/bot
        task = await running(client)
        await fake.wait_for(lambda: len(fake.connected_shards()) == 2, timeout=15)
        await fake.wait_for(lambda: len(client.guilds) == 2, timeout=15)
        assert client.shard_count == 2 and fake.connected_shards() == [(0, 2), (1, 2)]
        assert {g.id: g.shard_id for g in client.guilds} == {guilds[0].id: 0, guilds[1].id: 1}
        assert fake.rest.requests["GET /gateway/bot"] == 1
        await stop(client, task)


async def test_two_processes_each_get_their_shards_and_dms_go_to_shard_zero(
    fake: FakeDiscord,
) -> None:
    alice = fake.add_user("alice")
    zero, one = fake.add_guild("zero", alice, shard=0), fake.add_guild("one", alice, shard=1)
    channels = {0: fake.add_channel(zero, "gin"), 1: fake.add_channel(one, "gin")}
    with patch_discord(fake.http_base, fake.gateway_url):
        clients = [Recorder(shard_ids=[0], shard_count=2), Recorder(shard_ids=[1], shard_count=2)]
        tasks = [await running(c) for c in clients]
        await fake.wait_for(lambda: fake.connected_shards() == [(0, 2), (1, 2)], timeout=15)
        await fake.wait_for(lambda: all(c.guilds for c in clients), timeout=15)
        assert [[g.id for g in c.guilds] for c in clients] == [[zero.id], [one.id]]

        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Go", custom_id="go"))
        posted = {}
        for shard, channel in channels.items():  # REST reaches any channel from any process
            sent = await clients[1 - shard].http.send_message(
                channel.id, params=discord.http.handle_message_parameters("hi", view=view)
            )
            posted[shard] = fake.message(int(sent["id"]))
        dm = await clients[1].http.start_private_message(alice.id)
        sent = await clients[1].http.send_message(
            int(dm["id"]), params=discord.http.handle_message_parameters("dm", view=view)
        )

        for shard in (0, 1):
            result = await fake.click(alice, posted[shard], "go")
            assert "got it" in result.text
        await fake.click(alice, fake.message(int(sent["id"])), "go")
        assert clients[0].clicks == [(zero.id, 0), (None, None)]  # DMs: shard 0
        assert clients[1].clicks == [(one.id, 1)]
        for client, task in zip(clients, tasks, strict=True):
            await stop(client, task)

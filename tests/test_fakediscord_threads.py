"""Threads in the fake Discord as Discord has them: started under a text channel (alone or
from a message), a channel of their own with a parent, announced on the gateway, used by
messages and interactions, archived, and refused without the permissions they need."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.fakediscord import Channel, FakeDiscord, Guild, User, patch_discord
from tests.fakediscord.models import (
    ALL_PERMISSIONS,
    PERM_ADMINISTRATOR,
    PERM_ATTACH_FILES,
    PERM_CREATE_PUBLIC_THREADS,
    PERM_MANAGE_THREADS,
    PERM_SEND_MESSAGES,
    PERM_SEND_MESSAGES_IN_THREADS,
)

TOKEN = "fake-thread-token"
EVERYTHING = ALL_PERMISSIONS & ~PERM_ADMINISTRATOR  # an administrator holds every permission


@dataclass
class Seen:
    """What the little bot saw and did."""

    created: list[discord.Thread] = field(default_factory=list)
    updated: list[discord.Thread] = field(default_factory=list)
    commands: list[tuple[int | None, int | None, str]] = field(default_factory=list)
    errors: list[tuple[int, int]] = field(default_factory=list)


def make_bot(seen: Seen) -> discord.Client:
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.1)
    tree = app_commands.CommandTree(client)

    @tree.command(description="Open a match thread here")
    async def thread(interaction: discord.Interaction, name: str) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        try:
            made = await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=60
            )
            await made.send(f"Welcome to {made.name}")
        except discord.HTTPException as error:
            seen.errors.append((error.status, error.code))
            await interaction.response.send_message("no thread", ephemeral=True)
            return
        await interaction.response.send_message(f"<#{made.id}>")

    @tree.command(description="Say where you are")
    async def where(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        kind = type(channel).__name__
        parent = getattr(channel, "parent_id", None)
        seen.commands.append((interaction.guild_id, parent, kind))
        await interaction.response.send_message(f"in {interaction.channel_id}")

    @client.event
    async def on_thread_create(made: discord.Thread) -> None:
        seen.created.append(made)

    @client.event
    async def on_thread_update(before: discord.Thread, after: discord.Thread) -> None:
        seen.updated.append(after)

    async def setup_hook() -> None:
        await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    return client


@dataclass
class Room:
    fake: FakeDiscord
    client: discord.Client
    seen: Seen
    alice: User
    guild: Guild
    channel: Channel


@pytest.fixture
async def room() -> AsyncIterator[Room]:
    fake = FakeDiscord(token=TOKEN)
    await fake.start()
    alice = fake.add_user("alice")
    guild = fake.add_guild("Card Room", owner=alice)
    channel = fake.add_channel(guild, "tournament")
    seen = Seen()
    try:
        with patch_discord(fake.http_base, fake.gateway_url):
            client = make_bot(seen)
            await client.login(TOKEN)
            task = asyncio.create_task(client.connect())
            await fake.wait_until_connected()
            await fake.wait_for_command("thread")
            try:
                yield Room(fake, client, seen, alice, guild, channel)
            finally:
                await client.close()
                await task
    finally:
        await fake.stop()
    assert fake.unknown_routes == []


async def test_a_thread_is_a_channel_of_its_own_under_its_parent(room: Room) -> None:
    fake = room.fake
    answer = await fake.slash(room.alice, room.channel, "thread", name="Round 1: A vs B")
    [thread] = fake.threads(room.channel)
    assert answer.text == f"<#{thread.id}>"
    assert (thread.type, thread.parent_id, thread.owner_id) == (11, room.channel.id, fake.bot.id)
    assert thread.auto_archive_duration == 60 and not thread.archived
    # Its messages are its own, not the parent's; the parent gets Discord's system message.
    [welcome] = fake.channel_messages(thread)
    assert welcome.text == "Welcome to Round 1: A vs B" and welcome.guild_id == room.guild.id
    starter = [m for m in fake.channel_messages(room.channel) if m.payload["type"] == 18]
    assert [m.text for m in starter] == ["Round 1: A vs B"]
    assert starter[0].payload["message_reference"]["channel_id"] == str(thread.id)
    assert thread.message_count == 1 and fake.bot.id in thread.member_ids
    # The gateway told the bot, which keeps it in its cache under the guild.
    await fake.wait_for(lambda: room.seen.created, what="THREAD_CREATE")
    cached = room.client.get_channel(thread.id)
    assert isinstance(cached, discord.Thread) and cached.parent_id == room.channel.id
    payload = thread.payload()
    assert payload["thread_metadata"]["archived"] is False and payload["owner_id"]


async def test_an_interaction_in_a_thread_has_the_thread_as_its_channel(room: Room) -> None:
    fake = room.fake
    thread = fake.add_thread(room.channel, "side room", room.alice)
    await fake.wait_for(lambda: room.client.get_channel(thread.id), what="the thread cached")
    answer = await fake.slash(room.alice, thread, "where")
    assert answer.text == f"in {thread.id}" and not answer.ephemeral
    assert room.seen.commands == [(room.guild.id, room.channel.id, "Thread")]
    assert answer.message.channel_id == thread.id  # the answer is posted in the thread
    assert room.alice.id in thread.member_ids


async def test_a_message_in_an_archived_thread_unarchives_it_unless_locked(room: Room) -> None:
    fake = room.fake
    await fake.slash(room.alice, room.channel, "thread", name="quiet")
    [thread] = fake.threads(room.channel)
    cached = await fake.wait_for(lambda: room.client.get_channel(thread.id), what="cached")
    assert isinstance(cached, discord.Thread)
    fake.archive_thread(thread)
    # discord.py keeps active threads only: an archived one leaves its cache.
    await fake.wait_for(lambda: cached.archived, what="THREAD_UPDATE: archived")
    assert room.client.get_channel(thread.id) is None
    await cached.send("still here")
    assert not thread.archived
    await fake.wait_for(lambda: room.client.get_channel(thread.id), what="back in the cache")
    fake.archive_thread(thread, locked=True)
    with pytest.raises(discord.HTTPException) as refused:
        await cached.send("let me in")
    assert (refused.value.status, refused.value.code) == (400, 50083)


async def test_the_creator_archives_its_thread_and_a_new_connection_skips_it(room: Room) -> None:
    fake = room.fake
    fake.set_permissions(room.guild, fake.bot, EVERYTHING & ~PERM_MANAGE_THREADS)
    await fake.slash(room.alice, room.channel, "thread", name="done")
    [thread] = fake.threads(room.channel)
    cached = await fake.wait_for(lambda: room.client.get_channel(thread.id), what="cached")
    assert isinstance(cached, discord.Thread)
    message = fake.channel_messages(thread)[0]
    await cached.edit(archived=True)
    assert thread.archived
    with pytest.raises(discord.HTTPException) as refused:
        await cached.get_partial_message(message.id).edit(content="late")
    assert refused.value.code == 50083
    active = room.guild.create_payload("")["threads"]
    assert active == []  # GUILD_CREATE lists active threads only
    with pytest.raises(discord.Forbidden):
        await cached.edit(archived=False, locked=True)  # locking needs Manage Threads
    await cached.edit(archived=False)  # its creator may bring it back
    assert not thread.archived


async def test_threads_need_their_permissions(room: Room) -> None:
    fake = room.fake
    fake.set_permissions(room.guild, fake.bot, EVERYTHING & ~PERM_CREATE_PUBLIC_THREADS)
    refused = await fake.slash(room.alice, room.channel, "thread", name="nope")
    assert refused.ephemeral and room.seen.errors == [(403, 50013)]
    assert fake.threads(room.channel) == []
    fake.set_permissions(room.guild, fake.bot, EVERYTHING & ~PERM_SEND_MESSAGES_IN_THREADS)
    await fake.slash(room.alice, room.channel, "thread", name="mute")
    assert room.seen.errors[-1] == (403, 50013)
    [thread] = fake.threads(room.channel)  # started, but the bot may not speak in it
    assert fake.channel_messages(thread) == []


async def test_a_thread_from_a_message_takes_its_id(room: Room) -> None:
    fake = room.fake
    posted = await room.client.http.send_message(room.channel.id, params=_params("Pairings"))
    message_id = int(posted["id"])
    data: dict[str, Any] = await room.client.http.start_thread_with_message(
        room.channel.id, message_id, name="Board 1", auto_archive_duration=1440
    )
    assert int(data["id"]) == message_id and data["parent_id"] == str(room.channel.id)
    assert fake.message(message_id).payload["thread"]["id"] == str(message_id)
    assert not [m for m in fake.channel_messages(room.channel) if m.payload["type"] == 18]


def _params(content: str) -> Any:
    from discord.http import handle_message_parameters

    return handle_message_parameters(content=content)


async def test_messages_need_send_messages_and_uploads_attach_files(room: Room) -> None:
    """In a server's channel a new message needs Send Messages, and a file, new or added by
    an edit, Attach Files; a DM needs neither."""
    fake = room.fake
    channel = await fake.wait_for(lambda: room.client.get_channel(room.channel.id), what="cached")
    assert isinstance(channel, discord.TextChannel)
    fake.set_permissions(room.guild, fake.bot, EVERYTHING & ~PERM_ATTACH_FILES)
    sent = await channel.send("words only")
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("a picture", file=discord.File(io.BytesIO(b"png"), "a.png"))
    assert refused.value.code == 50013
    with pytest.raises(discord.Forbidden):
        await sent.edit(attachments=[discord.File(io.BytesIO(b"png"), "a.png")])
    await sent.edit(content="an edit without files")
    alice = await room.client.fetch_user(room.alice.id)
    await alice.send("a picture", file=discord.File(io.BytesIO(b"png"), "a.png"))
    fake.set_permissions(room.guild, fake.bot, EVERYTHING & ~PERM_SEND_MESSAGES)
    with pytest.raises(discord.Forbidden):
        await channel.send("not here")
    await sent.edit(content="its own message may still be edited")
    assert [m.text for m in fake.channel_messages(room.channel)] == [
        "its own message may still be edited"
    ]

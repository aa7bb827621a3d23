"""The fake Discord drives the real discord.py stack: commands, components, DMs, restarts."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import signal
import subprocess
import sys
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.fakediscord import (
    Channel,
    CommandError,
    ComponentError,
    FakeDiscord,
    FakeDiscordError,
    Guild,
    InteractionFailed,
    User,
    patch_discord,
)

TOKEN = "fake-bot-token"
CARDS = ["7♠", "7♥", "8♣", "9♦", "10♠", "J♥", "Q♣", "K♦", "A♠"]
REPO = Path(__file__).resolve().parents[1]


# -- a tiny bot that exercises what the project's bot will use -------------------------------


class AcceptButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"duel:(?P<a>\d+):(?P<b>\d+)"
):
    """A persistent button whose custom_id names the challenger and the opponent."""

    def __init__(self, challenger: int, opponent: int) -> None:
        self.challenger, self.opponent = challenger, opponent
        custom_id = f"duel:{challenger}:{opponent}"
        super().__init__(discord.ui.Button(label="Accept", custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AcceptButton:
        return cls(int(match["a"]), int(match["b"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.opponent:
            await interaction.response.send_message("This duel is not yours.", ephemeral=True)
            return
        await interaction.response.edit_message(
            content=f"Duel accepted by <@{self.opponent}>", view=None
        )


class HandView(discord.ui.View):
    """A DM with a button that defers then edits, and a select that updates in place."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Draw", custom_id="hand:draw")
    async def draw(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="You drew 5♣")

    @discord.ui.button(label="Knock", custom_id="hand:knock", disabled=True)
    async def knock(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message("knocked")

    @discord.ui.select(
        custom_id="hand:discard",
        options=[discord.SelectOption(label=c, value=c) for c in CARDS[:4]],
    )
    async def discard(
        self, interaction: discord.Interaction, select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.edit_message(content=f"Discarded {select.values[0]}")


class BoardView(discord.ui.LayoutView):
    """Components V2: a container with a text display and a button row."""

    def __init__(self, text: str) -> None:
        super().__init__(timeout=None)
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="Refresh", custom_id="board:refresh"
        )
        button.callback = self.refresh  # type: ignore[method-assign]
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow(button)
        self.add_item(discord.ui.Container(discord.ui.TextDisplay(text), row))

    async def refresh(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(view=BoardView("Board refreshed"))


class NameModal(discord.ui.Modal, title="Table name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="table:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Table renamed to {self.name.value}")


@dataclass
class Seen:
    """What the demo bot observed, so tests can assert on the discord.py side too."""

    dm_errors: list[tuple[int, int]] = field(default_factory=list)
    user_messages: list[str] = field(default_factory=list)
    members: list[discord.Member | discord.User] = field(default_factory=list)
    table_message: discord.Message | None = None


def make_bot(seen: Seen) -> discord.Client:
    intents = discord.Intents.default()
    client = discord.Client(intents=intents, guild_ready_timeout=0.1)
    tree = app_commands.CommandTree(client)
    demo = app_commands.Group(name="demo", description="Demo commands")

    @demo.command(description="Challenge someone")
    @app_commands.describe(opponent="Who to play", target="Points to win")
    async def duel(
        interaction: discord.Interaction,
        opponent: discord.Member,
        target: app_commands.Range[int, 10, 500] = 100,
    ) -> None:
        seen.members.append(opponent)
        view = discord.ui.View(timeout=None)
        view.add_item(AcceptButton(interaction.user.id, opponent.id))
        text = f"{interaction.user.display_name} challenges {opponent.display_name} to {target}"
        await interaction.response.send_message(text, view=view)

    @demo.command(description="Pick a card")
    async def pick(interaction: discord.Interaction, card: str) -> None:
        await interaction.response.send_message(f"You picked {card}", ephemeral=True)

    @pick.autocomplete("card")
    async def pick_card(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in CARDS if c.startswith(current)]

    @demo.command(description="Think, then answer twice")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("and one more", ephemeral=True)

    @demo.command(description="Show the hand by DM")
    async def hand(interaction: discord.Interaction, player: discord.User) -> None:
        try:
            await player.send("Your hand: 7♠ 8♣", view=HandView())
        except discord.Forbidden as exc:
            seen.dm_errors.append((exc.status, exc.code))
            await interaction.response.send_message(f"cannot DM ({exc.code})", ephemeral=True)
            return
        await interaction.response.send_message("hand sent", ephemeral=True)

    @demo.command(description="Post a table and update it in place")
    async def table(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("setting up", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        message = await interaction.channel.send("Table: waiting")
        for move in (1, 2):
            message = await message.edit(content=f"Table: move {move}")
        seen.table_message = message

    @tree.command(description="Rename the table")
    @app_commands.default_permissions(manage_guild=True)
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @demo.command(description="Answer too late")
    async def late(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)
        await interaction.response.send_message("too late")

    @demo.command(description="Send an oversized message")
    async def huge(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("x" * 2001)

    @demo.command(description="Show a card picture")
    async def picture(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Your card").set_image(url="attachment://card.png")
        card = discord.File(io.BytesIO(b"\x89PNG-seven"), filename="card.png")
        await interaction.response.send_message(embed=embed, file=card)
        assert isinstance(interaction.channel, discord.TextChannel)
        board = discord.File(io.BytesIO(b"board-1"), filename="board.png")
        message = await interaction.channel.send("Board", file=board)
        new_board = discord.File(io.BytesIO(b"board-2"), filename="board2.png")
        seen.table_message = await message.edit(attachments=[new_board])

    @demo.command(description="Show a Components V2 board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=BoardView("Board v2"))

    @tree.command(description="Works in DMs too")
    async def ping(interaction: discord.Interaction) -> None:
        where = "DM" if interaction.guild is None else interaction.guild.name
        await interaction.response.send_message(f"pong from {where}")

    tree.add_command(demo)

    async def setup_hook() -> None:
        client.add_dynamic_items(AcceptButton)
        client.add_view(HandView())
        await tree.sync()

    async def before_identify_hook(shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py sleeps 5 s before a re-IDENTIFY; the fake has no identify rate limit."""

    async def on_message(message: discord.Message) -> None:
        if not message.author.bot:
            seen.user_messages.append(message.content)

    client.event(on_message)
    client.setup_hook = setup_hook  # type: ignore[method-assign]
    client.before_identify_hook = before_identify_hook  # type: ignore[method-assign]
    return client


# -- fixtures ------------------------------------------------------------------------------------


@dataclass
class World:
    fake: FakeDiscord
    alice: User
    bob: User
    guild: Guild
    channel: Channel


@pytest.fixture
async def world() -> AsyncIterator[World]:
    fake = FakeDiscord(token=TOKEN)
    await fake.start()
    alice, bob = fake.add_user("alice", global_name="Alice"), fake.add_user("bob")
    guild = fake.add_guild("Card Room", owner=alice)
    channel = fake.add_channel(guild, "gin")
    fake.add_member(guild, bob)
    try:
        yield World(fake, alice, bob, guild, channel)
    finally:
        await fake.stop()


@pytest.fixture
async def seen(world: World) -> AsyncIterator[Seen]:
    """Runs the demo bot in-process against the fake for the test's duration."""
    observed = Seen()
    with patch_discord(world.fake.http_base, world.fake.gateway_url):
        client = make_bot(observed)
        await client.login(TOKEN)
        runner = asyncio.create_task(client.connect())
        await world.fake.wait_until_connected()
        try:
            yield observed
        finally:
            await client.close()
            await runner
    assert world.fake.unknown_routes == []


# -- tests ---------------------------------------------------------------------------------------


async def test_login_sync_and_user_option(world: World, seen: Seen) -> None:
    fake = world.fake
    command = await fake.wait_for_command("demo")
    assert {o["name"] for o in command["options"]} >= {"duel", "pick", "slow", "hand"}
    result = await fake.slash(
        world.bob, world.channel, "demo duel", opponent=world.alice, target=50
    )
    assert result.type == 4
    assert result.text == "bob challenges Alice to 50"
    assert not result.ephemeral
    assert result.custom_ids == [f"duel:{world.bob.id}:{world.alice.id}"]
    assert isinstance(seen.members[0], discord.Member)
    assert seen.members[0].id == world.alice.id
    assert fake.channel_messages(world.channel) == [result.message]
    # Timed from dispatch to callback; Discord's 3 s deadline is the fake's to enforce (a late
    # answer is refused), not a figure for a test on a busy machine to race.
    assert result.latency is not None and result.latency > 0


async def test_command_schema_is_enforced(world: World, seen: Seen) -> None:
    fake = world.fake
    with pytest.raises(CommandError, match="required option 'opponent'"):
        await fake.slash(world.bob, world.channel, "demo duel")
    with pytest.raises(CommandError, match=r"outside 10\.\.500"):
        await fake.slash(world.bob, world.channel, "demo duel", opponent=world.alice, target=5)
    with pytest.raises(CommandError, match="no subcommand 'nope'"):
        await fake.slash(world.bob, world.channel, "demo nope")


async def test_dynamic_button_in_channel(world: World, seen: Seen) -> None:
    fake = world.fake
    duel = await fake.slash(world.bob, world.channel, "demo duel", opponent=world.alice)
    assert duel.message is not None
    custom_id = duel.custom_ids[0]
    refused = await fake.click(world.bob, duel.message, custom_id)
    assert refused.type == 4 and refused.ephemeral
    assert refused.text == "This duel is not yours."
    accepted = await fake.click(world.alice, duel.message, custom_id)
    assert accepted.type == 7
    assert accepted.message is duel.message
    assert duel.message.content == f"Duel accepted by <@{world.alice.id}>"
    assert duel.message.components == []
    assert len(duel.message.history) == 2
    with pytest.raises(ComponentError, match="has no component"):
        await fake.click(world.alice, duel.message, custom_id)


async def test_components_v2_message(world: World, seen: Seen) -> None:
    fake = world.fake
    result = await fake.slash(world.bob, world.channel, "demo board")
    assert result.flags & (1 << 15)
    assert result.text == "Board v2"
    assert result.custom_ids == ["board:refresh"]
    assert result.message is not None
    refreshed = await fake.click(world.alice, result.message, "board:refresh")
    assert refreshed.type == 7 and result.text == "Board refreshed"


async def test_autocomplete(world: World, seen: Seen) -> None:
    choices = await world.fake.autocomplete(
        world.bob, world.channel, "demo pick", focused="card", value="7"
    )
    assert choices == [{"name": "7♠", "value": "7♠"}, {"name": "7♥", "value": "7♥"}]


async def test_ephemeral_reply_stays_private(world: World, seen: Seen) -> None:
    fake = world.fake
    result = await fake.slash(world.bob, world.channel, "demo pick", card="Q♣")
    assert result.ephemeral and result.flags & 64
    assert result.text == "You picked Q♣"
    assert fake.channel_messages(world.channel) == []
    assert all("Q♣" not in str(p) for p in fake.all_channel_payloads())


async def test_defer_then_followups(world: World, seen: Seen) -> None:
    result = await world.fake.slash(world.bob, world.channel, "demo slow")
    assert result.type == 5 and result.deferred
    await result.wait_for_followups(1)
    assert result.message is not None and not result.message.loading
    assert result.content == "done thinking"
    assert [m.content for m in result.followups] == ["and one more"]
    assert result.followups[0].ephemeral
    assert result.text == "done thinking\nand one more"


async def test_channel_message_edited_in_place(world: World, seen: Seen) -> None:
    fake = world.fake
    await fake.slash(world.bob, world.channel, "demo table")
    table = await fake.wait_for(lambda: seen.table_message)
    message = fake.message(table.id)
    assert [v["content"] for v in message.history] == [
        "Table: waiting",
        "Table: move 1",
        "Table: move 2",
    ]
    assert message.payload["edited_timestamp"] is not None
    assert fake.channel_messages(world.channel) == [message]
    contents = [p["content"] for p in fake.all_channel_payloads()]
    assert contents == ["Table: waiting", "Table: move 1", "Table: move 2"]
    await fake.post_message(world.bob, world.channel, "nice move")
    await fake.wait_for(lambda: seen.user_messages == ["nice move"])


async def test_attachments_multipart(world: World, seen: Seen) -> None:
    fake = world.fake
    result = await fake.slash(world.bob, world.channel, "demo picture")
    assert result.message is not None
    [card] = result.message.attachments
    assert (card.filename, card.data) == ("card.png", b"\x89PNG-seven")
    assert result.embeds[0]["image"]["url"] == card.url
    table = await fake.wait_for(lambda: seen.table_message)
    board = fake.message(table.id)
    assert [a["filename"] for v in board.history for a in v["attachments"]] == [
        "board.png",
        "board2.png",
    ]
    async with aiohttp.ClientSession() as http, http.get(card.url) as resp:
        assert await resp.read() == b"\x89PNG-seven"


async def test_dm_with_buttons_and_select(world: World, seen: Seen) -> None:
    fake = world.fake
    sent = await fake.slash(world.bob, world.channel, "demo hand", player=world.alice)
    assert sent.text == "hand sent"
    [dm] = fake.dm_messages(world.alice)
    assert dm.content == "Your hand: 7♠ 8♣"
    assert dm.custom_ids() == ["hand:draw", "hand:knock", "hand:discard"]
    drawn = await fake.click(world.alice, dm, "hand:draw")
    assert drawn.type == 6
    await drawn.wait_for_text("You drew 5♣")
    chosen = await fake.select(world.alice, dm, "hand:discard", ["8♣"])
    assert chosen.type == 7 and dm.content == "Discarded 8♣"
    with pytest.raises(ComponentError, match="disabled"):
        await fake.click(world.alice, dm, "hand:knock")
    with pytest.raises(ComponentError, match="cannot see a DM"):
        await fake.click(world.bob, dm, "hand:draw")
    with pytest.raises(ComponentError, match="no options"):
        await fake.select(world.alice, dm, "hand:discard", ["2♦"])
    assert fake.all_channel_payloads() == []
    assert [p["content"] for p in fake.all_dm_payloads(world.alice)] == [
        "Your hand: 7♠ 8♣",
        "You drew 5♣",
        "Discarded 8♣",
    ]


async def test_closed_dms_raise_forbidden_50007(world: World, seen: Seen) -> None:
    fake = world.fake
    fake.close_dms(world.alice)
    result = await fake.slash(world.bob, world.channel, "demo hand", player=world.alice)
    assert result.text == "cannot DM (50007)"
    assert seen.dm_errors == [(403, 50007)]
    assert fake.dm_messages(world.alice) == []
    fake.open_dms(world.alice)
    result = await fake.slash(world.bob, world.channel, "demo hand", {"player": world.alice})
    assert result.text == "hand sent"


async def test_modal_roundtrip(world: World, seen: Seen) -> None:
    fake = world.fake
    with pytest.raises(CommandError, match="hidden from bob"):
        await fake.slash(world.bob, world.channel, "rename")
    opened = await fake.slash(world.alice, world.channel, "rename")
    assert opened.type == 9 and opened.modal is not None
    submitted = await fake.submit_modal(world.alice, opened, {"table:name": "High Rollers"})
    assert submitted.text == "Table renamed to High Rollers"


async def test_command_in_dm(world: World, seen: Seen) -> None:
    dm = world.fake.dm_channel(world.bob)
    result = await world.fake.slash(world.bob, dm, "ping")
    assert result.text == "pong from DM"
    assert result.record.payload["context"] == 1 and "user" in result.record.payload
    assert world.fake.dm_messages(world.bob) == [result.message]


@pytest.mark.refused_on_purpose
async def test_late_and_invalid_answers_fail_loudly(world: World, seen: Seen) -> None:
    fake = world.fake
    fake.interaction_deadline = 0.1
    with pytest.raises(InteractionFailed, match="Unknown interaction"):
        await fake.slash(world.bob, world.channel, "demo late")
    fake.interaction_deadline = 3.0
    with pytest.raises(InteractionFailed, match="maxLength: 2000"):
        await fake.slash(world.bob, world.channel, "demo huge")
    assert {e[2] for e in fake.errors} == {400, 404}


async def test_gateway_resume_and_reidentify(world: World, seen: Seen) -> None:
    fake = world.fake
    await fake.disconnect_bot()
    await fake.wait_for(lambda: fake.gateway.resume_count == 1)
    assert (await fake.slash(world.bob, world.channel, "ping")).text == "pong from Card Room"
    await fake.disconnect_bot(resumable=False)
    await fake.wait_for(lambda: fake.gateway.identify_count == 2)
    assert (await fake.slash(world.bob, world.channel, "ping")).text == "pong from Card Room"


async def test_rate_limit_is_retried(world: World, seen: Seen) -> None:
    fake = world.fake
    rule = fake.inject_rate_limit("POST", f"/channels/{world.channel.id}/messages", count=1)
    await fake.slash(world.bob, world.channel, "demo table")
    await fake.wait_for(lambda: seen.table_message)
    assert rule.count == 0
    assert fake.last_message(world.channel) is not None


@pytest.mark.refused_on_purpose
async def test_rest_basics(world: World) -> None:
    fake = world.fake
    async with aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {TOKEN}"}
        async with http.get(f"{fake.http_base}/users/@me", headers=headers) as resp:
            assert resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["id"] == str(fake.bot.id)
        async with http.get(f"{fake.http_base}/users/@me") as resp:
            assert resp.status == 401
        async with http.get(f"{fake.http_base}/nothing/here", headers=headers) as resp:
            assert resp.status == 404
            assert "no route" in (await resp.json())["message"]
    assert fake.unknown_routes == ["GET /api/v10/nothing/here"]
    ids = [fake.store.ids.next() for _ in range(1000)]
    assert ids == sorted(set(ids))
    assert discord.utils.snowflake_time(ids[-1]).year >= 2024


async def test_raw_gateway_frames(world: World) -> None:
    """Without a bot: HELLO, heartbeat ACK, zlib-stream frames and a refused RESUME."""
    fake = world.fake
    async with aiohttp.ClientSession() as http:
        url = f"{fake.gateway_url}?v=10&encoding=json&compress=zlib-stream"
        async with http.ws_connect(url) as ws:
            inflate = zlib.decompressobj()

            async def receive() -> dict[str, Any]:
                frame = await ws.receive_bytes(timeout=5)
                assert frame.endswith(b"\x00\x00\xff\xff")
                return json.loads(inflate.decompress(frame))  # type: ignore[no-any-return]

            assert (await receive())["op"] == 10
            await ws.send_json({"op": 1, "d": None})
            assert (await receive())["op"] == 11
            await ws.send_json({"op": 6, "d": {"token": TOKEN, "session_id": "nope", "seq": 3}})
            assert await receive() == {"op": 9, "d": False}
            await ws.send_json({"op": 2, "d": {"token": TOKEN, "intents": 0}})
            ready = await receive()
            assert ready["t"] == "READY" and ready["s"] == 1
            assert ready["d"]["application"]["id"] == str(fake.app_id)
            assert ready["d"]["guilds"] == [{"id": str(world.guild.id), "unavailable": True}]
            guild = (await receive())["d"]
            assert {c["name"] for c in guild["channels"]} == {"gin"}
            assert {m["user"]["username"] for m in guild["members"]} == {"alice", "bob", "FakeBot"}
        async with http.ws_connect(f"{fake.gateway_url}?v=10&encoding=json") as ws:
            assert (await ws.receive_json(timeout=5))["op"] == 10


async def test_subprocess_bot_survives_sigkill(world: World, tmp_path: Path) -> None:
    fake = world.fake
    env = {**os.environ, **fake.env(), "DISCORD_TOKEN": TOKEN}
    command = [sys.executable, "-m", "tests.fakediscord.bootstrap", "tests.fakediscord.demo_bot"]
    log_path = tmp_path / "bot.log"

    def start() -> subprocess.Popen[bytes]:
        with log_path.open("ab") as log:
            return subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=log)

    def kill(process: subprocess.Popen[bytes]) -> None:
        process.send_signal(signal.SIGKILL)
        process.wait()

    first = start()
    try:
        posted = await fake.slash(world.alice, world.channel, "counter", timeout=20)
        assert posted.message is not None
        clicked = await fake.click(world.bob, posted.message, "count:0")
        assert clicked.message is posted.message
        assert posted.message.content == f"count=1 pid={first.pid}"
    except FakeDiscordError as exc:
        raise AssertionError(f"{exc}\nbot log:\n{log_path.read_text()[-4000:]}") from exc
    finally:
        kill(first)
    await fake.wait_for(lambda: fake.gateway.session_for(world.guild.id) is None)
    second = start()
    try:
        again = await fake.click(world.bob, posted.message, "count:1", timeout=20)
        assert again.type == 7
        assert posted.message.content == f"count=2 pid={second.pid}"
        assert fake.gateway.identify_count == 2
    except FakeDiscordError as exc:
        raise AssertionError(f"{exc}\nbot log:\n{log_path.read_text()[-4000:]}") from exc
    finally:
        kill(second)

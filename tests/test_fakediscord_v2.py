"""Components V2 and attachments in the fake Discord, driven through the real discord.py stack:
LayoutViews with files sent to a channel, as interaction responses and followups, edited with a
replaced attachment, clicked, and every Discord limit refused with Discord's error code."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.http import handle_message_parameters

from tests.fakediscord import (
    Channel,
    FakeDiscord,
    Guild,
    InteractionFailed,
    Message,
    User,
    patch_discord,
)
from tests.fakediscord.models import png_bytes
from tests.fakediscord.validation import UPLOAD_LIMIT

TOKEN = "fake-v2-token"
V2 = 1 << 15
BOARD = png_bytes(3, 2, (0, 120, 0))
BOARD2 = png_bytes(4, 4, (120, 0, 0))
BOARD3 = png_bytes(5, 1, (0, 0, 120))
FACE = png_bytes(1, 1, (200, 200, 0))
LOG = b"1. Alice drew 7H\n2. Bob discarded KS\n"
RULES_URL = "https://example.com/rules.png"


# -- the bot ----------------------------------------------------------------------------------


def board_file(data: bytes = BOARD, name: str = "board.png") -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def table_files(board: bytes = BOARD, name: str = "board.png") -> list[discord.File]:
    return [
        board_file(board, name),
        discord.File(io.BytesIO(FACE), filename="face.png"),
        discord.File(io.BytesIO(LOG), filename="log.txt"),
    ]


class TableLayout(discord.ui.LayoutView):
    """A container with a title, a separator, a section with a thumbnail, a media gallery (an
    attached board and an outside URL), an attached file, a section with a button accessory
    and an action row with a button."""

    def __init__(self, seen: Seen, title: str, board: str = "board.png") -> None:
        super().__init__(timeout=None)
        self.seen = seen
        knock: discord.ui.Button[Any] = discord.ui.Button(
            label="Knock", custom_id="v2:knock", style=discord.ButtonStyle.danger
        )
        knock.callback = self.knock  # type: ignore[method-assign]
        draw: discord.ui.Button[Any] = discord.ui.Button(label="Draw", custom_id="v2:draw")
        draw.callback = self.draw  # type: ignore[method-assign]
        gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{board}", description="The board"),
            discord.MediaGalleryItem(RULES_URL, spoiler=True),
        )
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay(f"# {title}"),
                discord.ui.Separator(spacing=discord.SeparatorSpacing.large),
                discord.ui.Section(
                    "Alice: 12 points",
                    "Bob: 30 points",
                    accessory=discord.ui.Thumbnail("attachment://face.png", description="Alice"),
                ),
                gallery,
                discord.ui.File("attachment://log.txt"),
                discord.ui.Section("Your move", accessory=knock),
                discord.ui.ActionRow(draw),
                accent_color=0x2ECC71,
            )
        )

    async def knock(self, interaction: discord.Interaction) -> None:
        self.seen.clicks.append("knock")
        note = discord.ui.LayoutView()
        note.add_item(discord.ui.TextDisplay("You knocked"))
        await interaction.response.send_message(view=note, ephemeral=True)

    async def draw(self, interaction: discord.Interaction) -> None:
        """Type 7 with a new file: keeps the face and the log by id, replaces the board."""
        self.seen.clicks.append("draw")
        assert interaction.message is not None
        kept = [a for a in interaction.message.attachments if a.filename != "board.png"]
        new_board = board_file(BOARD2, "board2.png")
        await interaction.response.edit_message(
            view=TableLayout(self.seen, "Drawn", board="board2.png"),
            attachments=[*kept, new_board],
        )


class Note(discord.ui.LayoutView):
    """A text display and an attached file shown by a file component."""

    def __init__(self, text: str, file: discord.File) -> None:
        super().__init__(timeout=None)
        self.add_item(discord.ui.TextDisplay(text))
        self.add_item(discord.ui.File(file))


class RawLayout(discord.ui.LayoutView):
    """Sends these component payloads as they are, flagged V2 (discord.py itself would refuse
    some of them before sending)."""

    def __init__(self, *components: dict[str, Any]) -> None:
        super().__init__(timeout=None)
        self.raw = list(components)

    def to_components(self) -> list[dict[str, Any]]:
        return self.raw

    def has_components_v2(self) -> bool:
        return True


class RawView(discord.ui.View):
    """The same without the V2 flag, as a classic `View` sends its rows."""

    def __init__(self, *components: dict[str, Any]) -> None:
        super().__init__(timeout=None)
        self.raw = list(components)

    def to_components(self) -> list[dict[str, Any]]:
        return self.raw


class Broken(discord.ui.LayoutView):
    """A button whose answer (a type-7 update) breaks the media gallery limit."""

    def __init__(self, seen: Seen) -> None:
        super().__init__(timeout=None)
        self.seen = seen
        go: discord.ui.Button[Any] = discord.ui.Button(label="Go", custom_id="v2:broken")
        go.callback = self.go  # type: ignore[method-assign]
        self.add_item(discord.ui.Section("Press to break it", accessory=go))

    async def go(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.edit_message(view=RawLayout(gallery(11)))
        except discord.HTTPException as exc:
            self.seen.errors.append((exc.status, exc.code))


@dataclass
class Seen:
    posted: discord.Message | None = None
    replied: discord.InteractionMessage | None = None
    clicks: list[str] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    errors: list[tuple[int, int]] = field(default_factory=list)


def make_bot(seen: Seen) -> discord.Client:
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.1)
    tree = app_commands.CommandTree(client)
    group = app_commands.Group(name="v2", description="Components V2")

    @group.command(description="Post a V2 table with files to the channel")
    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        seen.posted = await interaction.channel.send(
            view=TableLayout(seen, "Table 7"), files=table_files()
        )
        await interaction.followup.send("posted", ephemeral=True)

    @group.command(description="Answer with a V2 table with files")
    async def reply(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            view=TableLayout(seen, "Your table"), files=table_files()
        )
        seen.replied = await interaction.original_response()

    @group.command(description="Edit the posted table, replacing its board")
    async def edit(interaction: discord.Interaction) -> None:
        assert seen.posted is not None
        kept = [a for a in seen.posted.attachments if a.filename != "board.png"]
        seen.posted = await seen.posted.edit(
            view=TableLayout(seen, "Table 7, move 2", board="board3.png"),
            attachments=[board_file(BOARD3, "board3.png"), *kept],
        )
        await interaction.response.send_message("edited", ephemeral=True)

    @group.command(description="Think, then answer with files by followups")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        log = discord.File(io.BytesIO(b"first"), filename="first.txt")
        await interaction.followup.send(view=Note("Thought it over", log), file=log)
        second = discord.File(io.BytesIO(b"second"), filename="second.txt")
        await interaction.followup.send(
            view=Note("Just for you", second), file=second, ephemeral=True
        )
        third = discord.File(io.BytesIO(b"third"), filename="third.txt")
        await interaction.edit_original_response(
            view=Note("Thought it over again", third), attachments=[third]
        )
        seen.done.append("later")

    @group.command(description="Answer with a button that breaks a limit")
    async def broken(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=Broken(seen))

    @group.command(description="Answer with a file over the upload limit")
    async def huge(interaction: discord.Interaction) -> None:
        big = discord.File(io.BytesIO(b"\0" * (UPLOAD_LIMIT + 1)), filename="huge.bin")
        try:
            await interaction.response.send_message(view=Note("Too big", big), file=big)
        except discord.HTTPException as exc:
            seen.errors.append((exc.status, exc.code))

    tree.add_command(group)

    async def setup_hook() -> None:
        await tree.sync()

    async def before_identify_hook(shard_id: int | None, *, initial: bool = False) -> None:
        """No identify rate limit in the fake."""

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    client.before_identify_hook = before_identify_hook  # type: ignore[method-assign]
    return client


# -- fixtures -----------------------------------------------------------------------------------


@dataclass
class World:
    fake: FakeDiscord
    alice: User
    bob: User
    guild: Guild
    channel: Channel
    client: discord.Client
    seen: Seen

    @property
    def sendable(self) -> discord.PartialMessageable:
        """The channel as discord.py sends to it (for the limit checks)."""
        return self.client.get_partial_messageable(self.channel.id)


@pytest.fixture
async def world() -> AsyncIterator[World]:
    fake = FakeDiscord(token=TOKEN)
    await fake.start()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    guild = fake.add_guild("Card Room", owner=alice)
    channel = fake.add_channel(guild, "gin")
    fake.add_member(guild, bob)
    seen = Seen()
    try:
        with patch_discord(fake.http_base, fake.gateway_url):
            client = make_bot(seen)
            await client.login(TOKEN)
            runner = asyncio.create_task(client.connect())
            await fake.wait_until_connected()
            try:
                yield World(fake, alice, bob, guild, channel, client, seen)
            finally:
                await client.close()
                await runner
        assert fake.unknown_routes == []
    finally:
        await fake.stop()


async def posted_table(world: World) -> Message:
    await world.fake.slash(world.alice, world.channel, "v2 post")
    posted = await world.fake.wait_for(lambda: world.seen.posted)
    return world.fake.message(posted.id)


def only(items: list[Any], kind: type[Any]) -> Any:
    [found] = [i for i in items if isinstance(i, kind)]
    return found


def walk(components: list[Any]) -> list[Any]:
    found: list[Any] = []
    for component in components:
        found.append(component)
        found.extend(walk(list(getattr(component, "children", []) or [])))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            found.append(accessory)
    return found


async def refused(send: Any) -> discord.HTTPException:
    """The error this discord.py call gets (it must fail)."""
    with pytest.raises(discord.HTTPException) as caught:
        await send
    return caught.value


# -- sending, storing, serving ---------------------------------------------------------------------


async def test_channel_send_stores_v2_layout_and_files(world: World) -> None:
    fake = world.fake
    table = await posted_table(world)
    assert table.flags == V2 and table.components_v2
    assert table.content == "" and table.embeds == []
    assert table.text == "# Table 7\nAlice: 12 points\nBob: 30 points\nYour move"
    assert table.components_text == table.text
    assert table.custom_ids() == ["v2:knock", "v2:draw"]
    assert table.files == {"board.png": BOARD, "face.png": FACE, "log.txt": LOG}
    assert fake.attachment_bytes(table, "log.txt") == LOG
    board = table.attachment("board.png")
    assert (board.content_type, board.width, board.height, board.size) == (
        "image/png",
        3,
        2,
        len(BOARD),
    )
    assert table.attachment("log.txt").content_type == "text/plain"
    assert table.attachment("log.txt").width is None

    [container] = table.components
    assert container["type"] == 17 and container["accent_color"] == 0x2ECC71
    ids = [c["id"] for c in [container, *container["components"]]]
    assert ids == sorted(set(ids)) and ids[0] == 1  # Discord numbers V2 components
    _, separator, section, gallery, file, _, _ = container["components"]
    assert (separator["spacing"], separator["divider"]) == (2, True)
    thumbnail = section["accessory"]["media"]
    assert thumbnail["url"] == table.attachment("face.png").url
    assert thumbnail["attachment_id"] == str(table.attachment("face.png").id)
    first, outside = gallery["items"]
    assert first["media"]["url"] == board.url and first["description"] == "The board"
    assert (first["media"]["width"], first["media"]["height"]) == (3, 2)
    assert first["media"]["content_type"] == "image/png"
    assert outside["media"] == {"url": RULES_URL} and outside["spoiler"] is True
    log = table.attachment("log.txt")
    assert file["file"]["url"] == log.url and (file["name"], file["size"]) == ("log.txt", len(LOG))
    assert table.media_urls() == [thumbnail["url"], board.url, RULES_URL, log.url]
    assert fake.attachment_at(board.url) is board

    # discord.py reads it all back: its Message, components and files (through the fake's CDN).
    message = world.seen.posted
    assert message is not None and message.flags.components_v2
    assert [a.filename for a in message.attachments] == ["board.png", "face.png", "log.txt"]
    assert await message.attachments[0].read() == BOARD
    assert message.attachments[0].width == 3
    parsed = walk(message.components)
    file_component = only(parsed, discord.components.FileComponent)
    assert (file_component.name, file_component.size) == ("log.txt", len(LOG))
    cdn = world.client.http.get_from_cdn  # discord.py's own download (its media has no state)
    assert file_component.media.attachment_id == table.attachment("log.txt").id
    assert await cdn(file_component.media.url) == LOG
    gallery_component = only(parsed, discord.components.MediaGalleryComponent)
    assert gallery_component.items[0].media.attachment_id == board.id
    thumb = only(parsed, discord.components.ThumbnailComponent)
    assert await cdn(thumb.media.url) == FACE
    async with aiohttp.ClientSession() as http, http.get(log.url) as resp:
        assert resp.status == 200 and resp.content_type == "text/plain"
        assert await resp.read() == LOG
    wrong = log.url.replace("log.txt", "other.txt")
    async with aiohttp.ClientSession() as http, http.get(wrong) as resp:
        assert resp.status == 404


async def test_interaction_response_with_files(world: World) -> None:
    result = await world.fake.slash(world.bob, world.channel, "v2 reply")
    assert result.type == 4 and result.flags == V2
    assert result.text.startswith("# Your table\nAlice: 12 points")
    assert result.components_text == result.text
    assert [a.filename for a in result.attachments] == ["board.png", "face.png", "log.txt"]
    assert result.message is not None
    assert result.message.attachment_bytes("board.png") == BOARD
    replied = await world.fake.wait_for(lambda: world.seen.replied)
    assert replied.id == result.message.id
    assert [a.filename for a in replied.attachments] == ["board.png", "face.png", "log.txt"]


async def test_click_buttons_nested_in_v2(world: World) -> None:
    fake = world.fake
    table = await posted_table(world)
    knocked = await fake.click(world.bob, table, "v2:knock")  # a section's accessory
    assert knocked.type == 4 and knocked.ephemeral and knocked.flags == V2 | 64
    assert knocked.text == "You knocked"
    drawn = await fake.click(world.alice, table, "v2:draw")  # a row inside the container
    assert drawn.type == 7 and drawn.message is table
    assert world.seen.clicks == ["knock", "draw"]
    assert table.text.startswith("# Drawn")
    assert table.files == {"face.png": FACE, "log.txt": LOG, "board2.png": BOARD2}
    kept_ids = [a.id for a in table.attachment_history[0] if a.filename != "board.png"]
    assert [a.id for a in table.attachments[:2]] == kept_ids  # kept by id, not uploaded again
    gallery = table.components[0]["components"][3]
    assert gallery["items"][0]["media"]["url"] == table.attachment("board2.png").url
    again = await fake.click(world.bob, table, "v2:knock")  # the new view's buttons work too
    assert again.text == "You knocked"


async def test_edit_replaces_the_attachment(world: World) -> None:
    fake = world.fake
    table = await posted_table(world)
    first = table.attachments
    await fake.slash(world.alice, world.channel, "v2 edit")
    await fake.wait_for(lambda: len(table.versions) == 2)
    assert table.text.startswith("# Table 7, move 2")
    assert [a.filename for a in table.attachments] == ["board3.png", "face.png", "log.txt"]
    assert table.attachments[1:] == first[1:]  # the same files, kept by id
    assert table.history[0]["attachments"][0]["filename"] == "board.png"
    assert table.attachment_history[1][0].filename == "board3.png"
    board3 = table.attachment("board3.png")
    assert board3.data == BOARD3 and (board3.width, board3.height) == (5, 1)
    gallery = table.components[0]["components"][3]
    assert gallery["items"][0]["media"]["url"] == board3.url
    assert world.seen.posted is not None
    assert world.seen.posted.attachments[0].filename == "board3.png"
    async with aiohttp.ClientSession() as http, http.get(board3.url) as resp:
        assert await resp.read() == BOARD3


async def test_followups_with_files(world: World) -> None:
    fake = world.fake
    result = await fake.slash(world.bob, world.channel, "v2 later")
    assert result.type == 5
    await fake.wait_for(lambda: world.seen.done == ["later"])
    original = result.message
    assert original is not None and not original.loading
    assert original.flags == V2 and original.text == "Thought it over again"
    assert original.files == {"third.txt": b"third"}
    assert [[a.filename for a in v] for v in original.attachment_history] == [
        [],
        ["first.txt"],
        ["third.txt"],
    ]
    file_url = original.components[1]["file"]["url"]
    assert fake.attachment_at(file_url).data == b"third"
    [private] = result.followups
    assert private.ephemeral and private.flags == V2 | 64
    assert private.text == "Just for you" and private.attachment_bytes() == b"second"


# -- Discord's limits, refused with its error codes ------------------------------------------------


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id}


def gallery(count: int) -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": RULES_URL}}] * count}


@pytest.mark.refused_on_purpose
async def test_content_and_embeds_refused_with_the_flag(world: World) -> None:
    channel = world.sendable
    layout = RawLayout(text("hi"))
    error = await refused(channel.send("plain content", view=layout))  # type: ignore[call-overload]
    assert (error.status, error.code) == (400, 50035)
    assert "content and embeds cannot be used" in error.text
    embed = discord.Embed(title="x")
    error = await refused(channel.send(embed=embed, view=RawLayout(text("hi"))))  # type: ignore[call-overload]
    assert error.code == 50035
    sent = await channel.send(view=RawLayout(text("hi")))  # the same without them is fine
    assert sent.flags.components_v2


@pytest.mark.refused_on_purpose
async def test_component_count_and_text_limits(world: World) -> None:
    channel = world.sendable
    forty = [text("x") for _ in range(39)]
    await channel.send(view=RawLayout({"type": 17, "components": forty}))  # 40 with the container
    error = await refused(
        channel.send(view=RawLayout({"type": 17, "components": [*forty, text("y")]}))
    )
    assert error.code == 50035 and "at most 40 components" in error.text and "got 41" in error.text
    await channel.send(view=RawLayout(text("a" * 2000), text("b" * 2000)))
    error = await refused(channel.send(view=RawLayout(text("a" * 2000), text("b" * 2001))))
    assert error.code == 50035 and "4000 characters" in error.text and "got 4001" in error.text
    # discord.py's own TextDisplay does not stop it either: the fake does.
    long = discord.ui.LayoutView()
    long.add_item(discord.ui.Container(discord.ui.TextDisplay("c" * 4001)))
    assert (await refused(channel.send(view=long))).code == 50035


@pytest.mark.refused_on_purpose
@pytest.mark.parametrize(
    ("components", "where"),
    [
        ([{"type": 11, "media": {"url": RULES_URL}}], "components.0.type"),  # thumbnail on top
        ([button("loose")], "components.0.type"),  # a button outside a row or section
        ([{"type": 17, "components": [{"type": 17, "components": [text("x")]}]}], "0.components.0"),
        ([{"type": 17, "components": []}], "components.0.components"),
        ([{"type": 17, "components": [text("x")], "accent_color": "green"}], "accent_color"),
        ([{"type": 17, "components": [text("x")], "accent_color": 0x1000000}], "accent_color"),
        ([{"type": 17, "components": [text("x")], "spoiler": "yes"}], "0.spoiler"),
        ([gallery(0)], "components.0.items"),
        ([gallery(11)], "components.0.items"),
        ([{"type": 12, "items": [{"media": {}}]}], "items.0.media.url"),
        ([{"type": 12, "items": [{"media": {"url": "ftp://x/y.png"}}]}], "media.url"),
        ([{"type": 12, "items": [{"media": {"url": "attachment://none.png"}}]}], "media.url"),
        ([{"type": 12, "items": [{"media": {"url": RULES_URL}, "spoiler": 1}]}], "spoiler"),
        (
            [{"type": 12, "items": [{"media": {"url": RULES_URL}, "description": "d" * 1025}]}],
            "description",
        ),
        (
            [{"type": 9, "components": [text(str(i)) for i in range(4)], "accessory": button("s")}],
            "0.components",
        ),
        ([{"type": 9, "components": [], "accessory": button("s")}], "0.components"),
        ([{"type": 9, "components": [text("x")]}], "0.accessory"),
        ([{"type": 9, "components": [text("x")], "accessory": text("no")}], "accessory.type"),
        ([{"type": 9, "components": [button("b")], "accessory": button("s")}], "components.0.type"),
        ([{"type": 14, "spacing": 3}], "0.spacing"),
        ([{"type": 14, "divider": "yes"}], "0.divider"),
        ([{"type": 13, "file": {"url": RULES_URL}}], "0.file.url"),
        ([{"type": 13, "file": {"url": "attachment://missing.txt"}}], "0.file.url"),
        ([{"type": 10, "content": ""}], "0.content"),
        ([{"type": 1, "components": [text("x")]}], "components.0.components.0"),
        (
            [
                text("x"),
                {"type": 10, "content": "y", "id": 1},
                {"type": 10, "content": "z", "id": 1},
            ],
            "id 1",
        ),
        ([{"type": 99}], "components.0.type"),
    ],
)
async def test_v2_component_fields_refused(
    world: World, components: list[dict[str, Any]], where: str
) -> None:
    error = await refused(world.sendable.send(view=RawLayout(*components)))
    assert (error.status, error.code) == (400, 50035)
    assert where in error.text, error.text


@pytest.mark.refused_on_purpose
async def test_v2_components_need_the_flag(world: World) -> None:
    # Without the flag only action rows are allowed at top level, as before V2.
    error = await refused(world.sendable.send("hi", view=RawView(text("x"))))
    assert error.code == 50035 and "top level must be action rows" in error.text
    row = {"type": 1, "components": [button("ok")]}
    sent = await world.sendable.send("hi", view=RawView(row))
    assert not sent.flags.components_v2 and sent.content == "hi"
    assert "id" not in world.fake.message(sent.id).components[0]  # ids only for V2 messages


@pytest.mark.refused_on_purpose
async def test_file_component_takes_an_attached_file(world: World) -> None:
    channel = world.sendable
    file = {"type": 13, "file": {"url": "attachment://notes.txt"}, "spoiler": True}
    attached = discord.File(io.BytesIO(b"notes"), filename="notes.txt")
    sent = await channel.send(view=RawLayout(file), file=attached)
    stored = world.fake.message(sent.id)
    [component] = stored.components
    assert component["file"]["url"] == stored.attachment("notes.txt").url
    assert component["spoiler"] is True and component["name"] == "notes.txt"
    other = discord.File(io.BytesIO(b"other"), filename="other.txt")
    error = await refused(channel.send(view=RawLayout(file), file=other))
    assert error.code == 50035 and "attachment://notes.txt names no file" in error.text


@pytest.mark.refused_on_purpose
async def test_flag_cannot_be_removed(world: World) -> None:
    channel = world.sendable
    sent = await channel.send(view=RawLayout(text("V2 board")))
    http = world.client.http
    params = handle_message_parameters(
        content="plain again", view=None, flags=discord.MessageFlags()
    )
    with pytest.raises(discord.HTTPException) as caught:
        await http.edit_message(channel.id, sent.id, params=params)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert "cannot be removed" in caught.value.text
    error = await refused(sent.edit(content="plain again"))  # the flag stays, so no content
    assert error.code == 50035 and "content and embeds" in error.text
    edited = await sent.edit(view=RawLayout(text("V2 board, edited")))
    assert edited.flags.components_v2
    assert world.fake.message(sent.id).text == "V2 board, edited"
    # A legacy message can take the flag in an edit that clears its content.
    legacy = await channel.send("old style")
    moved = await legacy.edit(content="", view=RawLayout(text("new style")))
    assert moved.flags.components_v2 and world.fake.message(legacy.id).text == "new style"


@pytest.mark.refused_on_purpose
async def test_attachment_count_and_size_limits(world: World) -> None:
    fake = world.fake
    channel = world.sendable

    def files(count: int) -> list[discord.File]:
        return [discord.File(io.BytesIO(b"%d" % i), filename=f"f{i}.txt") for i in range(count)]

    ten = await channel.send("ten", files=files(10))
    assert len(fake.message(ten.id).attachments) == 10
    error = await refused(channel.send("eleven", files=files(11)))
    assert (error.status, error.code) == (400, 50035)
    assert "attachments" in error.text and "maxItems: 10" in error.text
    *_, body = fake.errors[-1]
    assert body["errors"]["attachments"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    error = await refused(ten.edit(attachments=[*ten.attachments, *files(1)]))
    assert error.code == 50035  # an edit cannot go past 10 either

    exact = discord.File(io.BytesIO(b"\0" * UPLOAD_LIMIT), filename="exact.bin")
    sent = await channel.send(file=exact)
    assert fake.message(sent.id).attachment("exact.bin").size == UPLOAD_LIMIT
    big = discord.File(io.BytesIO(b"\0" * (UPLOAD_LIMIT + 1)), filename="big.bin")
    error = await refused(channel.send(file=big))
    assert (error.status, error.code) == (413, 40005)
    assert "Request entity too large" in error.text
    big = discord.File(io.BytesIO(b"\0" * (UPLOAD_LIMIT + 1)), filename="big.bin")
    error = await refused(sent.edit(attachments=[big]))
    assert (error.status, error.code) == (413, 40005)
    assert fake.message(sent.id).attachment("exact.bin").size == UPLOAD_LIMIT  # unchanged


async def test_embed_attachment_reference_resolved(world: World) -> None:
    channel = world.sendable
    embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
    embed.set_thumbnail(url="attachment://face.png")
    sent = await channel.send(
        embed=embed,
        files=[board_file(), discord.File(io.BytesIO(FACE), filename="face.png")],
    )
    stored = world.fake.message(sent.id)
    image = stored.embeds[0]["image"]
    board = stored.attachment("board.png")
    assert image["url"] == board.url and (image["width"], image["height"]) == (3, 2)
    assert stored.embeds[0]["thumbnail"]["url"] == stored.attachment("face.png").url
    assert sent.embeds[0].image.url == board.url
    assert sent.attachments[0].content_type == "image/png"


@pytest.mark.refused_on_purpose
async def test_interaction_answers_over_limits_refused(world: World) -> None:
    """A bot whose interaction answer breaks a limit gets Discord's error, and the test call
    waiting for the answer raises InteractionFailed."""
    fake = world.fake
    result = await fake.slash(world.bob, world.channel, "v2 broken")
    assert result.message is not None and result.text == "Press to break it"
    with pytest.raises(InteractionFailed, match="maxItems: 10"):
        await fake.click(world.alice, result.message, "v2:broken")
    await fake.wait_for(lambda: world.seen.errors == [(400, 50035)])
    assert result.text == "Press to break it"  # unchanged
    with pytest.raises(InteractionFailed, match="413 40005"):
        await fake.slash(world.bob, world.channel, "v2 huge")
    await fake.wait_for(lambda: world.seen.errors[1:] == [(413, 40005)])

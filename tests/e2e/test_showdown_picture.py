"""Each showdown in the channel carries its picture (unless the server turns pictures off)."""

from __future__ import annotations

from bot.client import GinBot
from bot.gin.hand import Outcome
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import (
    ATTACH_FILES,
    INVITE_PERMISSIONS,
    settle,
    showdown_embed,
    start_game,
)
from tests.fakediscord import Message

PNG = b"\x89PNG\r\n\x1a\n"


def showdowns(game: Game) -> list[Message]:
    return [
        m
        for m in game.fake.channel_messages(game.world.channel)
        if any(showdown_embed(e) for e in m.versions[-1].get("embeds") or [])
    ]


async def play_hands(game: Game, hands: int) -> None:
    """Play by buttons until ``hands`` hands have ended with a showdown (a void hand has none)."""
    seed = 1
    while sum(r.result.outcome is not Outcome.VOID for r in game.match.history) < hands:
        await game.play_out(via="button", stop_after=1, seed=seed)
        seed += 1
        if game.match.is_over:
            break


async def test_a_showdown_carries_its_picture(world: World, bot: GinBot) -> None:
    on = await world.fake.slash(world.alice, world.channel, "gin settings set", images=True)
    assert "Showdown pictures:** on" in on.text, on.text
    game = Game(world, bot)
    await start_game(game, world.alice, world.bob)
    await play_hands(game, 1)
    await settle()
    found = await game.fake.wait_for(lambda: showdowns(game), what="a showdown in the channel")
    message = found[0]
    (name,) = message.files
    data = message.attachment_bytes(name)
    assert data.startswith(PNG) and len(data) > 10_000
    image = message.versions[-1]["embeds"][0]["image"]["url"]
    assert name in image and not image.startswith("attachment://")


async def test_pictures_off_leaves_the_text_alone(world: World, bot: GinBot) -> None:
    fake = world.fake
    off = await fake.slash(world.alice, world.channel, "gin settings set", images=False)
    assert "Showdown pictures:** off" in off.text, off.text
    game = Game(world, bot)
    await start_game(game, world.alice, world.bob)
    await play_hands(game, 1)
    await settle()
    found = await fake.wait_for(lambda: showdowns(game), what="a showdown in the channel")
    assert found[0].files == {}
    assert "image" not in found[0].versions[-1]["embeds"][0]


async def test_the_invites_permissions_attach_the_picture(world: World, bot: GinBot) -> None:
    fake = world.fake
    fake.set_permissions(world.guild, fake.bot, INVITE_PERMISSIONS)
    await fake.slash(world.alice, world.channel, "gin settings set", images=True)
    game = Game(world, bot)
    await start_game(game, world.alice, world.bob)
    await play_hands(game, 1)
    await settle()
    found = await fake.wait_for(lambda: showdowns(game), what="a showdown in the channel")
    assert len(found[0].files) == 1


async def test_without_attach_files_the_showdown_comes_as_text(world: World, bot: GinBot) -> None:
    """A server that took Attach Files away still gets every showdown, its cards as text."""
    fake = world.fake
    fake.set_permissions(world.guild, fake.bot, INVITE_PERMISSIONS & ~ATTACH_FILES)
    await fake.slash(world.alice, world.channel, "gin settings set", images=True)
    game = Game(world, bot)
    await start_game(game, world.alice, world.bob)
    await play_hands(game, 2)
    await settle()
    shown = await fake.wait_for(
        lambda: len(showdowns(game)) >= 2 and showdowns(game), what="two showdowns"
    )
    for message in shown:
        assert message.files == {}
        embed = message.versions[-1]["embeds"][0]
        assert "image" not in embed
        assert "<:gin_" in embed["description"] or "♠" in embed["description"], embed

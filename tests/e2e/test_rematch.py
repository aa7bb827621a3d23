"""The result of a two-player match offers a rematch: same players, same settings."""

from __future__ import annotations

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import settle, start_game
from tests.fakediscord import Message


def match_over(game: Game) -> Message | None:
    return next(
        (m for m in game.fake.channel_messages(game.world.channel) if "Match over" in m.text),
        None,
    )


async def test_rematch_challenges_the_same_opponent_with_the_same_settings(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    game = Game(world, bot)
    first = await start_game(game, world.alice, world.bob, target=50, gin_bonus=20)
    await game.play_out(via="button")
    await settle()
    over = await fake.wait_for(lambda: match_over(game), what="the match-over message")
    rematch = f"gin:rm:{first.id}"
    assert rematch in over.custom_ids()

    refused = await fake.click(world.carol, over, rematch)
    assert refused.ephemeral and "Only the two players" in refused.text
    assert bot.service.in_channel(str(world.channel.id)) is None

    asked = await fake.click(world.bob, over, rematch)
    assert "⚠️" not in asked.text, asked.text
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None and table.id != first.id and table.match is None
    assert table.server.rules.target == 50 and table.server.rules.gin_bonus == 20
    challenge = fake.message(table.display["challenge"])
    assert "gin_bonus" in challenge.text or "20" in challenge.text
    await fake.click(world.alice, challenge, f"gin:ch:{table.id}:accept")  # Alice accepts
    await fake.wait_for(lambda: table.match is not None, what="the rematch to start")
    assert {p.id for p in table.players} == {str(world.alice.id), str(world.bob.id)}

    again = await fake.click(world.alice, over, rematch)  # the channel is busy now
    assert again.ephemeral and table.match is not None

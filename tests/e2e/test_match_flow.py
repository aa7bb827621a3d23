"""Two people play whole matches: with slash commands, and with the buttons in their DMs."""

from __future__ import annotations

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.fakediscord import payload_text


async def test_whole_match_with_slash_commands(world: World, bot: GinBot) -> None:
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob, target=50)
    moves = await game.play_out(via="command", seed=3)
    result = game.match.result
    assert result is not None and moves >= 3
    fake = world.fake
    winner = table.players[result.winner].name
    await fake.wait_for(
        lambda: any("Match over" in m.text for m in fake.channel_messages(world.channel)),
        timeout=15,  # generous: a busy machine must not fail a correct bot
        what="the match-over message",
    )
    final = next(m for m in fake.channel_messages(world.channel) if "Match over" in m.text)
    assert f"{winner} wins the match" in final.text
    assert bot.service.in_channel(str(world.channel.id)) is None
    public_texts = [payload_text(p) for p in fake.all_channel_payloads()]
    assert not [t for t in public_texts if "None" in t]
    # A card taken from the pile is told to the table (its public message is edited on a
    # budget, so a busy machine may skip that state there) and to the waiting opponent.
    takes = [m for m in await bot.store.moves(table.id) if m.action["kind"] == "draw_discard"]
    dm_texts = [payload_text(p) for u in (world.alice, world.bob) for p in fake.all_dm_payloads(u)]
    assert takes and any("from the discard pile" in t for t in public_texts + dm_texts)
    board = await fake.slash(world.carol, world.channel, "gin leaderboard")
    assert f"1.** {winner} *(provisional)* — 1 won of 1" in board.text
    loser = table.players[1 - result.winner].name
    assert f"2.** {loser} *(provisional)* — 0 won of 1" in board.text
    assert "rating" in board.text


async def test_whole_match_with_dm_buttons(world: World, bot: GinBot) -> None:
    game = Game(world, bot)
    await game.start(world.bob, world.alice, target=50)
    moves = await game.play_out(via="button", seed=4)
    assert moves >= 3 and game.match.is_over

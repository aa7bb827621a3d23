"""Twenty tables in twenty channels play at the same time without interfering."""

from __future__ import annotations

import asyncio

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.driver import Game


async def test_twenty_tables_play_at_once(world: World, bot: GinBot) -> None:
    fake = world.fake
    games = []
    for i in range(20):
        channel = fake.add_channel(world.guild, f"table-{i}")
        a, b = fake.add_user(f"p{i}a"), fake.add_user(f"p{i}b")
        fake.add_member(world.guild, a)
        fake.add_member(world.guild, b)
        game = Game(world, bot, channel)
        await game.start(a, b, target=50)
        games.append(game)

    results = await asyncio.gather(
        *(
            game.play_out(
                via="command" if i % 2 else "button", style="knocker", seed=i, stop_after=50
            )
            for i, game in enumerate(games)
        )
    )
    assert all(moves > 0 for moves in results)
    for game in games:
        table = game.table
        assert table is not None and table.match is not None
        assert table.move_count == 50 or table.match.is_over
        stored = await bot.store.moves(table.id)
        assert [m.seq for m in stored] == list(range(1, table.move_count + 1))
        # Each channel shows only its own players.
        names = {p.name for p in table.players}
        for message in fake.channel_messages(game.channel):
            text = message.text
            for other in games:
                if other is game or other.table is None:
                    continue
                for player in other.table.players:
                    assert player.name not in names
                    assert f" {player.name} " not in f" {text} "

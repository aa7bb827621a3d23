"""The process survives what the gateway sends: a frame it cannot parse costs a reconnect."""

from __future__ import annotations

import random

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.gin.players import choose

MALFORMED = [
    '{"op": 0, "t": "MESSAGE_CREATE", "s": 99, "d": {',  # cut short
    "not json at all",
    '{"op": 0, "t": "INTERACTION_CREATE", "s": "x", "d": 12}',  # JSON, but nonsense
]


async def test_malformed_frames_reconnect_and_the_match_goes_on(world: World, bot: GinBot) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    rng = random.Random(5)
    for frame in MALFORMED:
        identified = fake.gateway.identify_count + fake.gateway.resume_count
        assert fake.send_raw_frame(frame) == 1
        await fake.wait_for(
            lambda identified=identified: (
                fake.gateway.identify_count + fake.gateway.resume_count > identified
                and fake.gateway.session_for(world.guild.id) is not None
            ),
            timeout=10,
            what="the bot to connect again",
        )
        assert not bot.is_closed()
        for _ in range(3):  # the match goes on, by commands and by buttons
            result = await game.command(choose(game.match.hand, "knocker", rng))
            assert "⚠️" not in result.text, result.text
            result = await game.button(choose(game.match.hand, "knocker", rng))
            assert "⚠️" not in result.text, result.text
    assert table.is_open or game.match.is_over

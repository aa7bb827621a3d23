"""The process survives what the gateway sends: a frame it cannot parse costs a reconnect."""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

from bot.client import GinBot
from tests.e2e.conftest import TOKEN, World
from tests.e2e.driver import Game
from tests.gin.players import choose

ROOT = Path(__file__).resolve().parents[2]

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


async def test_a_client_that_stops_for_good_exits_non_zero_and_says_why(
    world: World, tmp_path: Path
) -> None:
    """A failure no reconnect can mend (here Discord closing the gateway with 4004, the token
    refused) ends `python -m bot` with status 1 and a line saying why, for a supervisor."""
    fake = world.fake
    env = {
        **os.environ,
        **fake.env(),
        "DISCORD_TOKEN": TOKEN,
        "GIN_DB": str(tmp_path / "gin.sqlite3"),
        "GIN_DEV_GUILD": "",
        "LOG_LEVEL": "WARNING",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fakediscord.bootstrap",
        "bot",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        await fake.wait_until_connected(timeout=60)
        await fake.wait_for_command("gin", world.guild, timeout=60)
        fake.gateway.token = "a token revoked meanwhile"  # any new session is refused too
        await fake.gateway.disconnect_all(code=4004, forget_sessions=True)
        await asyncio.wait_for(process.wait(), 60)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        assert process.stdout is not None
        text = (await process.stdout.read()).decode(errors="replace")
    assert process.returncode == 1, text
    assert "exiting with status 1" in text, text

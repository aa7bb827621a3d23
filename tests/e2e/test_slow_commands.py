"""A slash command slower than Discord's 3 s is deferred in time and then answered once, in
the privacy its answer calls for; it never gets the buttons' apology. Discord's 3 s count
from when it made the interaction: a busy process that hears of one late defers it sooner."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any

import pytest

from bot.client import GinBot
from cogs.gin.errors import LATE_SECONDS, UNKNOWN_COMPONENT, WATCHDOG_SECONDS
from tests.e2e.conftest import World
from tests.fakediscord import InteractionResult

SLOWER_THAN_DISCORD_ALLOWS = 3.5  # seconds: past Discord's 3, so only a deferral saves it
APOLOGY = UNKNOWN_COMPONENT.split("(")[0].strip()


def slowed(bot: GinBot, seconds: float) -> None:
    """The server's settings take `seconds` to read (a slow database, say)."""
    service = bot.service
    read: Callable[[str], Awaitable[Any]] = service.server_settings

    async def slow(guild_id: str) -> Any:
        await asyncio.sleep(seconds)
        return await read(guild_id)

    service.server_settings = slow  # type: ignore[method-assign]


def bots_errors() -> ModuleType:
    """The running bot's ``cogs.gin.errors``: each bot loads its extension afresh, as a
    module of its own, so the one imported here is not the one it reads."""
    return sys.modules["cogs.gin.errors"]


def busy(bot: GinBot, seconds: float) -> None:
    """The process is busy when the next interaction comes: its loop is held `seconds`
    (other tables' work, say) as it reads it, while Discord's 3 s run."""
    parsers: dict[str, Callable[[Any], None]] = bot._connection.parsers
    parse = parsers["INTERACTION_CREATE"]

    def late(data: Any) -> None:
        parsers["INTERACTION_CREATE"] = parse
        time.sleep(seconds)  # the whole loop is held, as by a long stretch of CPU work
        parse(data)

    parsers["INTERACTION_CREATE"] = late


async def answered(result: InteractionResult) -> str:
    """The answer's text once the deferral was followed by the real answer."""
    return await result.wait_for(lambda r: r.text if r.text.strip() else "", timeout=15)


def visible(result: InteractionResult) -> list[Any]:
    return [m for m in result.messages if not m.deleted]


async def test_a_slow_private_command_is_deferred_privately_then_answered_once(
    world: World, bot: GinBot
) -> None:
    slowed(bot, SLOWER_THAN_DISCORD_ALLOWS)
    result = await world.fake.slash(world.alice, world.channel, "gin rules", timeout=15)
    assert result.type == 5  # "thinking…", sent before Discord's 3 s ran out
    assert result.latency is not None and result.latency < 3.0
    text = await answered(result)
    assert "Rules" in text or "rules" in text, text
    assert APOLOGY not in text
    [message] = visible(result)
    assert message.ephemeral  # the rules are the player's alone, as when fast


async def test_a_slow_public_command_is_deferred_publicly_then_answered_once(
    world: World, bot: GinBot
) -> None:
    slowed(bot, SLOWER_THAN_DISCORD_ALLOWS)
    fake = world.fake
    result = await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob)
    assert result.type == 5
    text = await answered(result)
    assert "challenge" in text.lower() and APOLOGY not in text, text
    [message] = visible(result)
    assert not message.ephemeral  # the channel sees the challenge, as when fast
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None
    # Its buttons work: Bob accepts on the message the deferral became.
    accept = await fake.click(world.bob, message, f"gin:ch:{table.id}:accept")
    assert "⚠️" not in accept.text, accept.text


async def test_a_slow_public_command_that_is_refused_says_so_privately(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    first = await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob)
    assert not first.ephemeral
    slowed(bot, SLOWER_THAN_DISCORD_ALLOWS)
    # The channel is taken: Carol's challenge is refused, after a public "thinking…".
    result = await fake.slash(world.carol, world.channel, "gin challenge", opponent=world.bob)
    assert result.type == 5
    text = await result.wait_for(lambda r: r.text if "⚠️" in r.text else "", timeout=15)
    assert APOLOGY not in text
    [message] = visible(result)
    assert message.ephemeral  # a refusal is for the one who asked: the public one is gone
    assert result.message is not None and result.message.deleted
    public = [m for m in fake.channel_messages(world.channel) if m.interaction_id == result.id]
    assert public == []


async def test_the_watchdog_waits_for_its_moment(world: World, bot: GinBot) -> None:
    """A command a little slow, but within Discord's time, is answered directly."""
    slowed(bot, WATCHDOG_SECONDS / 4)
    result = await world.fake.slash(world.alice, world.channel, "gin rules")
    assert result.type == 4 and result.ephemeral


async def test_a_command_heard_late_is_deferred_before_its_work(
    world: World, bot: GinBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Heard more than a second late, a command is deferred as it is taken up, before its
    work (here 2.5 s on the database), not when the watchdog's time comes."""
    monkeypatch.setattr(bots_errors(), "WATCHDOG_SECONDS", 2.9)  # only the early deferral counts
    slowed(bot, 2.5)
    busy(bot, LATE_SECONDS + 0.2)
    result = await world.fake.slash(world.alice, world.channel, "gin rules", timeout=15)
    assert result.type == 5  # deferred at once, privately
    assert result.latency is not None and result.latency < LATE_SECONDS + 0.8, result.latency
    text = await answered(result)
    assert "rules" in text.lower() and APOLOGY not in text, text
    [message] = visible(result)
    assert message.ephemeral


async def test_the_watchdog_counts_from_when_discord_made_the_interaction(
    world: World, bot: GinBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Heard late, a slow command is deferred when Discord's clock says the watchdog's time
    has come, not that time after it was heard."""
    monkeypatch.setattr(bots_errors(), "LATE_SECONDS", 2.9)  # so only the watchdog defers it
    held = 1.2
    slowed(bot, 2.5)
    busy(bot, held)
    result = await world.fake.slash(world.alice, world.channel, "gin rules", timeout=15)
    assert result.type == 5
    assert result.latency is not None
    assert WATCHDOG_SECONDS <= result.latency < WATCHDOG_SECONDS + held / 2, result.latency
    text = await answered(result)
    assert "rules" in text.lower() and APOLOGY not in text, text

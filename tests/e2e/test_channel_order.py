"""The channel reads in order however fast the hands end: each hand's table, then its
showdown (in its place), the next hand's, and the result after the last showdown. The players
here never wait: each moves the instant their buttons show, so hands end while the channel is
still posting the last ones (its messages are paced by Discord's 5 a channel every 5 s)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import signal
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from bot.client import GinBot
from bot.gin.match import HandRecord, Match
from tests.e2e.conftest import World, start_bot
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import settle
from tests.e2e.test_restart import bot_process, command
from tests.fakediscord import Channel, FakeDiscord, Message, patch_discord
from tests.gin.players import choose

SHOWDOWN = re.compile(r"^Hand (\d+)(?:, game \d)?: ")
TABLE = re.compile(r"^Gin Rummy · .* · hand (\d+)$")


def label(payload: dict[str, object]) -> str | None:
    """What a channel message shows, as the story's word: ``T3`` the table of hand 3,
    ``H3`` hand 3's showdown, ``RESULT`` the match's result (None: anything else)."""
    embeds = payload.get("embeds") or []
    assert isinstance(embeds, list)
    title = str((embeds[0] if embeds else {}).get("title") or "")
    if found := SHOWDOWN.match(title):
        return f"H{found[1]}"
    if found := TABLE.match(title):
        return f"T{found[1]}"
    if title == "Match over":
        return "RESULT"
    return None


def story(fake: FakeDiscord, channel: Channel) -> list[str]:
    """The channel's messages as they read now, in the order they were created."""
    return [word for m in fake.channel_messages(channel) if (word := label(m.payload))]


def as_posted(fake: FakeDiscord, channel: Channel) -> list[str]:
    """Each message as it was first posted, in the order they were created."""
    return [word for m in fake.channel_messages(channel) if (word := label(m.versions[0]))]


def assert_in_order(fake: FakeDiscord, channel: Channel, hands: int) -> None:
    """Every hand's showdown once, in hand order, each table become its hand's showdown,
    the result last; and no message was first posted as a table of an earlier hand than
    one already shown."""
    read = story(fake, channel)
    expected = [f"H{n}" for n in range(1, hands + 1)] + ["RESULT"]
    assert read == expected, f"the channel reads {read}"
    numbers = [int(word[1:]) for word in as_posted(fake, channel) if word != "RESULT"]
    assert numbers == sorted(numbers), f"posted as {as_posted(fake, channel)}"


def slow_channel(fake: FakeDiscord, channel: Channel) -> None:
    """The channel's posts and edits answered late: hands end while it posts."""
    for method in ("POST", "PATCH"):
        fake.slow_down(method, f"/channels/{channel.id}/messages", 0.3)


async def play_fast(game: Game, seed: int) -> None:
    """Play the match out, each move the instant its buttons show."""
    await game.play_out(via="button", style="knocker", seed=seed)


async def wait_for_result(fake: FakeDiscord, game: Game) -> int:
    """Wait for the result in the channel; the number of hands the match had."""
    assert game.table is not None
    table = game.table

    def over() -> bool:
        messages: list[Message] = fake.channel_messages(game.channel)
        done = any(label(m.payload) == "RESULT" for m in messages)
        return done and not table.is_open

    await fake.wait_for(over, timeout=120, what="the result in the channel")
    rows = await game.bot.service.records.hands(table.id)
    return max(HandRecord.from_dict(row.result).number for row in rows)


def dealt_from(bot: GinBot, monkeypatch: pytest.MonkeyPatch, seed: str) -> None:
    """Matches dealt from a seed, so each has the same hands every run."""
    deal = bot.service.opening._start

    async def seeded(table: Any, given: str | None = None, **options: Any) -> None:
        await deal(table, given or f"{seed}-{table.id}", **options)

    monkeypatch.setattr(bot.service.opening, "_start", seeded)


async def test_a_fast_match_to_50_reads_in_order(
    world: World, bot: GinBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = world.fake
    dealt_from(bot, monkeypatch, "fifty-b")
    game = Game(world, bot)
    await game.start(world.alice, world.bob, target=50)
    slow_channel(fake, world.channel)
    await play_fast(game, seed=2)
    hands = await wait_for_result(fake, game)
    assert hands >= 3
    assert_in_order(fake, world.channel, hands)


async def test_three_fast_matches_to_100_at_once_read_in_order(
    world: World, bot: GinBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = world.fake
    dealt_from(bot, monkeypatch, "hundred")
    games = []
    for i in range(3):
        channel = fake.add_channel(world.guild, f"fast-{i}")
        a, b = fake.add_user(f"fast{i}a"), fake.add_user(f"fast{i}b")
        fake.add_member(world.guild, a)
        fake.add_member(world.guild, b)
        game = Game(world, bot, channel)
        await game.start(a, b, target=100)
        slow_channel(fake, channel)
        games.append(game)
    await asyncio.gather(*(play_fast(game, seed=10 + i) for i, game in enumerate(games)))
    for game in games:
        hands = await wait_for_result(fake, game)
        assert_in_order(fake, game.channel, hands)


def hands_stored(world: World) -> int:
    """The hands the database holds for the only match."""
    with sqlite3.connect(world.db_path) as db:
        (count,) = db.execute("SELECT COUNT(DISTINCT number) FROM hands").fetchone()
        return int(count)


async def play_by_command_until(world: World, rng: random.Random, done: Callable[[], bool]) -> None:
    """Each player moves by slash command the moment the last move was answered, until
    ``done()`` or the match is over."""
    while not done():
        playing = stored_match(world)
        if playing is None:
            return
        match = playing
        reply = await command(world, match, choose(match.hand, "knocker", rng))
        assert "⚠️" not in reply.text, reply.text


def stored_match(world: World) -> Match | None:
    """The match being played, as the database has it (None once it is over)."""
    with sqlite3.connect(world.db_path) as db:
        row = db.execute("SELECT state FROM matches WHERE status = 'playing'").fetchone()
    return None if row is None else Match.from_dict(json.loads(row[0]))


async def test_a_fast_match_killed_and_restarted_reads_in_order(world: World) -> None:
    fake = world.fake
    rng = random.Random(5)
    slow_channel(fake, world.channel)
    with bot_process(world) as first:
        await fake.wait_until_connected(timeout=30)
        await fake.wait_for_command("gin", world.guild, timeout=30)
        challenge = await fake.slash(
            world.alice, world.channel, "gin challenge", opponent=world.bob, target=50
        )
        accept = next(c for c in challenge.message.custom_ids() if c.endswith(":accept"))
        await fake.click(world.bob, challenge.message, accept)
        # Killed while the channel is still posting hands that ended.
        await play_by_command_until(world, rng, lambda: hands_stored(world) >= 2)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        await fake.wait_for(
            lambda: fake.gateway.session_for(None) is None, timeout=10, what="the bot to go"
        )
    with bot_process(world):
        await fake.wait_until_connected(timeout=30)
        await play_by_command_until(world, rng, lambda: False)
        await fake.wait_for(
            lambda: "RESULT" in story(fake, world.channel),
            timeout=120,
            what="the result in the channel",
        )
        hands = hands_stored(world)
        assert hands >= 3
        await fake.wait_for(
            lambda: len(story(fake, world.channel)) >= hands + 1,
            timeout=60,
            what="every showdown in the channel",
        )
        assert_in_order(fake, world.channel, hands)


async def test_a_table_posted_just_before_a_stop_becomes_its_hands_showdown(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stopped after posting hand 2's table and before saving its id, and hand 2
    ended meanwhile: started again, it finds that table and turns it into hand 2's showdown
    rather than leaving it standing above a showdown of its own."""
    fake = world.fake
    with patch_discord(fake.http_base, fake.gateway_url):
        bot, task = await start_bot(world)
        dealt_from(bot, monkeypatch, "restart")
        game = Game(world, bot)
        table = await game.start(world.alice, world.bob, target=500)
        rng = random.Random(3)
        first_table = table.display["public"]
        while game.match.hand_number < 2:
            await game.button(choose(game.match.hand, "knocker", rng))
        await fake.wait_for(lambda: table.display.get("public_hand") == 2, what="hand 2's table")
        await settle()
        down = [
            fake.inject_fault(
                method, f"/channels/{world.channel.id}/messages", status=503, count=fake.FOREVER
            )
            for method in ("POST", "PATCH")
        ]
        while game.match.hand_number < 3:  # hand 2 ends while the channel shows nothing
            await game.button(choose(game.match.hand, "knocker", rng))
        await settle()
        await bot.close()
        await task
        # What the database holds when the stop came between hand 2's table and its id.
        saved = {
            **table.display,
            "public": first_table,
            "public_hand": 1,
            "showdown_shown": first_table,
            "shown_hands": 1,
        }
        with sqlite3.connect(world.db_path) as db:
            db.execute("UPDATE matches SET display = ? WHERE id = ?", (json.dumps(saved), table.id))
        for rule in down:
            rule.stop()
        bot, task = await start_bot(world)
        restored = bot.service.by_id(table.id)
        assert restored is not None
        await fake.wait_for(lambda: restored.display.get("public_hand") == 3, what="hand 3's table")
        assert story(fake, world.channel) == ["H1", "H2", "T3"]
        await bot.close()
        await task

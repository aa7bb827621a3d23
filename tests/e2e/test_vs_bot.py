"""Playing against the bot: no accept step, it plays its own turns, results kept apart."""

from __future__ import annotations

import pytest

from bot.client import GinBot
from bot.tables.thinker import THINKER
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.fakediscord import Message


@pytest.mark.parametrize("via", ["command", "button"])
@pytest.mark.parametrize("level", ["easy", "normal", "hard", "expert"])
async def test_a_whole_match_against_each_level(
    world: World, bot: GinBot, level: str, via: str
) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await game.practice(world.alice, level)
    assert table.bot_level == level
    moves = await game.play_against_bot(via=via, seed=len(level))
    assert moves > 0 and game.match.result is not None
    if level == "expert":  # its moves were thought out in worker processes, off the loop
        assert bot.service.thinker is THINKER and THINKER.worker_pids()
    await fake.wait_for(
        lambda: any("Match over" in m.text for m in fake.channel_messages(world.channel)),
        what="the match-over message",
    )
    public = [m.text for m in fake.channel_messages(world.channel)]
    assert any("GinBot" in t or "FakeBot" in t for t in public)
    history = await fake.slash(world.alice, world.channel, "gin history")
    assert "vs the bot" in history.text
    board = await fake.slash(world.alice, world.channel, "gin leaderboard")
    assert "No finished matches yet" in board.text  # the human leaderboard stays human
    apart = await fake.slash(world.alice, world.channel, "gin leaderboard", against_bot=True)
    assert "Alice" in apart.text
    stats = await fake.slash(world.alice, world.channel, "gin stats")
    assert "1 played" in stats.text


async def test_challenging_the_bot_starts_at_once_and_other_bots_are_refused(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    assert bot.user is not None
    me = fake.store.users[bot.user.id]
    started = await fake.slash(
        world.alice, world.channel, "gin challenge", opponent=me, level="easy"
    )
    assert "easy" in started.text and not started.custom_ids  # no Accept button
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None and table.match is not None and table.vs_bot
    other_bot = fake.add_user("robot", bot=True)
    fake.add_member(world.guild, other_bot)
    channel = fake.add_channel(world.guild, "elsewhere")
    refused = await fake.slash(world.alice, channel, "gin challenge", opponent=other_bot)
    assert refused.ephemeral and "/gin practice" in refused.text
    level_for_person = await fake.slash(
        world.alice, channel, "gin challenge", opponent=world.bob, level="hard"
    )
    assert level_for_person.ephemeral and "level" in level_for_person.text


async def test_a_practice_match_ends_with_play_again(world: World, bot: GinBot) -> None:
    """The result of a practice match has a Play again button (not a pointer to `/gin
    challenge`): its player presses it and plays the bot again at once, at the same level;
    anyone else is told privately that it is not theirs."""
    fake = world.fake
    game = Game(world, bot)
    first = await game.practice(world.alice, "easy")
    await game.play_against_bot(via="button", seed=2)

    def result() -> Message | None:
        found = [m for m in fake.channel_messages(world.channel) if "Match over" in m.text]
        return found[-1] if found else None

    over = await fake.wait_for(result, what="the match-over message")
    again = f"gin:rm:{first.id}"
    assert again in over.custom_ids()
    button = next(
        item
        for row in over.components
        for item in row.get("components") or []
        if item.get("custom_id") == again
    )
    assert button["label"] == "Play again"
    assert "/gin practice" in over.text and "/gin challenge" not in over.text
    moves = first.move_count
    refused = await fake.click(world.bob, over, again)
    assert refused.ephemeral and "/gin practice" in refused.text
    assert bot.service.in_channel(str(world.channel.id)) is None
    started = await fake.click(world.alice, over, again)
    assert not started.ephemeral and "easy" in started.text, started.text
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None and table.id != first.id and table.vs_bot
    assert table.bot_level == "easy" and first.move_count == moves

"""Server settings: who may change them, their bounds, and matches played with them."""

from __future__ import annotations

import pytest

from bot.client import GinBot
from bot.gin.hand import Outcome
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.fakediscord import CommandError


async def test_anyone_sees_settings_only_managers_change_them(world: World, bot: GinBot) -> None:
    fake = world.fake
    shown = await fake.slash(world.carol, world.channel, "gin settings show")
    assert (
        shown.ephemeral
        and "Target:** 100" in shown.text
        and "Turn timer:** 10 minutes" in shown.text
    )
    refused = await fake.slash(world.carol, world.channel, "gin settings set", target=150)
    assert refused.ephemeral and "Manage Server" in refused.text
    assert (await bot.service.server_settings(str(world.guild.id))).rules.target == 100
    saved = await fake.slash(
        world.alice, world.channel, "gin settings set", target=150, turn_minutes=5, hints=False
    )
    assert "Settings saved" in saved.text and "Target:** 150" in saved.text
    assert "Turn timer:** 5 minutes" in saved.text
    server = await bot.service.server_settings(str(world.guild.id))
    assert (server.rules.target, server.turn_seconds, server.hints) == (150, 300, False)
    empty = await fake.slash(world.alice, world.channel, "gin settings set")
    assert "Nothing to change" in empty.text


async def test_out_of_range_values_are_refused(world: World, bot: GinBot) -> None:
    fake = world.fake
    for option, value in (
        ("target", 20),
        ("knock_limit", 11),
        ("turn_minutes", 0),
        ("gin_bonus", 51),
    ):
        with pytest.raises(CommandError):
            await fake.slash(world.alice, world.channel, "gin settings set", **{option: value})
    with pytest.raises(CommandError):
        await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob, target=5)
    assert (await bot.service.server_settings(str(world.guild.id))).rules.target == 100


async def test_a_match_scores_with_its_server_settings(world: World, bot: GinBot) -> None:
    fake = world.fake
    await fake.slash(
        world.alice,
        world.channel,
        "gin settings set",
        target=50,
        gin_bonus=20,
        undercut_bonus=10,
        big_gin=False,
    )
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    rules = table.settings
    assert (rules.target, rules.gin_bonus, rules.undercut_bonus, rules.big_gin) == (
        50,
        20,
        10,
        False,
    )
    # Settings changed now do not touch the match in play.
    await fake.slash(world.alice, world.channel, "gin settings set", target=300)
    await game.play_out(style="hunter", seed=8)
    match = game.match
    assert match.settings.target == 50 and max(match.scores) >= 50
    for record in match.history:
        result = record.result
        if result.outcome is Outcome.GIN:
            assert result.points == result.defender_deadwood + 20
        elif result.outcome is Outcome.UNDERCUT:
            assert result.points == result.knocker_deadwood - result.defender_deadwood + 10
        elif result.outcome is Outcome.KNOCK:
            assert result.points == result.defender_deadwood - result.knocker_deadwood
        assert result.outcome is not Outcome.BIG_GIN


async def test_the_discard_hint_can_be_switched_off(world: World, bot: GinBot) -> None:
    fake = world.fake
    import random

    from tests.gin.players import choose

    async def hints_seen(game: Game) -> bool:
        rng = random.Random(3)
        seen = False
        for _ in range(6):
            reply = await game.command(choose(game.match.hand, "knocker", rng))
            seen = seen or "Hint: discarding" in reply.text
        return seen

    game = Game(world, bot)
    await game.start(world.alice, world.bob)
    assert await hints_seen(game)
    await fake.slash(world.alice, world.channel, "gin resign")
    await fake.slash(world.alice, world.channel, "gin settings set", hints=False)
    game = Game(world, bot)
    await game.start(world.alice, world.bob)
    assert not await hints_seen(game)


async def test_challenge_overrides_are_shown_and_used(world: World, bot: GinBot) -> None:
    fake = world.fake
    result = await fake.slash(
        world.alice,
        world.channel,
        "gin challenge",
        opponent=world.bob,
        target=150,
        gin_bonus=10,
        big_gin=False,
    )
    assert "to 150 points" in result.text and "Gin bonus 10" in result.text
    assert "Big Gin off" in result.text and "Changed for this match" in result.text
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None and table.settings.gin_bonus == 10 and not table.settings.big_gin


async def test_moderators_can_end_a_table(world: World, bot: GinBot) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    refused = await fake.slash(world.carol, world.channel, "gin end")
    assert refused.ephemeral and "manage messages" in refused.text.lower()
    assert bot.service.in_channel(str(world.channel.id)) is table
    moderator = fake.add_user("mod", global_name="Mod")
    fake.add_member(world.guild, moderator, permissions=1 << 13)  # Manage Messages
    closed = await fake.slash(moderator, world.channel, "gin end")
    assert not closed.ephemeral and "no result" in closed.text
    assert bot.service.in_channel(str(world.channel.id)) is None
    assert await bot.store.results(table.id) == []
    panel = game.dm_panel(0)
    await fake.wait_for(lambda: not panel.custom_ids(), what="the DM buttons to go")
    again = await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob)
    assert not again.ephemeral

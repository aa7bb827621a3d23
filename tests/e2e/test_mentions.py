"""A nickname can't make the bot notify anyone: every message says exactly whom it may notify.

Both players have closed DMs, so the channel carries their turn mentions, notices, reminders
and the forfeit; their nicknames hold a member's mention, @everyone, @here, a role mention and
markdown. Across a whole match no message notifies anyone but the players it is meant for.
"""

from __future__ import annotations

import random

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import settle
from tests.e2e.test_timers import short_timers
from tests.fakediscord import FakeDiscord, Message
from tests.gin.players import choose

FORBIDDEN_PARSE = {"users", "roles", "everyone"}


def hostile_names(world: World) -> None:
    fake = world.fake
    role = fake.add_role(world.guild, "moderators")
    fake.set_nick(world.guild, world.bob, f"<@{world.carol.id}> @everyone <@&{role.id}>")
    fake.set_nick(world.guild, world.alice, "**@here** __x__ `y`")


def check_every_message(fake: FakeDiscord, allowed: set[int]) -> list[Message]:
    """Every version of every message the bot made names whom it may notify, never by kind,
    and what it notified is among `allowed`. Returns the messages that did notify."""
    notifying = []
    for message in fake.all_bot_messages():
        for version, rules in enumerate(message.mention_rules):
            where = f"message {message.id} version {version}: {message.versions[version]}"
            assert rules is not None, f"no allowed_mentions in {where}"
            assert not set(rules.get("parse") or []) & FORBIDDEN_PARSE, f"parse by kind in {where}"
        notified = fake.notified(message)
        assert not notified.roles and not notified.everyone, f"{message}: {notified}"
        assert notified.users <= allowed, f"{message} notified {notified.users - allowed}"
        if notified:
            notifying.append(message)
    return notifying


async def play_by_commands(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    moves = 0
    while not game.match.is_over:
        result = await game.command(choose(game.match.hand, "knocker", rng))
        assert "⚠️" not in result.text, result.text
        moves += 1
        assert moves < 3000


async def test_hostile_nicknames_notify_nobody_over_a_whole_match(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    hostile_names(world)
    fake.close_dms(world.alice)
    fake.close_dms(world.bob)
    game = Game(world, bot)
    await game.start(world.alice, world.bob, target=50)
    await play_by_commands(game, seed=3)
    # The channel's messages wait out its limit of five new ones in five seconds: these
    # players are far quicker than that.
    await fake.wait_for(
        lambda: any("Match over" in m.text for m in fake.channel_messages(world.channel)),
        timeout=60,
        what="the result",
    )
    await settle(timeout=30)
    players = {world.alice.id, world.bob.id}
    notifying = check_every_message(fake, players)
    # The channel did mention the players (turns, the closed-DM notice, the result) ...
    assert {u for m in notifying for u in fake.notified(m).users} == players
    # ... and the names show, escaped, where they appear in text.
    shown = "\n".join(m.text for m in fake.all_bot_messages())
    assert f"<@{world.carol.id}>" not in shown
    assert "@\u200beveryone" in shown and "@\u200bhere" in shown


async def test_reminders_and_forfeits_notify_only_the_idle_player(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    hostile_names(world)
    fake.close_dms(world.alice)
    fake.close_dms(world.bob)
    await short_timers(bot, world, turn_seconds=2)
    game = Game(world, bot)
    await game.start(world.alice, world.bob)
    await fake.wait_for(
        lambda: any("ran out of time" in m.text for m in fake.channel_messages(world.channel)),
        timeout=8,
        what="the forfeit",
    )
    await settle()
    reminders = [m for m in fake.all_bot_messages() if "⏰" in m.text]
    assert reminders, "the idle player was not reminded"
    check_every_message(fake, {world.alice.id, world.bob.id})

"""Every finished hand's showdown reaches the channel, once and in order: when a teams hand's
two games end together, and when hands end faster than the channel can show them."""

from __future__ import annotations

import random
import re
from typing import Any

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import settle
from tests.e2e.modes_driver import Seats, people
from tests.fakediscord import FakeDiscord
from tests.gin.players import choose

SHOWDOWN = re.compile(r"^(Hand (\d+)(?:, game (\d))?|Round (\d+)): ")


def showdowns(fake: FakeDiscord, world: World) -> list[tuple[int, int]]:
    """(hand, game) of each showdown in the channel, in the order they were posted."""
    found = []
    for message in fake.channel_messages(world.channel):
        for embed in message.embeds:
            title = SHOWDOWN.match(str(embed.get("title") or ""))
            if title is None:
                continue
            number = int(title[2] or title[4])
            game = int(title[3]) - 1 if title[3] else 0
            found.append((number, game))
    return found


def channel_down(fake: FakeDiscord, world: World) -> list[Any]:
    """Every post and edit in the channel fails (a 503) until the rules are stopped."""
    path = f"/channels/{world.channel.id}/messages"
    return [
        fake.inject_fault(method, path, status=503, count=FakeDiscord.FOREVER)
        for method in ("POST", "PATCH")
    ]


async def test_both_games_of_a_teams_hand_get_their_showdown_when_they_end_together(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    users = people(world, 4)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "teams")
    for user in users[1:]:
        await seats.join_by_button(user)
    await seats.dealt()
    down = channel_down(fake, world)  # both games end before the channel shows either
    await seats.play(seed=3, stop=lambda match: match.hand_number > 1)
    await settle()
    assert showdowns(fake, world) == []
    for rule in down:
        rule.stop()
    await fake.wait_for(
        lambda: len(showdowns(fake, world)) >= 2, timeout=90, what="hand 1's two showdowns"
    )
    # Game 2's showdown takes the place of the hand's table, above game 1's, as in any hand.
    assert sorted(showdowns(fake, world)) == [(1, 0), (1, 1)]


async def test_hands_that_end_before_the_channel_catches_up_are_all_shown_in_order(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob, target=500)
    await settle()
    down = channel_down(fake, world)  # a busy channel: three hands end meanwhile
    rng = random.Random(8)
    while game.match.hand_number <= 3:
        result = await game.button(choose(game.match.hand, "knocker", rng))
        assert "⚠️" not in result.text, result.text
    await settle()
    assert showdowns(fake, world) == []
    for rule in down:
        rule.stop()
    await fake.wait_for(
        lambda: len(showdowns(fake, world)) >= 3, timeout=90, what="three showdowns"
    )
    assert showdowns(fake, world) == [(1, 0), (2, 0), (3, 0)]
    assert table.match is not None and table.match.hand_number == 4

"""A change asked for through another front end (a web page, say) reaches Discord as news:
the table service tells it, and the screens show it as they show a move made here."""

from __future__ import annotations

import random

from bot.client import GinBot
from bot.gin.hand import ActionKind
from bot.gin.match import Player
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.fakediscord import Message
from tests.gin.players import choose


async def test_a_turn_played_elsewhere_hands_the_turn_on_in_the_dms(
    world: World, bot: GinBot
) -> None:
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    match = game.match
    mover = match.hand.turn
    rng = random.Random(1)
    # The mover's whole turn (until the turn passes), made through another front end.
    while match.hand.turn == mover:
        action = choose(match.hand, "knocker", rng)
        if action.kind is ActionKind.KNOCK:  # keep the hand going
            legal = match.hand.legal_actions(mover)
            action = next(a for a in legal if a.kind is ActionKind.DISCARD)
        await bot.service.play(
            table, table.players[mover].id, action.kind, action.card, origin="a web page"
        )
    last = action

    waiting = 1 - mover
    prefix = f":{table.id}:{table.token(waiting)}:"
    hand = table.display["hands"][str(waiting)]["message"]
    await world.fake.wait_for(
        lambda: any(prefix in c for c in world.fake.message(hand).custom_ids()),
        what="the waiting player's DM hand to get the turn",
    )
    said = {
        ActionKind.PASS: "You passed",
        ActionKind.DISCARD: "You discarded",
    }[last.kind]
    own = table.display["hands"][str(mover)]["message"]
    await world.fake.wait_for(
        lambda: said in world.fake.message(own).text,
        what="the mover's DM hand to say what they did",
    )


async def test_a_challenge_opened_elsewhere_is_posted_and_answered_on_discord(
    world: World, bot: GinBot
) -> None:
    """A challenge made through another front end (the Activity's rematch) is posted in the
    channel with its buttons, so the opponent can accept it on Discord."""
    fake = world.fake
    alice, bob = world.alice, world.bob
    server = await bot.service.server_settings(str(world.guild.id))
    table = await bot.service.opening.challenge(
        str(world.guild.id),
        str(world.channel.id),
        Player(str(alice.id), "Alice"),
        Player(str(bob.id), "Bob"),
        server,
        origin="a web page",
    )
    button = f"gin:ch:{table.id}:accept"

    def posted() -> Message | None:
        return next(
            (m for m in fake.channel_messages(world.channel) if button in m.custom_ids()), None
        )

    message = await fake.wait_for(posted, what="the challenge in the channel")
    assert f"<@{bob.id}>" in message.content  # the opponent is told
    await fake.click(bob, message, button)
    await fake.wait_for(lambda: table.match is not None, what="the match to start")
    assert table.players[0].id in (str(alice.id), str(bob.id))


async def test_a_challenge_answered_elsewhere_closes_its_message(world: World, bot: GinBot) -> None:
    fake = world.fake
    alice, bob = world.alice, world.bob
    result = await fake.slash(alice, world.channel, "gin challenge", opponent=bob)
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None
    await bot.service.opening.accept(table, str(bob.id), origin="a web page")
    await fake.wait_for(
        lambda: (
            not fake.message(result.message.id).custom_ids()
            and "accepted" in fake.message(result.message.id).text.lower()
        ),
        what="the challenge message to say it was accepted, without its buttons",
    )

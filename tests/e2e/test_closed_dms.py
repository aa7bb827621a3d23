"""Players whose DMs are closed: told once in the channel, then they play through private replies.

The player with closed DMs plays with slash commands and with the buttons on the ephemeral
replies (`/gin hand` and every move reply carry them); the other player keeps their DMs.
"""

from __future__ import annotations

import random
from collections import Counter

from bot.client import GinBot
from bot.tables import Table
from tests.e2e.conftest import World, looked_away
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import settle, start_game
from tests.fakediscord import FakeDiscord, Message, User
from tests.gin.players import choose


def notices(fake: FakeDiscord, world: World, user: User) -> list[Message]:
    """Channel messages telling `user` (by mention) that DMs fail and to use /gin hand."""
    return [
        message
        for message in fake.channel_messages(world.channel)
        if user.mention in message.content
        and "/gin hand" in message.text
        and "direct messages" in message.text
    ]


def turn_pings(fake: FakeDiscord, world: World, user: User) -> list[Message]:
    """Channel messages, deleted ones included, telling `user` it is their turn."""
    return [
        message
        for message in fake.store.messages.values()
        if message.channel_id == world.channel.id
        and user.mention in message.content
        and "your turn" in message.text
    ]


def current_buttons(table: Table, message: Message | None) -> bool:
    """Whether a private message carries the buttons for the move about to be made."""
    assert table.match is not None
    prefix = f":{table.id}:{table.token(table.match.hand.turn)}:"
    return message is not None and any(prefix in cid for cid in message.custom_ids())


async def play_to_the_end(
    game: Game, closed: set[int], seed: int, limit: int = 3000
) -> Counter[str]:
    """Play the match out. Seats in `closed` alternate the buttons of their ephemeral replies
    with slash commands; the other seat uses its DM buttons. Returns the moves made each way."""
    assert game.table is not None
    table = game.table
    fake, channel = game.fake, game.channel
    rng = random.Random(seed)
    private: dict[int, Message | None] = {}
    ways: Counter[str] = Counter()
    moves = 0
    while not game.match.is_over:
        action = choose(game.match.hand, "knocker", rng)
        seat = action.seat
        user = game.user(seat)
        if seat not in closed:
            result = await game.button(action)
            ways["dm button"] += 1
        elif (ways["command"] + ways["ephemeral button"]) % 2:
            result = await game.command(action)
            assert result.ephemeral, result.text
            ways["command"] += 1
        else:
            message = private.get(seat)
            if not current_buttons(table, message):
                shown = await fake.slash(user, channel, "gin hand")
                assert shown.ephemeral and "⚠️" not in shown.text, shown.text
                message = shown.message
            assert message is not None and message.ephemeral
            result = await game.button(action, message=message)
            ways["ephemeral button"] += 1
        assert "⚠️" not in result.text, result.text
        if seat in closed:
            private[seat] = result.message
        moves += 1
        assert moves < limit, "the match does not end"
    await settle()
    for way in ("dm button", "command", "ephemeral button"):
        assert ways[way] > 0, f"no move was made by {way}: {ways}"
    return ways


async def test_dms_closed_from_the_start(world: World, bot: GinBot) -> None:
    """Bob's DMs are closed before the match: one notice, then a whole match without DMs."""
    fake = world.fake
    fake.close_dms(world.bob)
    game = Game(world, bot)
    await start_game(game, world.alice, world.bob, target=50)

    [notice] = notices(fake, world, world.bob)
    assert any(m["id"] == str(world.bob.id) for m in notice.payload["mentions"])
    assert not notices(fake, world, world.alice)
    assert fake.dm_messages(world.alice), "Alice keeps getting her hand by DM"

    shown = await fake.slash(world.bob, world.channel, "gin hand")
    assert shown.ephemeral and "Your hand" in shown.text

    bob = game.table.seat_of(str(world.bob.id)) if game.table else None
    assert bob is not None
    ways = await play_to_the_end(game, closed={bob}, seed=7)
    assert game.match.is_over and ways["ephemeral button"] > 0
    assert len(notices(fake, world, world.bob)) == 1, "the closed-DM notice was repeated"
    assert not notices(fake, world, world.alice)
    assert not fake.all_dm_payloads(world.bob)
    assert any("Match over" in m.text for m in fake.channel_messages(world.channel))


async def test_dms_closed_for_the_player_who_starts(world: World, bot: GinBot) -> None:
    """Alice's DMs are closed and she challenges: the match still runs with Bob on DMs."""
    fake = world.fake
    fake.close_dms(world.alice)
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob, target=50)
    assert len(notices(fake, world, world.alice)) == 1
    seat = table.seat_of(str(world.alice.id))
    assert seat is not None
    await play_to_the_end(game, closed={seat}, seed=11)
    assert len(notices(fake, world, world.alice)) == 1
    assert not notices(fake, world, world.bob)


async def test_dms_close_in_the_middle_of_a_match(world: World, bot: GinBot) -> None:
    """Alice closes her DMs mid-hand: she is told once, as soon as a DM fails, and finishes
    the match through private replies."""
    looked_away(bot)  # a player who looked away
    fake = world.fake
    game = Game(world, bot)
    # To 100: one lucky hand could end a match to 50 before Alice's DMs are ever tried.
    table = await start_game(game, world.alice, world.bob, target=100)
    rng = random.Random(5)
    for _ in range(6):
        await game.button(choose(game.match.hand, "knocker", rng))
    await settle()
    assert not notices(fake, world, world.alice)
    alice = table.seat_of(str(world.alice.id))
    assert alice is not None

    fake.close_dms(world.alice)
    while game.match.hand.turn == alice and not game.match.is_over:
        await game.command(choose(game.match.hand, "knocker", rng))
    while game.match.hand.turn != alice and not game.match.is_over:
        await game.button(choose(game.match.hand, "knocker", rng))
    await settle()
    assert len(notices(fake, world, world.alice)) == 1, "no notice when Alice's DMs failed"

    await play_to_the_end(game, closed={alice}, seed=6)
    assert len(notices(fake, world, world.alice)) == 1, "the closed-DM notice was repeated"
    assert not notices(fake, world, world.bob)


async def test_the_private_reply_follows_the_game_and_each_turn_is_announced(
    world: World, bot: GinBot
) -> None:
    """With DMs closed, Bob's last private reply is edited as the game moves, like a DM hand,
    and a mention in the channel tells him when it is his turn; one such mention at a time,
    none left once the match is over."""
    fake = world.fake
    fake.close_dms(world.bob)
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob, target=100)
    bob = table.seat_of(str(world.bob.id))
    assert bob is not None
    shown = await fake.slash(world.bob, world.channel, "gin hand")
    reply = shown.message
    assert reply is not None and reply.ephemeral
    rng = random.Random(3)
    turns = 0
    while turns < 4 and not game.match.is_over:
        while game.match.hand.turn != bob and not game.match.is_over:
            await game.button(choose(game.match.hand, "knocker", rng))  # Alice, by DM
        await settle()
        if game.match.is_over:
            break
        assert current_buttons(table, fake.message(reply.id)), "the private reply is stale"
        live = [m for m in turn_pings(fake, world, world.bob) if not m.deleted]
        assert len(live) == 1
        if turns:  # (the first one may come with the deal, before Bob's reply existed)
            assert "buttons on your private hand" in live[0].text, live[0].text
        assert any(m["id"] == str(world.bob.id) for m in live[0].payload["mentions"])
        while game.match.hand.turn == bob and not game.match.is_over:
            action = choose(game.match.hand, "knocker", rng)
            result = await game.button(action, message=fake.message(reply.id))
            assert "⚠️" not in result.text, result.text
        turns += 1
    # (a deal can end the match early; two turns still check an edit and a mention each)
    assert turns >= 2 and len(turn_pings(fake, world, world.bob)) >= turns
    assert not turn_pings(fake, world, world.alice)
    assert not fake.all_dm_payloads(world.bob)

    await play_to_the_end(game, closed={bob}, seed=4)
    assert not [m for m in turn_pings(fake, world, world.bob) if not m.deleted]
    # His latest private reply loses its buttons and says the match is over.
    replies = [m for m in fake.store.messages.values() if m.ephemeral and "Match over" in m.text]
    assert replies and not replies[-1].custom_ids()


async def test_a_table_closed_by_a_moderator_retires_the_private_reply(
    world: World, bot: GinBot
) -> None:
    """`/gin end` takes the buttons off a closed-DM player's private reply too, and no
    "your turn" mention stays in the channel."""
    fake = world.fake
    fake.close_dms(world.bob)
    game = Game(world, bot)
    await start_game(game, world.alice, world.bob, target=100)
    shown = await fake.slash(world.bob, world.channel, "gin hand")
    reply = shown.message
    assert reply is not None and reply.ephemeral and "Your hand" in reply.text
    moderator = fake.add_user("mod", global_name="Mod")
    fake.add_member(world.guild, moderator, permissions=1 << 13)  # Manage Messages
    closed = await fake.slash(moderator, world.channel, "gin end")
    assert "no result" in closed.text
    await settle()
    retired = fake.message(reply.id)
    assert "Table closed" in retired.text and not retired.custom_ids()
    assert not [m for m in turn_pings(fake, world, world.bob) if not m.deleted]

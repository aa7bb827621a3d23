"""A bot that never nags: a turn's alert is the hand itself, sent afresh (the old copy goes),
none for a player who is watching, nothing stale left behind, and the result of a match as a
DM of its own; a new hand's first turn waits for nothing in the channel."""

from __future__ import annotations

import random

from bot.client import GinBot
from bot.gin.hand import Action, ActionKind
from tests.e2e.conftest import World, looked_away, screens_of
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import quiet_move, settle
from tests.e2e.test_posted_once import ends_the_hand, titled
from tests.fakediscord import FakeDiscord, Message, User
from tests.gin.players import choose

PING = "🃏 Your turn"


def dms(fake: FakeDiscord, user: User) -> list[Message]:
    """Every message the bot sent this user by DM, deleted ones too, oldest first."""
    channel = fake.store.dm_by_user.get(user.id)
    if channel is None:
        return []
    return [fake.store.messages[i] for i in fake.store.channel_messages[channel.id]]


def pings(fake: FakeDiscord, user: User, *, deleted: bool = False) -> list[Message]:
    """The turn alerts the bot sent this user by DM: hands sent with the alert's text (the
    ones still there, or every one)."""
    return [
        m
        for m in dms(fake, user)
        if PING in str(m.versions[0].get("content") or "") and (deleted or not m.deleted)
    ]


def live_buttons(fake: FakeDiscord, user: User) -> list[Message]:
    """DMs with a hand's buttons (a showdown's Review button is not a hand's)."""
    return [
        m
        for m in dms(fake, user)
        if not m.deleted and any(not c.startswith("gin:rv:") for c in m.custom_ids())
    ]


async def test_no_ping_for_a_player_who_just_moved(world: World, bot: GinBot) -> None:
    """Quick players are pinged at most once: on a turn that came before they had moved."""
    game = Game(world, bot)
    await game.start(world.alice, world.bob)
    await game.play_out(via="button", stop_after=30)
    await settle()
    for user in (world.alice, world.bob):
        assert len(pings(world.fake, user, deleted=True)) <= 1


async def test_no_ping_against_the_bot(world: World, bot: GinBot) -> None:
    game = Game(world, bot)
    await game.practice(world.alice, "easy")
    await game.play_against_bot(via="button", seed=2)
    await settle()
    assert not pings(world.fake, world.alice, deleted=True)


async def test_each_turn_the_hand_comes_afresh_and_nothing_stale_stays(
    world: World, bot: GinBot
) -> None:
    """Players who look away get their hand afresh at each turn, with the alert's text (the
    older copy deleted), so the live buttons are always their newest DM; a hand's last copy
    becomes its showdown, and the match's result is a DM that nothing overwrites."""
    looked_away(bot)  # everyone has looked away
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    moves = 0
    turns = {world.alice.id: 0, world.bob.id: 0}
    while not game.match.is_over:
        hand = game.match.hand
        before = (game.match.hand_number, hand.turn)
        await game.play_out(via="button", stop_after=1, seed=moves)
        moves += 1
        await settle()  # the hand sent afresh, the old copy deleted
        if game.match.is_over:
            break
        hand = game.match.hand
        if (game.match.hand_number, hand.turn) != before:
            turns[game.user(hand.turn).id] += 1
        for user in (world.alice, world.bob):
            live = live_buttons(fake, user)
            assert len(live) <= 1, "a DM held two hands with buttons"
            shown = [m for m in dms(fake, user) if not m.deleted]
            assert not live or live[0] is shown[-1], "the live buttons are not the newest DM"
        mover = game.user(hand.turn)
        if hand.actions and hand.actions[-1].seat != hand.turn:
            alert = live_buttons(fake, mover)
            assert alert and PING in alert[0].content, "the turn came without its alert"
    await settle()
    assert moves > 20
    for user in (world.alice, world.bob):
        alerts = pings(fake, user, deleted=True)
        assert 0 < len(alerts) <= turns[user.id], (len(alerts), turns[user.id])
        assert all(m.deleted or PING not in m.content for m in alerts[:-1])
    hands = game.match.hand_number
    for user in (world.alice, world.bob):
        left = fake.dm_messages(user)
        assert len(left) <= hands + 1, [m.text[:40] for m in left]
        assert "Match over" in left[-1].text and "wins the match" in left[-1].text
        showdowns = [m for m in left if "Match over" not in m.text]
        assert showdowns and all("see the result in the channel" not in m.text for m in left)
    assert table.match is not None


async def test_a_move_by_command_makes_the_dm_hand_say_where_the_hand_is(
    world: World, bot: GinBot
) -> None:
    """The command's private reply shows the move and is the mover's live hand from then
    on: their DM hand loses its buttons, keeps the cards and says where the buttons are,
    and is edited only when the cards held between turns change (once a turn, by the
    discard) while they play from the channel; its Play here brings the hand back to the
    DM, and the reply goes."""
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    await settle()
    seat = game.match.hand.turn
    user = game.user(seat)
    dm = fake.message(table.display["hands"][str(seat)]["message"])
    reply = await game.command(Action(ActionKind.PASS, seat))
    assert reply.ephemeral and "You passed on the upcard." in reply.text
    await settle()
    here = f"gin:here:{table.id}"
    line = fake.message(dm.id)
    assert line.custom_ids() == [here], line.custom_ids()
    assert "latest private reply" in line.text and "🃏" not in line.content
    versions = len(line.versions)
    turns = 0
    held = set(game.match.hand.hands[seat])
    for _ in range(4):  # both play on from the channel
        action = quiet_move(game.match.hand)
        await game.command(action)
        await settle()
        if action.seat == seat and action.kind is ActionKind.DISCARD:
            now = set(game.match.hand.hands[seat])
            turns += now != held  # the card just drawn thrown back changes nothing held
            held = now
    assert len(fake.message(dm.id).versions) == versions + turns, "edited more than once a turn"
    back = await fake.click(user, fake.message(dm.id), here)
    assert back.type == 7 and "Your hand is here again" in back.text, back.text
    await settle()
    assert game.match.hand.turn != seat or any(
        f":{table.token(seat)}:" in c for c in fake.message(dm.id).custom_ids()
    )
    assert screens_of(bot).carrier(table, seat) is None  # the reply carries nothing now
    kept = [
        m
        for m in fake.store.messages.values()
        if m.ephemeral
        and not m.deleted
        and m.interaction_id is not None
        and fake.interactions[m.interaction_id].user.id == user.id
        and m.custom_ids()
    ]
    assert not kept, "a reply of theirs kept its buttons"


async def test_a_new_hands_first_turn_waits_for_no_message_of_the_channels(
    world: World, bot: GinBot
) -> None:
    """At a hand's end the new hand's DMs go first, the player to act first of all; the
    channel's showdown and the new hand's table come after them."""
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    rng = random.Random(5)
    for _ in range(400):
        action = choose(game.match.hand, "knocker", rng)
        if ends_the_hand(game, action):
            break
        await game.button(action)
    else:
        raise AssertionError("no hand ended")
    number = game.match.hand_number
    await game.button(action)
    await fake.wait_for(
        lambda: table.display.get("public_hand") == number + 1, what="the next hand's table"
    )
    await settle()
    first = game.match.hand.turn
    hands = table.display["hands"]
    to_act, waiting = hands[str(first)]["message"], hands[str(1 - first)]["message"]
    new_table = table.display["public"]
    assert fake.message(to_act).text and fake.message(waiting).text
    assert to_act < waiting < new_table  # snowflakes: the order they were made in
    assert len(titled(fake, world.channel.id, f"Hand {number}:")) == 1  # its showdown

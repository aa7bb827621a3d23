"""One live hand per player, and only the notifications that matter: a player who plays from
the channel has one private reply there (older ones deleted) and a DM hand that says where the
hand is; a turn comes on the reply however long the others took; a player who walked away
right after moving is alerted once; looking at one's hand in the channel sends no DM; the
result pings only those no DM tells; a reminder is the hand itself and leaves nothing behind."""

from __future__ import annotations

import time

from bot.client import GinBot
from bot.gin.hand import Action, ActionKind
from tests.e2e.audit import ScreenAudit
from tests.e2e.conftest import World, screens_of
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import quiet_move, settle
from tests.e2e.test_quiet import PING, pings
from tests.e2e.test_timers import short_timers
from tests.fakediscord import FakeDiscord, Message, User


def replies_of(fake: FakeDiscord, user: User, channel_id: int) -> list[Message]:
    """The user's private replies in the channel that are still there."""
    store = fake.store
    return [
        m
        for m in (store.messages[i] for i in store.channel_messages.get(channel_id, []))
        if m.ephemeral
        and not m.deleted
        and m.interaction_id is not None
        and fake.interactions[m.interaction_id].user.id == user.id
    ]


def dm_count(fake: FakeDiscord, user: User) -> int:
    """Every DM message the bot ever sent this user (each one a notification)."""
    channel = fake.store.dm_by_user.get(user.id)
    return 0 if channel is None else len(fake.store.channel_messages[channel.id])


async def test_a_player_moving_by_command_has_one_reply_and_one_live_hand(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    await settle()
    audit = ScreenAudit(fake, [world.alice, world.bob], world.channel.id)
    for _ in range(24):
        await game.command(quiet_move(game.match.hand))
        await settle()
        audit.check(table)
    assert not audit.figures.too_many_live, audit.figures.too_many_live
    for seat in (0, 1):
        user = game.user(seat)
        assert len(replies_of(fake, user, world.channel.id)) == 1  # the older ones went
        dm = fake.message(table.display["hands"][str(seat)]["message"])
        assert dm.custom_ids() == [f"gin:here:{table.id}"], dm.custom_ids()


async def test_a_command_players_turn_comes_on_their_reply_however_long_the_other_took(
    world: World, bot: GinBot
) -> None:
    """The opponent took 25 s: the reply still carries the turn, with its buttons, and no
    DM notifies a player who is watching the channel."""
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    await settle()
    for _ in range(4):
        await game.command(quiet_move(game.match.hand))
        await settle()
    waiting = 1 - game.match.hand.turn
    user = game.user(waiting)
    screens = screens_of(bot)
    seat_screen = screens.tables(table.id).seat(waiting)
    assert seat_screen.reply is not None
    seat_screen.reply.since -= 25.0  # as if the opponent took 25 s over their turn
    seat_screen.acted -= 25.0
    sent = dm_count(fake, user)
    await game.command(quiet_move(game.match.hand))  # the opponent draws ...
    await game.command(quiet_move(game.match.hand))  # ... and discards: their turn
    await settle()
    assert game.match.hand.turn == waiting
    (reply,) = replies_of(fake, user, world.channel.id)
    move = f"gin:mv:{table.id}:{table.token(waiting)}:"
    assert any(move in c for c in reply.custom_ids()), reply.text
    assert dm_count(fake, user) == sent  # no notification for a player who is watching


async def test_a_player_who_walked_away_right_after_moving_is_alerted_once(
    world: World, bot: GinBot
) -> None:
    """They moved moments before their turn began, so it came silently; they did not take
    it up, so it comes again as a notification, once."""
    fake = world.fake
    screens_of(bot).looking_seconds = 1.0
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    await settle()
    for _ in range(4):  # quick players: each turn comes silently
        await game.button(quiet_move(game.match.hand))
        await settle()
    seat = game.match.hand.turn
    user = game.user(seat)
    before = len(pings(fake, user, deleted=True))
    await fake.wait_for(
        lambda: len(pings(fake, user, deleted=True)) > before, timeout=15, what="the alert"
    )
    await settle()
    alert = pings(fake, user)
    assert len(alert) == 1 and any(f":{table.token(seat)}:" in c for c in alert[0].custom_ids())
    start = time.monotonic()
    await fake.wait_for(lambda: time.monotonic() - start > 2.5, what="a while")
    assert len(pings(fake, user, deleted=True)) == before + 1  # once for the turn
    live = [m for m in fake.dm_messages(user) if m.custom_ids()]
    assert [m.id for m in live] == [alert[0].id]  # the older copy went


async def test_looking_at_ones_hand_in_the_channel_sends_no_dm(world: World, bot: GinBot) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    await settle()
    seat = game.match.hand.turn
    user = game.user(seat)
    sent = dm_count(fake, user)
    public = fake.message(table.display["public"])
    shown = await fake.click(user, public, f"gin:show:{table.id}")
    again = await fake.slash(user, world.channel, "gin hand")
    await settle()
    assert dm_count(fake, user) == sent
    move = f"gin:mv:{table.id}:{table.token(seat)}:"
    assert any(move in c for c in fake.message(again.message.id).custom_ids())
    assert fake.message(shown.message.id).deleted  # the newer reply took its place
    dm = fake.message(table.display["hands"][str(seat)]["message"])
    assert dm.custom_ids() == [f"gin:here:{table.id}"]
    # Play here brings the hand back to the DM; the reply goes.
    back = await fake.click(user, dm, f"gin:here:{table.id}")
    assert "Your hand is here again" in back.text
    await settle()
    assert any(move in c for c in fake.message(dm.id).custom_ids())
    assert not replies_of(fake, user, world.channel.id)


async def test_the_result_pings_only_the_players_no_dm_tells(world: World, bot: GinBot) -> None:
    fake = world.fake
    fake.close_dms(world.bob)
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    await settle()
    resigned = await fake.slash(world.alice, world.channel, "gin resign")
    assert "⚠️" not in resigned.text
    await fake.wait_for(
        lambda: any("Match over" in m.text for m in fake.channel_messages(world.channel)),
        what="the result",
    )
    await settle()
    (over,) = [m for m in fake.channel_messages(world.channel) if "Match over" in m.text]
    assert world.alice.mention in over.content and world.bob.mention in over.content
    assert fake.notified(over).users == {world.bob.id}
    assert any("Match over" in m.text for m in fake.dm_messages(world.alice))
    assert table.match is not None and table.match.is_over


async def test_a_reminder_is_the_hand_itself_and_leaves_nothing_once_they_move(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    await short_timers(bot, world, turn_seconds=6)
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    seat = game.match.hand.turn
    user = game.user(seat)

    def reminded() -> Message | None:
        return next((m for m in fake.dm_messages(user) if "⏰" in m.content), None)

    reminder = await fake.wait_for(reminded, timeout=10, what="the reminder")
    await settle()  # the older copy of the hand goes
    assert any(f":{table.token(seat)}:" in c for c in reminder.custom_ids())  # the hand
    assert len([m for m in fake.dm_messages(user) if m.custom_ids()]) == 1
    await game.button(Action(ActionKind.PASS, seat), message=reminder)
    await settle()
    assert not any("⏰" in m.text for m in fake.dm_messages(user))
    assert not any(PING in m.text for m in fake.dm_messages(user))


async def test_a_turn_shown_silently_on_a_reply_gets_the_whole_looking_time(
    world: World, bot: GinBot
) -> None:
    """The opponent took most of the looking time over their turn: the turn comes silently
    on the player's reply, keeps its buttons there, and is alerted only once the whole
    looking time has passed since it was shown (not since the player's own move), however
    many syncs come in between."""
    fake = world.fake
    screens = screens_of(bot)
    screens.looking_seconds = 4.0
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    await settle()
    for _ in range(4):
        await game.command(quiet_move(game.match.hand))
        await settle()
    waiting = 1 - game.match.hand.turn
    user = game.user(waiting)
    seat_screen = screens.tables(table.id).seat(waiting)
    seat_screen.acted -= 3.6  # the opponent took 3.6 s of the 4 over their turn
    alerts = len(pings(fake, user, deleted=True))
    await game.command(quiet_move(game.match.hand))
    before = time.monotonic()  # the turn is shown after this
    await game.command(quiet_move(game.match.hand))
    assert game.match.hand.turn == waiting
    await settle()
    (reply,) = replies_of(fake, user, world.channel.id)
    move = f"gin:mv:{table.id}:{table.token(waiting)}:"
    assert any(move in c for c in reply.custom_ids())
    await fake.wait_for(lambda: time.monotonic() - before > 1.0, what="the move's window to pass")
    await screens.sync(table)  # any sync meanwhile (a timer, another player's screen)
    await fake.wait_for(lambda: time.monotonic() - before > 3.0, what="most of the looking time")
    assert len(pings(fake, user, deleted=True)) == alerts, "alerted before its looking time"
    assert any(move in c for c in fake.message(reply.id).custom_ids()), "the buttons went"
    await fake.wait_for(
        lambda: len(pings(fake, user, deleted=True)) > alerts, timeout=10, what="the alert"
    )
    assert time.monotonic() - before >= 4.0

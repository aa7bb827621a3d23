"""A DM hand its player pressed is edited through that press: for 15 minutes the press's
token edits or deletes the message it was on (``@original``), outside Discord's global rate
limit, so a hand-off costs no call of the bot's budget. Past that, the bot edits the message
itself, and the game goes on all the same."""

from __future__ import annotations

from bot.client import GinBot
from bot.render.hand import resting_cards
from tests.e2e.conftest import World, looked_away
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import quiet_move, settle
from tests.e2e.test_quiet import PING, live_buttons
from tests.fakediscord.interactions import InteractionResult


async def play_a_while(world: World, bot: GinBot, moves: int) -> Game:
    """A new match, ``moves`` moves by the DM buttons that keep the first hand going (so
    every turn is a hand-off, whatever the deal), everything shown."""
    game = Game(world, bot)
    await game.start(world.alice, world.bob)
    await settle()
    for _ in range(moves):
        result = await game.button(quiet_move(game.match.hand))
        assert "⚠️" not in result.text, result.text
    await settle()
    assert game.match.hand_number == 1
    return game


DM_EDIT = "PATCH /channels/{}/messages/{} dm"
DM_DELETE = "DELETE /channels/{}/messages/{} dm"
PRESS_EDIT = "PATCH /webhooks/{}/{}/messages/@original"
PRESS_DELETE = "DELETE /webhooks/{}/{}/messages/@original"


async def test_a_hand_off_to_a_player_on_their_hand_costs_no_counted_call(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    game = await play_a_while(world, bot, 12)
    requests = fake.rest.requests_by_place
    assert requests[PRESS_EDIT] >= 5, dict(requests)  # the hand-offs, through the presses
    # Only a hand not pressed yet is edited by the bot: at most each player's first turn.
    assert requests[DM_EDIT] <= 2, dict(requests)
    seat = game.match.hand.turn
    assert [m.id for m in live_buttons(fake, game.user(seat))] == [game.dm_panel(seat).id]
    assert not live_buttons(fake, game.user(1 - seat))  # the one who waits has none
    assert game.dm_panel(seat).components  # the hand-off came: the player's buttons


async def test_an_alert_deletes_the_older_copy_through_its_press(world: World, bot: GinBot) -> None:
    looked_away(bot)  # every turn comes as a new message, the old copy deleted
    fake = world.fake
    game = await play_a_while(world, bot, 10)
    requests = fake.rest.requests_by_place
    assert requests[PRESS_DELETE] >= 3, dict(requests)
    assert requests[DM_DELETE] <= 2, dict(requests)  # copies never pressed: the first ones
    for user in (world.alice, world.bob):
        assert len(live_buttons(fake, user)) <= 1
    mover = game.user(game.match.hand.turn)
    assert PING in live_buttons(fake, mover)[0].content


async def test_an_expired_press_leaves_the_edit_to_the_bot(world: World, bot: GinBot) -> None:
    fake = world.fake
    fake.interaction_token_seconds = 0.0  # every press's token has expired when it is used
    game = await play_a_while(world, bot, 12)
    requests = fake.rest.requests_by_place
    assert requests[DM_EDIT] >= 5, dict(requests)  # the hand-offs, by the bot itself
    seat = game.match.hand.turn
    assert [m.id for m in live_buttons(fake, game.user(seat))] == [game.dm_panel(seat).id]
    assert not live_buttons(fake, game.user(1 - seat))  # the one who waits has none
    assert game.dm_panel(seat).components  # the hand-off came: the player's buttons


async def test_a_hand_off_to_a_player_moving_by_command_edits_their_reply(
    world: World, bot: GinBot
) -> None:
    """A player who moves by slash command is looking at the channel: their turn's hand-off
    edits the private reply to their last move there (free, through its token), and their DM
    hand, which keeps their cards, is edited only when a discard changes them; the reply's
    buttons make the next move."""
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    await settle()
    replies: dict[int, InteractionResult] = {}
    for _ in range(4):  # each player's first turn, whose hand-off comes by DM
        action = quiet_move(game.match.hand)
        replies[action.seat] = await game.command(action)
        await settle()
    before = fake.rest.requests_by_place[DM_EDIT]
    changed = 0
    for _ in range(10):  # moves that keep the hand going: no showdown on the DM hands
        action = quiet_move(game.match.hand)
        held = resting_cards(game.match.hand, action.seat)
        replies[action.seat] = await game.command(action)
        await settle()
        changed += resting_cards(game.match.hand, action.seat) != held
    requests = fake.rest.requests_by_place
    # Only a discard that changed the cards held edited a DM hand; no hand-off did.
    assert requests[DM_EDIT] == before + changed, dict(requests)
    seat = game.match.hand.turn
    reply = replies[seat].message
    assert reply is not None and reply.ephemeral
    move = f"gin:mv:{table.id}:{table.token(seat)}:"
    assert any(move in custom_id for custom_id in reply.custom_ids()), reply.custom_ids()
    # Its buttons play: a move made on the reply is carried by it too.
    action = quiet_move(game.match.hand)
    held = resting_cards(game.match.hand, action.seat)
    result = await game.button(action, message=reply)
    assert "⚠️" not in result.text, result.text
    await settle()
    changed += resting_cards(game.match.hand, action.seat) != held
    assert fake.rest.requests_by_place[DM_EDIT] == before + changed


async def test_a_reply_that_cannot_be_edited_leaves_the_hand_off_to_the_dm(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    fake.interaction_token_seconds = 0.0  # every reply's token has expired when it is used
    game = Game(world, bot)
    await game.start(world.alice, world.bob)
    await settle()
    for _ in range(8):
        await game.command(quiet_move(game.match.hand))
        await settle()
    seat = game.match.hand.turn
    assert fake.rest.requests_by_place[DM_EDIT] >= 3, dict(fake.rest.requests_by_place)
    await game.wait_for_buttons(seat)  # the DM hand carried the hand-off


async def test_a_player_moving_by_command_who_looked_away_gets_the_alert_and_their_reply(
    world: World, bot: GinBot
) -> None:
    """Their turn comes as a DM alert (a notification), which is their live hand from then
    on; their last reply in the channel says so, without buttons, for when they come back
    there."""
    looked_away(bot)
    fake = world.fake
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    await settle()
    replies: dict[int, InteractionResult] = {}
    for _ in range(6):
        action = quiet_move(game.match.hand)
        replies[action.seat] = await game.command(action)
        await settle()
    seat = game.match.hand.turn
    alert = live_buttons(fake, game.user(seat))
    assert len(alert) == 1 and PING in alert[0].content
    move = f"gin:mv:{table.id}:{table.token(seat)}:"
    assert any(move in custom_id for custom_id in alert[0].custom_ids())
    reply = replies[seat].message
    assert reply is not None
    shown = fake.message(reply.id)
    assert not shown.custom_ids() and "in your DMs now" in shown.text, shown.text

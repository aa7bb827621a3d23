"""A DM hand its player pressed is edited through that press: for 15 minutes the press's
token edits or deletes the message it was on (``@original``), outside Discord's global rate
limit, so a hand-off costs no call of the bot's budget. Past that, the bot edits the message
itself, and the game goes on all the same."""

from __future__ import annotations

from bot.client import GinBot
from tests.e2e.conftest import World, looked_away
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import settle
from tests.e2e.test_quiet import PING, live_buttons


async def play_a_while(world: World, bot: GinBot, moves: int) -> Game:
    """A new match, ``moves`` moves by the DM buttons, everything shown."""
    game = Game(world, bot)
    await game.start(world.alice, world.bob)
    await settle()
    await game.play_out(via="button", stop_after=moves)
    await settle()
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

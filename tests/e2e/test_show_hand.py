"""The public table's Show my hand button: a player's hand privately, with live buttons."""

from __future__ import annotations

import pytest

from bot.client import GinBot
from bot.gin import Card
from bot.gin.hand import ActionKind
from bot.render.hand import resting_cards
from bot.tables import Table
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import card_tokens, quiet_move, settle, start_game
from tests.fakediscord import Message


def show_button(table: Table) -> str:
    return f"gin:show:{table.id}"


async def test_show_my_hand_answers_each_player_privately_and_refuses_a_spectator(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    await settle()
    public = fake.message(table.display["public"])
    show = f"gin:show:{table.id}"
    assert show in public.custom_ids()
    hand = game.match.hand
    for seat, user in enumerate((world.alice, world.bob)):
        result = await fake.click(user, public, show)
        assert result.ephemeral, "the hand was shown in public"
        assert card_tokens(result.text) >= set(hand.hands[seat])
        if hand.turn == seat:  # live buttons for the player to act
            assert any(i.startswith("gin:mv:") for i in result.message.custom_ids())
    moves = table.move_count
    refused = await fake.click(world.carol, public, show)
    assert refused.ephemeral and "not playing at this table" in refused.text
    assert table.move_count == moves


def dm_hand(game: Game, seat: int) -> Message:
    assert game.table is not None
    message = game.fake.message(game.table.display["hands"][str(seat)]["message"])
    assert message is not None
    return message


def dm_cards(game: Game, seat: int) -> set[Card]:
    """The cards the player's DM hand shows them (its text, emojis read as cards)."""
    return card_tokens(dm_hand(game, seat).text)


@pytest.mark.parametrize("how", ["Show my hand", "/gin hand"])
async def test_showing_ones_hand_in_the_channel_leaves_the_cards_in_the_dm(
    world: World, bot: GinBot, how: str
) -> None:
    """Only the turn's buttons move to the private reply: the DM hand still shows every
    card (a phone player who opens their DMs finds them), says where the buttons are, and
    brings them back with Play here."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    hand = game.match.hand
    for seat in (0, 1):
        user = game.user(seat)
        if how == "/gin hand":
            shown = await fake.slash(user, world.channel, "gin hand")
        else:
            shown = await fake.click(
                user, fake.message(table.display["public"]), show_button(table)
            )
        assert shown.ephemeral and card_tokens(shown.text) >= set(hand.hands[seat])
        await settle()
        dm = dm_hand(game, seat)
        assert dm_cards(game, seat) == set(hand.hands[seat]), dm.text
        assert "latest private reply" in dm.text
        assert dm.custom_ids() == [f"gin:here:{table.id}"]
    seat = hand.turn
    back = await fake.click(game.user(seat), dm_hand(game, seat), f"gin:here:{table.id}")
    assert "Your hand is here again" in back.text
    assert any(f":{table.token(seat)}:" in c for c in dm_hand(game, seat).custom_ids())


async def test_a_dm_hand_played_from_the_channel_keeps_showing_the_cards_between_turns(
    world: World, bot: GinBot
) -> None:
    """Both play by slash command: a DM hand shows the cards held between turns (mid-turn,
    those held before the draw), edited by its own player's discard only."""
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob, target=500)
    for seat in (0, 1):
        await game.fake.slash(game.user(seat), world.channel, "gin hand")
    await settle()
    number = game.match.hand_number
    discards = 0
    while discards < 6:
        before = {seat: len(dm_hand(game, seat).versions) for seat in (0, 1)}
        action = quiet_move(game.match.hand)
        await game.command(action)
        await settle()
        assert game.match.hand_number == number
        hand = game.match.hand
        for seat in (0, 1):
            assert dm_cards(game, seat) == set(resting_cards(hand, seat)), dm_hand(game, seat).text
            assert "latest private reply" in dm_hand(game, seat).text
        waiting = 1 - action.seat
        assert len(dm_hand(game, waiting).versions) == before[waiting]
        if action.kind is ActionKind.DISCARD:
            discards += 1
        else:
            assert len(dm_hand(game, action.seat).versions) <= before[action.seat] + 1
    assert table.move_count >= 12

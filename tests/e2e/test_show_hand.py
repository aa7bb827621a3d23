"""The public table's Show my hand button: a player's hand privately, with live buttons."""

from __future__ import annotations

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import card_tokens, settle, start_game


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

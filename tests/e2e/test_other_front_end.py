"""A change asked for through another front end (a web page, say) reaches Discord as news:
the table service tells it, and the screens show it as they show a move made here."""

from __future__ import annotations

import random

from bot.client import GinBot
from bot.gin.hand import ActionKind
from tests.e2e.conftest import World
from tests.e2e.driver import Game
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

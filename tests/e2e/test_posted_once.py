"""A showdown, a hand's table and a hand's DM are posted once, even when the bot stopped after
posting them and before saving their ids: after the restart it looks before posting again.

The stop is made exact by writing back the messages' ids as they were before the hand ended,
which is what the database holds when the process dies between the post and the save. One run
lets Discord forget the posts' nonces first, so only the bot's own check can prevent repeats.
"""

from __future__ import annotations

import copy
import json
import random
import sqlite3

import pytest

from bot.gin.hand import Action, ActionKind
from tests.e2e.conftest import World, start_bot
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import settle
from tests.fakediscord import FakeDiscord, Message, patch_discord
from tests.fakediscord import store as fake_store
from tests.gin.players import choose


def ends_the_hand(game: Game, action: Action) -> bool:
    hand = game.match.hand
    if action.kind in (ActionKind.KNOCK, ActionKind.BIG_GIN):
        return True
    return action.kind is ActionKind.DISCARD and len(hand.stock) <= hand.settings.void_stock


def titled(fake: FakeDiscord, channel_id: int, start: str, end: str = "") -> list[Message]:
    return [
        m
        for m in fake.store.messages.values()
        if m.channel_id == channel_id
        and not m.deleted
        and not m.ephemeral
        and m.embeds
        and str(m.embeds[0].get("title", "")).startswith(start)
        and str(m.embeds[0].get("title", "")).endswith(end)
    ]


@pytest.mark.parametrize("nonce_remembered", [True, False])
async def test_posts_are_not_repeated_after_a_stop_before_their_ids_were_saved(
    world: World, monkeypatch: pytest.MonkeyPatch, nonce_remembered: bool
) -> None:
    fake = world.fake
    with patch_discord(fake.http_base, fake.gateway_url):
        bot, task = await start_bot(world)
        game = Game(world, bot)
        table = await game.start(world.alice, world.bob)
        rng = random.Random(11)
        for _ in range(400):
            action = choose(game.match.hand, "knocker", rng)
            if ends_the_hand(game, action):
                break
            await game.command(action)
        else:
            raise AssertionError("no hand ended")
        await settle()
        before = copy.deepcopy(table.display)  # the ids as saved before the hand ended
        number = game.match.hand_number
        await game.command(action)
        await fake.wait_for(
            lambda: table.display.get("public_hand") == number + 1, what="the next hand's table"
        )
        await settle()
        table_id = table.id
        await bot.close()
        await task
        with sqlite3.connect(world.db_path) as db:
            db.execute(
                "UPDATE matches SET display = ? WHERE id = ?", (json.dumps(before), table_id)
            )
        if not nonce_remembered:
            monkeypatch.setattr(fake_store, "NONCE_SECONDS", 0.0)

        bot, task = await start_bot(world)
        restored = bot.service.by_id(table_id)
        assert restored is not None

        def caught_up() -> bool:
            shown = restored.display
            hands = shown.get("hands", {})
            return (
                shown.get("shown_hands") == number
                and shown.get("public_hand") == number + 1
                and all(hands.get(str(s), {}).get("hand") == number + 1 for s in (0, 1))
            )

        await fake.wait_for(caught_up, what="the display to catch up after the restart")
        await settle()
        channel = world.channel.id
        assert len(titled(fake, channel, f"Hand {number}:")) == 1, "the showdown was repeated"
        tables = titled(fake, channel, "Gin Rummy ·", f"· hand {number + 1}")
        assert len(tables) == 1, "the next hand's table was repeated"
        assert restored.display["public"] == tables[0].id
        for user in (world.alice, world.bob):
            dms = titled(fake, fake.dm_channel(user).id, "Your hand", f"hand {number + 1}")
            assert len(dms) == 1, f"{user.username}'s new hand was sent twice"
        await bot.close()
        await task

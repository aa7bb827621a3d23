"""The bot process is killed mid-hand in every mode of more than two and started again on the
same database: every board goes on exactly where it was, by the DM buttons sent before."""

from __future__ import annotations

import random
import signal

import pytest

from bot.gin.hand import Action, ActionKind
from bot.gin.match import Match
from bot.tables.model import TOKEN_HAND
from tests.e2e.conftest import World
from tests.e2e.driver import play_card
from tests.e2e.modes_driver import people
from tests.e2e.test_restart import bot_process, move_log, stored
from tests.fakediscord import InteractionResult, Message, User
from tests.gin.players import choose

KINDS = {
    ActionKind.DRAW_STOCK: "stock",
    ActionKind.DRAW_DISCARD: "take",
    ActionKind.PASS: "pass",
}


async def command(
    world: World, users: dict[str, User], match: Match, action: Action
) -> InteractionResult:
    user = users[match.players[action.seat].id]
    fake, channel = world.fake, world.channel
    if action.kind is ActionKind.PASS:
        return await fake.slash(user, channel, "gin pass")
    if action.kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
        source = "stock" if action.kind is ActionKind.DRAW_STOCK else "discard"
        return await fake.slash(user, channel, "gin draw", source=source)
    verb = "gin discard" if action.kind is ActionKind.DISCARD else "gin knock"
    return await fake.slash(user, channel, verb, card=str(action.card))


def next_action(match: Match, rng: random.Random) -> Action:
    seat = rng.choice(match.to_act())
    board = match.board_of(seat)
    assert board is not None
    return choose(board, "hunter", rng)


@pytest.mark.parametrize(("mode", "count"), [("three", 3), ("teams", 4), ("elimination", 4)])
async def test_sigkill_mid_hand_then_every_board_goes_on(
    world: World, mode: str, count: int
) -> None:
    fake = world.fake
    users = people(world, count)
    by_id = {str(u.id): u for u in users}
    rng = random.Random(count)
    with bot_process(world) as first:
        await fake.wait_until_connected(timeout=30)
        await fake.wait_for_command("gin", world.guild, timeout=30)
        options = {"players": count} if mode == "elimination" else {}
        opened = await fake.slash(users[0], world.channel, "gin open", mode=mode, **options)
        assert "⚠️" not in opened.text, opened.text
        for user in users[1:]:
            joined = await fake.slash(user, world.channel, "gin join")
            assert "⚠️" not in joined.text, joined.text
        made = 0
        while made < 7:
            _, match, moves = stored(world)
            assert moves == made
            reply = await command(world, by_id, match, next_action(match, rng))
            assert reply.ephemeral and "⚠️" not in reply.text, reply.text
            made += 1
        before_kill = stored(world)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        await fake.wait_for(
            lambda: fake.gateway.session_for(None) is None,
            timeout=10,
            what="the killed bot's gateway session to drop",
        )

    table_id, match, count_before = stored(world)
    assert (count_before, match.to_dict()) == (before_kill[2], before_kill[1].to_dict())
    assert match.mode_name == mode

    with bot_process(world):
        await fake.wait_until_connected(timeout=30)
        for seat in match.to_act():  # each board's player to act: their old DM buttons work
            board = match.board_of(seat)
            assert board is not None
            token = match.hand_number * TOKEN_HAND + len(board.actions)
            user = by_id[match.players[seat].id]
            marks = (f"gin:mv:{table_id}:{token}:", f"gin:sel:{table_id}:{token}:")

            def panel(user: User = user, marks: tuple[str, str] = marks) -> Message | None:
                for message in reversed(fake.dm_messages(user)):
                    if any(c.startswith(marks) for c in message.custom_ids()):
                        return message
                return None

            message = await fake.wait_for(panel, timeout=10, what="the DM hand buttons")
            action = choose(board, "hunter", rng)
            if action.kind in KINDS:
                clicked = await fake.click(
                    user, message, f"gin:mv:{table_id}:{token}:{KINDS[action.kind]}"
                )
            else:
                clicked = await play_card(fake, user, message, table_id, token, action)
            assert "⚠️" not in clicked.text, clicked.text
            _, match, moves = stored(world)
        assert moves > count_before
        assert move_log(world, table_id) == list(range(1, moves + 1))
        _, match, _ = stored(world)
        reply = await command(world, by_id, match, next_action(match, rng))
        assert "⚠️" not in reply.text, reply.text

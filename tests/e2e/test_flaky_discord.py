"""A Discord that fails the way the real one does: a committed move always reaches every screen.

The answer to a move can fail (400), keep failing (500 until the interaction expires), wait for
a long 429, or arrive too late (10062); a screen update can get a 503 or a burst of 429s. In each
case the move counts once, the mover's own hand and the next player's buttons catch up within
seconds while nobody moves, and no message says nothing changed.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from bot.client import GinBot
from bot.gin.hand import Action, ActionKind, Phase
from bot.tables import Table
from tests.e2e.conftest import World, looked_away, screens_of
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import advance, cards_as_text, quiet_move, settle, start_game
from tests.fakediscord import FakeDiscord, Message
from tests.gin.players import choose

CALLBACK = "/callback"
FAULTS = {
    "400": {"status": 400, "code": 50035},
    "500 until the token expires": {"status": 500, "code": 0, "count": FakeDiscord.FOREVER},
    "late interaction (10062)": {"status": 404, "code": 10062},
}


def dm_hand(fake: FakeDiscord, table: Table, seat: int) -> Message:
    entry = table.display["hands"][str(seat)]
    return fake.message(entry["message"])


def never_said_nothing_changed(fake: FakeDiscord) -> None:
    said = [m.text for m in fake.all_bot_messages() if "nothing was changed" in m.text.lower()]
    assert not said, f"a reply said nothing changed after a move was made: {said}"


def turn_by_dm(bot: GinBot, table: Table, seat: int) -> None:
    """As if the player's last move was on their DM hand, whose edit then carries their turn
    (after a move by command, the turn comes on its private reply instead)."""
    screens_of(bot).answering(table, seat, command=False)


async def discard_position(game: Game) -> tuple[int, Action]:
    """Play quiet moves until someone is to discard; their seat and a quiet discard."""
    await advance(game, lambda m: m.hand.phase is Phase.DISCARD)
    await settle()
    action = quiet_move(game.match.hand)
    assert action.kind is ActionKind.DISCARD
    # The position was reached by command: the mover's DM hand is brought up to date the
    # way a person coming back to it does (pressing it), before any fault is planned.
    assert game.table is not None
    if str(action.seat) in game.table.display.get("hands", {}):  # DMs open
        await game.wait_for_buttons(action.seat, dm_only=True)
    return action.seat, action


async def make_move_without_answer(game: Game, action: Action, via: str) -> None:
    """Send the move; its answer is meant to fail, so nothing waits for it."""
    assert game.table is not None and action.card is not None
    fake, user = game.fake, game.user(action.seat)
    if via == "command":
        await fake.slash(user, game.channel, "gin discard", card=str(action.card), wait=False)
        return
    message = await game.wait_for_buttons(action.seat)
    custom_id = f"gin:sel:{game.table.id}:{game.table.token(action.seat)}:discard"
    await fake.select(user, message, custom_id, [str(int(action.card))], wait=False)


async def assert_move_shown(game: Game, action: Action, moves_before: int) -> None:
    """The move counted once, the mover's DM shows it, the next player has live buttons."""
    assert game.table is not None
    table, fake = game.table, game.fake
    await fake.wait_for(lambda: table.move_count == moves_before + 1, what="the move to commit")
    logged = await game.bot.store.moves(table.id)
    assert len(logged) == moves_before + 1, "the move was stored more or less than once"
    note = f"You discarded {action.card}."
    await fake.wait_for(
        lambda: note in cards_as_text(dm_hand(fake, table, action.seat).text),
        timeout=6,
        what="the mover's DM hand to show their discard",
    )
    await game.wait_for_buttons(1 - action.seat)
    assert table.move_count == moves_before + 1


@pytest.mark.parametrize("via", ["command", "button"])
@pytest.mark.parametrize("fault", list(FAULTS))
async def test_a_failed_answer_still_shows_the_move(
    world: World, bot: GinBot, fault: str, via: str
) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    _, action = await discard_position(game)
    moves_before = table.move_count
    options: dict[str, Any] = dict(FAULTS[fault])
    rule = fake.inject_fault("POST", CALLBACK, **options)
    await make_move_without_answer(game, action, via)
    await assert_move_shown(game, action, moves_before)
    assert rule.hits >= 1, "the answer never reached the failing Discord"
    rule.stop()
    never_said_nothing_changed(fake)


@pytest.mark.parametrize("via", ["command", "button"])
async def test_an_answer_stuck_behind_a_long_429_still_shows_the_move(
    world: World, bot: GinBot, via: str
) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    _, action = await discard_position(game)
    moves_before = table.move_count
    rule = fake.inject_rate_limit("POST", CALLBACK, retry_after=8.0)
    await make_move_without_answer(game, action, via)
    await assert_move_shown(game, action, moves_before)
    assert rule.hits == 1
    never_said_nothing_changed(fake)


async def test_one_503_on_the_next_players_buttons_is_mended(world: World, bot: GinBot) -> None:
    """A player who is watching has their hand edited in place: one failed edit is mended."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    seat, action = await discard_position(game)
    waiting = dm_hand(fake, table, 1 - seat)
    screens_of(bot).acted(table, 1 - seat)
    turn_by_dm(bot, table, 1 - seat)
    rule = fake.inject_fault("PATCH", f"/messages/{waiting.id}", status=503)
    result = await game.button(action)
    assert "⚠️" not in result.text, result.text
    mended = await game.wait_for_buttons(1 - seat)  # nobody moves: the display mends itself
    assert rule.hits == 1
    assert mended.id == waiting.id


async def test_one_503_on_the_next_players_turn_alert_is_mended(world: World, bot: GinBot) -> None:
    """A player who looked away gets their hand afresh as the turn's alert: one failed
    send is sent again, and the older copy goes once the new one is there."""
    looked_away(bot)
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    seat, action = await discard_position(game)
    waiting = dm_hand(fake, table, 1 - seat)
    dm_channel = waiting.channel_id
    rule = fake.inject_fault("POST", f"/channels/{dm_channel}/messages", status=503)
    result = await game.button(action)
    assert "⚠️" not in result.text, result.text
    alert = await game.wait_for_buttons(1 - seat)  # nobody moves: the display mends itself
    assert rule.hits == 1
    assert alert.id != waiting.id and "🃏 Your turn" in alert.content
    await fake.wait_for(lambda: waiting.deleted, what="the older copy of the hand to go")


async def test_a_burst_of_429s_on_one_route_is_waited_out(world: World, bot: GinBot) -> None:
    """discord.py gives up after five 429s in a row; the display tries again later."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    seat, action = await discard_position(game)
    waiting = dm_hand(fake, table, 1 - seat)
    turn_by_dm(bot, table, 1 - seat)
    rule = fake.inject_rate_limit("PATCH", f"/messages/{waiting.id}", count=7, retry_after=0.05)
    result = await game.button(action)
    assert "⚠️" not in result.text, result.text
    await game.wait_for_buttons(1 - seat)
    assert rule.hits == 7


def ends_the_hand(game: Game, action: Action) -> bool:
    hand = game.match.hand
    if action.kind in (ActionKind.KNOCK, ActionKind.BIG_GIN):
        return True
    return action.kind is ActionKind.DISCARD and len(hand.stock) <= hand.settings.void_stock


async def test_one_503_on_each_new_hand_dm_is_mended(world: World, bot: GinBot) -> None:
    import random

    from tests.gin.players import choose

    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    rng = random.Random(7)
    rules = []
    for _ in range(400):
        action = choose(game.match.hand, "knocker", rng)
        if ends_the_hand(game, action):
            await settle()
            for user in (world.alice, world.bob):
                dm = fake.dm_channel(user)
                rules.append(fake.inject_fault("POST", f"/channels/{dm.id}/messages", status=503))
            number = game.match.hand_number
            result = await game.button(action)
            assert "⚠️" not in result.text, result.text
            break
        result = await game.button(action)
        assert "⚠️" not in result.text, result.text
    else:
        raise AssertionError("no hand ended")
    if game.match.is_over:
        pytest.skip("the first hand ended the match")  # cannot happen at target 100

    def dealt() -> bool:
        hands = table.display.get("hands", {})
        return all(hands.get(str(s), {}).get("hand") == number + 1 for s in (0, 1))

    await fake.wait_for(dealt, timeout=8, what="both players' new hands by DM")
    assert [r.hits for r in rules] == [1, 1]
    for seat in (0, 1):
        hand = dm_hand(fake, table, seat)
        assert f"hand {number + 1}" in hand.text
    await game.wait_for_buttons(game.match.hand.turn)


async def play_to_a_hands_end(game: Game, seed: int) -> Action:
    """Play by the buttons until the next move would end the hand; that move."""
    import random

    from tests.gin.players import choose

    rng = random.Random(seed)
    for _ in range(400):
        action = choose(game.match.hand, "knocker", rng)
        if ends_the_hand(game, action):
            await settle()
            return action
        result = await game.button(action)
        assert "⚠️" not in result.text, result.text
    raise AssertionError("no hand ended")


async def test_new_hand_dms_that_discord_retries_are_sent_side_by_side(
    world: World, bot: GinBot
) -> None:
    """Each player's new hand gets three 500s, which discord.py waits out (seconds, each
    time): the second player's DM is tried while the first one's is still being retried,
    not after it landed."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob, target=500)
    action = await play_to_a_hands_end(game, seed=7)
    number = game.match.hand_number
    rules = [
        fake.inject_fault(
            "POST", f"/channels/{fake.dm_channel(user).id}/messages", status=500, count=3
        )
        for user in (world.alice, world.bob)
    ]
    result = await game.button(action)
    assert "⚠️" not in result.text, result.text

    def landed() -> list[bool]:
        hands = table.display.get("hands", {})
        return [hands.get(str(seat), {}).get("hand") == number + 1 for seat in (0, 1)]

    await fake.wait_for(lambda: all(rule.hits for rule in rules), what="both DMs tried")
    assert not any(landed()), "one player's DM waited for the other's to land"
    await fake.wait_for(lambda: all(landed()), timeout=30, what="both new hands by DM")
    assert [rule.hits for rule in rules] == [3, 3]


async def test_screens_catch_up_within_seconds_of_a_few_seconds_of_503s(
    world: World, bot: GinBot
) -> None:
    """Every message post and edit fails with a 503 for four seconds while the players go
    on by slash command (their replies still work) and the hand ends: once Discord answers
    again, both players' new hands come by DM (not given up for the channel) and the new
    hand's table is in the channel within seconds, however many syncs failed meanwhile."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob, target=500)
    rng = random.Random(5)
    number = game.match.hand_number
    down = [
        fake.inject_fault(method, "/channels/", status=503, count=FakeDiscord.FOREVER)
        for method in ("POST", "PATCH")
    ]
    start = time.monotonic()
    while game.match.hand_number == number:
        action = choose(game.match.hand, "knocker", rng)
        if time.monotonic() - start < 3.0 and ends_the_hand(game, action):
            action = quiet_move(game.match.hand)
        result = await game.command(action)
        assert "⚠️" not in result.text, result.text
    await fake.wait_for(lambda: time.monotonic() - start > 4.0, what="four seconds of 503s")
    failed = sum(rule.hits for rule in down)
    for rule in down:
        rule.stop()
    ended = time.monotonic()

    def caught_up() -> bool:
        shown = table.display
        hands = shown.get("hands", {})
        dealt = all(hands.get(str(seat), {}).get("hand") == number + 1 for seat in (0, 1))
        return dealt and shown.get("public_hand") == number + 1

    await fake.wait_for(caught_up, timeout=60, what="the new hand's DMs and table")
    took = time.monotonic() - ended
    assert failed >= 4, failed
    assert took < 6.0, f"the screens caught up {took:.1f} s after the faults ended"
    assert not table.display.get("dm_closed"), "a DM was given up for the channel"


async def test_a_failed_answer_updates_the_latest_private_reply_when_dms_are_closed(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    game = Game(world, bot)
    fake.close_dms(world.alice)
    fake.close_dms(world.bob)
    table = await start_game(game, world.alice, world.bob)
    _, action = await discard_position(game)
    user = game.user(action.seat)
    shown = await fake.slash(user, game.channel, "gin hand")
    assert shown.ephemeral and shown.message is not None
    moves_before = table.move_count
    rule = fake.inject_fault("POST", CALLBACK, status=404, code=10062)
    await make_move_without_answer(game, action, "command")
    await fake.wait_for(lambda: table.move_count == moves_before + 1, what="the move")
    reply = shown.message
    await fake.wait_for(
        lambda: f"You discarded {action.card}." in cards_as_text(fake.message(reply.id).text),
        timeout=6,
        what="the latest private reply to show the discard",
    )
    assert rule.hits == 1
    never_said_nothing_changed(fake)


async def test_a_hand_that_cannot_be_sent_by_dm_falls_back_to_the_channel(
    world: World, bot: GinBot
) -> None:
    """A DM channel that keeps failing (503 on every send): after a few tries over 15 s (a
    shorter failure only delays the DM) the player is mentioned in the channel and plays
    through `/gin hand`."""
    fake = world.fake
    dm = fake.dm_channel(world.bob)
    rule = fake.inject_fault(
        "POST", f"/channels/{dm.id}/messages", status=503, count=FakeDiscord.FOREVER
    )
    game = Game(world, bot)
    result = await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob)
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None and result.message is not None
    await fake.click(world.bob, result.message, f"gin:ch:{table.id}:accept")
    game.table = table
    game.users = {str(world.alice.id): world.alice, str(world.bob.id): world.bob}

    def told_in_channel() -> bool:
        return any(
            world.bob.mention in m.content and "/gin hand" in m.text
            for m in fake.channel_messages(world.channel)
        )

    await fake.wait_for(told_in_channel, timeout=40, what="bob to be told in the channel")
    seat = table.seat_of(str(world.bob.id))
    assert table.display["dm_closed"][str(seat)] == game.match.hand_number
    assert rule.hits >= 3
    shown = await fake.slash(world.bob, world.channel, "gin hand")
    assert shown.ephemeral and "Your hand" in shown.text
    rule.stop()


async def test_a_slow_move_is_deferred_in_time_and_answered_after(
    world: World, bot: GinBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A handler that takes longer than Discord's 3 s: the watchdog defers the click in time,
    and the move's answer then edits the hand message through the interaction."""
    import asyncio

    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    seat, action = await discard_position(game)
    play = bot.service.play

    async def slow_play(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(2.5)
        return await play(*args, **kwargs)

    monkeypatch.setattr(bot.service, "play", slow_play)
    result = await game.button(action)
    assert result.type == 6 and result.latency is not None and result.latency < 3.0
    await fake.wait_for(
        lambda: f"You discarded {action.card}." in cards_as_text(dm_hand(fake, table, seat).text),
        timeout=6,
        what="the deferred answer",
    )
    await game.wait_for_buttons(1 - seat)
    never_said_nothing_changed(fake)

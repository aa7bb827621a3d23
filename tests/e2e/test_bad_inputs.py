"""Every bad input gets a private, clear answer that says what to do instead, and changes nothing.

"Changes nothing" is checked on the table (the whole match state and the move counter) and on
every non-ephemeral message in channels and DMs (none created, none edited).
"""

from __future__ import annotations

import asyncio

from bot.client import GinBot
from bot.gin.hand import Action, ActionKind, Phase
from bot.gin.melds import min_deadwood
from bot.tables import Status, Table
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import (
    Snapshot,
    advance,
    assert_refused,
    capture,
    card_not_held,
    far_from_knock,
    refuse,
    settle,
    start_game,
)
from tests.fakediscord import FakeDiscord, InteractionResult, Message, payload_text
from tests.fakediscord.models import iter_components


async def test_wrong_turn(world: World, bot: GinBot) -> None:
    """The player who is not to act is told whose turn it is and to wait for it."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    hand = game.match.hand
    waiting = 1 - hand.turn
    mover = table.players[hand.turn].name
    held = hand.hands[waiting][0]
    attempts = [
        Action(ActionKind.PASS, waiting),
        Action(ActionKind.DRAW_STOCK, waiting),
        Action(ActionKind.DRAW_DISCARD, waiting),
        Action(ActionKind.DISCARD, waiting, held),
        Action(ActionKind.KNOCK, waiting, held),
    ]
    texts = [await refuse(fake, table, game.command(action), mover) for action in attempts]
    vague = [text for text in texts if "wait" not in text.lower()]
    assert not vague, f"these refusals should say to wait for your turn: {vague}"


async def test_card_not_in_hand(world: World, bot: GinBot) -> None:
    """Naming a card you don't hold is refused, names the card and points at your hand."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    await advance(game, lambda m: m.hand.phase is Phase.DISCARD)
    hand = game.match.hand
    seat = hand.turn
    missing = card_not_held(hand, seat)
    texts = [
        await refuse(fake, table, game.command(Action(kind, seat, missing)), str(missing))
        for kind in (ActionKind.DISCARD, ActionKind.KNOCK)
    ]
    vague = [text for text in texts if "/gin hand" not in text and "your hand" not in text]
    assert not vague, f"these refusals should point at the cards you do hold: {vague}"


async def test_unreadable_cards(world: World, bot: GinBot) -> None:
    """Text that is not a card gets the card format explained, with examples."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    await advance(game, lambda m: m.hand.phase is Phase.DISCARD)
    user = game.user(game.match.hand.turn)
    for command in ("gin discard", "gin knock"):
        for typed in ("zz", "11h", "7x", "ace of spades", "♥"):
            attempt = fake.slash(user, world.channel, command, card=typed)
            await refuse(fake, table, attempt, typed, "not a card", "10♥")


async def test_knock_above_the_limit(world: World, bot: GinBot) -> None:
    """Knocking with too much deadwood names the deadwood it would leave and the limit."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    await advance(
        game,
        lambda m: m.hand.phase is Phase.DISCARD and far_from_knock(m.hand) is not None,
    )
    hand = game.match.hand
    card = far_from_knock(hand)
    assert card is not None
    left = min_deadwood([c for c in hand.hands[hand.turn] if c != card])
    limit = str(hand.settings.knock_limit)
    action = Action(ActionKind.KNOCK, hand.turn, card)
    await refuse(fake, table, game.command(action), str(left), limit, str(card))


async def test_discarding_the_card_just_taken(world: World, bot: GinBot) -> None:
    """The upcard just taken can't go straight back; the answer says to pick another card,
    and the DM menus never offer it."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    hand = game.match.hand
    seat = hand.turn
    upcard = hand.upcard
    assert upcard is not None
    taken = await game.command(Action(ActionKind.DRAW_DISCARD, seat))
    assert "⚠️" not in taken.text
    panel = await game.wait_for_buttons(seat)
    offered = {
        option["value"]
        for component in iter_components(panel.components)
        for option in component.get("options") or []
    }
    assert str(int(upcard)) not in offered, "the DM menus offer the card just taken"
    texts = [
        await refuse(fake, table, game.command(Action(kind, seat, upcard)), str(upcard))
        for kind in (ActionKind.DISCARD, ActionKind.KNOCK)
    ]
    words = ("another", "different", "other card")
    vague = [text for text in texts if not any(word in text.lower() for word in words)]
    assert not vague, f"these refusals should say to discard a different card: {vague}"


async def test_pass_after_the_upcard(world: World, bot: GinBot) -> None:
    """Passing is only for the upcard; later the answer says what the turn needs instead."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    await advance(game, lambda m: m.hand.phase is Phase.DRAW)
    seat = game.match.hand.turn
    drawing = await refuse(fake, table, game.command(Action(ActionKind.PASS, seat)), "pass")
    await game.command(Action(ActionKind.DRAW_STOCK, seat))
    holding = await refuse(fake, table, game.command(Action(ActionKind.PASS, seat)), "pass")
    assert "draw" in drawing.lower(), f"before drawing it should say to draw: {drawing!r}"
    assert "discard" in holding.lower(), f"after drawing it should say to discard: {holding!r}"


async def test_drawing_twice(world: World, bot: GinBot) -> None:
    """A second draw in one turn is refused with what to do instead."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    await advance(game, lambda m: m.hand.phase is Phase.DRAW and not m.hand.stock_only)
    seat = game.match.hand.turn
    await game.command(Action(ActionKind.DRAW_STOCK, seat))
    for kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
        await refuse(fake, table, game.command(Action(kind, seat)), "already", "discard")


async def test_big_gin_without_a_card(world: World, bot: GinBot) -> None:
    """`/gin knock` with no card when the hand is not Big Gin explains how to knock instead."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    await advance(game, lambda m: m.hand.phase is Phase.DISCARD)
    user = game.user(game.match.hand.turn)
    text = await refuse(fake, table, fake.slash(user, world.channel, "gin knock"), "Big Gin")
    assert "card:" in text or "name the card" in text.lower() or "which card" in text.lower(), (
        f"the refusal should say to name the card to knock with: {text!r}"
    )


async def test_outsider_cannot_act(world: World, bot: GinBot) -> None:
    """Carol is not seated: every move, /gin hand, /gin resign and answering a challenge that
    no longer exists are refused, each with a way on."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    carol, channel = world.carol, world.channel
    some_card = str(game.match.hand.hands[0][0])
    moves = [
        fake.slash(carol, channel, "gin pass"),
        fake.slash(carol, channel, "gin draw", source="stock"),
        fake.slash(carol, channel, "gin draw", source="discard"),
        fake.slash(carol, channel, "gin discard", card=some_card),
        fake.slash(carol, channel, "gin knock", card=some_card),
        fake.slash(carol, channel, "gin knock"),
        fake.slash(carol, channel, "gin resign"),
    ]
    for attempt in moves:
        await refuse(fake, table, attempt, "not playing", "/gin challenge")
    vague = []
    for command in ("gin accept", "gin decline"):
        text = await refuse(fake, table, fake.slash(carol, channel, command))
        if "/gin challenge" not in text:
            vague.append(text)
    text = await refuse(fake, table, fake.slash(carol, channel, "gin hand"), "not playing")
    if "/gin table" not in text and "/gin challenge" not in text:
        vague.append(text)
    assert not vague, f"these refusals don't say what a spectator can do instead: {vague}"


async def test_no_table_in_channel(world: World, bot: GinBot) -> None:
    """Every table command in a channel without a table says how to start one."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    empty = fake.add_channel(world.guild, "lobby")
    for user in (world.alice, world.carol):
        attempts = [
            fake.slash(user, empty, "gin pass"),
            fake.slash(user, empty, "gin draw", source="stock"),
            fake.slash(user, empty, "gin draw", source="discard"),
            fake.slash(user, empty, "gin discard", card="7h"),
            fake.slash(user, empty, "gin knock", card="7h"),
            fake.slash(user, empty, "gin knock"),
            fake.slash(user, empty, "gin hand"),
            fake.slash(user, empty, "gin table"),
            fake.slash(user, empty, "gin resign"),
            fake.slash(user, empty, "gin accept"),
            fake.slash(user, empty, "gin decline"),
        ]
        for attempt in attempts:
            await refuse(fake, table, attempt, "no game", "/gin challenge")
    assert bot.service.in_channel(str(empty.id)) is None


async def test_challenge_refusals(world: World, bot: GinBot) -> None:
    """Challenging yourself, another bot, or in a busy channel is refused and opens nothing.

    (Challenging the Gin bot itself starts a match against it: see test_vs_bot.py.)
    """
    fake = world.fake
    robot = fake.add_user("robot", bot=True)
    fake.add_member(world.guild, robot)
    other = fake.add_channel(world.guild, "side")
    alice, bob, carol = world.alice, world.bob, world.carol

    await refuse(fake, None, fake.slash(alice, other, "gin challenge", opponent=alice), "yourself")
    attempt = fake.slash(alice, other, "gin challenge", opponent=robot)
    await refuse(fake, None, attempt, "bot", "person")
    assert bot.service.in_channel(str(other.id)) is None

    opened = await fake.slash(alice, world.channel, "gin challenge", opponent=bob)
    assert not opened.ephemeral
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None
    busy = fake.slash(carol, world.channel, "gin challenge", opponent=bob)
    await refuse(fake, table, busy, "already", "another channel")
    await fake.click(bob, opened.message, f"gin:ch:{table.id}:accept")
    await settle()
    busy = fake.slash(carol, world.channel, "gin challenge", opponent=alice)
    await refuse(fake, table, busy, "already", "another channel")
    assert bot.service.in_channel(str(world.channel.id)) is table


async def test_wrong_person_answers_the_challenge(world: World, bot: GinBot) -> None:
    """Only the challenged player accepts; the challenger may only withdraw; others are told."""
    fake = world.fake
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    opened = await fake.slash(alice, channel, "gin challenge", opponent=bob)
    table = bot.service.in_channel(str(channel.id))
    assert table is not None
    message = opened.message
    assert message is not None
    accept, decline = f"gin:ch:{table.id}:accept", f"gin:ch:{table.id}:decline"

    text = await refuse(fake, table, fake.click(alice, message, accept), "own challenge", "Bob")
    assert "wait" in text.lower()
    await refuse(fake, table, fake.slash(alice, channel, "gin accept"), "own challenge", "wait")
    await refuse(fake, table, fake.click(carol, message, decline), "Bob")
    await refuse(fake, table, fake.slash(carol, channel, "gin decline"), "Bob")
    texts = [
        await refuse(fake, table, attempt, "Bob")
        for attempt in (
            fake.click(carol, message, accept),
            fake.slash(carol, channel, "gin accept"),
        )
    ]
    assert table.status is Status.CHALLENGE

    accepted = await fake.click(bob, message, accept)
    assert "accepted" in accepted.text.lower()
    assert table.status is Status.PLAYING
    vague = [text for text in texts if "/gin challenge" not in text]
    assert not vague, f"a bystander should be told to start their own game: {vague}"


async def test_resign_before_the_challenge_is_answered(world: World, bot: GinBot) -> None:
    """Resigning an unanswered challenge is refused and says how to withdraw it."""
    fake = world.fake
    await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob)
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None
    attempt = fake.slash(world.alice, world.channel, "gin resign")
    await refuse(fake, table, attempt, "accepted", "/gin decline")


async def test_stale_buttons(world: World, bot: GinBot) -> None:
    """A button from an earlier move does nothing, even when it is that player's turn again
    (a double click, or a client that had not seen the edit yet): the message it is on
    becomes the hand as it is now, saying so."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    seat = game.match.hand.turn
    user = game.user(seat)
    hand = await game.wait_for_buttons(seat)
    take = f"gin:mv:{table.id}:{table.token(seat)}:take"
    pass_ = f"gin:mv:{table.id}:{table.token(seat)}:pass"
    assert take in hand.custom_ids() and pass_ in hand.custom_ids()

    passed = await fake.click(user, hand, pass_)
    assert "⚠️" not in passed.text, passed.text
    await settle()
    before = await capture(fake, table)
    result = await fake.forge_component(user, hand, pass_)  # the same button, again
    await shows_the_hand_now(fake, table, before, result, hand)

    other = 1 - seat
    await game.button(Action(ActionKind.PASS, other))
    assert game.match.hand.turn == seat and game.match.hand.phase is Phase.DRAW
    await settle()
    before = await capture(fake, table)
    result = await fake.forge_component(user, hand, take)  # from the upcard's moment
    await shows_the_hand_now(fake, table, before, result, hand)
    now = f"gin:mv:{table.id}:{table.token(seat)}:stock"
    assert now in fake.message(hand.id).custom_ids()  # its buttons are the live ones now
    assert "⚠️" not in (await fake.click(user, fake.message(hand.id), now)).text


async def shows_the_hand_now(
    fake: FakeDiscord, table: Table, before: Snapshot, result: InteractionResult, clicked: Message
) -> None:
    """A stale button's answer: the message it was on shows the hand as it is now and says
    why; the game, and every other message, are as they were."""
    await settle()
    assert result.type == 7, f"the clicked message was not brought up to date: {result.text!r}"
    assert "earlier moment of the game" in result.text, result.text
    after = await capture(fake, table)
    assert after.state == before.state and after.move_count == before.move_count
    assert after.status == before.status
    changed = {m for m, n in after.versions.items() if before.versions.get(m) != n}
    assert changed <= {clicked.id}, f"other messages changed for a stale button: {changed}"


async def test_button_on_a_finished_match(world: World, bot: GinBot) -> None:
    """After the match ends its buttons answer that it is over and how to play again."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    seat = game.match.hand.turn
    user = game.user(seat)
    shown = await fake.slash(user, world.channel, "gin hand")
    old = shown.message
    assert old is not None
    pass_ = f"gin:mv:{table.id}:{table.token(seat)}:pass"
    resigned = await fake.slash(game.user(1 - seat), world.channel, "gin resign")
    assert "⚠️" not in resigned.text
    await settle()
    for player in (world.alice, world.bob):
        for message in fake.dm_messages(player):
            assert not message.custom_ids(), f"a finished match left buttons: {message.text!r}"
    # Its reply says the match is over, without buttons; a client that had not seen that
    # edit yet can still press one.
    assert not fake.message(old.id).custom_ids()
    text = await refuse(fake, table, fake.forge_component(user, old, pass_), "over")
    assert "/gin challenge" in text, f"the refusal should say how to play again: {text!r}"


async def test_double_click_applies_once(world: World, bot: GinBot) -> None:
    """Two clicks of one button (and two picks in one menu) at once make one move; the other
    click gets a private answer."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    await advance(game, lambda m: m.hand.phase is Phase.DRAW)
    seat = game.match.hand.turn
    user = game.user(seat)
    panel = await game.wait_for_buttons(seat)
    before = table.move_count
    stock = f"gin:mv:{table.id}:{table.token(seat)}:stock"
    results = await asyncio.gather(fake.click(user, panel, stock), fake.click(user, panel, stock))
    await _one_applied(results, table.move_count - before)
    assert len(game.match.hand.hands[seat]) == 11

    panel = await game.wait_for_buttons(seat)
    before = table.move_count
    card = str(int(game.match.hand.hands[seat][0]))
    menu = f"gin:sel:{table.id}:{table.token(seat)}:discard"
    results = await asyncio.gather(
        fake.select(user, panel, menu, [card]), fake.select(user, panel, menu, [card])
    )
    await _one_applied(results, table.move_count - before)
    assert len(game.match.hand.hands[seat]) == 10


async def _one_applied(results: tuple[InteractionResult, ...], moves: int) -> None:
    """Exactly one of the concurrent attempts moved; the other was told privately why not
    (or, a button from the moment before, its message shows the hand now and says so)."""
    await settle()
    assert moves == 1, f"{moves} moves were made by {len(results)} simultaneous attempts"
    answers = [payload_text(r.record.callback_data or {}) or r.text for r in results]
    refused = [a for a in answers if "⚠️" in a or "earlier moment" in a]
    assert len(refused) == len(results) - 1, answers
    for result, answer in zip(results, answers, strict=True):
        if answer in refused:
            assert result.ephemeral or result.type == 7, answer
            lowered = answer.lower()
            assert any(w in lowered for w in ("already", "out of date", "earlier")), lowered


async def test_command_and_button_at_once(world: World, bot: GinBot) -> None:
    """The same move sent as a command and as a DM button at once is made once."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    await advance(game, lambda m: m.hand.phase is Phase.DRAW)
    seat = game.match.hand.turn
    user = game.user(seat)
    panel = await game.wait_for_buttons(seat)
    before = table.move_count
    results = await asyncio.gather(
        fake.slash(user, world.channel, "gin draw", source="stock"),
        fake.click(user, panel, f"gin:mv:{table.id}:{table.token(seat)}:stock"),
    )
    await _one_applied(results, table.move_count - before)
    assert len(game.match.hand.hands[seat]) == 11
    snapshot = await capture(fake, table)
    assert snapshot.move_count == before + 1


async def test_refusal_keeps_working_after_it(world: World, bot: GinBot) -> None:
    """After a refused move the same player can still make a legal one."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    seat = game.match.hand.turn
    before = await capture(fake, table)
    result = await game.command(Action(ActionKind.DRAW_STOCK, seat))
    await assert_refused(fake, table, before, result, "upcard", "pass")
    done = await game.command(Action(ActionKind.PASS, seat))
    assert "⚠️" not in done.text and table.move_count == 1


async def test_double_accept_starts_one_match(world: World, bot: GinBot) -> None:
    """Two clicks on Accept at once start one match and deal once."""
    fake = world.fake
    opened = await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob)
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None and opened.message is not None
    accept = f"gin:ch:{table.id}:accept"
    results = await asyncio.gather(
        fake.click(world.bob, opened.message, accept), fake.click(world.bob, opened.message, accept)
    )
    await settle()
    assert table.status is Status.PLAYING
    refused = [r for r in results if "⚠️" in r.text]
    assert len(refused) == 1 and refused[0].ephemeral, [r.text for r in results]
    tables = [m for m in fake.channel_messages(world.channel) if "Gin Rummy ·" in m.text]
    assert len(tables) == 1, "the table was posted more than once"
    for player in (world.alice, world.bob):
        hands = [m for m in fake.dm_messages(player) if "Your hand" in m.text]
        assert len(hands) == 1, f"{player.username} got {len(hands)} hands"


async def test_two_challenges_at_once(world: World, bot: GinBot) -> None:
    """Two challenges sent at once in one channel open one table; the other is told why."""
    fake = world.fake
    results = await asyncio.gather(
        fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob),
        fake.slash(world.carol, world.channel, "gin challenge", opponent=world.bob),
    )
    await settle()
    refused = [r for r in results if "⚠️" in r.text]
    assert len(refused) == 1 and refused[0].ephemeral, [r.text for r in results]
    assert "already" in refused[0].text
    challenges = [m for m in fake.channel_messages(world.channel) if "challenges" in m.text]
    assert len(challenges) == 1


async def test_moves_before_the_challenge_is_accepted(world: World, bot: GinBot) -> None:
    """Before the deal a move is refused; the challenged player is told how to accept."""
    fake = world.fake
    await fake.slash(world.alice, world.channel, "gin challenge", opponent=world.bob)
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None
    for user in (world.alice, world.bob):
        attempt = fake.slash(user, world.channel, "gin draw", source="stock")
        text = await refuse(fake, table, attempt, "hasn't")
        if user is world.bob:
            assert "/gin accept" in text or "Accept" in text, (
                f"the challenged player should be told how to accept: {text!r}"
            )


async def test_answering_a_challenge_during_a_game(world: World, bot: GinBot) -> None:
    """/gin accept or /gin decline in the middle of a match is refused; a player who wants out
    is pointed at /gin resign."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    texts = []
    for user in (world.alice, world.bob):
        for command in ("gin accept", "gin decline"):
            texts.append(await refuse(fake, table, fake.slash(user, world.channel, command)))
    vague = [text for text in texts if "/gin resign" not in text and "already" not in text]
    assert not vague, f"these refusals don't say the game is on or how to leave it: {vague}"


async def test_discard_before_drawing(world: World, bot: GinBot) -> None:
    """Discarding before the draw (or before the upcard is settled) says what comes first."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    hand = game.match.hand
    seat = hand.turn
    card = hand.hands[seat][0]
    for kind in (ActionKind.DISCARD, ActionKind.KNOCK):
        await refuse(fake, table, game.command(Action(kind, seat, card)), "upcard", "pass")
    await advance(game, lambda m: m.hand.phase is Phase.DRAW)
    seat = game.match.hand.turn
    card = game.match.hand.hands[seat][0]
    for kind in (ActionKind.DISCARD, ActionKind.KNOCK):
        await refuse(fake, table, game.command(Action(kind, seat, card)), "draw")

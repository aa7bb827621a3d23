"""The coach through the fake Discord: Review on a player's own showdown and on a replay sends
the review by DM once, naming only the reviewer's cards and public ones (pressing again, from
anywhere, says privately it was sent); a stranger's press is refused privately; hints in a
practice match are off unless asked for, and when on, the hand shows one suggestion."""

from __future__ import annotations

import random

import pytest

from bot.client import GinBot
from bot.gin import coach as coach_rules
from bot.gin.cards import DECK, Card
from bot.gin.hand import ActionKind, Hand
from bot.gin.match import HandRecord
from bot.gin.settings import Settings
from bot.tables import Table
from tests.e2e.conftest import World, start_bot
from tests.e2e.driver import Game
from tests.fakediscord import Message, User, patch_discord
from tests.fakediscord.models import iter_components
from tests.gin.players import choose

REVIEW_TITLE = "Review of hand 1 (match #"


@pytest.fixture(autouse=True)
def quick_coach(monkeypatch: pytest.MonkeyPatch) -> None:
    """Few imagined deals per look: the same work, in a test's time (for the coach of
    every bot the test starts in its own process)."""
    monkeypatch.setattr(coach_rules, "FIRST_SAMPLES", 3)
    monkeypatch.setattr(coach_rules, "SECOND_SAMPLES", 6)


async def play_first_hand(game: Game, style: str = "random") -> None:
    """The human's moves until the first hand is over; the bot plays its own."""
    table = game.table
    assert table is not None
    rng = random.Random(4)
    while True:
        await game.fake.wait_for(
            lambda: (
                game.match.hand_number > 1
                or game.match.is_over
                or (game.match.hand.turn == 0 and not table.lock.locked())
            ),
            timeout=20,
            what="the bot to finish its turn",
        )
        if game.match.hand_number > 1 or game.match.is_over:
            return
        result = await game.button(choose(game.match.hand, style, rng))
        assert "⚠️" not in result.text, result.text


def review_button(table_id: int, number: int = 1) -> str:
    return f"gin:rv:{table_id}:{number}:0"


async def first_record(game: Game) -> HandRecord:
    assert game.table is not None
    rows = await game.bot.service.records.hands(game.table.id)
    return HandRecord.from_dict(next(r for r in rows if r.number == 1).result)


def hidden_from(record: HandRecord, seat: int) -> set[Card]:
    """Cards the seat never saw in the hand: not theirs, never face up, not shown at the
    showdown."""
    hand = Hand.deal(record.seats, record.dealer, ("A", "B"), Settings(), record.seed)
    seen: set[Card] = set(hand.discard_pile)
    for action in record.actions:
        seen |= set(hand.hands[seat])
        if action.kind is ActionKind.DISCARD and action.card is not None:
            seen.add(action.card)
        hand.apply(action)
        seen |= set(hand.discard_pile)
    seen |= set(hand.hands[seat])
    result = record.result
    for arrangement in (result.knocker_arrangement, result.defender_arrangement):
        if arrangement is not None:
            seen |= {c for meld in arrangement.melds for c in meld} | set(arrangement.deadwood)
    seen |= {card for card, _ in result.layoffs}
    return set(DECK) - seen


def assert_names_nothing_hidden(bot: GinBot, text: str, hidden: set[Card]) -> None:
    assert hidden, "the stock's last cards, at least, stay unseen"
    for card in hidden:
        assert str(card) not in text and bot.card_emojis.card(card) not in text, card


def dm_with(world: World, user: User, needle: str) -> Message | None:
    return next((m for m in world.fake.dm_messages(user) if needle in m.text), None)


async def test_review_from_the_showdown_and_the_replay_and_a_stranger_refused(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await game.practice(world.alice, "easy")
    await play_first_hand(game)
    button = review_button(table.id)

    # The showdown on Alice's DM hand offers the review of the hand.
    showdown = await fake.wait_for(
        lambda: next((m for m in fake.dm_messages(world.alice) if button in m.custom_ids()), None),
        timeout=20,
        what="the Review button on Alice's showdown",
    )
    assert "Hand 1" in showdown.text
    pressed = await fake.click(world.alice, showdown, button)
    answer = await pressed.wait_for_text("Review sent", timeout=60)
    assert pressed.ephemeral and "in your DMs" in answer
    review = await fake.wait_for(
        lambda: dm_with(world, world.alice, REVIEW_TITLE), timeout=20, what="the review by DM"
    )
    text = review.text
    assert "Hand 1, turn" in text or "Nothing to improve" in text
    assert f"match #{table.id}" in text and "hidden cards stay hidden" in text
    record = await first_record(game)
    assert_names_nothing_hidden(bot, text, hidden_from(record, 0))
    reviews = [m for m in fake.dm_messages(world.alice) if REVIEW_TITLE in m.text]
    assert len(reviews) == 1

    # Pressing it again, on the showdown or on /gin replay's hand, says privately that the
    # review was sent: it is not sent twice.
    replay = await fake.slash(world.alice, world.channel, "gin replay", match=table.id)
    assert button in replay.custom_ids, replay.custom_ids
    assert replay.message is not None
    for message in (showdown, replay.message):
        again = await fake.click(world.alice, message, button)
        said = await again.wait_for_text("Review already sent", timeout=60)
        assert again.ephemeral and "already in your DMs" in said
    reviews = [m for m in fake.dm_messages(world.alice) if REVIEW_TITLE in m.text]
    assert len(reviews) == 1

    # Bob did not play it: his replay has the button too (a replay is anyone's), but his
    # press gets a private refusal, no DM, and the replay stays as it was.
    his = await fake.slash(world.bob, world.channel, "gin replay", match=table.id)
    assert his.message is not None and button in his.custom_ids
    before = his.message.payload
    refused = await fake.click(world.bob, his.message, button)
    said = await refused.wait_for_text("⚠️")
    assert refused.ephemeral and "Only the players of that hand" in said
    assert not fake.dm_messages(world.bob)
    assert his.message.payload == before


async def test_review_pressed_twice_at_once_is_posted_once(world: World, bot: GinBot) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await game.practice(world.alice, "easy")
    await play_first_hand(game, style="knocker")
    replay = await fake.slash(world.alice, world.channel, "gin replay", match=table.id)
    assert replay.message is not None
    button = review_button(table.id)
    first = await fake.click(world.alice, replay.message, button)
    second = await fake.click(world.alice, replay.message, button)  # before the first is in
    answers = [
        await first.wait_for_text("Review", timeout=60),
        await second.wait_for_text("Review", timeout=60),
    ]
    await fake.wait_for(
        lambda: dm_with(world, world.alice, REVIEW_TITLE), timeout=60, what="the review by DM"
    )
    sent = [a for a in answers if "Review sent" in a]
    held = [a for a in answers if "on its way" in a or "already in your DMs" in a]
    assert len(sent) == 1 and len(held) == 1, answers
    assert first.ephemeral and second.ephemeral
    reviews = [m for m in fake.dm_messages(world.alice) if REVIEW_TITLE in m.text]
    assert len(reviews) == 1


async def test_review_with_closed_dms_comes_privately_in_the_channel(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await game.practice(world.alice, "easy")
    await play_first_hand(game, style="knocker")
    fake.close_dms(world.alice)
    replay = await fake.slash(world.alice, world.channel, "gin replay", match=table.id)
    assert replay.message is not None
    pressed = await fake.click(world.alice, replay.message, review_button(table.id))
    text = await pressed.wait_for_text(REVIEW_TITLE, timeout=60)
    assert pressed.ephemeral
    assert_names_nothing_hidden(bot, text, hidden_from(await first_record(game), 0))


async def test_a_forged_review_button_is_refused(world: World, bot: GinBot) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await game.practice(world.alice, "easy")
    await play_first_hand(game, style="knocker")
    replay = await fake.slash(world.alice, world.channel, "gin replay", match=table.id)
    assert replay.message is not None
    forged = await fake.forge_component(world.alice, replay.message, review_button(table.id, 99))
    said = await forged.wait_for_text("⚠️")
    assert forged.ephemeral and "can't find that hand" in said
    unreadable = await fake.forge_component(world.alice, replay.message, "gin:rv:1:x:7")
    assert "isn't one I can use" in await unreadable.wait_for_text("⚠️")
    assert not [m for m in fake.dm_messages(world.alice) if REVIEW_TITLE in m.text]


async def practice_with(game: Game, player: User, **options: object) -> Table:
    """`/gin practice` with options, as the driver's ``practice`` does without them."""
    fake = game.fake
    result = await fake.slash(player, game.channel, "gin practice", level="easy", **options)
    assert not result.ephemeral and "⚠️" not in result.text, result.text
    table = game.bot.service.in_channel(str(game.channel.id))
    assert table is not None and table.vs_bot
    game.table = table
    game.users = {str(player.id): player}
    await fake.wait_for(
        lambda: "public" in table.display and "0" in table.display.get("hands", {}),
        what="the public table and the private hand",
    )
    return table


def coach_line(game: Game) -> str | None:
    """The coach's line on the player's DM hand at their turn, if it shows one."""
    table = game.table
    assert table is not None
    if game.match.hand.turn != 0:
        return None
    text = game.dm_panel(0).text
    return next((line for line in text.splitlines() if "Coach:" in line), None)


def assert_one_suggestion(game: Game, line: str) -> None:
    """The hand shows the coach's move only: no plain hint line, and the discard menu's ★
    on the card the coach's line names (none when it says to knock)."""
    panel = game.dm_panel(0)
    assert "Hint:" not in panel.text
    stars = [
        option["label"]
        for component in iter_components(panel.components)
        for option in component.get("options") or []
        if "★" in (option.get("description") or "")
    ]
    if "discard " in line and "knock," not in line:
        after = line.split("discard ", 1)[1]
        faces = game.bot.card_emojis
        named = [str(c) for c in DECK if after.startswith((faces.card(c), f"{c}:", f"{c};"))]
        assert stars == named and len(named) == 1, (line, stars)
    else:
        assert stars == [], (line, stars)


async def test_hints_on_show_the_coachs_move_on_each_turn(world: World, bot: GinBot) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await practice_with(game, world.alice, hints=True)
    started = next(m for m in fake.channel_messages(world.channel) if "Hints are on" in m.text)
    assert started is not None
    rng = random.Random(2)
    for _ in range(4):  # several of Alice's decisions, each with its suggestion
        await fake.wait_for(
            lambda: game.match.hand.turn == 0 and not table.lock.locked(),
            timeout=20,
            what="Alice's turn",
        )
        legal = game.match.hand.legal_actions(0)
        if len(legal) == 1:  # both passed the upcard: only the stock, nothing to suggest
            await game.button(legal[0])
            continue
        line = await fake.wait_for(
            lambda: coach_line(game), timeout=30, what="the coach's line on Alice's hand"
        )
        assert line.startswith("🎓 Coach:")
        words = {
            ActionKind.DISCARD: "discard",
            ActionKind.KNOCK: "knock",
            ActionKind.DRAW_STOCK: "draw from the stock",
            ActionKind.DRAW_DISCARD: "take",
            ActionKind.PASS: "pass",
        }
        assert any(words[a.kind] in line for a in legal if a.kind in words), (line, legal)
        assert_one_suggestion(game, line)
        result = await game.button(choose(game.match.hand, "knocker", rng))
        assert "⚠️" not in result.text, result.text
        if game.match.hand_number > 1 or game.match.is_over:
            break
    assert table.meta.coach and "coach" not in table.screen_ids
    saved = await bot.service.records.match(table.id)
    assert saved is not None and saved.display.get("coach") is True  # kept for a restart


async def test_hints_are_off_by_default(world: World, bot: GinBot) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await game.practice(world.alice, "easy")
    rng = random.Random(2)
    for _ in range(6):
        await fake.wait_for(
            lambda: game.match.hand.turn == 0 and not table.lock.locked(),
            timeout=20,
            what="Alice's turn",
        )
        await game.wait_for_buttons(0)
        assert coach_line(game) is None
        result = await game.button(choose(game.match.hand, "knocker", rng))
        assert "⚠️" not in result.text, result.text
        if game.match.hand_number > 1 or game.match.is_over:
            break
    assert not any("Coach:" in m.text for m in fake.dm_messages(world.alice))
    assert not any("Hints are on" in m.text for m in fake.channel_messages(world.channel))


async def test_hints_are_refused_for_a_lobby_mode(world: World, bot: GinBot) -> None:
    fake = world.fake
    refused = await fake.slash(world.alice, world.channel, "gin practice", mode="three", hints=True)
    assert refused.ephemeral and "two-player game" in refused.text
    assert bot.service.in_channel(str(world.channel.id)) is None


async def test_the_review_speaks_the_players_language(world: World, bot: GinBot) -> None:
    fake = world.fake
    world.alice.locale = "de"  # Alice's Discord is in German
    game = Game(world, bot)
    table = await game.practice(world.alice, "expert")
    await play_first_hand(game, style="knocker")
    button = review_button(table.id)
    showdown = await fake.wait_for(
        lambda: next((m for m in fake.dm_messages(world.alice) if button in m.custom_ids()), None),
        timeout=20,
        what="the Review button on Alice's showdown",
    )
    label = showdown.find_component(button)
    assert label is not None and label.get("label") == "Auswertung"
    pressed = await fake.click(world.alice, showdown, button)
    assert "in deinen DMs" in await pressed.wait_for_text("Auswertung verschickt", timeout=60)
    review = await fake.wait_for(
        lambda: dm_with(world, world.alice, "Auswertung von Runde 1 (Partie #"),
        timeout=20,
        what="the review by DM, in German",
    )
    assert "verdeckt" in review.text and "Review" not in review.text
    assert_names_nothing_hidden(bot, review.text, hidden_from(await first_record(game), 0))


async def test_review_buttons_work_after_a_restart(world: World) -> None:
    """The Review button on a showdown and on a replay, pressed after the bot restarted; the
    review is sent once, a restart later too."""
    fake = world.fake
    with patch_discord(fake.http_base, fake.gateway_url):
        bot, task = await start_bot(world)
        try:
            game = Game(world, bot)
            table = await game.practice(world.alice, "easy")
            await play_first_hand(game, style="knocker")
            button = review_button(table.id)
            showdown = await fake.wait_for(
                lambda: next(
                    (m for m in fake.dm_messages(world.alice) if button in m.custom_ids()), None
                ),
                timeout=20,
                what="the Review button on Alice's showdown",
            )
            replay = await fake.slash(world.alice, world.channel, "gin replay", match=table.id)
            assert replay.message is not None and button in replay.custom_ids
        finally:
            await bot.close()
            await task

        bot, task = await start_bot(world)  # the same database, a new process's worth
        try:
            pressed = await fake.click(world.alice, showdown, button)
            await pressed.wait_for_text("Review sent", timeout=60)
            again = await fake.click(world.alice, replay.message, button)
            await again.wait_for_text("Review already sent", timeout=60)
            await fake.wait_for(
                lambda: dm_with(world, world.alice, REVIEW_TITLE), timeout=20, what="the review"
            )
            assert len([m for m in fake.dm_messages(world.alice) if REVIEW_TITLE in m.text]) == 1
        finally:
            await bot.close()
            await task

        bot, task = await start_bot(world)  # and again: the review is remembered as sent
        try:
            later = await fake.click(world.alice, showdown, button)
            await later.wait_for_text("Review already sent", timeout=60)
            assert len([m for m in fake.dm_messages(world.alice) if REVIEW_TITLE in m.text]) == 1
        finally:
            await bot.close()
            await task
    assert fake.unknown_routes == []

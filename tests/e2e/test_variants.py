"""Oklahoma and Hollywood through the real discord.py stack: whole matches by commands and
buttons, what players see of each, refusals, a restart mid-hand and the replay."""

from __future__ import annotations

import random
import signal
from typing import Any

import pytest

from bot.client import GinBot
from bot.gin.hand import Action, ActionKind, HandResult, Phase
from bot.gin.match import Match
from bot.gin.settings import Variant
from tests.e2e.conftest import World
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import cards_as_text, settle, start_game
from tests.e2e.test_records import every_page
from tests.e2e.test_restart import bot_process, command, move_log, stored
from tests.fakediscord import InteractionResult, Message
from tests.gin.players import choose


async def restart_move(world: World, match: Match, action: Action) -> InteractionResult:
    """A move by slash command, Big Gin (no card) included."""
    if action.kind is ActionKind.BIG_GIN:
        users = {str(u.id): u for u in (world.alice, world.bob)}
        user = users[match.players[action.seat].id]
        return await world.fake.slash(user, world.channel, "gin knock")
    return await command(world, match, action)


def channel_text(game: Game) -> str:
    ours = [m for m in game.fake.channel_messages(game.world.channel)]
    return "\n".join(cards_as_text(m.text) for m in ours)


def match_over(game: Game) -> Message:
    return next(m for m in game.fake.channel_messages(game.world.channel) if "Match over" in m.text)


async def play_by_both(game: Game, seed: int, check: object = None) -> int:
    """Play to the end, moves alternating between slash commands and DM buttons."""
    rng = random.Random(seed)
    moves = 0
    while not game.match.is_over:
        if callable(check):
            await check()
        action = choose(game.match.hand, "knocker", rng)
        result = await (game.command(action) if moves % 2 else game.button(action))
        assert "⚠️" not in result.text, result.text
        moves += 1
        assert moves < 3000
    await settle()
    return moves


def over_the_limit(game: Game) -> Action | None:
    """A knock the classic limit of 10 allows but this hand's upcard does not."""
    hand = game.match.hand
    if hand.phase is not Phase.DISCARD:
        return None
    limit = hand.knock_limit
    left = hand.discard_options(hand.hands[hand.turn])
    for card, deadwood in left.items():
        if limit < deadwood <= 10 and card != hand.taken_from_discard:
            return Action(ActionKind.KNOCK, hand.turn, card)
    return None


async def test_a_whole_oklahoma_match_by_commands_and_buttons(
    world: World, bot: GinBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = world.fake
    # Dealt from a seed, so that the match surely has a hand whose upcard forbids a knock the
    # classic limit allows (random deals whose upcards are all high can lack one).
    deal = bot.service.opening._start

    async def seeded(table: Any, seed: str | None = None, *, origin: str = "") -> None:
        await deal(table, seed or "oklahoma-e2e", origin=origin)

    monkeypatch.setattr(bot.service.opening, "_start", seeded)
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob, variant="oklahoma", spades_double=True)
    rules = table.server.rules
    assert rules.variant is Variant.OKLAHOMA and rules.target == 150  # Oklahoma's usual target
    challenge = fake.message(table.display["challenge"])
    assert challenge is not None and "Oklahoma (ace: gin only, spades double)" in challenge.text
    shown = await fake.slash(world.carol, world.channel, "gin rules")
    assert "**Oklahoma:**" in shown.text
    refused: list[str] = []
    tables: list[str] = []

    async def check() -> None:
        hand = game.match.hand
        upcard = hand.knock_card
        assert upcard is not None
        seat = hand.turn
        dm = await game.wait_for_buttons(seat)
        assert f"the upcard was {upcard.card}" in cards_as_text(dm.text)
        if upcard.doubled:
            assert "spades double" in dm.text
        if not tables:  # the table as a spectator asks for it
            seen = await fake.slash(world.carol, world.channel, "gin table")
            tables.append(cards_as_text(seen.text))
            assert f"**Oklahoma:** the upcard was {upcard.card}" in tables[0]
        knock = over_the_limit(game) if not refused else None
        if knock is not None:
            before = table.move_count
            answer = await game.command(knock)
            assert answer.ephemeral and f"The upcard was {upcard.card}" in answer.text
            assert table.move_count == before
            refused.append(answer.text)

    await play_by_both(game, seed=3, check=check)
    assert tables
    assert refused, "no hand offered a knock the upcard forbids"
    assert "Match over" in match_over(game).text
    replay = await every_page(
        world, await fake.slash(world.carol, world.channel, "gin replay", match=table.id)
    )
    assert f"Replay of match #{table.id} · Oklahoma" in replay
    for record in game.match.history:
        assert f"**Hand {record.number}**" in replay


async def test_a_whole_hollywood_match_by_commands_and_buttons(world: World, bot: GinBot) -> None:
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob, variant="hollywood", target=50)
    await play_by_both(game, seed=5)
    match = game.match
    result = match.result
    assert result is not None and len(result.games) == 3
    over = match_over(game)
    assert "Match over · Hollywood" in over.text
    for number in (1, 2, 3):
        assert f"**Game {number}:**" in over.text
    text = channel_text(game)
    assert " in game 1" in text  # where the first hand's points went
    assert "game 1 " in text and "game 3 " in text  # the three games side by side
    dms = "\n".join(m.text for m in fake.dm_messages(world.alice))
    assert "Match over · Hollywood" in dms
    stats = await fake.slash(world.alice, world.channel, "gin stats")
    assert "⚠️" not in stats.text
    history = await fake.slash(world.alice, world.channel, "gin history")
    assert f"#{table.id}" in history.text


async def test_variant_options_are_refused_clearly_where_they_do_not_apply(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    no_oklahoma = await fake.slash(
        world.alice, world.channel, "gin challenge", opponent=world.bob, ace="one"
    )
    assert no_oklahoma.ephemeral and "`ace` is for Oklahoma" in no_oklahoma.text
    assert bot.service.in_channel(str(world.channel.id)) is None
    practice = await fake.slash(
        world.alice, world.channel, "gin practice", mode="three", variant="hollywood"
    )
    assert practice.ephemeral and "two-player game" in practice.text
    assert bot.service.in_channel(str(world.channel.id)) is None


async def test_the_server_variant_is_the_default_of_two_player_matches_only(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    changed = await fake.slash(world.alice, world.channel, "gin settings set", variant="oklahoma")
    assert "Oklahoma" in changed.text and "⚠️" not in changed.text
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    assert table.server.rules.variant is Variant.OKLAHOMA and table.server.rules.target == 150
    resigned = await fake.slash(world.alice, world.channel, "gin resign")
    assert "⚠️" not in resigned.text
    await settle()
    opened = await fake.slash(world.alice, world.channel, "gin open", mode="three")
    assert "⚠️" not in opened.text, opened.text
    lobby = bot.service.in_channel(str(world.channel.id))
    assert lobby is not None and lobby.server.rules.variant is Variant.CLASSIC
    assert lobby.server.rules.target == 100


@pytest.mark.parametrize("variant", ["oklahoma", "hollywood"])
async def test_sigkill_mid_hand_then_the_variant_goes_on(world: World, variant: str) -> None:
    fake = world.fake
    rng = random.Random(7)
    with bot_process(world) as first:
        await fake.wait_until_connected(timeout=30)
        await fake.wait_for_command("gin", world.guild, timeout=30)
        challenge = await fake.slash(
            world.alice, world.channel, "gin challenge", opponent=world.bob, variant=variant
        )
        accept = next(c for c in challenge.message.custom_ids() if c.endswith(":accept"))
        await fake.click(world.bob, challenge.message, accept)
        for made in range(8):
            _, match, count = stored(world)
            assert count == made
            reply = await restart_move(world, match, choose(match.hand, "knocker", rng))
            assert "⚠️" not in reply.text, reply.text
        before = stored(world)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        await fake.wait_for(
            lambda: fake.gateway.session_for(None) is None, timeout=10, what="the session to drop"
        )
    table_id, match, count = stored(world)
    assert match.to_dict() == before[1].to_dict()
    assert match.settings.variant.value == variant
    with bot_process(world):
        await fake.wait_until_connected(timeout=30)
        number = match.hand_number
        while match.hand_number == number and not match.is_over:
            reply = await restart_move(world, match, choose(match.hand, "knocker", rng))
            assert "⚠️" not in reply.text, reply.text
            _, match, moves = stored(world)
        assert move_log(world, table_id) == list(range(1, moves + 1))
        assert match.settings.variant.value == variant
        if variant == "hollywood" and any(r.result.winner is not None for r in match.history):
            assert any(g.scores != [0, 0] for g in match.games)


async def test_practice_at_oklahoma_against_the_bot(world: World, bot: GinBot) -> None:
    """`/gin practice variant:oklahoma`: the bot plays the match to its end, and every knock
    in it, the bot's too, is within its hand's upcard limit."""
    game = Game(world, bot)
    result = await world.fake.slash(world.alice, world.channel, "gin practice", variant="oklahoma")
    assert not result.ephemeral and "⚠️" not in result.text, result.text
    table = bot.service.in_channel(str(world.channel.id))
    assert table is not None and table.vs_bot
    assert table.server.rules.variant is Variant.OKLAHOMA
    game.table = table
    game.users = {str(world.alice.id): world.alice}
    await world.fake.wait_for(
        lambda: "0" in table.display.get("hands", {}), what="the private hand"
    )
    await game.play_against_bot(via="button", seed=4)
    knocks = 0
    for row in await bot.store.hands(table.id):
        shown = HandResult.from_dict(row.result["result"])
        if shown.knocker is not None and shown.knock_card is not None:
            assert shown.knocker_deadwood <= shown.knock_card.limit
            knocks += shown.knocker == table.bot_seat
    assert knocks > 0, "the bot never knocked"

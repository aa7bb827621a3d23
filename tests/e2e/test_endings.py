"""Every ending leaves each screen saying what happened, once: no hand stays "your turn" after
a match is over, each player reads it in their own language, and a moderator's `/gin end`
names everyone seated and leaves alone the hands that were already over."""

from __future__ import annotations

import pytest

from bot.client import GinBot
from tests.e2e.conftest import World
from tests.e2e.english import english_fragments, english_left, own_words, texts_of
from tests.e2e.helpers_inputs import settle
from tests.e2e.modes_driver import Seats, people
from tests.fakediscord import FakeDiscord, Message

YOUR_TURN = 0x57F287  # discord.Colour.brand_green(): a hand whose player is to act
MANAGE_MESSAGES = 1 << 13


def live_turn(message: Message) -> bool:
    """A message that tells its reader it is their turn (green, a countdown, or buttons that
    move: a showdown's Review button is no turn)."""
    payload = message.history[-1]
    embeds = payload.get("embeds") or []
    green = any(embed.get("color") == YOUR_TURN for embed in embeds)
    moving = any(c.startswith(("gin:mv:", "gin:sel:")) for c in message.custom_ids())
    return green or "⏱️" in message.text or moving


def dm_hands(fake: FakeDiscord, seats: Seats) -> dict[int, Message]:
    table = seats.table
    assert table is not None
    return {
        seat: fake.message(entry["message"])
        for seat, entry in ((int(s), e) for s, e in table.display.get("hands", {}).items())
    }


async def test_a_resignation_at_three_then_the_end_leave_no_turn_and_each_their_language(
    world: World, bot: GinBot
) -> None:
    fake = world.fake
    world.alice.locale = "de"  # Alice reads German; the server and the others English
    users = people(world, 3)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "three")
    await seats.join_by_button(users[1])
    await seats.join_by_command(users[2])
    await seats.dealt()
    await seats.play(seed=5, stop=lambda match: sum(len(b.actions) for b in match.boards) >= 4)
    table = seats.table
    assert table is not None and table.match is not None
    resigner = next(s for s in table.human_seats if seats.user(s) != world.alice)
    resigned = await fake.slash(seats.user(resigner), world.channel, "gin resign")
    assert "⚠️" not in resigned.text, resigned.text
    await seats.play(seed=6)  # the two others play on to the end
    humans = set(table.human_seats)
    await fake.wait_for(
        lambda: humans <= set(table.display.get("result_dms", [])),
        what=lambda: f"each player's result {humans} {table.display}",
    )
    await settle()
    hands = dm_hands(fake, seats)
    still = {seat: m.text for seat, m in hands.items() if live_turn(m)}
    assert not still, still
    result = [m for m in fake.dm_messages(world.alice) if "🏆" in m.text]
    assert len(result) == 1
    alice = table.seat_of(str(world.alice.id))
    assert alice is not None
    shown = list(texts_of(result[0].history[-1]))
    if alice in hands:  # she may have sat this hand out (three players): no hand by DM
        shown += texts_of(hands[alice].history[-1])
    fragments, own = english_fragments("de"), own_words("de")
    names = (*[p.name for p in table.players], world.guild.name, world.channel.name)
    leaks = [(text, left) for text in shown if (left := english_left(text, fragments, names, own))]
    assert not leaks, leaks
    over = [m for m in fake.channel_messages(world.channel) if "🏆" in m.text]
    assert len(over) == 1 and "+ 0 for" not in over[0].text, [m.text for m in over]


@pytest.mark.parametrize("players", [6])
async def test_ending_a_table_of_six_names_everyone_and_says_it_once(
    world: World, bot: GinBot, players: int
) -> None:
    fake = world.fake
    users = people(world, players)
    seats = Seats(world, bot, users)
    await seats.open(users[0], "elimination", players=players)
    for user in users[1:]:
        await seats.join_by_button(user)
    await seats.dealt()
    await seats.play(seed=2, stop=lambda match: bool(match.out))  # someone went out
    await settle()
    table = seats.table
    assert table is not None and table.match is not None
    out = set(table.match.out)
    before = {seat: m.text for seat, m in dm_hands(fake, seats).items()}
    moderator = fake.add_user("mod", global_name="Mod")
    fake.add_member(world.guild, moderator, permissions=MANAGE_MESSAGES)
    ended = await fake.slash(moderator, world.channel, "gin end")
    assert not ended.ephemeral and "⚠️" not in ended.text, ended.text
    assert all(user.mention in ended.text for user in users), ended.text
    await settle()
    closed = [m for m in fake.channel_messages(world.channel) if "Table closed" in m.text]
    assert len(closed) == 1, [m.text for m in closed]
    assert not any(m.custom_ids() for m in fake.channel_messages(world.channel))
    after = dm_hands(fake, seats)
    for seat, message in after.items():
        if seat in out:  # their hand said they went out: it still does
            assert message.text == before[seat]
        else:
            assert "Table closed" in message.text and not message.custom_ids(), message.text

"""Two real bot processes, shards 0 and 1 of 2, sharing one PostgreSQL database: matches at
tables on both shards by DM buttons (which arrive at shard 0) and slash commands (which arrive
at the channel's shard), one click through each process at once, a killed owner, a timer.

Skipped with one line without a PostgreSQL server (failed instead with GIN_REQUIRE_POSTGRES=1).
Each test waits for a fleet slot of the machine (``fleet``, see tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.gin.hand import Action, ActionKind
from bot.server_settings import ServerSettings
from tests.e2e.driver import BUTTONS, play_card
from tests.e2e.fleet import (
    Fleet,
    Stored,
    fleet_world,
    hand_message,
    press_if_behind,
    token_of,
)
from tests.fakediscord import Channel, InteractionResult, User
from tests.fakediscord.errors import InteractionFailed, InteractionTimeout
from tests.gin.players import choose
from tests.store.conftest import require_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.fleet]


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[Fleet, dict[str, User], list[Channel]]]:
    url = require_postgres()
    async with fleet_world(url, tmp_path) as (fleet, users, _, channels):
        yield fleet, users, channels


async def started(fleet: Fleet) -> None:
    for shard in range(fleet.shard_count):
        fleet.start(shard)
    await fleet.connected()


async def challenge(
    fleet: Fleet, channel: Channel, a: User, b: User, *, target: int = 50
) -> Stored:
    """A challenge in the channel, accepted with its button: the first hand is dealt."""
    fake = fleet.fake
    result = await fake.slash(a, channel, "gin challenge", opponent=b, target=target)
    assert not result.ephemeral, result.text
    accept = next(c for c in result.message.custom_ids() if c.endswith(":accept"))
    await fake.click(b, result.message, accept)
    table = await fleet.table_in(channel)
    assert table is not None and table.status == "playing" and table.match is not None
    return table


def seated(users: dict[str, User], table: Stored, seat: int) -> User:
    assert table.match is not None
    wanted = table.match.players[seat].id
    return next(u for u in users.values() if str(u.id) == wanted)


async def by_command(
    fleet: Fleet, channel: Channel, user: User, action: Action
) -> InteractionResult:
    fake, kind = fleet.fake, action.kind
    if kind is ActionKind.PASS:
        return await fake.slash(user, channel, "gin pass")
    if kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
        source = "stock" if kind is ActionKind.DRAW_STOCK else "discard"
        return await fake.slash(user, channel, "gin draw", source=source)
    if kind is ActionKind.DISCARD:
        return await fake.slash(user, channel, "gin discard", card=str(action.card))
    if kind is ActionKind.KNOCK:
        return await fake.slash(user, channel, "gin knock", card=str(action.card))
    return await fake.slash(user, channel, "gin knock")


async def by_button(fleet: Fleet, user: User, table: Stored, action: Action) -> InteractionResult:
    """The move from the player's DM hand message, once the table's owner has shown it."""
    assert table.match is not None
    token = token_of(table.match)
    # A press on a hand left behind is answered by the process that gets the DMs, which may
    # not have heard of the last move yet: then it shows the hand as it knew it, and the
    # player, as a person would, presses again.
    for _ in range(5):
        await press_if_behind(fleet.fake, user, table.id, token)
        with contextlib.suppress(InteractionTimeout):
            await fleet.fake.wait_for(
                lambda: hand_message(fleet.fake, user, table.id, token), timeout=2
            )
            break
    message = await fleet.fake.wait_for(
        lambda: hand_message(fleet.fake, user, table.id, token),
        timeout=20,
        what=f"{user.username}'s DM buttons for move {token} of table {table.id}",
    )
    try:
        if action.kind in BUTTONS:
            custom_id = f"gin:mv:{table.id}:{token}:{BUTTONS[action.kind]}"
            return await fleet.fake.click(user, message, custom_id)
        return await play_card(fleet.fake, user, message, table.id, token, action)
    except InteractionFailed as error:
        # Pressed as the hand was sent afresh (a restarted owner alerts a turn it cannot
        # know it alerted before, and deletes the older copy): Discord refuses an answer on
        # the deleted message, the move stands (``play`` checks the store) and the new copy
        # shows it.
        if not (message.deleted and "10008" in str(error)):
            raise
        assert isinstance(error.failed, InteractionResult)
        return error.failed


async def play(
    fleet: Fleet,
    users: dict[str, User],
    channel: Channel,
    rng: random.Random,
    *,
    moves: int | None = None,
) -> Stored:
    """Play at the channel's table, by DM buttons and slash commands in turn at random, to
    the end of the match (or ``moves`` moves); the table as stored afterwards."""
    made, start = 0, None
    while True:
        table = await fleet.table_in(channel)
        assert table is not None
        if table.status != "playing" or (moves is not None and made == moves):
            return table
        start = table.move_count if start is None else start
        # Every move acknowledged is stored once: none lost, none doubled.
        assert table.match is not None and table.move_count == start + made
        action = choose(table.match.hand, "knocker", rng)
        user = seated(users, table, action.seat)
        via_dm = rng.random() < 0.5
        if via_dm:
            result = await by_button(fleet, user, table, action)
        else:
            result = await by_command(fleet, channel, user, action)
        assert "⚠️" not in result.text and "out of date" not in result.text, result.text
        made += 1
        assert made < 2000


async def test_whole_matches_on_both_shards_and_one_click_through_two_processes(
    world: tuple[Fleet, dict[str, User], list[Channel]],
) -> None:
    fleet, users, channels = world
    fake = fleet.fake
    await started(fleet)
    tables = [
        await challenge(fleet, channels[0], users["alice"], users["bob"]),
        await challenge(fleet, channels[1], users["carol"], users["dave"]),
    ]

    # The same move at the same moment: by DM (shard 0's process) and by slash command in
    # the channel (shard 1's process, the owner of this table).
    table = tables[1]
    assert table.match is not None
    seat = table.match.hand.turn
    user = seated(users, table, seat)
    token = token_of(table.match)
    dm = await fake.wait_for(lambda: hand_message(fake, user, table.id, token), timeout=20)
    shown = await fake.slash(user, channels[1], "gin hand")  # the hand, in the channel too
    assert shown.ephemeral and shown.message is not None
    # There the DM hand carries the turn (the owner does not answer the DM presses), so
    # the reply shows the hand without buttons: one live hand.
    assert not shown.message.custom_ids()
    action = choose(table.match.hand, "knocker", random.Random(3))
    custom_id = f"gin:mv:{table.id}:{token}:{BUTTONS.get(action.kind, 'stock')}"
    if custom_id.endswith(":stock") and action.kind is not ActionKind.DRAW_STOCK:
        custom_id = f"gin:mv:{table.id}:{token}:pass"
        action = Action(ActionKind.PASS, seat)
    first, second = await asyncio.gather(
        fake.click(user, dm, custom_id), by_command(fleet, channels[1], user, action)
    )
    texts = [first.text, second.text]
    # The later click is refused, or (a button from an earlier moment) shows the hand now.
    refused = [
        t
        for t in texts
        if "⚠️" in t or "already made" in t or "out of date" in t or "earlier moment" in t
    ]
    assert len(refused) == 1, texts
    after = await fleet.table_in(channels[1])
    assert after is not None and after.move_count == 1
    assert await fleet.move_log(table.id) == [1]
    public = await fleet.stored_display(channels[1], "public")
    edits = len(fake.message(public).history)

    # Whole matches on both tables at once, by DM buttons and slash commands.
    ends = await asyncio.gather(
        play(fleet, users, channels[0], random.Random(1)),
        play(fleet, users, channels[1], random.Random(2)),
    )
    for end, channel in zip(ends, channels, strict=True):
        assert end.status == "finished", fleet.log_text()
        assert await fleet.move_log(end.id) == list(range(1, end.move_count + 1))
        results = await fleet.query("SELECT user_id FROM results WHERE match_id = $1", end.id)
        assert len(results) == 2
        # The channel's owner showed the result, and kept the public table up to date.
        await fake.wait_for(
            lambda channel=channel: any(
                "won the match" in m.text.lower() or "wins the match" in m.text.lower()
                for m in fake.channel_messages(channel)
            ),
            timeout=20,
            what="the match result in the channel",
        )
    assert len(fake.message(public).history) > edits  # DM moves shown by the owner
    assert "Traceback" not in fleet.log_text(), fleet.log_text()


async def test_the_owner_killed_mid_hand_and_restarted_loses_and_doubles_nothing(
    world: tuple[Fleet, dict[str, User], list[Channel]],
) -> None:
    fleet, users, channels = world
    fake = fleet.fake
    await started(fleet)
    # To 500: the deal is random, and a match to 50 could end within the 13 moves counted
    # here (one gin against a hand full of deadwood), as it did in 2 runs of 60.
    await challenge(fleet, channels[1], users["carol"], users["dave"], target=500)
    rng = random.Random(5)
    before = await play(fleet, users, channels[1], rng, moves=6)
    assert before.move_count == 6
    assert before.match is not None
    to_act = seated(users, before, before.match.hand.turn)
    # Its buttons, or (after a draw that leaves no knock) only its discard menu.
    token = token_of(before.match)
    marks = (f"gin:mv:{before.id}:{token}:", f"gin:sel:{before.id}:{token}:")
    their_dms = fake.dm_channel(to_act).id
    await fake.wait_for(  # mid-hand, once the owner has handed the turn over: on their DM
        lambda: any(  # hand, or on their last private reply when they moved by command
            any(c.startswith(marks) for c in m.custom_ids())
            for m in fake.store.messages.values()
            if m.ephemeral or m.channel_id == their_dms
        ),
        timeout=20,
        what=lambda: (
            f"the next player's buttons {marks}; their DMs: "
            + str([(m.text[:50], m.custom_ids()[:1]) for m in fake.dm_messages(to_act)[-2:]])
        ),
    )
    # The hand's table in the channel (its id may not be saved yet: the channel's messages
    # come after the players').
    hand = f"· hand {before.match.hand_number}"
    shown = await fake.wait_for(
        lambda: next(
            (
                m
                for m in fake.store.messages.values()
                if m.channel_id == channels[1].id
                and not m.deleted
                and not m.ephemeral
                and m.embeds
                and str(m.embeds[0].get("title", "")).startswith("Gin Rummy ·")
                and str(m.embeds[0].get("title", "")).endswith(hand)
            ),
            None,
        ),
        timeout=30,
        what="the hand's table in the channel",
    )

    fleet.kill(1)  # the owner of the table's guild
    await fake.wait_for(lambda: fake.connected_shards() == [(0, 2)], timeout=20)
    table = await fleet.table_in(channels[1])
    assert table is not None and table.move_count == 6
    assert await fleet.move_log(table.id) == list(range(1, 7))

    # Meanwhile a DM move still works: shard 0's process applies it and answers it.
    assert table.match is not None
    action = choose(table.match.hand, "knocker", rng)
    result = await by_button(fleet, seated(users, table, action.seat), table, action)
    assert "⚠️" not in result.text, result.text
    assert await fleet.move_log(table.id) == list(range(1, 8))

    public = shown.id
    edits = len(fake.message(public).history)
    fleet.start(1)
    await fleet.connected()
    after = await play(fleet, users, channels[1], rng, moves=6)
    assert after.move_count == 13
    assert await fleet.move_log(table.id) == list(range(1, 14))
    # The restarted owner edits the public message from before the kill, in place.
    await fake.wait_for(
        lambda: len(fake.message(public).history) > edits, timeout=20, what="a public edit"
    )
    assert "Traceback" not in fleet.log_text(), fleet.log_text()


async def test_a_turn_timer_fires_once_with_both_processes_running(
    world: tuple[Fleet, dict[str, User], list[Channel]],
) -> None:
    fleet, users, channels = world
    fake = fleet.fake
    # A four-second turn (below what /gin settings allows, so written directly): the
    # reminder comes at two seconds, the forfeit at four.
    import orjson

    guild_id = str(channels[1].guild_id)
    settings = ServerSettings(turn_seconds=4).to_dict()
    await started(fleet)
    await fleet.query(
        "INSERT INTO guild_settings (guild_id, data, updated_at) VALUES ($1, $2, 'now')",
        guild_id,
        orjson.dumps(settings).decode(),
    )
    table = await challenge(fleet, channels[1], users["carol"], users["dave"])
    assert table.match is not None
    late = seated(users, table, table.match.hand.turn)

    def notices(mark: str) -> list[str]:
        return [m.text for m in fake.dm_messages(late) if mark in m.text]

    def reminders() -> int:
        """The reminder is the hand sent afresh with its line (which the next edit clears)."""
        channel = fake.store.dm_by_user.get(late.id)
        sent = [] if channel is None else fake.store.channel_messages[channel.id]
        return sum("⏰" in str(fake.store.messages[i].versions[0].get("content")) for i in sent)

    # The forfeit ends the match: its one notice is the result, which says why.
    await fake.wait_for(
        lambda: notices("ran out of time"),
        timeout=15,
        what=lambda: f"the forfeit in {[m.text for m in fake.dm_messages(late)]}",
    )
    end = await fleet.table_in(channels[1])
    assert end is not None and end.status == "finished" and end.move_count == 0
    await asyncio.sleep(1.0)  # a second firing, if any, would come now
    assert len(notices("ran out of time")) == 1
    assert reminders() == 1
    results = await fleet.query("SELECT user_id FROM results WHERE match_id = $1", end.id)
    assert len(results) == 2
    claims = await fleet.query("SELECT end_reason FROM matches WHERE id = $1", end.id)
    assert claims[0]["end_reason"] == "forfeit"


async def test_a_dm_move_at_the_other_shard_s_table_keeps_the_movers_note(
    world: tuple[Fleet, dict[str, User], list[Channel]],
) -> None:
    """Shard 0's process answers the click by editing the DM to the hand with the mover's
    note; the table's owner, on shard 1, makes the move from the news and leaves that
    message alone (no second edit, no note lost) while it alerts the next player, and later
    writes to the mover in the language shard 0 heard them in."""
    fleet, users, channels = world
    fake = fleet.fake
    await started(fleet)
    table = await challenge(fleet, channels[1], users["carol"], users["dave"])
    assert table.match is not None
    seat = table.match.hand.turn
    mover, other = seated(users, table, seat), seated(users, table, 1 - seat)
    mover.locale = "es-ES"  # the mover's Discord is in Spanish; shard 0 hears it, not the owner
    token = token_of(table.match)
    dm = await fake.wait_for(lambda: hand_message(fake, mover, table.id, token), timeout=20)
    result = await fake.click(mover, dm, f"gin:mv:{table.id}:{token}:pass")
    assert "Has pasado la carta descubierta." in result.text, result.text
    edits = len(fake.message(dm.id).history)
    # The owner heard of the move: the next player's turn arrives as their live hand.
    await fake.wait_for(
        lambda: hand_message(fake, other, table.id, token + 1),
        timeout=20,
        what="the next player's hand, from the table's owner",
    )
    shown = fake.message(dm.id)
    assert len(shown.history) == edits, [p.get("embeds") for p in shown.history[edits - 1 :]]
    assert "Has pasado la carta descubierta." in shown.text
    # The other player passes too: the owner shows the mover their turn, in their language.
    theirs = hand_message(fake, other, table.id, token + 1)
    assert theirs is not None
    await fake.click(other, theirs, f"gin:mv:{table.id}:{token + 1}:pass")
    mine = await fake.wait_for(
        lambda: hand_message(fake, mover, table.id, token + 2),
        timeout=20,
        what="the mover's next turn, from the table's owner",
    )
    assert "Tu mano" in mine.text and "Your hand" not in mine.text, mine.text
    assert "Traceback" not in fleet.log_text(), fleet.log_text()

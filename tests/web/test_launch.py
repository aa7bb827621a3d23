"""The Activity seen from Discord: opened from the table's button, /gin play or the Entry
Point command (all checked against Discord's spec by the fake); a player with the table open
in it gets no DM push for their turn, and a table everyone plays there costs no REST call a
move; a move made there shows on the others' DMs and the channel's table as any move does."""

from __future__ import annotations

import random

from tests.e2e.driver import Game
from tests.fakediscord.interactions import CB_LAUNCH_ACTIVITY
from tests.gin.players import choose
from tests.web.client import ActivityClient, pick_move, signed_in
from tests.web.conftest import Site

GLOBAL_COUNTED = ("/interactions/", "/webhooks/")


def counted_calls(site: Site) -> int:
    """REST calls of the bot token so far (interaction answers are not counted by Discord)."""
    requests = site.world.fake.rest.requests
    return sum(n for route, n in requests.items() if not any(p in route for p in GLOBAL_COUNTED))


async def test_the_entry_point_is_kept_and_the_table_and_a_command_launch_the_activity(
    site: Site,
) -> None:
    fake, world = site.world.fake, site.world
    commands = fake.commands.list(None)
    [entry] = [c for c in commands if c["type"] == 4]
    assert entry["handler"] == 2 and any(c["name"] == "gin" for c in commands)
    game = Game(world, site.bot)
    table = await game.start(world.alice, world.bob)
    public = fake.message(table.display["public"])
    assert f"gin:play:{table.id}" in public.custom_ids()
    carol = world.carol
    launched = await fake.click(carol, public, f"gin:play:{table.id}")
    assert launched.type == CB_LAUNCH_ACTIVITY and launched.record.launched is not None
    instance = fake.oauth.instances[launched.record.launched]
    assert carol.id in instance.users and instance.channel.id == world.channel.id
    by_command = await fake.slash(world.bob, world.channel, "gin play")
    assert by_command.type == CB_LAUNCH_ACTIVITY
    # Carol, launched there, watches the table.
    watcher = await signed_in(fake, site.base, site.http, carol, instance.instance_id, site.channel)
    assert watcher.table["status"] == "playing" and watcher.table["mine"] is None
    await watcher.close()


async def test_a_player_at_the_table_gets_no_dm_push_and_a_table_played_there_costs_nothing(
    site: Site,
) -> None:
    fake, world, bot = site.world.fake, site.world, site.bot
    assert bot.web is not None
    bot.web.hub.rate = 1000.0
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    instance = site.instance.instance_id
    pages = {
        str(user.id): await signed_in(fake, site.base, site.http, user, instance, site.channel)
        for user in (world.alice, world.bob)
    }
    assert bot.service.presence.users(table.id) == set(pages)
    await fake.wait_for(lambda: not table.lock.locked(), what="the deal to settle")
    dm_versions = {
        user.username: sum(len(m.versions) for m in fake.dm_messages(user))
        for user in (world.alice, world.bob)
    }
    before, calls = table.match.hand_number if table.match else 0, counted_calls(site)
    rng = random.Random(2)
    moves = 0
    while table.match is not None and table.match.hand_number == before and moves < 14:
        seat = table.match.to_act()[0]
        page = pages[table.players[seat].id]
        state = await page.wait_table(
            lambda t: bool(t["mine"] and t["mine"]["moves"]), what="a turn"
        )
        # No knock: the hand's end posts its showdown, and this counts plain moves.
        chosen = pick_move(state, rng, knock=False)
        assert chosen is not None
        await page.play(*chosen)
        moves += 1
    await fake.wait_for(lambda: not table.lock.locked(), what="the last move to settle")
    assert moves == 14
    assert counted_calls(site) == calls, fake.rest.requests
    assert dm_versions == {
        user.username: sum(len(m.versions) for m in fake.dm_messages(user))
        for user in (world.alice, world.bob)
    }
    # Bob closes the Activity: his Discord screens take the game up again at once.
    await pages[str(world.bob.id)].close()
    await fake.wait_for(
        lambda: sum(len(m.versions) for m in fake.dm_messages(world.bob)) > dm_versions["bob"],
        what="bob's DM hand brought up to date",
    )
    await pages[str(world.alice.id)].close()


async def test_a_move_in_the_activity_shows_on_the_others_dms_and_the_channel(
    site: Site,
) -> None:
    fake, world, bot = site.world.fake, site.world, site.bot
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    alice = await signed_in(
        fake, site.base, site.http, world.alice, site.instance.instance_id, site.channel
    )
    rng = random.Random(8)
    match = table.match
    assert match is not None
    while True:  # Bob plays by his DM's buttons until Alice's turn
        seat = match.to_act()[0]
        if table.players[seat].id == str(world.alice.id):
            break
        await game.button(choose(match.hand, "knocker", rng))
        match = table.match
        assert match is not None
    state = await alice.wait_table(lambda t: bool(t["mine"] and t["mine"]["moves"]), "her turn")
    kinds = [m["kind"] for m in state["mine"]["moves"]]
    await alice.play("draw_stock" if "draw_stock" in kinds else "draw_discard")
    discard = next(m for m in alice.table["mine"]["moves"] if m["kind"] == "discard")
    await alice.play("discard", discard["card"])
    told = "then discarded"  # Bob's hand retells Alice's turn (the cards as the bot's emojis)
    shown = "Alice discarded"  # the channel's table, its log
    # Bob's turn comes on his DM hand, telling Alice's move; the channel's table shows it.
    await fake.wait_for(
        lambda: any("Alice" in m.text and told in m.text for m in fake.dm_messages(world.bob)),
        timeout=30,
        what="bob's DM hand to tell alice's move",
    )
    await fake.wait_for(
        lambda: shown in fake.message(table.display["public"]).text,
        timeout=40,
        what="the channel's table to show alice's move",
    )
    assert isinstance(alice, ActivityClient)
    await alice.close()

"""The Activity with several bot processes (shards 0 and 1 of 2 on one PostgreSQL database):
a page connected to either process sees every move wherever it was made (shard 0's process
holds every table; another follows the table a page has open), and a move made there is
shown on Discord by the table's own process.

Skipped with one line without a PostgreSQL server (failed instead with GIN_REQUIRE_POSTGRES=1).
"""

from __future__ import annotations

import random
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.fleet import Fleet, fleet_world
from tests.store.conftest import require_postgres
from tests.web.client import pick_move, signed_in
from tests.web.conftest import SECRET
from tests.web.test_browser import free_port

pytestmark = pytest.mark.postgres


async def start_fleet(fleet: Fleet, web: int) -> int:
    """Both processes, the web server in shard ``web``'s; the web server's port."""
    port = free_port()
    for shard in (0, 1):
        fleet.extra_env = {}
        if shard == web:  # the web server's process
            fleet.extra_env = {
                "GIN_WEB_PORT": str(port),
                "GIN_WEB_HOST": "127.0.0.1",
                "GIN_CLIENT_SECRET": SECRET,
            }
        fleet.start(shard)
    fleet.extra_env = {}
    await fleet.connected()
    return port


@pytest.mark.parametrize(("web", "shown_by"), [(0, 1), (1, 0)], ids=["on-shard-0", "on-shard-1"])
async def test_a_page_plays_a_table_another_process_shows(
    tmp_path: Path, web: int, shown_by: int
) -> None:
    url = require_postgres()
    async with fleet_world(url, tmp_path) as (fleet, users, _, channels):
        fake = fleet.fake
        port = await start_fleet(fleet, web)
        alice, bob = users["alice"], users["bob"]
        channel = channels[shown_by]  # a server of the other process's shard
        result = await fake.slash(alice, channel, "gin challenge", opponent=bob, target=50)
        accept = next(c for c in result.message.custom_ids() if c.endswith(":accept"))
        await fake.click(bob, result.message, accept)
        instance = fake.add_activity_instance(channel, [alice, bob]).instance_id
        base = f"http://127.0.0.1:{port}"
        rng = random.Random(4)
        async with aiohttp.ClientSession() as http:
            page = await signed_in(fake, base, http, alice, instance, str(channel.id))
            table = await page.wait_table(lambda t: t["status"] == "playing", "the table")
            for _ in range(6):
                stored = await fleet.table_in(channel)
                assert stored is not None and stored.match is not None
                seat = stored.match.hand.turn
                if stored.match.players[seat].id == str(alice.id):
                    state = await page.wait_table(
                        lambda t: bool(t["mine"] and t["mine"]["moves"]), "alice's turn", 30
                    )
                    chosen = pick_move(state, rng, knock=False)
                    assert chosen is not None
                    await page.play(*chosen)
                    continue
                # Bob moves by slash command, in his server's process; the page hears it.
                before = (page.table["hand"], page.table["boards"])
                state = await fleet.table_in(channel)
                assert state is not None and state.match is not None
                legal = state.match.hand.legal_actions()
                action = next(a for a in legal if a.kind.value in ("draw_stock", "pass"))
                source = {"draw_stock": {"source": "stock"}}.get(action.kind.value)
                command = "gin draw" if source else "gin pass"
                answered = await fake.slash(bob, channel, command, **(source or {}))
                assert "⚠️" not in answered.text, answered.text
                await page.wait_table(
                    lambda t, b=before: (t["hand"], t["boards"]) != b, "bob's move", 30
                )
                # Bob's discard, the same way.
                state = await fleet.table_in(channel)
                assert state is not None and state.match is not None
                if state.match.hand.turn != seat:
                    continue
                discards = [
                    a for a in state.match.hand.legal_actions() if a.kind.value == "discard"
                ]
                before = (page.table["hand"], page.table["boards"])
                answered = await fake.slash(bob, channel, "gin discard", card=str(discards[0].card))
                assert "⚠️" not in answered.text, answered.text
                await page.wait_table(
                    lambda t, b=before: (t["hand"], t["boards"]) != b, "bob's discard", 30
                )
            assert table["id"] == page.table["id"]
            await page.close()


async def test_a_page_open_before_the_table_sees_it_start_in_another_process(
    tmp_path: Path,
) -> None:
    """A page open on shard 1's process in a channel of shard 0, where nothing is played
    yet: the match challenged and accepted there shows on the page as it starts, with no
    reconnect (shard 1's process keeps only its own tables)."""
    url = require_postgres()
    async with fleet_world(url, tmp_path) as (fleet, users, _, channels):
        fake = fleet.fake
        port = await start_fleet(fleet, web=1)
        alice, bob = users["alice"], users["bob"]
        channel = channels[0]
        instance = fake.add_activity_instance(channel, [alice, bob]).instance_id
        async with aiohttp.ClientSession() as http:
            base = f"http://127.0.0.1:{port}"
            page = await signed_in(fake, base, http, alice, instance, str(channel.id))
            await page.wait_table(lambda t: t["status"] == "none", "the empty table")
            result = await fake.slash(alice, channel, "gin challenge", opponent=bob, target=50)
            accept = next(c for c in result.message.custom_ids() if c.endswith(":accept"))
            await fake.click(bob, result.message, accept)
            table = await page.wait_table(
                lambda t: t["status"] == "playing", "the match started elsewhere", 30
            )
            mine = table["mine"]
            assert mine is not None
            assert sum(map(len, mine["melds"])) + len(mine["deadwood"]) in (10, 11)
            stored = await fleet.table_in(channel)
            assert stored is not None and table["id"] == stored.id
            await page.close()

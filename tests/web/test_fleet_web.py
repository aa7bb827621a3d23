"""The Activity with several bot processes (shards 0 and 1 of 2 on one PostgreSQL database):
its web server runs in shard 0's process, which holds every table and hears every other
process's moves, so a page sees every move wherever it was made, and a move made there is
shown on Discord by the table's own process.

Skipped with one line without a PostgreSQL server (failed instead with GIN_REQUIRE_POSTGRES=1).
"""

from __future__ import annotations

import random
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.fleet import fleet_world
from tests.store.conftest import require_postgres
from tests.web.client import pick_move, signed_in
from tests.web.conftest import SECRET
from tests.web.test_browser import free_port

pytestmark = pytest.mark.postgres


async def test_a_page_on_shard_0_plays_a_table_of_shard_1(tmp_path: Path) -> None:
    url = require_postgres()
    async with fleet_world(url, tmp_path) as (fleet, users, _, channels):
        fake = fleet.fake
        port = free_port()
        fleet.extra_env = {
            "GIN_WEB_PORT": str(port),
            "GIN_WEB_HOST": "127.0.0.1",
            "GIN_CLIENT_SECRET": SECRET,
        }
        fleet.start(0)  # the web server's process
        fleet.extra_env = {}
        fleet.start(1)
        await fleet.connected()
        alice, bob = users["alice"], users["bob"]
        channel = channels[1]  # a server on shard 1: process 1 shows its table
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
                    chosen = pick_move(state, rng)
                    assert chosen is not None and chosen[0] not in ("knock", "big_gin")
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

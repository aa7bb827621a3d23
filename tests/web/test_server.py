"""The Activity's web server against the fake Discord: signing in, the table live on sockets,
moves shared with Discord's screens, and every bad frame refused with nothing changed."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path

import pytest

from bot.web.app import SECURITY_HEADERS
from tests.e2e.conftest import TOKEN, add_card_emojis, card_room, start_bot
from tests.e2e.driver import Game
from tests.fakediscord import FakeDiscord, User, patch_discord
from tests.web.client import ActivityClient, pick_move, signed_in
from tests.web.conftest import SECRET, Site


async def test_the_page_is_framed_by_discord_only(site: Site) -> None:
    async with site.http.get(f"{site.base}/") as response:
        page = await response.text()
        csp = response.headers["Content-Security-Policy"]
    assert 'name="gin-client-id" content="' + str(site.world.fake.app_id) in page
    assert (
        "frame-ancestors https://discord.com https://*.discord.com https://*.discordsays.com" in csp
    )
    assert "script-src 'self'" in csp and csp == SECURITY_HEADERS["Content-Security-Policy"]


async def test_a_code_is_exchanged_once_and_a_refused_one_gets_json(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake = site.world.fake
    client = ActivityClient(site.base, site.http, str(site.world.alice.id))
    code = fake.oauth_code(site.world.alice)
    status, body = await client.exchange(code)
    assert status == 200 and set(body) == {"access_token"}
    again, refused = await client.exchange(code)  # a code is good once
    assert again == 401 and "refused" in refused["error"]
    for bad in ({"code": ""}, {"code": "x" * 500}, {"nothing": 1}, ["code"]):
        async with site.http.post(f"{site.base}/api/token", json=bad) as response:
            assert response.status == 400 and "error" in await response.json()
    async with site.http.post(f"{site.base}/api/token", data=b"not json") as response:
        assert response.status == 400
    assert SECRET not in caplog.text


async def test_hello_is_checked_with_discord_then_the_session_needs_no_call(site: Site) -> None:
    fake, world = site.world.fake, site.world
    alice = await signed_in(
        fake, site.base, site.http, world.alice, site.instance.instance_id, site.channel
    )
    assert alice.welcome is not None and alice.welcome["user"]["id"] == str(world.alice.id)
    assert alice.table["status"] == "none" and "no game" in alice.table["status_text"]
    assert set(alice.welcome["strings"]) >= {"stock", "pile", "deadwood", "keys"}
    session = alice.welcome["session"]
    await alice.close()
    calls = fake.rest.requests["GET /users/@me"]
    again = ActivityClient(site.base, site.http, str(world.alice.id))
    await again.open(site.instance.instance_id, site.channel, session=session)
    await again.wait(lambda: again.welcome, what="the welcome")
    assert fake.rest.requests["GET /users/@me"] == calls
    await again.close()


@pytest.mark.parametrize(
    "case", ["forged session", "other channel", "not in instance", "no instance", "bad token"]
)
async def test_a_hello_discord_does_not_vouch_for_is_refused(site: Site, case: str) -> None:
    fake, world = site.world.fake, site.world
    client = ActivityClient(site.base, site.http, str(world.alice.id))
    instance, channel = site.instance.instance_id, site.channel
    token: str | None = None
    session: str | None = None
    user = world.alice
    if case == "not in instance":
        user = fake.add_user("dave")
        fake.add_member(world.guild, user)
    _, body = await client.exchange(fake.oauth_code(user))
    token = body["access_token"]
    if case == "forged session":
        token, session = None, "eyJ1IjoiMSJ9.AAAA"
    elif case == "other channel":
        channel = str(fake.add_channel(world.guild, "other").id)
    elif case == "no instance":
        instance = "i-nowhere"
    elif case == "bad token":
        token = "not-a-token"
    await client.open(instance, channel, token=token, session=session)
    code = await client.wait_closed()
    assert code == 4001 and client.errors()[0]["code"] == "auth_failed"
    assert client.welcome is None and not any(f["type"] == "table" for f in client.frames)


async def open_page(site: Site, user: User) -> ActivityClient:
    """``user`` opens the Activity in #gin."""
    instance = site.instance.instance_id
    return await signed_in(site.world.fake, site.base, site.http, user, instance, site.channel)


def last_error(client: ActivityClient) -> str | None:
    errors = client.errors()
    return str(errors[-1]["code"]) if errors else None


async def practice(site: Site) -> None:
    result = await site.world.fake.slash(
        site.world.alice, site.world.channel, "gin practice", level="easy"
    )
    assert not result.ephemeral, result.text


async def test_a_whole_match_against_the_bot_from_the_activity(
    site: Site,
) -> None:
    fake, world, bot = site.world.fake, site.world, site.bot
    assert bot.web is not None
    bot.web.hub.rate = 1000.0  # the test plays far faster than a person
    await practice(site)
    table = bot.service.in_channel(site.channel)
    assert table is not None
    alice = await signed_in(
        fake, site.base, site.http, world.alice, site.instance.instance_id, site.channel
    )
    carol = await signed_in(
        fake, site.base, site.http, world.carol, site.instance.instance_id, site.channel
    )
    assert bot.service.presence.at_table(table.id, str(world.alice.id))
    rng = random.Random(3)
    moves = 0
    while True:
        state = await alice.wait_table(
            lambda t: t["status"] != "playing" or (t["mine"] and t["mine"]["moves"]),
            what="alice's turn",
        )
        if state["status"] != "playing":
            break
        chosen = pick_move(state, rng)
        assert chosen is not None
        await alice.play(*chosen)
        moves += 1
        assert moves < 600
    assert state["status"] == "finished" and state["result"] is not None
    await fake.wait_for(
        lambda: any("Match over" in m.text for m in fake.channel_messages(world.channel)),
        what="the result in the channel",
    )
    watched = carol.table
    assert watched["status"] == "finished" and watched["you"] is None
    for frame in carol.frames:  # the spectator never got a hand
        if frame["type"] == "table":
            assert frame["table"]["mine"] is None
    await alice.close()
    await carol.close()


async def test_every_bad_frame_is_refused_and_changes_nothing(site: Site) -> None:
    fake, world, bot = site.world.fake, site.world, site.bot
    game = Game(world, bot)
    table = await game.start(world.alice, world.bob)
    alice = await signed_in(
        fake, site.base, site.http, world.alice, site.instance.instance_id, site.channel
    )
    carol = await signed_in(
        fake, site.base, site.http, world.carol, site.instance.instance_id, site.channel
    )
    before = table.move_count
    to_act = table.players[table.match.hand.turn].id if table.match else ""
    mover = alice if to_act == str(world.alice.id) else None
    frames = [
        "not json",
        "[1, 2]",
        json.dumps({"type": "move"}),
        json.dumps({"type": "move", "kind": "discard", "token": 1, "ref": 1, "seat": 1}),
        json.dumps({"type": "move", "kind": "teleport", "token": 1, "ref": 1}),
        json.dumps({"type": "move", "kind": "discard", "card": "ZZ", "token": 1, "ref": 1}),
        json.dumps({"type": "hello", "v": 1, "instance": "x", "channel": "1"}),
        json.dumps({"type": "nope"}),
        "x" * 3000,
    ]
    for text in frames:
        await carol.send_raw(text)
    await carol.wait(lambda: len(carol.errors()) >= len(frames), what="an error for each frame")
    codes = [e["code"] for e in carol.errors()]
    assert codes.count("bad_frame") == len(frames) - 1 and codes.count("too_large") == 1
    # A spectator's move, a stale token, a card not held: refused, with the reason.
    await carol.send({"type": "move", "kind": "draw_stock", "token": 0})
    await carol.wait(lambda: carol.errors()[-1]["code"] == "refused", what="the refusal")
    assert "not playing" in carol.errors()[-1]["message"]
    if mover is not None:
        await mover.move("draw_stock", token=12345)
        await mover.wait(
            lambda: mover.errors() and mover.errors()[-1]["code"] == "stale", what="stale"
        )
    await alice.send({"type": "answer", "accept": True})
    await alice.wait(
        lambda: alice.errors() and alice.errors()[-1]["code"] == "refused", what="no challenge"
    )
    assert table.move_count == before
    # A flood: refused frame by frame, then the socket is closed.
    for _ in range(40):
        await carol.send_raw(json.dumps({"type": "rematch", "ref": 1}))
    assert await carol.wait_closed() == 1008
    assert "too_fast" in [e["code"] for e in carol.errors()]
    assert table.move_count == before
    # A frame past the largest the server reads at all closes the socket at once.
    big = ActivityClient(site.base, site.http, str(world.bob.id))
    _, body = await big.exchange(fake.oauth_code(world.bob))
    await big.open(site.instance.instance_id, site.channel, token=body["access_token"])
    await big.wait(lambda: big.welcome, what="bob's welcome")
    await big.send_raw("y" * 70_000)
    assert await big.wait_closed() == 1009
    await alice.close()


async def test_without_the_web_settings_there_is_no_web_server(tmp_path: Path) -> None:
    fake = FakeDiscord(token=TOKEN)  # an application without an Activity
    await fake.start()
    world = card_room(fake, tmp_path / "gin.sqlite3")
    add_card_emojis(fake)
    with patch_discord(world.fake.http_base, world.fake.gateway_url):
        bot, task = await start_bot(world)
        try:
            assert bot.web is None and bot.config.web is None
            commands = fake.commands.list(None)
            assert [c["name"] for c in commands] == ["gin", "gin-season"]  # no /gin play
            gin = commands[0]
            assert "play" not in {o["name"] for o in gin["options"]}
        finally:
            await bot.close()
            await task
            await fake.stop()

"""The real page in headless Chromium, on the SDK's mock, against the bot and the fake Discord:
whole matches played by taps, drags and keys, a spectator who never sees a hidden card, every
mode, a table shared with DM buttons and slash commands, and a page framed only by Discord.

One browser for the module; each person a context of their own. The bot's seats fill the
others where a test is about the page rather than the people, so the matches stay short."""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.gin import Card
from bot.gin.cards import RANKS, SUITS
from bot.gin.match import Match
from bot.tables import Table
from bot.web.view import code
from tests.e2e.conftest import add_card_emojis, card_room
from tests.e2e.modes_driver import Seats, people
from tests.fakediscord import FakeDiscord, patch_discord
from tests.gin.players import choose
from tests.web.browser import PHONE, Person, chromium, need_chromium, open_person, page_url
from tests.web.conftest import SECRET, TOKEN, Site, start_web_bot, web_config

pytestmark = pytest.mark.asyncio(loop_scope="module")
ROOT = Path(__file__).resolve().parents[2]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Any]:
    need_chromium()
    async with chromium() as found:
        yield found


@pytest_asyncio.fixture(loop_scope="module")
async def site(tmp_path: Any) -> AsyncIterator[Site]:
    fake = FakeDiscord(token=TOKEN, client_secret=SECRET, mock_codes=True, activities=True)
    await fake.start()
    world = card_room(fake, tmp_path / "gin.sqlite3")
    add_card_emojis(fake)
    try:
        with patch_discord(fake.http_base, fake.gateway_url):
            bot, task = await start_web_bot(world, web_config(world.db_path))
            assert bot.web is not None
            bot.web.hub.rate = 1000.0  # the tests' people play far faster than people
            instance = fake.add_activity_instance(world.channel, people(world, 6))
            try:
                async with aiohttp.ClientSession() as http:
                    yield Site(bot, world, http, instance)
            finally:
                await bot.close()
                await task
    finally:
        await fake.stop()


async def person(browser: Any, site: Site, user: Any, **options: Any) -> Person:
    url = page_url(site.base, user, site.world.channel, site.instance.instance_id)
    return await open_person(browser, url, user.username, **options)


def named(card: Card) -> str:
    return RANKS[card.rank] + SUITS[card.suit]


def hidden_now(match: Match) -> set[Card]:
    """Cards held in this deal that no one has seen face up."""
    seen: set[Card] = set()
    held: set[Card] = set()
    for board in match.boards:
        seen.update(board.discard_pile)
        seen.update(a.card for a in board.public_actions() if a.card is not None)
        if not board.is_over:
            for cards in board.hands.values():
                held.update(cards)
    return held - seen


async def check_spectator(watcher: Person, table: Table) -> int:
    """Nothing hidden in the spectator's page or in any frame it received of this deal."""
    match = table.match
    if match is None:
        return 0
    hidden = hidden_now(match)
    number = match.hand_number
    # An open showdown shows the deal before this one (checked apart, in its frames).
    shown = set(await watcher.shown_cards(table_only=True))
    text = await watcher.text(table_only=True)
    for card in hidden:
        assert code(card) not in shown, (code(card), "in the spectator's page")
        assert named(card) not in text, (named(card), "in the spectator's page")
    checked = 0
    for frame in watcher.tables():
        assert frame["mine"] is None and frame["you"] is None
        if frame["hand"] != number:
            continue
        showdown = frame["showdown"]
        if showdown is not None and showdown["hand"] != number:
            frame = {**frame, "showdown": None}  # an earlier deal's cards
        text = json.dumps(frame, ensure_ascii=False)
        for card in hidden:
            assert f'"{code(card)}"' not in text and named(card) not in text
        checked += 1
    return checked


async def test_two_people_play_a_whole_match_while_a_third_watches(
    browser: Any, site: Site
) -> None:
    world, fake, bot = site.world, site.world.fake, site.bot
    result = await fake.slash(
        world.alice, world.channel, "gin challenge", opponent=world.bob, target=50
    )
    table = bot.service.in_channel(site.channel)
    assert table is not None and result.message is not None
    alice = await person(browser, site, world.alice, viewport=PHONE)
    bob = await person(browser, site, world.bob)
    carol = await person(browser, site, world.carol)
    # Bob accepts in the Activity.
    await bob.page.locator(".overlay .accept").click()
    await fake.wait_for(lambda: table.match is not None, what="the match to start")
    players = {str(world.alice.id): alice, str(world.bob.id): bob}
    rng = random.Random(5)
    moves = checks = 0
    while table.is_open:
        match = table.match
        assert match is not None
        await fake.wait_for(
            lambda: not table.is_open or (not table.lock.locked() and table.match.to_act()),
            what="someone's turn",
        )
        if not table.is_open:
            break
        seat = table.match.to_act()[0]
        who = players[table.players[seat].id]
        if not await who.my_turn():
            break
        await who.play_one(rng)
        await who.settled()
        moves += 1
        if moves % 5 == 0:
            checks += await check_spectator(carol, table)
        assert moves < 800
    for page in (alice, bob, carol):
        await page.page.wait_for_selector(".screen.status-finished")
    assert "Rematch" in await alice.text() and "Rematch" not in await carol.text()
    assert checks > 0 and not [
        c for p in (alice, bob, carol) for c in p.console if "Content Security" in c
    ]
    # The result reached Discord's channel as for any match.
    await fake.wait_for(
        lambda: any("Match over" in m.text for m in fake.channel_messages(world.channel)),
        what="the result in the channel",
    )
    # Alice asks for a rematch at the table; Bob accepts it there; it starts for all three.
    await alice.page.locator(".overlay .rematch").click()
    await bob.page.locator(".overlay .accept").click()
    rematch = await fake.wait_for(
        lambda: (t := bot.service.in_channel(site.channel)) is not None and t.match and t,
        what="the rematch to start",
    )
    assert rematch.id != table.id and rematch.server.rules.target == 50
    for page in (alice, bob, carol):
        await page.page.wait_for_selector(".screen.status-playing")
    for page in (alice, bob, carol):
        await page.close()


async def test_the_page_speaks_the_readers_language(browser: Any, site: Site) -> None:
    world, fake = site.world, site.world.fake
    await fake.slash(world.alice, world.channel, "gin practice", level="easy")
    url = page_url(site.base, world.carol, world.channel, site.instance.instance_id, "fr")
    carol = await open_person(browser, url, "carol")
    await carol.page.wait_for_selector(".watching")
    text = await carol.text()
    assert "Tu regardes cette table." in text and "Derniers coups" in text
    assert await carol.page.get_attribute("html", "lang") == "fr"
    await carol.close()


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "oklahoma"},
        {"variant": "hollywood"},
        {"mode": "three"},
        {"mode": "teams"},
        {"mode": "elimination", "players": 4},
    ],
    ids=["oklahoma", "hollywood", "three", "teams", "elimination"],
)
async def test_every_mode_plays_a_whole_match_in_the_activity(
    browser: Any, site: Site, options: dict[str, Any]
) -> None:
    world, fake, bot = site.world, site.world.fake, site.bot
    await fake.slash(world.alice, world.channel, "gin settings set", target=50, team_target=50)
    result = await fake.slash(world.alice, world.channel, "gin practice", level="easy", **options)
    assert not result.ephemeral, result.text
    table = bot.service.in_channel(site.channel)
    assert table is not None
    alice = await person(browser, site, world.alice)
    rng = random.Random(9)
    moves = 0
    while await alice.my_turn(timeout=30):
        await alice.play_one(rng)
        await alice.settled()
        moves += 1
        assert moves < 1500
    await alice.page.wait_for_selector(".screen.status-finished")
    assert table.match is not None and table.match.is_over and moves > 0
    await alice.close()


async def test_a_table_shared_by_the_activity_dm_buttons_and_slash_commands(
    browser: Any, site: Site
) -> None:
    world, fake, bot = site.world, site.world.fake, site.bot
    seats = Seats(world, bot, [world.alice, world.bob, world.carol])
    await seats.open(world.alice, "three", target=50)
    await seats.join_by_button(world.bob)
    await seats.join_by_command(world.carol)
    await seats.dealt()
    table = seats.table
    assert table is not None
    alice = await person(browser, site, world.alice)
    rng = random.Random(11)
    ways = {"activity": 0, "button": 0, "command": 0}
    while table.is_open:
        await fake.wait_for(
            lambda: not table.is_open or (not table.lock.locked() and table.match.to_act()),
            timeout=20,
            what="someone's turn",
        )
        if not table.is_open:
            break
        seat = table.match.to_act()[0]
        user = seats.user(seat)
        if user.id == world.alice.id:
            if not await alice.my_turn():
                break
            await alice.play_one(rng)
            await alice.settled()
            ways["activity"] += 1
            continue
        board = table.match.board_of(seat)
        assert board is not None
        action = choose(board, "knocker", rng)
        way = "button" if user.id == world.bob.id else "command"
        answer = await (seats.button(action) if way == "button" else seats.command(action))
        assert "⚠️" not in answer.text, answer.text
        ways[way] += 1
        assert sum(ways.values()) < 2000
    assert all(ways.values()), ways
    await alice.page.wait_for_selector(".screen.status-finished")
    await fake.wait_for(
        lambda: any("Match over" in m.text for m in fake.channel_messages(world.channel)),
        what="the result in the channel",
    )
    await alice.close()


async def test_only_discord_may_frame_the_page(browser: Any, site: Site) -> None:
    context = await browser.new_context()
    page = await context.new_page()
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text))
    async with site.http.get(f"{site.base}/") as response:
        assert "frame-ancestors https://discord.com" in response.headers["Content-Security-Policy"]
    # A page of another origin (here: about:blank's) that frames the Activity is refused.
    await page.set_content(f'<iframe id="f" src="{site.base}/?user_id=1"></iframe>')
    await asyncio.sleep(0)
    await page.wait_for_function("() => document.getElementById('f') !== null", timeout=5_000)
    framed = page.frames[1] if len(page.frames) > 1 else None
    deadline = asyncio.get_running_loop().time() + 5
    while not any("frame-ancestors" in text for text in refused):
        assert asyncio.get_running_loop().time() < deadline, refused
        await asyncio.sleep(0.05)
    if framed is not None:
        assert "Gin" not in await framed.content()
    await context.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def bot_process(fake: FakeDiscord, db: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        **fake.env(),
        "DISCORD_TOKEN": TOKEN,
        "GIN_DB": str(db),
        "GIN_DEV_GUILD": "",
        "GIN_BOT_DELAY": "0",
        "GIN_WEB_PORT": str(port),
        "GIN_WEB_HOST": "127.0.0.1",
        "GIN_CLIENT_SECRET": SECRET,
        "LOG_LEVEL": "WARNING",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.fakediscord.bootstrap", "bot"], cwd=ROOT, env=env
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


def stored_moves(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        row = connection.execute("SELECT max(move_count) FROM matches").fetchone()
    return int(row[0] or 0)


async def test_the_page_rides_out_a_restart_of_the_bot_mid_hand(
    browser: Any, tmp_path: Path
) -> None:
    fake = FakeDiscord(token=TOKEN, client_secret=SECRET, mock_codes=True, activities=True)
    await fake.start()
    world = card_room(fake, tmp_path / "gin.sqlite3")
    add_card_emojis(fake)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    instance = fake.add_activity_instance(world.channel, [world.alice]).instance_id
    rng = random.Random(21)
    try:
        with bot_process(fake, world.db_path, port):
            await fake.wait_until_connected(timeout=30)
            await fake.wait_for_command("gin", world.guild, timeout=30)
            started = await fake.slash(world.alice, world.channel, "gin practice", level="easy")
            assert not started.ephemeral, started.text
            alice = await open_person(
                browser, page_url(base, world.alice, world.channel, instance), "alice"
            )
            for _ in range(4):
                assert await alice.my_turn(timeout=30)
                await alice.play_one(rng)
                await alice.settled()
            before = stored_moves(world.db_path)
            signed_in_calls = fake.rest.requests["GET /users/@me"]
        # Killed mid-hand (SIGKILL): the socket drops and the page says so.
        await alice.page.wait_for_selector(".connection", timeout=15_000)
        with bot_process(fake, world.db_path, port):
            # The page comes back by itself, on its session: no new sign-in with Discord.
            await alice.page.wait_for_selector(".connection", state="detached", timeout=60_000)
            for _ in range(4):
                assert await alice.my_turn(timeout=30)
                await alice.play_one(rng)
                await alice.settled()
            await fake.wait_for(
                lambda: stored_moves(world.db_path) >= before + 4, what="the moves stored"
            )
            bot_calls = fake.rest.requests["GET /users/@me"] - signed_in_calls
            assert bot_calls <= 1  # the restarted bot's own login, and no page's
            await alice.close()
    finally:
        await fake.stop()


FORGE = """async ({hello, frames}) => {
    const ws = new WebSocket(`ws://${location.host}/api/ws`);
    const got = [];
    ws.onmessage = (event) => got.push(JSON.parse(event.data));
    await new Promise((resolve) => (ws.onopen = resolve));
    const closed = new Promise((resolve) => (ws.onclose = (event) => resolve(event.code)));
    if (hello) ws.send(JSON.stringify(hello));
    for (const frame of frames) ws.send(frame);
    const code = await Promise.race([closed, new Promise((r) => setTimeout(() => r(0), 5000))]);
    return {got, code};
}"""


async def test_forged_and_flooding_sockets_from_a_page_change_nothing(
    browser: Any, site: Site
) -> None:
    world, fake, bot = site.world, site.world.fake, site.bot
    assert bot.web is not None
    bot.web.hub.rate = 8.0  # a person's allowance, as in production
    await fake.slash(world.alice, world.channel, "gin practice", level="easy")
    table = bot.service.in_channel(site.channel)
    assert table is not None
    carol = await person(browser, site, world.carol)
    stored = len(await bot.store.moves(table.id))
    # No hello: a move is refused and the socket closed.
    move = json.dumps({"type": "move", "kind": "draw_stock", "token": 1, "ref": 1})
    forged = await carol.page.evaluate(FORGE, {"hello": None, "frames": [move]})
    assert forged["got"][0]["code"] == "not_authenticated" and forged["code"] == 4002
    # Carol's own session (from her page's welcome): her moves are not a seat's, junk and
    # oversized frames are refused, and a flood closes the socket.
    session = next(f["session"] for f in carol.frames if f["type"] == "welcome")
    hello = {
        "type": "hello",
        "v": 1,
        "instance": site.instance.instance_id,
        "channel": site.channel,
        "session": session,
    }
    frames = [move, "junk", "x" * 5000, *[json.dumps({"type": "rematch", "ref": 2})] * 40]
    flood = await carol.page.evaluate(FORGE, {"hello": hello, "frames": frames})
    codes = [f.get("code") for f in flood["got"] if f["type"] == "error"]
    assert flood["got"][0]["type"] == "welcome"
    assert {"refused", "bad_frame", "too_large", "too_fast"} <= set(codes), codes
    assert flood["code"] == 1008
    # Nothing changed: every move stored since is the bot's own.
    since = (await bot.store.moves(table.id))[stored:]
    assert all(m.seat in table.bot_seats for m in since), since
    await carol.close()

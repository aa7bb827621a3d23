"""Card emojis through the fake Discord: made once, found again, text when Discord fails."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord
import pytest

from bot.art.cards import CardImages, emoji_name
from bot.client import GinBot
from bot.emojis import CardEmojis
from bot.gin import DECK
from bot.gin.hand import ActionKind, Phase
from bot.pacing import Budget, install
from tests.e2e.conftest import World, start_bot
from tests.e2e.driver import Game
from tests.e2e.helpers_inputs import card_tokens, quiet_move, start_game
from tests.fakediscord import FakeDiscord, patch_discord, payload_text
from tests.fakediscord.models import png_bytes
from tests.gin.players import choose

TOKEN = "fake-card-emoji-token"
CARD_TOKEN_TEXT = re.compile(r"(?<![0-9])(?:10|[2-9AJQK])[♠♥♦♣]")  # cards written as text
LIST = "GET /applications/{}/emojis"
CREATE = "POST /applications/{}/emojis"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
NAMES = [f"gin_{rank}{suit}" for suit in "SHDC" for rank in RANKS] + ["gin_back"]
# A different tiny PNG per card, as the real art would be.
IMAGES = {name: png_bytes(2, 2, (index, 255 - index, 7)) for index, name in enumerate(NAMES)}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(token=TOKEN)
    await fake.start()
    try:
        with patch_discord(fake.http_base, fake.gateway_url):
            yield fake
    finally:
        await fake.stop()
    assert fake.unknown_routes == []


@pytest.fixture
async def client(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A discord.py client logged in to the fake: emojis need REST only, no gateway."""
    async with logged_in() as client:
        yield client


@contextlib.asynccontextmanager
async def logged_in(**options: Any) -> AsyncIterator[discord.Client]:
    """A client with the bot's REST budget, as the bot syncs its emojis (the fake enforces
    Discord's rate limits)."""
    client = discord.Client(intents=discord.Intents.none(), **options)
    install(client, Budget())
    await client.login(TOKEN)
    try:
        yield client
    finally:
        await client.close()


@pytest.fixture
def registry() -> Iterator[CardEmojis]:
    emojis = CardEmojis()
    yield emojis
    emojis.stop()  # a request left waiting out a long 429 is not left for the next test


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.emojis" and r.levelno >= logging.WARNING
    ]


def assert_matches_the_fake(fake: FakeDiscord, emojis: CardEmojis, names: list[str]) -> None:
    for name in names:
        stored = fake.application_emoji(name)
        assert stored is not None, name
        emoji = emojis.emoji(name)
        assert emoji is not None and (emoji.id, emoji.name) == (stored.id, name)
        assert emojis.mention(name, "?") == f"<:{name}:{stored.id}>"


async def test_the_first_start_creates_every_card_and_the_next_none(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """The real bot: all 53 made from its own art on the first start, found (not made again)
    after a restart, and the cards of a hand shown as those emojis."""
    caplog.set_level(logging.INFO, logger="bot.emojis")
    fake = world.fake
    fake.store.application_emojis.clear()  # a bot that never ran: no emojis yet
    with patch_discord(fake.http_base, fake.gateway_url):
        bot, task = await start_bot(world)
        try:
            first = bot.card_emojis
            assert first.ready
            assert fake.rest.requests[CREATE] == 53 and fake.rest.requests[LIST] == 1
            assert sorted(e.name for e in fake.application_emojis()) == sorted(NAMES)
            assert [e.image for e in fake.application_emojis()] == [CardImages()[n] for n in NAMES]
            assert_matches_the_fake(fake, first, NAMES)
        finally:
            await bot.close()
            await task

        bot, task = await start_bot(world)  # a restart, on the same fake
        try:
            second = bot.card_emojis
            assert second.ready
        finally:
            await bot.close()
            await task
    assert fake.rest.requests[CREATE] == 53, "the second start created emojis again"
    assert fake.rest.requests[LIST] == 2
    assert_matches_the_fake(fake, second, NAMES)
    assert second.emoji("gin_7H") == first.emoji("gin_7H")
    assert warnings(caplog) == []
    assert "all 53 ready (0 created now)" in caplog.text
    assert fake.unknown_routes == []


async def test_a_partial_set_gets_only_the_rest(
    fake: FakeDiscord, client: discord.Client, registry: CardEmojis
) -> None:
    earlier = {name: fake.add_application_emoji(name, IMAGES[name]).id for name in NAMES[::3]}
    fake.add_application_emoji("someone_elses", png_bytes())  # other emojis are left alone
    await registry.sync(client, IMAGES)
    assert fake.rest.requests[CREATE] == 53 - len(earlier)
    assert len(fake.application_emojis()) == 54
    assert_matches_the_fake(fake, registry, NAMES)
    for name, emoji_id in earlier.items():
        assert registry.mention(name, name) == f"<:{name}:{emoji_id}>"


async def test_start_sync_runs_once_in_the_background(
    fake: FakeDiscord, client: discord.Client, registry: CardEmojis
) -> None:
    task = registry.start_sync(client, IMAGES)
    assert isinstance(task, asyncio.Task) and not task.done()
    assert registry.start_sync(client, IMAGES) is task  # another on_ready: the same sync
    await task
    assert registry.ready
    assert registry.start_sync(client, IMAGES) is task
    await asyncio.sleep(0)
    assert fake.rest.requests[LIST] == 1 and fake.rest.requests[CREATE] == 53


@pytest.mark.parametrize("status", [500, 503, 403])
async def test_a_failing_list_leaves_text(
    fake: FakeDiscord,
    client: discord.Client,
    registry: CardEmojis,
    caplog: pytest.LogCaptureFixture,
    status: int,
) -> None:
    """A 500 is retried by discord.py for some 25 s: the per-request limit gives up first."""
    rule = fake.inject_fault("GET", "/emojis", status=status, count=FakeDiscord.FOREVER)
    started = time.monotonic()
    await registry.sync(client, IMAGES, request_seconds=1.0)
    assert time.monotonic() - started < 5
    assert rule.hits >= 1
    assert registry.ready
    assert registry.emoji("gin_7H") is None
    assert registry.mention("gin_7H", "7♥") == "7♥"
    assert fake.rest.requests[CREATE] == 0, "created emojis without knowing which exist"
    [line] = warnings(caplog)
    assert "53 of 53 cards have none" in line and "as text" in line
    assert "listing the application's emojis" in line


async def test_a_long_429_on_create_stops_early(
    fake: FakeDiscord,
    client: discord.Client,
    registry: CardEmojis,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """discord.py would wait out a 60 s retry; the sync stops instead, keeps what it has.
    (The default 30 s per request is what tells a long retry; the test takes 0.5 s.)"""
    sync = asyncio.create_task(registry.sync(client, IMAGES, request_seconds=0.5))
    await fake.wait_for(lambda: len(fake.application_emojis()) >= 5)
    fake.inject_rate_limit("POST", "/emojis", retry_after=60.0, count=1)
    started = time.monotonic()
    await sync
    assert time.monotonic() - started < 5
    made = len(fake.application_emojis())
    assert 5 <= made < 53
    await asyncio.sleep(0.3)
    assert len(fake.application_emojis()) == made, "went on creating after the 429"
    assert fake.rest.requests[CREATE] == made + 1
    have = [n for n in NAMES if registry.emoji(n) is not None]
    assert len(have) == made
    missing = [n for n in NAMES if n not in have]
    assert all(registry.mention(n, n.upper()) == n.upper() for n in missing)
    assert_matches_the_fake(fake, registry, have)
    [line] = warnings(caplog)
    assert f"{53 - made} of 53 cards have none" in line and "took over 0.5 s" in line
    assert await client.fetch_application_emojis()  # the client still works meanwhile


async def test_a_long_429_the_client_refuses_to_wait_stops_at_once(
    fake: FakeDiscord, registry: CardEmojis, caplog: pytest.LogCaptureFixture
) -> None:
    """With `max_ratelimit_timeout` set, discord.py raises RateLimited: no wait at all."""
    for name in NAMES[:10]:
        fake.add_application_emoji(name, IMAGES[name])
    rule = fake.inject_rate_limit("POST", "/emojis", retry_after=45.0, count=1)
    started = time.monotonic()
    async with logged_in(max_ratelimit_timeout=30.0) as client:
        await registry.sync(client, IMAGES)
    assert time.monotonic() - started < 5
    assert rule.hits == 1 and fake.rest.requests[CREATE] == 1
    assert len(fake.application_emojis()) == 10
    assert_matches_the_fake(fake, registry, NAMES[:10])
    assert registry.mention(NAMES[10], "fallback") == "fallback"
    [line] = warnings(caplog)
    assert "43 of 53 cards have none" in line
    assert f"creating {NAMES[10]} failed: rate limited for 45 s" in line


async def test_short_429s_are_waited_out(
    fake: FakeDiscord, client: discord.Client, registry: CardEmojis
) -> None:
    rule = fake.inject_rate_limit("POST", "/emojis", retry_after=0.05, count=3)
    await registry.sync(client, IMAGES)
    assert rule.hits == 3
    assert fake.rest.requests[CREATE] == 53 + 3
    assert_matches_the_fake(fake, registry, NAMES)


async def test_the_emoji_limit_stops_the_uploads(
    fake: FakeDiscord,
    client: discord.Client,
    registry: CardEmojis,
    caplog: pytest.LogCaptureFixture,
) -> None:
    for number in range(1990):
        fake.add_application_emoji(f"other_{number}")
    await registry.sync(client, IMAGES)
    assert fake.rest.requests[CREATE] == 11  # ten made, then 30008: no point going on
    assert_matches_the_fake(fake, registry, NAMES[:10])
    [line] = warnings(caplog)
    assert "43 of 53 cards have none" in line and "code 30008" in line


async def test_one_refused_image_does_not_stop_the_others(
    fake: FakeDiscord,
    client: discord.Client,
    registry: CardEmojis,
    caplog: pytest.LogCaptureFixture,
) -> None:
    images = dict(IMAGES)
    images["gin_7H"] = png_bytes() + bytes(300 * 1024)  # over Discord's 256 KiB
    images["gin_8H"] = b"not a picture at all"
    await registry.sync(client, images)
    # Neither the picture too big for Discord nor the non-picture left the bot.
    assert fake.rest.requests[CREATE] == 51
    assert_matches_the_fake(fake, registry, [n for n in NAMES if n not in ("gin_7H", "gin_8H")])
    assert registry.mention("gin_7H", "7♥") == "7♥"
    [line] = warnings(caplog)
    assert "2 of 53 cards have none" in line
    assert "gin_7H (over 256 KiB)" in line and "gin_8H (not an image)" in line


async def test_an_image_discord_refuses_does_not_stop_the_others(
    fake: FakeDiscord,
    client: discord.Client,
    registry: CardEmojis,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake.inject_fault("POST", "/emojis", status=400, code=50035, count=1)
    await registry.sync(client, IMAGES)
    assert fake.rest.requests[CREATE] == 53
    assert_matches_the_fake(fake, registry, NAMES[1:])
    [line] = warnings(caplog)
    assert "1 of 53 cards have none" in line
    assert f"{NAMES[0]} (HTTP 400, code 50035" in line


async def test_the_whole_sync_has_a_time_limit(
    fake: FakeDiscord,
    client: discord.Client,
    registry: CardEmojis,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake.inject_rate_limit("POST", "/emojis", retry_after=0.2, count=FakeDiscord.FOREVER)
    started = time.monotonic()
    await registry.sync(client, IMAGES, seconds=0.5)
    assert time.monotonic() - started < 3
    assert fake.application_emojis() == []
    [line] = warnings(caplog)
    assert "ran out of its 0.5 s" in line


async def test_a_client_that_never_logged_in(
    registry: CardEmojis, caplog: pytest.LogCaptureFixture
) -> None:
    client = discord.Client(intents=discord.Intents.none())
    await registry.sync(client, IMAGES)
    assert registry.ready and registry.emoji("gin_back") is None
    [line] = warnings(caplog)
    assert "no application id" in line


async def test_an_upload_given_up_on_still_counts_when_it_lands(
    fake: FakeDiscord, client: discord.Client, registry: CardEmojis
) -> None:
    """The request behind a 429 is not cancelled (that could jam discord.py's global lock);
    when it does go through, its emoji is taken."""
    fake.inject_rate_limit("POST", "/emojis", retry_after=0.6, count=1)
    await registry.sync(client, IMAGES, request_seconds=0.2)
    first = NAMES[0]
    assert registry.emoji(first) is None and fake.application_emojis() == []
    await fake.wait_for(lambda: fake.application_emoji(first), timeout=3)
    await fake.wait_for(lambda: registry.emoji(first), timeout=1)
    assert_matches_the_fake(fake, registry, [first])
    assert fake.rest.requests[CREATE] == 2  # the 429, then the retry: nothing after it


async def test_stop_cancels_a_sync_under_way(
    fake: FakeDiscord, client: discord.Client, caplog: pytest.LogCaptureFixture
) -> None:
    emojis = CardEmojis()
    fake.inject_rate_limit("POST", "/emojis", retry_after=60.0, count=1)
    task = emojis.start_sync(client, IMAGES)
    await fake.wait_for(lambda: fake.rest.requests[CREATE] == 1)
    emojis.stop()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert emojis.ready and fake.application_emojis() == []
    assert warnings(caplog) == []


async def test_a_hand_shows_its_cards_as_emojis_and_menus_keep_their_text(
    world: World, bot: GinBot
) -> None:
    """The DM hand's cards and the discard pile are emojis; each card option of the menus
    has its emoji beside a label that keeps the card's text, which a player reads."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob)
    hand = game.match.hand
    seat = hand.turn
    entry = table.display["hands"][str(seat)]
    await fake.wait_for(
        lambda: "<:gin_" in payload_text(fake.message(entry["message"]).versions[-1]),
        what="the hand drawn with emojis",
    )
    text = payload_text(fake.message(entry["message"]).versions[-1])
    assert card_tokens(text) >= set(hand.hands[seat])
    canonical = {c for c in card_tokens(" ".join(CARD_TOKEN_TEXT.findall(text)))}
    assert not canonical & set(hand.hands[seat]), text  # the hand's cards are all emojis
    for card in hand.hands[seat]:
        assert bot.card_emojis.card(card) in text
    rng = random.Random(3)
    while game.match.hand.phase is not Phase.DISCARD:  # play on until a discard menu shows
        await game.button(choose(game.match.hand, "knocker", rng))
    seat = game.match.hand.turn
    message = await game.wait_for_buttons(seat)
    options = [
        option
        for row in message.versions[-1].get("components") or []
        for item in row.get("components") or []
        for option in item.get("options") or []
    ]
    assert options, "no card menu"
    discards = [o for o in options if "deadwood" in str(o.get("description"))]
    left = [int(str(o["description"]).rsplit(" ", 1)[-1]) for o in discards]
    assert left == sorted(left), "the discard menu is not best first"
    assert str(discards[0]["description"]).startswith("★ best"), discards[0]
    for option in options:
        card = DECK[int(option["value"])]
        assert str(card) in option["label"]
        assert option["emoji"]["name"] == emoji_name(card)
        assert int(option["emoji"]["id"]) == fake.application_emoji(emoji_name(card)).id


async def test_every_card_a_player_reads_is_a_picture_where_the_hand_shows_pictures(
    world: World, bot: GinBot
) -> None:
    """The hand's note ("You drew …"), its hints ("take the upcard …", "Hint: discarding
    …"), the others' turns it retells, the table's log, and the buttons of a card (Take,
    Knock) show the card's picture: no card a player reads is written as text beside
    pictures (the menus' labels keep the text, for typing)."""
    fake = world.fake
    game = Game(world, bot)
    table = await start_game(game, world.alice, world.bob, target=500)
    rng = random.Random(5)
    number = game.match.hand_number
    pictured: set[str] = set()
    while game.match.hand_number == number and len(game.match.hand.actions) < 24:
        hand = game.match.hand
        message = await game.wait_for_buttons(hand.turn)
        text = payload_text(message.versions[-1])
        assert not CARD_TOKEN_TEXT.findall(text), text
        for row in message.versions[-1].get("components") or []:
            for item in row.get("components") or []:
                kind = str(item.get("custom_id", "")).rsplit(":", 1)[-1]
                if item.get("type") == 2 and (kind == "take" or kind.startswith("knock")):
                    card = hand.upcard if kind == "take" else DECK[int(kind[5:] or 0)]
                    assert card is not None and item["emoji"]["name"] == emoji_name(card)
                    pictured.add(kind[:4])
        action = choose(hand, "knocker", rng)
        if action.kind in (ActionKind.KNOCK, ActionKind.BIG_GIN):
            action = quiet_move(hand)  # the hand goes on: its table keeps its log
        await game.button(action)
    assert "take" in pictured
    public = fake.message(table.display["public"])

    def logged() -> str | None:
        text = payload_text(public.versions[-1])
        return text if "discarded" in text and text.startswith("Gin Rummy") else None

    text = await fake.wait_for(logged, timeout=30, what="the table's log")
    assert not CARD_TOKEN_TEXT.findall(text), text

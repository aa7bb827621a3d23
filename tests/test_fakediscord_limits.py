"""The fake Discord enforces Discord's rate limits: the global one and per-route buckets."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import discord
from discord.http import Route

from tests.fakediscord import FakeDiscord, RateLimits, RouteLimit
from tests.fakediscord.limits import Limiter

TOKEN = "fake-bot-token"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_global_limit_counts_a_sliding_second_and_leaves_interactions_out() -> None:
    clock = Clock()
    limiter = Limiter(RateLimits(global_per_second=3, routes=()), clock)
    route = "/channels/{}/messages/{}"
    for _ in range(3):
        assert (
            limiter.check("PATCH", "/api/v10/channels/1/messages/2", route, "1").retry_after is None
        )
    refused = limiter.check("PATCH", "/api/v10/channels/1/messages/2", route, "1")
    assert refused.is_global and refused.retry_after == 1.0
    for exempt in ("/api/v10/interactions/5/tok/callback", "/api/v10/webhooks/9/tok"):
        assert limiter.check("POST", exempt, "/interactions", "").retry_after is None
    clock.now += 0.5
    assert limiter.check("GET", "/api/v10/users/@me", "/users/@me", "").retry_after
    clock.now += 0.51
    assert limiter.check("GET", "/api/v10/users/@me", "/users/@me", "").retry_after is None
    assert limiter.global_429s == 2 and limiter.peak_per_second == 3


def test_message_creation_has_a_bucket_per_channel_with_headers() -> None:
    clock = Clock()
    limiter = Limiter(RateLimits(global_per_second=None), clock)
    route, path = "/channels/{}/messages", "/api/v10/channels/{}/messages"
    first = limiter.check("POST", path.format(1), route, "1")
    assert first.headers["X-RateLimit-Limit"] == "5"
    assert first.headers["X-RateLimit-Remaining"] == "4"
    assert first.headers["X-RateLimit-Reset-After"] == "5.000"
    assert first.headers["X-RateLimit-Bucket"]
    for _ in range(4):
        clock.now += 0.1
        assert limiter.check("POST", path.format(1), route, "1").retry_after is None
    clock.now += 0.1
    refused = limiter.check("POST", path.format(1), route, "1")
    assert refused.retry_after is not None and abs(refused.retry_after - 4.5) < 1e-9
    assert not refused.is_global and refused.headers["X-RateLimit-Scope"] == "user"
    other = limiter.check("POST", path.format(2), route, "2")  # another channel's bucket
    assert other.retry_after is None and other.headers["X-RateLimit-Remaining"] == "4"
    clock.now += 4.6  # the window that began with the first message is over
    assert limiter.check("POST", path.format(1), route, "1").retry_after is None
    assert limiter.route_429s == {"POST /channels/{}/messages": 1}


async def test_answers_carry_what_discord_py_reads() -> None:
    limits = RateLimits(global_per_second=4, routes=(RouteLimit("GET", "/users/@me", 2, 5.0),))
    async with (
        FakeDiscord(token=TOKEN, rate_limits=limits) as fake,
        aiohttp.ClientSession() as http,
    ):
        headers = {"Authorization": f"Bot {TOKEN}"}
        answers: list[tuple[int, Any, Any]] = []
        for _ in range(3):
            async with http.get(f"{fake.http_base}/users/@me", headers=headers) as resp:
                answers.append((resp.status, resp.headers.copy(), await resp.json()))
        assert [status for status, _, _ in answers] == [200, 200, 429]
        assert answers[1][1]["X-RateLimit-Remaining"] == "0"
        _, head, body = answers[2]
        assert head["Via"] and head["Content-Type"] == "application/json"
        assert body["global"] is False and 0 < body["retry_after"] <= 5
        async with http.get(f"{fake.http_base}/gateway", headers=headers) as resp:
            assert resp.status == 200
        async with http.get(f"{fake.http_base}/gateway", headers=headers) as resp:
            assert resp.status == 429
            body = await resp.json()
            assert body["global"] is True and resp.headers["X-RateLimit-Global"] == "true"
            assert resp.headers["X-RateLimit-Scope"] == "global"
        assert fake.rest.limiter.global_429s == 1


async def test_discord_py_waits_for_the_bucket_instead_of_hitting_it() -> None:
    """Seven messages in one channel: discord.py reads the headers, sends five, waits for the
    window to end, sends the rest, and never gets a 429."""
    limits = RateLimits(routes=(RouteLimit("POST", "/channels/{}/messages", 5, 1.0),))
    async with FakeDiscord(token=TOKEN, rate_limits=limits) as fake:
        owner = fake.add_user("owner")
        channel = fake.add_channel(fake.add_guild("G", owner), "c")
        Route.BASE = fake.http_base
        try:
            http = discord.http.HTTPClient(asyncio.get_running_loop())
            await http.static_login(TOKEN)
            started = time.monotonic()
            route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
            for n in range(7):
                await http.request(route, json={"content": f"m{n}"})
            elapsed = time.monotonic() - started
            await http.close()
        finally:
            Route.BASE = "https://discord.com/api/v10"
        assert fake.rest.limiter.route_429s == {}
        assert 0.9 < elapsed < 3.0
        assert len(fake.channel_messages(channel)) == 7


def test_discords_figures_are_the_limits_and_the_default() -> None:
    on = FakeDiscord()
    assert on.rate_limits.global_per_second == 50
    assert on.rate_limits.routes[0].limit == 5
    off = FakeDiscord(rate_limits=RateLimits.off())
    assert off.rate_limits.global_per_second is None and off.rate_limits.routes == ()

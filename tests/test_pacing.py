"""The REST budget: never more calls in a sliding second than it allows, the most urgent
first, a share of every second kept for players, deletions dropped when they wait too long."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.config import Config, ConfigError, Shards, load_config
from bot.pacing import SHARE, WINDOW, Budget, Dropped, Priority, install, priority


async def call_now(budget: Budget, level: Priority) -> None:
    """A call that ends as soon as its turn comes (its answer is instant)."""
    budget.finish(await budget.acquire(level))


def most_in_a_second(times: list[float]) -> int:
    """The most of these moments that fall within one sliding second."""
    ordered = sorted(times)
    most, start = 0, 0
    for end, moment in enumerate(ordered):
        while moment - ordered[start] >= 1.0:
            start += 1
        most = max(most, end - start + 1)
    return most


async def test_no_sliding_second_holds_more_calls_than_the_budget() -> None:
    budget = Budget(20)
    granted: list[float] = []

    async def call() -> None:
        await call_now(budget, Priority.TURN)
        granted.append(time.monotonic())

    started = time.monotonic()
    await asyncio.gather(*(call() for _ in range(50)))
    assert len(granted) == 50
    assert most_in_a_second(granted) <= 20
    assert time.monotonic() - started >= 2.0  # 50 calls at 20 a second: two more windows


async def test_a_call_counts_until_a_second_after_its_answer() -> None:
    """A slow answer keeps its call in the window: however late a request reaches Discord,
    no second of Discord's sees more than the budget."""
    budget = Budget(1)
    slow = await budget.acquire(Priority.TURN)
    after = asyncio.create_task(call_now(budget, Priority.TURN))
    await asyncio.sleep(WINDOW + 0.2)
    assert not after.done()  # the slow call is still under way: it still counts
    ended = time.monotonic()
    budget.finish(slow)
    await after
    assert time.monotonic() - ended >= WINDOW * 0.95  # it counted a second after its answer


async def test_a_call_granted_but_never_made_frees_its_place() -> None:
    budget = Budget(1)
    async with budget.spend(Priority.SPECTATOR):
        pass  # the state it was for had gone: no request used the turn
    started = time.monotonic()
    await call_now(budget, Priority.TURN)
    assert time.monotonic() - started < WINDOW + 0.3


async def test_a_burst_is_spread_over_the_second() -> None:
    """No more than a fifth of the budget starts in any fifth of a second."""
    budget = Budget(20)
    granted: list[float] = []

    async def call() -> None:
        await call_now(budget, Priority.TURN)
        granted.append(time.monotonic())

    await asyncio.gather(*(call() for _ in range(20)))
    ordered = sorted(granted)
    for i in range(len(ordered) - 8):
        assert ordered[i + 8] - ordered[i] >= 0.19  # 8 calls at most in any 0.2 s
    assert ordered[-1] - ordered[0] < 1.5


async def test_waiting_calls_start_most_urgent_first() -> None:
    budget = Budget(4)
    for _ in range(4):  # the window is full
        await call_now(budget, Priority.TURN)
    order: list[str] = []

    async def call(level: Priority, name: str) -> None:
        await call_now(budget, level)
        order.append(name)

    tasks = [
        asyncio.create_task(call(Priority.HOUSEKEEPING, "delete")),
        asyncio.create_task(call(Priority.SPECTATOR, "public table")),
        asyncio.create_task(call(Priority.RESULT, "showdown")),
        asyncio.create_task(call(Priority.TURN, "hand-off")),
    ]
    await asyncio.gather(*tasks)
    assert order[0] == "hand-off"
    assert order.index("showdown") < order.index("public table") < order.index("delete")


async def test_spectators_leave_part_of_each_second_to_players() -> None:
    budget = Budget(10)
    granted: list[float] = []

    async def spectator() -> None:
        await call_now(budget, Priority.SPECTATOR)
        granted.append(time.monotonic())

    started = time.monotonic()
    tasks = [asyncio.create_task(spectator()) for _ in range(10)]
    await asyncio.sleep(0.9)
    assert len(granted) == int(SHARE[Priority.SPECTATOR] * 10)  # 8 of 10 in this second
    player_started = time.monotonic()
    await call_now(budget, Priority.TURN)  # a player's call still finds room at once
    assert time.monotonic() - player_started < 0.2
    await asyncio.gather(*tasks)
    assert time.monotonic() - started >= 0.9


async def test_a_deletion_that_waits_too_long_is_dropped() -> None:
    budget = Budget(1)
    await call_now(budget, Priority.TURN)
    with pytest.raises(Dropped):
        await budget.acquire(Priority.HOUSEKEEPING, drop_after=0.1)
    assert budget.dropped == 1
    await call_now(budget, Priority.TURN)  # the dropped call left no hole in the queue
    assert budget.waiting == 0


async def test_a_call_waits_its_turn_before_its_payload_is_made() -> None:
    """``spend``: the first request inside uses the turn already waited for."""
    budget = Budget(5)
    async with budget.spend(Priority.SPECTATOR):
        await budget.before_request("/channels/1/messages/2")  # prepaid
        assert budget.granted[Priority.SPECTATOR] == 1
        await budget.before_request("/channels/1/messages/3")  # a second one waits its own
        assert budget.granted[Priority.SPECTATOR] == 2


class HTTP:
    """The part of discord.py's HTTP client that ``install`` works with."""

    def __init__(self, session: aiohttp.ClientSession, base: str) -> None:
        self._HTTPClient__session = session
        self.base = base

    async def request(self, route: str, **kwargs: Any) -> int:
        async with self._HTTPClient__session.request("POST", self.base + route) as response:
            return response.status


class Client:
    def __init__(self, http: HTTP) -> None:
        self.http = http


async def test_every_request_but_interaction_answers_waits_in_the_budget() -> None:
    """Counted as it is sent, each try of it; interaction answers (on the same session, as
    discord.py sends them) pass at once."""
    seen: list[str] = []

    async def answer(request: web.Request) -> web.Response:
        seen.append(request.path)
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    budget = Budget(100)
    try:
        async with aiohttp.ClientSession() as session:
            http = HTTP(session, f"http://127.0.0.1:{port}/api/v10")
            install(Client(http), budget)
            with priority(Priority.SPECTATOR):
                assert await http.request("/channels/1/messages/2") == 200
            async with session.post(f"{http.base}/interactions/3/tok/callback") as response:
                assert response.status == 200  # an interaction answer, as discord.py sends it
            await http.request("/webhooks/4/tok")
            await http.request("/channels/1/messages")
    finally:
        await runner.cleanup()
    assert len(seen) == 4
    assert budget.under_way == 0  # each request's end was seen: it counts a second more
    assert budget.granted[Priority.SPECTATOR] == 1
    assert budget.granted[Priority.OTHER] == 1
    assert sum(budget.granted.values()) == 2


def config(shards: Shards | None, per_second: float = 45.0) -> Config:
    return Config(
        token="t",
        db_path=Path("x"),
        dev_guild=None,
        log_level="INFO",
        shards=shards,
        rest_per_second=per_second,
    )


def test_each_process_takes_its_shards_share_of_the_token_budget() -> None:
    assert config(None).rest_share == 45.0
    assert config(Shards(count=4, ids=(0, 1))).rest_share == pytest.approx(22.5)
    assert config(Shards(count=3, ids=(2,)), 90.0).rest_share == pytest.approx(30.0)


def test_the_budget_setting_is_read_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "a.b.c")
    monkeypatch.setenv("GIN_REST_PER_SECOND", "120")
    assert load_config(None).rest_per_second == 120.0
    monkeypatch.delenv("GIN_REST_PER_SECOND")
    assert load_config(None).rest_per_second == 45.0
    for wrong in ("fast", "0", "-3", "1e9"):
        monkeypatch.setenv("GIN_REST_PER_SECOND", wrong)
        with pytest.raises(ConfigError, match="GIN_REST_PER_SECOND"):
            load_config(None)

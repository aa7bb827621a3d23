"""The REST budget: never more calls in a sliding second than it allows, the most urgent
first, a share of every second kept for players, deletions dropped when they wait too long."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config, ConfigError, Shards, load_config
from bot.pacing import SHARE, Budget, Dropped, Priority, install, priority


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
        await budget.acquire(Priority.TURN)
        granted.append(time.monotonic())

    started = time.monotonic()
    await asyncio.gather(*(call() for _ in range(50)))
    assert len(granted) == 50
    assert most_in_a_second(granted) <= 20
    assert time.monotonic() - started >= 2.0  # 50 calls at 20 a second: two more windows


async def test_waiting_calls_start_most_urgent_first() -> None:
    budget = Budget(4)
    for _ in range(4):  # the window is full
        await budget.acquire(Priority.TURN)
    order: list[str] = []

    async def call(level: Priority, name: str) -> None:
        await budget.acquire(level)
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
        await budget.acquire(Priority.SPECTATOR)
        granted.append(time.monotonic())

    started = time.monotonic()
    tasks = [asyncio.create_task(spectator()) for _ in range(10)]
    await asyncio.sleep(0.3)
    assert len(granted) == int(SHARE[Priority.SPECTATOR] * 10)  # 8 of 10 in this second
    player_started = time.monotonic()
    await budget.acquire(Priority.TURN)  # a player's call still finds room at once
    assert time.monotonic() - player_started < 0.2
    await asyncio.gather(*tasks)
    assert time.monotonic() - started >= 0.9


async def test_a_deletion_that_waits_too_long_is_dropped() -> None:
    budget = Budget(1)
    await budget.acquire(Priority.TURN)
    with pytest.raises(Dropped):
        await budget.acquire(Priority.HOUSEKEEPING, drop_after=0.1)
    assert budget.dropped == 1
    await budget.acquire(Priority.TURN)  # the dropped call left no hole in the queue
    assert budget.waiting == 0


async def test_a_call_waits_its_turn_before_its_payload_is_made() -> None:
    """``spend``: the first request inside uses the turn already waited for."""
    budget = Budget(5)
    async with budget.spend(Priority.SPECTATOR):
        await budget.before_request("/channels/1/messages/2")  # prepaid
        assert budget.granted[Priority.SPECTATOR] == 1
        await budget.before_request("/channels/1/messages/3")  # a second one waits its own
        assert budget.granted[Priority.SPECTATOR] == 2


class FakeHTTP:
    def __init__(self) -> None:
        self.paths: list[str] = []

    async def request(self, route: Any, **kwargs: Any) -> str:
        self.paths.append(route.path)
        return "answered"


class Route:
    def __init__(self, path: str) -> None:
        self.path = path


class Client:
    def __init__(self) -> None:
        self.http = FakeHTTP()


async def test_every_request_but_interaction_answers_waits_in_the_budget() -> None:
    budget = Budget(100)
    client = Client()
    install(client, budget)
    with priority(Priority.SPECTATOR):
        assert await client.http.request(Route("/channels/{channel_id}/messages")) == "answered"
    await client.http.request(Route("/interactions/{interaction_id}/{token}/callback"))
    await client.http.request(Route("/webhooks/{webhook_id}/{token}"))
    assert client.http.paths[0] == "/channels/{channel_id}/messages"
    assert len(client.http.paths) == 3
    assert budget.granted[Priority.SPECTATOR] == 1
    assert sum(budget.granted.values()) == 1


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

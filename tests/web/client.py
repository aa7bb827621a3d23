"""A client of the Activity's web server as the page is one: the code exchange, the socket, the
hello, and the frames that come back, each checked against its schema."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from typing import Any

import aiohttp

from bot.web.protocol import check_server_frame
from tests.fakediscord import FakeDiscord, User

Frame = dict[str, Any]


class ActivityClient:
    """One open page: its socket, every frame it received, and the newest table."""

    def __init__(
        self, base: str, http: aiohttp.ClientSession, user_id: str, *, check: bool = True
    ) -> None:
        self.base = base
        self.check = check  # every frame against its schema (the benchmark reads them only)
        self.times: list[float] = []  # when each frame arrived (perf_counter)
        self.http = http
        self.user_id = user_id
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.frames: list[Frame] = []
        self.welcome: Frame | None = None
        self._changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self.closed_code: int | None = None
        self._ref = 0

    @property
    def table(self) -> Frame:
        for frame in reversed(self.frames):
            if frame["type"] == "table":
                return dict(frame["table"])
        raise AssertionError("no table frame yet")

    def arrived_at(self, index: int) -> float | None:
        """When the first table frame from ``index`` on arrived."""
        for at, frame in zip(self.times[index:], self.frames[index:], strict=True):
            if frame["type"] == "table":
                return at
        return None

    def errors(self) -> list[Frame]:
        return [f for f in self.frames if f["type"] == "error"]

    async def exchange(self, code: str) -> tuple[int, Frame]:
        async with self.http.post(f"{self.base}/api/token", json={"code": code}) as response:
            return response.status, await response.json()

    async def open(
        self,
        instance: str,
        channel: str,
        *,
        token: str | None = None,
        session: str | None = None,
        locale: str = "en-US",
    ) -> ActivityClient:
        self.ws = await self.http.ws_connect(f"{self.base}/api/ws", max_msg_size=0)
        hello: Frame = {"type": "hello", "v": 1, "instance": instance, "channel": channel}
        if token is not None:
            hello["token"] = token
        if session is not None:
            hello["session"] = session
        hello["locale"] = locale
        await self.ws.send_json(hello)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                continue
            arrived = time.perf_counter()
            frame = json.loads(message.data)
            if self.check:
                problems = check_server_frame(frame)
                assert not problems, (problems, frame)
            self.times.append(arrived)
            if frame["type"] == "welcome":
                self.welcome = frame
            self.frames.append(frame)
            self._changed.set()
        self.closed_code = self.ws.close_code
        self._changed.set()

    async def wait(
        self, predicate: Callable[[], Any], timeout: float = 10.0, what: str = ""
    ) -> Any:
        """Wait until ``predicate()`` is truthy, checked at every frame."""

        async def until() -> Any:
            while True:
                found = predicate()
                if found:
                    return found
                if self._reader is not None and self._reader.done() and not predicate():
                    raise AssertionError(
                        f"socket closed ({self.closed_code}) waiting for {what}: {self.errors()}"
                    )
                self._changed.clear()
                await self._changed.wait()

        try:
            return await asyncio.wait_for(until(), timeout)
        except TimeoutError:
            last = self.frames[-3:]
            raise AssertionError(f"timed out waiting for {what}; last frames: {last}") from None

    async def wait_table(
        self, predicate: Callable[[Frame], Any], what: str = "", timeout: float = 10.0
    ) -> Frame:
        def found() -> Frame | None:
            for frame in reversed(self.frames):
                if frame["type"] == "table":
                    return frame["table"] if predicate(frame["table"]) else None
            return None

        table: Frame = await self.wait(found, timeout, what=what or "a table frame")
        return table

    async def wait_closed(self, timeout: float = 10.0) -> int | None:
        assert self._reader is not None
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        return self.closed_code

    async def send(self, frame: Frame) -> int:
        """Send a frame (a ``ref`` is added when it has none); its ref."""
        assert self.ws is not None
        if "ref" not in frame and frame.get("type") in ("move", "answer", "rematch"):
            self._ref += 1
            frame = {**frame, "ref": self._ref}
        await self.ws.send_str(json.dumps(frame))
        return int(frame.get("ref", 0))

    async def send_raw(self, text: str) -> None:
        assert self.ws is not None
        await self.ws.send_str(text)

    async def move(self, kind: str, card: str | None = None, token: int | None = None) -> int:
        mine = self.table["mine"]
        frame: Frame = {
            "type": "move",
            "kind": kind,
            "token": mine["token"] if token is None else token,
        }
        if card is not None:
            frame["card"] = card
        return await self.send(frame)

    async def play(self, kind: str, card: str | None = None) -> None:
        """Make a move and wait for the table it leaves (a refusal fails the test)."""
        token = self.table["mine"]["token"]
        ref = await self.move(kind, card, token)

        def answered() -> bool:
            if any(e.get("ref") == ref for e in self.errors()):
                return True
            table = self.table
            return table["status"] != "playing" or (table["mine"] or {}).get("token") != token

        await self.wait(answered, what=f"the answer to {kind} {card or ''}")
        refused = [e for e in self.errors() if e.get("ref") == ref]
        assert not refused, refused

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


async def signed_in(
    fake: FakeDiscord,
    base: str,
    http: aiohttp.ClientSession,
    user: User,
    instance: str,
    channel: str,
    locale: str = "en-US",
) -> ActivityClient:
    """A page opened by ``user`` in the instance: code, token, socket, welcome and table."""
    client = ActivityClient(base, http, str(user.id))
    status, body = await client.exchange(fake.oauth_code(user))
    assert status == 200, body
    await client.open(instance, channel, token=body["access_token"], locale=locale)
    await client.wait(lambda: any(f["type"] == "table" for f in client.frames), what="the table")
    return client


def pick_move(
    table: Frame, rng: random.Random, *, knock: bool = True
) -> tuple[str, str | None] | None:
    """A legal move of the seat's own (the best knock when there is one, unless ``knock`` is
    false: then the hand goes on), or None."""
    mine = table.get("mine")
    if not mine or not mine["moves"]:
        return None
    moves = mine["moves"]
    knocks = [
        m
        for m in moves
        if knock and m["kind"] in ("knock", "big_gin") and (m["best"] or m["kind"] == "big_gin")
    ]
    if knocks:
        chosen = knocks[0]
    else:
        plain = [m for m in moves if m["kind"] not in ("knock", "big_gin")]
        best = [m for m in plain if m["best"]]
        chosen = best[0] if best and rng.random() < 0.8 else rng.choice(plain)
    return chosen["kind"], chosen["card"]

"""Debian's Chromium, driven by Playwright, running the real page with the SDK's mock: each
browser context is one person (``?user_id=``), playing by taps, drags and keys as people do."""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

CHROMIUM = os.environ.get("GIN_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium keeps knocking on this machine's closed
# network; a sandbox needs a user namespace that a root container lacks.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1100, "height": 800}


def need_chromium() -> None:
    """Skip without Chromium and Playwright, unless CI asks for them (then fail)."""
    missing = []
    if shutil.which(CHROMIUM) is None and not os.path.exists(CHROMIUM):
        missing.append(f"Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing.append("Playwright for Python (pip install -e '.[test]')")
    if missing:
        reason = "browser tests need " + " and ".join(missing)
        if os.environ.get("GIN_REQUIRE_BROWSER") == "1":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            await browser.close()


def page_url(base: str, user: Any, channel: Any, instance: str, locale: str = "en-US") -> str:
    return (
        f"{base}/?user_id={user.id}&channel_id={channel.id}&guild_id={channel.guild_id}"
        f"&instance_id={instance}&locale={locale}"
    )


class Person:
    """One browser context: a person with the Activity open, and every frame it received."""

    def __init__(self, context: Any, page: Any, name: str) -> None:
        self.context = context
        self.page = page
        self.name = name
        self.frames: list[dict[str, Any]] = []
        self.console: list[str] = []
        page.on("websocket", self._socket)
        page.on("console", lambda message: self.console.append(message.text))

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", self._frame)

    def _frame(self, payload: Any) -> None:
        text = payload if isinstance(payload, str) else payload.decode()
        self.frames.append(json.loads(text))

    def tables(self) -> list[dict[str, Any]]:
        return [f["table"] for f in self.frames if f["type"] == "table"]

    async def open(self, url: str) -> Person:
        await self.page.goto(url)
        await self.page.wait_for_selector(".screen .top h1", timeout=15_000)
        return self

    async def close(self) -> None:
        await self.context.close()

    async def text(self, *, table_only: bool = False) -> str:
        """The page's text (``table_only``: not an open showdown of an earlier deal)."""
        if not table_only:
            return str(await self.page.inner_text("#app"))
        return str(
            await self.page.evaluate(
                """() => [...document.querySelectorAll('.screen > :not(.overlay)')]
                    .map(n => n.innerText).join(' ')"""
            )
        )

    async def shown_cards(self, *, table_only: bool = False) -> list[str]:
        """Every card face the page shows (``data-card``; ``table_only``: not those of an
        open showdown, which shows an earlier deal)."""
        where = ".screen > :not(.overlay) [data-card]" if table_only else "[data-card]"
        cards = await self.page.eval_on_selector_all(
            where, "nodes => nodes.map(n => n.dataset.card)"
        )
        return [str(c) for c in cards]

    async def my_turn(self, timeout: float = 15.0) -> bool:
        """Wait until the page offers a move (True) or the match is over (False)."""
        await self.page.wait_for_function(
            """() => {
                const s = document.querySelector('.screen');
                if (!s || s.classList.contains('waiting')) return false;
                if (s.matches('.status-finished, .status-closed')) return true;
                return !!document.querySelector(
                    '.actions .pass, .actions .knock, .stock.live, .hand .card.live');
            }""",
            timeout=timeout * 1000,
        )
        status = await self.page.get_attribute(".screen", "class") or ""
        return "status-playing" in status

    async def close_overlay(self) -> None:
        close = self.page.locator(".overlay .close")
        if await close.count():
            await close.first.click()

    async def play_one(self, rng: random.Random) -> str:
        """One move as a person makes it (a showdown that opens meanwhile is read and
        closed first, as a person would)."""
        from playwright.async_api import Error

        for _ in range(5):
            await self.close_overlay()
            try:
                return await self._play_one(rng)
            except Error as error:
                if "intercepts pointer events" not in str(error):
                    raise
        raise AssertionError(f"{self.name} could not get past the showdowns to play")

    async def _play_one(self, rng: random.Random) -> str:
        """Knock when the page offers it, else pass on the upcard, draw (a tap, or a drag
        into the hand), or discard the costliest loose card (two taps, a drag onto the
        pile, or the keyboard). Returns what it did."""
        page = self.page
        page.set_default_timeout(8000)
        knock = page.locator(".actions button.knock")
        if await knock.count():
            await knock.first.click()
            return "knock"
        passing = page.locator(".actions button.pass")
        if await passing.count():
            await passing.click()
            return "pass"
        stock = page.locator(".stock.live")
        if await stock.count():
            if rng.random() < 0.3:
                await stock.first.drag_to(page.locator(".hand .cards"))
                return "drag stock"
            if rng.random() < 0.2:
                await page.keyboard.press("s")
                return "key stock"
            await stock.first.click()
            return "stock"
        card = await self._loosest()
        target = page.locator(f'.hand .card.live[data-card="{card}"]')
        way = rng.random()
        if way < 0.3:
            await target.drag_to(page.locator(".pile").first)
            return f"drag {card}"
        if way < 0.5:
            await target.focus()
            await page.keyboard.press("Enter")
            return f"key {card}"
        await target.click()
        await page.locator(f'.hand .card.picked[data-card="{card}"]').click()
        return f"tap {card}"

    async def _loosest(self) -> str:
        """The live card that costs most as deadwood (any live card if all meld)."""
        cards: list[str] = await self.page.eval_on_selector_all(
            ".hand .group.deadwood .card.live", "nodes => nodes.map(n => n.dataset.card)"
        )
        if not cards:
            cards = await self.page.eval_on_selector_all(
                ".hand .card.live", "nodes => nodes.map(n => n.dataset.card)"
            )
        values = {"A": 1, "J": 10, "Q": 10, "K": 10}
        return max(cards, key=lambda c: values.get(c[:-1], int(c[:-1]) if c[:-1].isdigit() else 0))

    async def settled(self) -> None:
        """Wait until the move just made was answered (the page is not waiting)."""
        await self.page.wait_for_function(
            "() => !document.querySelector('.screen.waiting')", timeout=15_000
        )


async def open_person(
    browser: Any, url: str, name: str, viewport: dict[str, int] | None = None
) -> Person:
    context = await browser.new_context(viewport=viewport or DESKTOP, device_scale_factor=1)
    page = await context.new_page()
    return await Person(context, page, name).open(url)

"""The card emojis the application owns: found or made at start-up, plain text where missing.

Application emojis (Discord's, not a server's) can be used in every server the bot is in. At
start-up the bot lists them once and uploads only the cards it lacks, one at a time, because
Discord rate-limits emoji creation. None of that may hold up play: the sync runs in the
background with a time limit, never raises, and a card without an emoji is shown as text.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiohttp
import discord

from bot.art.cards import emoji_name
from bot.gin.cards import Card

log = logging.getLogger(__name__)
T = TypeVar("T")

SYNC_SECONDS = 60.0
"""The most a whole sync may take, every upload included."""
REQUEST_SECONDS = 30.0
"""The most one request may take. discord.py waits out a 429 inside the request, so a request
that takes longer is behind a long rate limit (or a failing Discord): the sync stops there."""
MAX_EMOJIS = 30008  # Discord's "Maximum number of emojis reached"
MAX_IMAGE_BYTES = 256 * 1024  # Discord refuses an emoji image larger than this
REFUSALS_SHOWN = 3  # images Discord refused, named in the log line
# What talking to Discord can fail with, short of a bug here: HTTP errors, a refused long rate
# limit, no application id (not logged in), a closed session or a dropped connection.
REQUEST_ERRORS = (discord.DiscordException, aiohttp.ClientError, OSError)


class _Stop(Exception):
    """The sync cannot go on; the message says why, in the sync's one warning line."""


@dataclass
class _Run:
    """One sync's time limits and what went wrong along the way."""

    deadline: float
    seconds: float
    request_seconds: float
    created: int = 0
    refused: list[str] = field(default_factory=list)


class CardEmojis:
    """Which card emojis the application has: the id of each by name, or text when absent."""

    def __init__(self) -> None:
        self._emojis: dict[str, discord.PartialEmoji] = {}
        self._ready = False
        self._task: asyncio.Task[None] | None = None
        # Requests under way, and those of them a sync stopped waiting for: left to finish,
        # never cancelled (see `_call`), their answers still taken when they come.
        self._requests: set[asyncio.Future[Any]] = set()
        self._given_up: set[asyncio.Future[Any]] = set()

    def emoji(self, name: str) -> discord.PartialEmoji | None:
        """The emoji called `name` (for a button or a select option); None when there is none."""
        return self._emojis.get(name)

    def card(self, card: Card) -> str:
        """A card as a message shows it: its emoji, or its text (`10♥`) without one."""
        emoji = self._emojis.get(emoji_name(card))
        return str(card) if emoji is None else str(emoji)

    def card_emoji(self, card: Card) -> discord.PartialEmoji | None:
        """The emoji of a card for a menu option, or None."""
        return self._emojis.get(emoji_name(card))

    def mention(self, name: str, fallback: str) -> str:
        """How a message shows the emoji called `name` (`<:gin_7H:123>`), or `fallback`."""
        emoji = self._emojis.get(name)
        return fallback if emoji is None else str(emoji)

    @property
    def ready(self) -> bool:
        """Whether a sync has finished, well or not: what is here now stays until the next."""
        return self._ready

    def start_sync(self, client: discord.Client, images: Mapping[str, bytes]) -> asyncio.Task[None]:
        """Runs `sync` in the background, once per registry: a later call (another on_ready
        after a reconnect) gets the same task back and sends nothing."""
        if self._task is None:
            self._task = asyncio.create_task(self.sync(client, images), name="card-emojis-sync")
        return self._task

    async def wait(self) -> None:
        """Until the sync started (if any) has finished; it never raises."""
        if self._task is not None:
            await asyncio.shield(self._task)

    def stop(self) -> None:
        """At shutdown: cancels a sync under way and every request it made that is still out."""
        if self._task is not None:
            self._task.cancel()
        for request in list(self._requests):
            request.cancel()

    async def sync(
        self,
        client: discord.Client,
        images: Mapping[str, bytes],
        *,
        seconds: float = SYNC_SECONDS,
        request_seconds: float = REQUEST_SECONDS,
    ) -> None:
        """Lists the application's emojis, then uploads each of `images` (name -> PNG bytes)
        that is missing, one at a time. Never raises: whatever fails is logged in one line,
        and the cards still without an emoji are shown as text until a later start."""
        loop = asyncio.get_running_loop()
        run = _Run(loop.time() + seconds, seconds, request_seconds)
        try:
            await self._list(client, run)
            await self._create_missing(client, images, run)
        except _Stop as stop:
            self._report(images, run, str(stop))
        except Exception:
            log.exception("card emojis: the sync failed; cards without an emoji are shown as text")
        else:
            self._report(images, run, None)
        finally:
            self._ready = True

    async def _list(self, client: discord.Client, run: _Run) -> None:
        what = "listing the application's emojis"
        try:
            listed = await self._call(client.fetch_application_emojis(), what, run)
        except REQUEST_ERRORS as exc:
            raise _Stop(f"{what} failed: {_describe(exc)}") from None
        self._emojis = {emoji.name: _partial(emoji) for emoji in listed}

    async def _create_missing(
        self, client: discord.Client, images: Mapping[str, bytes], run: _Run
    ) -> None:
        for name in images:
            if name in self._emojis:
                continue
            image = await asyncio.to_thread(images.__getitem__, name)  # drawn off the loop
            if len(image) > MAX_IMAGE_BYTES:  # Discord would refuse it: not worth a request
                run.refused.append(f"{name} (over {MAX_IMAGE_BYTES // 1024} KiB)")
                continue
            what = f"creating {name}"
            try:
                created = await self._call(
                    client.create_application_emoji(name=name, image=image), what, run
                )
            except discord.HTTPException as exc:
                if exc.status != 400 or exc.code == MAX_EMOJIS:
                    raise _Stop(f"{what} failed: {_describe(exc)}") from None
                run.refused.append(f"{name} ({_describe(exc)})")  # this image only: go on
                continue
            except ValueError:  # discord.py found no PNG, GIF, JPEG or WebP in the bytes
                run.refused.append(f"{name} (not an image)")
                continue
            except REQUEST_ERRORS as exc:
                raise _Stop(f"{what} failed: {_describe(exc)}") from None
            self._emojis[created.name] = _partial(created)
            run.created += 1

    async def _call(self, request: Coroutine[Any, Any, T], what: str, run: _Run) -> T:
        """The request's answer, waited for within the run's limits.

        A request that outlasts them is left to finish on its own rather than cancelled:
        discord.py closes a lock for the whole bot while it waits out a global rate limit,
        and a cancelled wait would never open it again. An emoji it creates late is kept.
        """
        left = run.deadline - asyncio.get_running_loop().time()
        wait = min(run.request_seconds, left)
        if wait <= 0:
            request.close()
            raise _Stop(f"the sync ran out of its {run.seconds:g} s before {what}")
        task = asyncio.ensure_future(request)
        self._requests.add(task)
        task.add_done_callback(self._finished)
        done, _ = await asyncio.wait({task}, timeout=wait)
        if not done:
            self._given_up.add(task)
            if wait < run.request_seconds:
                raise _Stop(f"the sync ran out of its {run.seconds:g} s while {what}")
            raise _Stop(
                f"{what} took over {run.request_seconds:g} s (a long rate limit, or Discord "
                "failing)"
            )
        return task.result()

    def _finished(self, task: asyncio.Future[Any]) -> None:
        self._requests.discard(task)
        late = task in self._given_up
        self._given_up.discard(task)
        if task.cancelled():
            return
        error = task.exception()  # retrieved here too, so asyncio never calls it unretrieved
        if not late:
            return
        if error is not None:
            log.debug("card emojis: a request given up on failed too", exc_info=error)
            return
        answer = task.result()
        for emoji in answer if isinstance(answer, list) else [answer]:
            if isinstance(emoji, discord.Emoji):
                self._emojis.setdefault(emoji.name, _partial(emoji))

    def _report(self, images: Mapping[str, bytes], run: _Run, stopped: str | None) -> None:
        missing = [name for name in images if name not in self._emojis]
        if not missing:
            log.info("card emojis: all %d ready (%d created now)", len(images), run.created)
            return
        reasons = [stopped] if stopped else []
        if run.refused:
            shown = run.refused[:REFUSALS_SHOWN]
            more = len(run.refused) - len(shown)
            reasons.append("refused: " + ", ".join(shown) + (f" and {more} more" if more else ""))
        log.warning(
            "card emojis: %d of %d cards have none (%s); the bot shows those cards as text "
            "and tries again at its next start",
            len(missing),
            len(images),
            "; ".join(reasons),
        )


def _partial(emoji: discord.Emoji) -> discord.PartialEmoji:
    return discord.PartialEmoji(name=emoji.name, id=emoji.id, animated=emoji.animated)


def _describe(exc: BaseException) -> str:
    """A failure in a few words, for the log line."""
    if isinstance(exc, discord.RateLimited):
        return f"rate limited for {exc.retry_after:g} s"
    if isinstance(exc, discord.HTTPException):
        detail = "; ".join(line for line in exc.text.splitlines() if line)
        return f"HTTP {exc.status}, code {exc.code}" + (f": {detail}" if detail else "")
    if isinstance(exc, discord.MissingApplicationID):
        return "the client has no application id (not logged in)"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__

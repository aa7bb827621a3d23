"""The open sockets of the Activity, by channel, and the table each one is shown after every
change, whoever made it (the Activity, a DM button, a slash command, the bot, a timer, another
process): the table service's events say what changed, and each socket gets its own view.

Changes that come together (a move, its clock, the bot's answer in the same turn of the loop)
are sent once: a channel is marked and its sockets are sent the newest table on the loop's next
turn. The public part of a view is made once per table and language, each seat's part once per
seat; frames go out as compact JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import web

from bot.i18n import speaking, tr
from bot.tables import Table, TableService
from bot.tables.events import TableEvent
from bot.tables.following import table_in_channel
from bot.tables.presence import Presence
from bot.web.auth import Identity
from bot.web.view import View, empty_view, public_view, seat_view

log = logging.getLogger(__name__)

# A socket's frames: a burst of this many, then one every 1/RATE s; past that each frame is
# refused, and a socket refused this many times (for anything) is closed.
BURST = 20
RATE = 8.0
STRIKES = 10


@dataclass(eq=False)
class Viewer:
    """One open socket: who it is, where, in what language, and its allowance of frames."""

    ws: web.WebSocketResponse
    who: Identity
    language: str
    table_id: int | None = None  # the table counted as open in the Activity (``Presence``)
    rate: float = RATE
    allowance: float = BURST
    checked: float = field(default_factory=time.monotonic)
    strikes: int = 0
    shown: str = ""  # the last table frame written: the same one is not sent twice
    waiting: str | None = None  # the newest table frame not written yet
    writer: asyncio.Task[None] | None = None  # writes ``waiting`` at the socket's own pace

    def offer(self, frame: str) -> None:
        """Send this table frame: at once, or, while the socket is still taking an earlier
        one, in place of any frame waiting (only the newest table matters). A slow socket
        holds up no other."""
        if frame == (self.waiting if self.waiting is not None else self.shown):
            return
        self.waiting = frame
        if self.writer is None or self.writer.done():
            self.writer = asyncio.ensure_future(self._write())

    async def _write(self) -> None:
        while self.waiting is not None and not self.ws.closed:
            frame, self.waiting = self.waiting, None
            if frame == self.shown:
                continue
            self.shown = frame
            with contextlib.suppress(ConnectionError, RuntimeError):  # going: cleaned up
                await self.ws.send_str(frame)

    def take_frame(self) -> bool:
        """Spend one frame of the allowance; False when it is spent (a flood)."""
        now = time.monotonic()
        self.allowance = min(BURST, self.allowance + (now - self.checked) * self.rate)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class Hub:
    """Every open socket of this process, and the table shown in each channel."""

    def __init__(self, service: TableService, presence: Presence) -> None:
        self.service = service
        self.presence = presence
        self.channels: dict[str, set[Viewer]] = {}
        # The table last shown in each channel with sockets: a finished one stays on the
        # page (its result, the rematch) until a new table opens there.
        self.shown: dict[str, Table] = {}
        self._dirty: set[str] = set()
        self._flushing: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.rate = RATE  # frames a second each socket may send, past its burst

    def start(self) -> None:
        self._unsubscribe = self.service.events.subscribe(TableEvent, self.changed)

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        viewers = [v for group in self.channels.values() for v in group]
        for viewer in viewers:
            await viewer.ws.close(code=1001, message=b"the bot is restarting")
        if self._flushing is not None:
            self._flushing.cancel()

    # --- sockets coming and going ------------------------------------------------------------

    def join(self, viewer: Viewer) -> None:
        group = self.channels.setdefault(viewer.who.channel_id, set())
        if viewer not in group:
            group.add(viewer)
            self.presence.look(viewer.who.channel_id)

    def leave(self, viewer: Viewer) -> None:
        channel = viewer.who.channel_id
        group = self.channels.get(channel)
        if group is not None and viewer in group:
            self.presence.look_away(channel)
            group.discard(viewer)
            if not group:
                del self.channels[channel]
                self.shown.pop(channel, None)
        self._count(viewer, None)

    def count(self) -> int:
        return sum(len(group) for group in self.channels.values())

    async def locate(self, channel: str) -> None:
        """Find the channel's table when this process does not hold it (another process of
        the bot shows it): from then on it is followed here (``bot.tables.following``)."""
        if self.service.in_channel(channel) is None and channel not in self.shown:
            table = await table_in_channel(self.service, channel)
            if table is not None:
                self.shown[channel] = table

    def table_in(self, channel: str) -> Table | None:
        """The table a channel's sockets see: the open one, else the last one shown."""
        table = self.service.in_channel(channel)
        if table is not None:
            self.shown[channel] = table
            return table
        return self.shown.get(channel)

    # --- changes -----------------------------------------------------------------------------

    def changed(self, event: TableEvent) -> None:
        """A table changed: its channel's sockets get the table on the loop's next turn."""
        channel = event.table.channel_id
        if channel not in self.channels:
            return
        self.shown[channel] = event.table
        self._dirty.add(channel)
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.ensure_future(self._flush())

    async def _flush(self) -> None:
        await asyncio.sleep(0)  # what else this turn of the loop changes comes along
        while self._dirty:
            channels, self._dirty = self._dirty, set()
            for channel in channels:
                try:
                    self.send_channel(channel)
                except Exception:
                    log.exception("could not show channel %s's table in the Activity", channel)

    def send_channel(self, channel: str) -> None:
        viewers = list(self.channels.get(channel, ()))
        if not viewers:
            return
        table = self.table_in(channel)
        publics: dict[str, View] = {}
        frames: dict[tuple[str, int | None], str] = {}
        for viewer in viewers:
            seat = None if table is None else table.seat_of(viewer.who.user_id)
            key = (viewer.language, seat)
            frame = frames.get(key)
            if frame is None:
                frame = self.frame(table, viewer, seat, publics)
                frames[key] = frame
            self._count(viewer, table)
            viewer.offer(frame)

    def frame(
        self,
        table: Table | None,
        viewer: Viewer,
        seat: int | None,
        publics: dict[str, View] | None = None,
    ) -> str:
        """The table frame this socket gets now (``publics``: public views made already)."""
        with speaking(viewer.language):
            if table is None:
                view = empty_view(
                    tr("Gin Rummy table"),
                    tr(
                        "There is no game in this channel. Start one with `/gin challenge`, "
                        "`/gin open` or `/gin practice`."
                    ),
                )
            else:
                cache = {} if publics is None else publics
                public = cache.get(viewer.language)
                if public is None:
                    public = public_view(table)
                    cache[viewer.language] = public
                view = seat_view(table, public, seat)
        return orjson.dumps({"type": "table", "table": view}).decode()

    def send_table(self, viewer: Viewer) -> None:
        """The channel's table to one socket (after its welcome, or a refused move)."""
        table = self.table_in(viewer.who.channel_id)
        seat = None if table is None else table.seat_of(viewer.who.user_id)
        self._count(viewer, table)
        viewer.offer(self.frame(table, viewer, seat))

    def _count(self, viewer: Viewer, table: Table | None) -> None:
        """Keep ``Presence`` told which table each socket has open."""
        now = None if table is None or not table.is_open else table.id
        if viewer.table_id == now:
            return
        if viewer.table_id is not None:
            self.presence.leave(viewer.table_id, viewer.who.user_id)
        if now is not None:
            self.presence.arrive(now, viewer.who.user_id)
        viewer.table_id = now

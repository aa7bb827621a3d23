"""Keeps a table's Discord messages in step with its state: public table, DMs, showdowns.

Syncing is state-driven and idempotent: it compares what the table should show with what was
last shown, so it can run after every move, after a restart, or twice in a row safely. One
sync runs per table at a time, and a sync that finds nothing new to do returns at once.

Discord fails now and then (5xx, long 429s, dropped connections). A sync is a list of steps
in two lanes, each under a lock of its own: the players' (showdowns on their DM hands, each
private hand, the turn notice), then the channel's (showdowns, the public table, the result),
so that no player's turn waits for a channel message. Each step is tried whatever happened to
the others; when one fails for a reason that may pass, the whole sync runs again later with
backoff, showing the newest state, until everything landed. A new hand's DM that keeps failing
falls back to what closed DMs get: a mention in the channel and `/gin hand`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import aiohttp
import discord
import orjson
from discord.webhook.async_ import async_context

from bot.art.artist import ARTIST
from bot.emojis import CardEmojis
from bot.gin.match import HandRecord
from bot.i18n import language, speaking, tr
from bot.pacing import Budget, Dropped, Priority, priority
from bot.render import Panel, hand_panel, match_over_panel, showdown_panel, table_panel
from bot.tables import Table, TableService, clock
from cogs.gin.languages import Languages
from cogs.gin.people import only, safe
from cogs.gin.pictures import showdown_picture
from cogs.gin.rest import (
    NO_MENTIONS,
    Attachment,
    Payload,
    edit_message,
    message_payload,
    recent_messages,
    send_message,
)
from cogs.gin.views import embed, hand_view, public_view, rematch_view

NO_EMOJIS = CardEmojis()  # a client without card emojis: every card as text

LOOKING_SECONDS = 30.0  # a player who moved this recently needs no "your turn" ping
LOOKING_MOST = 180.0  # ... however many play between their turns

log = logging.getLogger(__name__)

CLOSED_DMS = 50007
# Seconds between edits of one table's public message: spectators see the table a move or two
# at a time, within 10 s, while a move costs well under one REST call in all (see bot.pacing).
# A busy bot edits it less often: those edits wait for whatever the players leave of the budget.
PUBLIC_EDIT_INTERVAL = 7.0
# Discord lets a reply be edited through its interaction for 15 minutes; keep a margin.
REPLY_EDIT_SECONDS = 14 * 60
SHOWDOWN_COLOUR = discord.Colour.gold()
RETRY_FIRST = 0.5  # seconds before a failed sync runs again; doubled each time
RETRY_MAX = 30.0
RETRY_GIVE_UP = 60  # failed syncs in a row after which a closed table is left as it is
DM_ATTEMPTS = 4  # syncs that try a new hand's DM before the channel takes over
# After a move from the channel (a slash command, or a button on its reply), whose private
# reply showed it, the mover's DM hand waits this long before it is edited on its own. Their
# turn's hand-off edits that reply instead, while Discord lets it (see ``TableDisplay.carrier``).
COMMAND_DM_SECONDS = 20.0


def transient(error: BaseException) -> bool:
    """Whether trying again later may succeed: Discord's 5xx and 429s, dropped connections."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(error, discord.RateLimited | aiohttp.ClientError | OSError | TimeoutError)


@dataclass
class Retry:
    """A table whose last sync left something undone: how often, and the next try."""

    attempts: int = 0
    handle: asyncio.TimerHandle | None = field(default=None, repr=False)


def fingerprint(payload: Payload) -> bytes:
    """What a message shows, to compare with what it showed: a digest of its payload."""
    return hashlib.blake2b(orjson.dumps(payload), digest_size=16).digest()


@dataclass(frozen=True)
class PrivateHand:
    """A player's private hand message, rendered once per state of the table and reused by
    the mover's answer, the sync after it and any later sync that finds nothing changed."""

    key: tuple[Any, ...]
    embeds: list[discord.Embed]
    view: discord.ui.View | None
    payload: Payload
    shown: bytes


def watching_window(looking_seconds: float, others: int) -> float:
    """How long after their move a player still counts as watching the game: the looking
    time for each other player of their board (each has a turn before theirs comes again),
    up to LOOKING_MOST."""
    return min(looking_seconds * max(1, others), max(looking_seconds, LOOKING_MOST))


def next_public_edit(last: float | None, now: float, interval: float) -> float:
    """When a table's public message may be edited next: now if it was last shown a whole
    interval ago, else once that interval has passed. Tables that want edits at the same
    instant need not be spread here: their edits queue in the REST budget."""
    if last is None:
        return now
    return max(now, last + interval)


@dataclass
class Pressed:
    """The latest press on a DM hand message whose answer edited that message: for 15
    minutes its interaction's token edits or deletes the message (``@original``) outside the
    global rate limit, so a hand-off or a showdown on a hand its player was using costs no
    call of the budget. Only what the call needs is kept, not the interaction itself."""

    application_id: int
    token: str
    session: aiohttp.ClientSession  # the bot's own HTTP session, which interactions use
    since: float

    @classmethod
    def of(cls, interaction: discord.Interaction[Any], now: float) -> Pressed:
        # discord.py's own interaction calls use this session (Interaction._session).
        return cls(interaction.application_id, interaction.token, interaction._session, now)


@dataclass
class PrivateReply:
    """The latest private (ephemeral) reply showing a player's hand, kept up to date like a
    DM while their DMs are closed, for as long as Discord lets it be edited. For a player who
    moves from the channel, the reply to their latest move carries their turn's hand-off
    (``TableDisplay.carrier``): ``hand`` is the hand it was for."""

    interaction: discord.Interaction[Any]
    since: float
    hand: int = 0


def turn_ends(table: Table, seat: int) -> int | None:
    """When the player's turn times out (Unix seconds), if a clock runs for it."""
    for timer in clock.timers_of(table.display, table.match).values():
        if timer.get("seat") == seat and timer.get("started"):
            return int(clock.ends_at(timer, table.server.turn_seconds).timestamp())
    return None


class TableDisplay:
    """Posts and edits one table's public message and each player's private hand message."""

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self.languages = Languages(client)
        self._locks: dict[int, asyncio.Lock] = {}
        self._dirty: set[int] = set()  # tables whose players' messages may show an old state
        self._dirty_channel: set[int] = set()  # ... whose channel messages may
        self._channel_locks: dict[int, asyncio.Lock] = {}
        # message id (or a private reply's reference) -> fingerprint of what it shows
        self._shown: dict[int | str, bytes] = {}
        self._keys: dict[int | str, tuple[Any, ...]] = {}  # -> private hand key shown there
        self._replies: dict[tuple[int, int], PrivateReply] = {}  # (table, seat), DMs closed
        # (table, seat) -> the reply to their latest move from the channel (DMs open)
        self._carriers: dict[tuple[int, int], PrivateReply] = {}
        self._pressed: dict[int, Pressed] = {}  # DM hand message id -> its latest press
        self._channel_pings: dict[tuple[int, int], int] = {}  # (table, seat) -> "your turn"
        # (table, seat) -> the hand rendered for a move, kept until the sync after it
        self._hands: dict[tuple[int, int], PrivateHand] = {}
        # (table, seat) -> the last thing that happened, said in the language in force when
        # the player's hand is rendered (``note``)
        self.notes: dict[tuple[int, int], Callable[[], str]] = {}
        self._pinged: dict[tuple[int, int], str] = {}  # (table, board) -> turn last announced
        self._public_edited: dict[int, float] = {}  # table -> when its public message was edited
        self._public_pending: set[int] = set()  # tables whose public message shows an old state
        self._public_jobs: dict[int, asyncio.Task[None]] = {}  # table -> the task editing it
        self._public_locks: dict[int, asyncio.Lock] = {}  # one edit of a public message at once
        self._stopping = asyncio.Event()
        # (table, seat) -> until when their DM hand may wait: their last move came by slash
        # command, whose private reply showed it (``_reply_showed``)
        self._by_command: dict[tuple[int, int], float] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._retries: dict[int, Retry] = {}  # table -> its failed syncs
        self._dm_failures: dict[tuple[int, int], tuple[int, int]] = {}  # -> (hand, failures)
        self._acted: dict[tuple[int, int], float] = {}  # (table, seat) -> when they last moved
        self.looking_seconds = LOOKING_SECONDS
        self.command_dm_seconds = COMMAND_DM_SECONDS
        # Tables loaded at start-up: a message they post may have been posted before a crash
        # that came before its id was saved, so the channel is checked before posting.
        self._recovering: set[int] = set()

    # --- what a player sees -----------------------------------------------------------------

    @property
    def faces(self) -> CardEmojis:
        """The card emojis the bot has (text for any it lacks)."""
        faces = getattr(self.client, "card_emojis", None)
        return faces if isinstance(faces, CardEmojis) else NO_EMOJIS

    def where(self, table: Table) -> str:
        """Where the table is played, for a private hand (in the language in force)."""
        channel = self.client.get_channel(int(table.channel_id))
        name = getattr(channel, "name", None)
        guild = getattr(getattr(channel, "guild", None), "name", None)
        if name and guild:
            # TRANSLATORS: where a table is played: a channel of a Discord server.
            return tr("#{channel} in {server}", channel=safe(name), server=safe(guild))
        return f"<#{table.channel_id}>"

    def note(self, table: Table, seat: int) -> str:
        """The last thing that happened, for the player's hand, in the language in force
        ("" when there is nothing to say)."""
        note = self.notes.get((table.id, seat))
        return "" if note is None else note()

    def recovering(self, tables: list[Table]) -> None:
        """These tables were loaded after a restart: check before posting their messages."""
        self._recovering.update(t.id for t in tables)

    def private_key(self, table: Table, seat: int, note: str | None = None) -> tuple[Any, ...]:
        """Everything the player's private hand message depends on, the language it is
        written in included (``note``: a note of its own instead of their last one). A
        waiting player's key does not change with other players' moves (their hand shows no
        one else's play), so a move costs DM edits for the mover and the next to act only,
        however many play."""
        match = table.match
        assert match is not None
        board = match.board_of(seat)
        if board is None:
            state: tuple[Any, ...] = ("out", seat in match.out, seat in match.dropped)
        else:
            acting = board.turn == seat and not board.is_over
            state = (
                table.token(seat) if acting else "waiting",
                board.phase if acting else None,
                board.is_over,
                tuple(sorted(board.hands.get(seat, ()))),
            )
        return (
            match.hand_number,
            match.is_over,
            state,
            self.note(table, seat) if note is None else note,
            self.where(table),
            table.server.hints,
            language(),
        )

    def private_hand(
        self, table: Table, seat: int, key: tuple[Any, ...] | None = None
    ) -> PrivateHand:
        """The player's private hand message for the table as it is now (``key``: its
        ``private_key``, when the caller has it already)."""
        match = table.match
        assert match is not None
        key = key or self.private_key(table, seat)
        cached = self._hands.get((table.id, seat))
        if cached is not None and cached.key == key:
            return cached
        note, where = key[3], key[4]
        faces = self.faces
        panel = hand_panel(
            match,
            seat,
            where=where,
            note=note,
            hint=table.server.hints,
            face=faces.card,
            ends=turn_ends(table, seat),
        )
        embeds = [embed(panel)]
        view = hand_view(table, seat, faces.card_emoji)
        payload = {"content": "", **message_payload(embeds, view)}  # no turn alert's text
        rendered = PrivateHand(key, embeds, view, payload, fingerprint(payload))
        self._hands[(table.id, seat)] = rendered
        return rendered

    def remember(
        self,
        table: Table,
        seat: int,
        message: int | str,
        embeds: list[discord.Embed],
        view: discord.ui.View | None,
    ) -> None:
        """Record what a message (an id, or a private reply's reference) shows after it was
        edited outside a sync, by the answer to a move."""
        rendered = self._hands.get((table.id, seat))
        if rendered is not None and rendered.embeds is embeds:
            self._shown[message] = rendered.shown
            self._keys[message] = rendered.key
        else:
            self._shown[message] = fingerprint(message_payload(embeds, view))
            self._keys.pop(message, None)

    def pressed(self, message: int, interaction: discord.Interaction[Any]) -> None:
        """The answer to a press on this DM hand message edited it (``Pressed``)."""
        now = time.monotonic()
        pressed = self._pressed
        pressed.pop(message, None)  # oldest first: expired ones are dropped from the front
        pressed[message] = Pressed.of(interaction, now)
        while True:
            oldest, press = next(iter(pressed.items()))
            if now - press.since <= REPLY_EDIT_SECONDS:
                break
            del pressed[oldest]

    def shown_elsewhere(self, table: Table, seat: int, message: int) -> None:
        """Another process answered the player's click on their DM hand message by editing
        it to the table as it is now (the same hand this process renders): it needs no
        edit from here."""
        entry = table.display.get("hands", {}).get(str(seat))
        match = table.match
        if not entry or match is None or entry.get("hand") != match.hand_number:
            return
        if int(entry["message"]) != message:
            return  # an older message of theirs: the one kept up to date is edited as usual
        with speaking(self.languages.of_player(table, seat)):  # as the sync will render it
            rendered = self.private_hand(table, seat)
        self.remember(table, seat, message, rendered.embeds, rendered.view)

    def shown_privately(
        self,
        table: Table,
        seat: int,
        interaction: discord.Interaction[Any],
        embeds: list[discord.Embed],
        view: discord.ui.View | None,
        *,
        moved: bool = False,
    ) -> None:
        """A private reply just showed this player their hand: while their DMs are closed,
        it is the message kept up to date for them; ``moved``, it answered their move from
        the channel, and carries their turn's hand-off (``carrier``)."""
        now = time.monotonic()
        if str(seat) in table.display.get("dm_closed", {}):
            self._replies[(table.id, seat)] = PrivateReply(interaction, now)
        elif moved and table.match is not None:
            hand = table.match.hand_number
            self._carriers[(table.id, seat)] = PrivateReply(interaction, now, hand)
        else:
            return
        self.remember(table, seat, _reply_ref(table, seat), embeds, view)

    def carrier(self, table: Table, seat: int) -> PrivateReply | None:
        """The private reply that carries this player's turn hand-off, if any: the answer to
        their latest move from the channel, in this hand, while its token may edit it. The
        player is looking at the channel, where that reply is: editing it costs no call of the
        budget (an interaction's own message), where an edit of their DM hand would cost one.
        The DM hand, left behind meanwhile, catches up later (``_reply_showed``)."""
        reply = self._carriers.get((table.id, seat))
        if reply is None:
            return None
        fleet = self.service.fleet
        if fleet is not None and not fleet.receives_dms:
            # Another process answers the presses on the DM hands, so what this one left
            # behind there is not known here: the DM hand carries the turn, as it heals that.
            del self._carriers[(table.id, seat)]
            return None
        match = table.match
        stale = time.monotonic() - reply.since > REPLY_EDIT_SECONDS
        if stale or match is None or match.hand_number != reply.hand:
            del self._carriers[(table.id, seat)]
            return None
        return reply

    def unshown(self, table: Table, seat: int, message: int | None) -> None:
        """An answer that should have shown the player their hand did not land (or landed
        late, showing an older state): what that message and their private reply show is
        unknown, so the next sync edits them."""
        for ref in (message, _reply_ref(table, seat)):
            if ref is not None:
                self._shown.pop(ref, None)
                self._keys.pop(ref, None)

    def sync_soon(self, table: Table) -> None:
        """Sync the table from a task of its own (from a callback, or a timer)."""
        if self.client.is_closed():
            return
        task = asyncio.create_task(self.sync(table), name=f"gin-sync-{table.id}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    @property
    def budget(self) -> Budget | None:
        budget = getattr(self.client, "rest_budget", None)
        return budget if isinstance(budget, Budget) else None

    def moved_by(self, table: Table, seat: int, *, command: bool) -> None:
        """The player moved from the channel (a slash command, or a button on its private
        reply: that reply showed it) or on their DM hand."""
        if not command:
            self._by_command.pop((table.id, seat), None)
            self._carriers.pop((table.id, seat), None)
            return
        wait = self.command_dm_seconds
        self._by_command[(table.id, seat)] = time.monotonic() + wait
        asyncio.get_running_loop().call_later(wait + 0.05, self._command_dm_due, table)

    def _command_dm_due(self, table: Table) -> None:
        if table.is_open:
            self.sync_soon(table)  # a DM hand still behind is edited now

    async def stop(self) -> None:
        """Finish the delayed public edits now (at shutdown)."""
        self._stopping.set()
        for retry in self._retries.values():
            if retry.handle is not None:
                retry.handle.cancel()
        self._retries.clear()
        pending = list(self._background)
        if pending:
            await asyncio.wait(pending, timeout=5)

    def acted(self, table: Table, seat: int) -> None:
        """The player just moved: they are looking at the game (see ``_looking``)."""
        self._acted[(table.id, seat)] = time.monotonic()

    def quiet(self, table: Table) -> asyncio.Lock:
        """Held by each sync of the table: inside, no edit of its messages is in flight."""
        return self._locks.setdefault(table.id, asyncio.Lock())

    def started(self, table: Table) -> None:
        """The match just began, on an accept or a join: its players are at the screen, so
        their first turns come as edits of the hand just sent, not as new messages."""
        for seat in table.human_seats:
            self.acted(table, seat)

    def _looking(self, table: Table, seat: int) -> bool:
        """A player who moved moments ago, or who plays only the bot (whose moves come at
        once), is watching the game: their turn needs no notification of its own. "Moments"
        are LOOKING_SECONDS for each other player of their board, since each of those has a
        turn before theirs comes again: waiting for five others is not looking away."""
        if len(table.human_seats) == 1 and table.bot_seats:
            return True
        match = table.match
        board = None if match is None else match.board_of(seat)
        others = 1 if board is None else len(board.seats) - 1
        since = time.monotonic() - self._acted.get((table.id, seat), -math.inf)
        return since < watching_window(self.looking_seconds, others)

    def forget(self, table: Table) -> None:
        """Drop what was kept about a closed table's messages."""
        self._locks.pop(table.id, None)
        self._channel_locks.pop(table.id, None)
        self._dirty.discard(table.id)
        self._dirty_channel.discard(table.id)
        self._recovering.discard(table.id)
        retry = self._retries.pop(table.id, None)
        if retry is not None and retry.handle is not None:
            retry.handle.cancel()
        for board in range(2):
            self._pinged.pop((table.id, board), None)
        self._public_edited.pop(table.id, None)
        self._public_pending.discard(table.id)
        self._public_locks.pop(table.id, None)
        for seat in range(len(table.players)):
            self._by_command.pop((table.id, seat), None)
            self.notes.pop((table.id, seat), None)
            self._hands.pop((table.id, seat), None)
            self._replies.pop((table.id, seat), None)
            self._carriers.pop((table.id, seat), None)
            self._channel_pings.pop((table.id, seat), None)
            self._dm_failures.pop((table.id, seat), None)
            self._acted.pop((table.id, seat), None)
            self._shown.pop(_reply_ref(table, seat), None)
            self._keys.pop(_reply_ref(table, seat), None)
        display = table.display
        for key in ("challenge", "public"):
            self._shown.pop(display.get(key, 0), None)
        for entry in display.get("hands", {}).values():
            self._shown.pop(entry.get("message", 0), None)
            self._keys.pop(entry.get("message", 0), None)
            self._pressed.pop(entry.get("message", 0), None)

    # --- syncing ------------------------------------------------------------------------------

    async def sync(self, table: Table) -> None:
        """Bring the table's messages up to date; never raises. What failed and may work
        later is tried again by itself, with backoff."""
        if self.client.is_closed() or not self.service.shows(table):
            return  # another process shows this table (see bot.tables.fleet)
        # Two lanes, one after the other, each with a lock of its own: the players' messages,
        # then the channel's (showdowns, a new hand's table, the result). A player's turn in
        # the next move's sync never waits for a channel message of this one.
        self._dirty.add(table.id)
        self._dirty_channel.add(table.id)
        players = await self._lane(table, self.quiet(table), self._dirty, self._sync_players)
        if players is not None:
            for seat in range(len(table.players)):  # shown; the keys tell later syncs so
                self._hands.pop((table.id, seat), None)
        channel_lock = self._channel_lock(table)
        channel = await self._lane(table, channel_lock, self._dirty_channel, self._sync_channel)
        ran = [done for done in (players, channel) if done is not None]
        if not ran:
            return  # syncs that started after our change showed it
        if all(ran):
            self._settled(table)
        else:
            self._retry_later(table)
        # A closed table's last sync forgets it; not while another sync waits to show what
        # came after (the move that closed it, say).
        busy = self.quiet(table).locked() or channel_lock.locked()
        waiting = table.id in self._dirty or table.id in self._dirty_channel
        if not table.is_open and not busy and not waiting and table.id not in self._retries:
            self.forget(table)

    async def _lane(
        self,
        table: Table,
        lock: asyncio.Lock,
        dirty: set[int],
        run: Callable[[Table], Awaitable[bool]],
    ) -> bool | None:
        """Run one lane of a sync under its lock: True when all of it landed, False when some
        must be retried, None when a sync that started after our change already ran it."""
        async with lock:
            if table.id not in dirty:
                return None
            dirty.discard(table.id)
            try:
                return await run(table)
            except Exception:
                log.exception("could not update the messages of table %s", table.id)
                return True  # a fault of ours: trying again would only repeat it

    def _channel_lock(self, table: Table) -> asyncio.Lock:
        return self._channel_locks.setdefault(table.id, asyncio.Lock())

    def _settled(self, table: Table) -> None:
        self._recovering.discard(table.id)
        retry = self._retries.pop(table.id, None)
        if retry is not None and retry.handle is not None:
            retry.handle.cancel()

    def _retry_later(self, table: Table) -> None:
        """Run the sync again after a pause that doubles with each failure in a row."""
        retry = self._retries.setdefault(table.id, Retry())
        retry.attempts += 1
        if not table.is_open and retry.attempts > RETRY_GIVE_UP:
            log.error("giving up on the last messages of closed table %s", table.id)
            self._retries.pop(table.id, None)
            return
        if retry.handle is not None:
            return
        delay = min(RETRY_MAX, RETRY_FIRST * 2 ** (retry.attempts - 1))

        def again() -> None:
            retry.handle = None
            self.sync_soon(table)

        retry.handle = asyncio.get_running_loop().call_later(delay, again)

    def retrying(self, table: Table) -> bool:
        """Whether some of the table's messages wait for Discord to answer again."""
        return table.id in self._retries

    async def _step(
        self,
        table: Table,
        what: str,
        step: Callable[[], Awaitable[None]],
        language: str,
        level: Priority,
    ) -> bool:
        """Run one part of a sync, its text in ``language`` and its REST calls at ``level``;
        False when it failed for a reason that may pass."""
        try:
            with speaking(language), priority(level):
                await step()
        except Exception as error:
            if transient(error):
                log.warning("%s of table %s failed (%r); trying again soon", what, table.id, error)
                return False
            log.exception("could not update %s of table %s", what, table.id)
        return True

    async def _sync_players(self, table: Table) -> bool:
        """One pass over the players' messages; False if some of it must be retried. A
        finished hand's showdown replaces the buttons of its players' DM hands first (a new
        hand's DM takes the place of the old one), then each player's hand."""
        async with table.lock:
            pass  # a move being committed finishes first: screens show committed play only
        match = table.match
        if match is None:
            return True
        before = repr(table.display)
        self.languages.keep(table)  # so a restarted bot still writes to them in theirs
        channel = self.languages.of_channel(table)
        done = await self._step(
            table,
            "the showdowns on the hands",
            lambda: self._showdowns_on_hands(table),
            channel,
            Priority.PLAYER,
        )
        if done and not match.is_over:
            done = await self._private_hands(table)
            done = (
                await self._step(
                    table, "the turn notice", lambda: self._ping_turn(table), channel, Priority.TURN
                )
                and done
            )
        return await self._saved(table, before) and done

    async def _saved(self, table: Table, before: str) -> bool:
        """Save the message ids if they changed since ``before``; False if that failed."""
        if repr(table.display) == before:
            return True
        try:
            await self.service.save_display(table)
        except Exception:
            log.exception("could not save the message ids of table %s", table.id)
            return False
        return True

    async def _sync_channel(self, table: Table) -> bool:
        """One pass over the channel's messages: the showdowns, then the result or the new
        hand's table; False if some of it must be retried."""
        async with table.lock:
            pass
        match = table.match
        if match is None:
            return True
        before = repr(table.display)
        channel = self.languages.of_channel(table)
        result = Priority.RESULT
        done = await self._step(
            table, "the showdowns", lambda: self._post_showdowns(table), channel, result
        )
        if match.is_over:
            if done:  # the result comes after the last showdown, never before it
                done = await self._step(
                    table,
                    "the match result",
                    lambda: self._post_match_over(table),
                    channel,
                    result,
                )
        elif done:  # the new hand's table comes after the last hand's showdown
            done = await self._step(
                table, "the public table", lambda: self._update_public(table), channel, result
            )
        return await self._saved(table, before) and done

    async def _private_hands(self, table: Table) -> bool:
        """Each player's private hand, the player to act first; False if some of it must
        be retried."""
        match = table.match
        assert match is not None
        done = True
        seats = sorted(table.human_seats, key=lambda seat: not _to_act(table, seat))
        for seat in seats:  # the bot needs no private message
            if match.board_of(seat) is None:
                continue  # sitting out or out: nothing new
            step = self._alert if self._alert_due(table, seat) else self._update_private
            done = (
                await self._step(
                    table,
                    f"the hand of seat {seat}",
                    lambda seat=seat, step=step: step(table, seat),  # type: ignore[misc]
                    self.languages.of_player(table, seat),
                    Priority.TURN if _to_act(table, seat) else Priority.PLAYER,
                )
                and done
            )
        return done

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(int(table.channel_id))

    async def _post(
        self,
        table: Table,
        key: str,
        payload: Payload,
        channel_id: int | None = None,
        after: int = 0,
        files: Sequence[Attachment] = (),
    ) -> int:
        """Post a message the table needs once (a showdown, the table of a hand, the result,
        a hand by DM); its id. A table loaded after a restart first looks for it in the channel
        (after the message id ``after``, and never before the table began): the bot may have
        stopped after posting it and before saving its id. The nonce makes Discord itself
        answer a repeat made within minutes with the message it already made."""
        channel_id = channel_id or int(table.channel_id)
        body = {**payload, "nonce": f"{table.id}:{key}"[:25], "enforce_nonce": True}
        if table.id not in self._recovering:
            return await send_message(self.client, channel_id, body, files)
        anchor = max(after, _snowflake_at(table.created_at))
        found = await self._posted_before(channel_id, anchor, payload)
        if found is None:
            found = await send_message(self.client, channel_id, body, files)
        else:
            log.info("table %s: %s was posted before the restart", table.id, key)
        if files:
            return found  # a showdown with its picture: what it shows never changes
        # Posted before the restart (found, or handed back by Discord for its nonce), it
        # may show an older state of the table: it is brought up to date now.
        self._shown.pop(found, None)
        await self._edit_payload(channel_id, found, payload, fingerprint(payload))
        return found

    async def _posted_before(self, channel_id: int, anchor: int, payload: Payload) -> int | None:
        """A message of the bot's in the channel, after ``anchor``, whose embed has the same
        title and footer as the one about to be posted."""
        me = self.client.user
        first = (payload.get("embeds") or [{}])[0]
        if me is None or not first.get("title"):
            return None
        for message in await recent_messages(self.client, channel_id, anchor):
            if str(message.get("author", {}).get("id")) != str(me.id):
                continue
            embeds = message.get("embeds") or [{}]
            if _same_heading(embeds[0], first):
                return int(message["id"])
        return None

    def _channel_anchor(self, table: Table) -> int:
        """The newest message id of the table's channel that it knows of."""
        display = table.display
        return max(int(display.get("public") or 0), int(display.get("challenge") or 0))

    async def _post_showdowns(self, table: Table) -> None:
        """Each finished board once: its showdown in the channel, and on the DM hands of its
        players in place of their buttons. A hand counts as shown once all its boards are."""
        match = table.match
        assert match is not None
        display = table.display
        for record in match.history:
            done = display.get("shown_hands", 0)
            boards = display.get("shown_boards", [])
            if record.number <= done or (record.number == done + 1 and record.board in boards):
                continue
            hand_over = record.number < match.hand_number or match.is_over
            public = display.get("public")
            # The hand's table message becomes its (last) showdown: one message per hand.
            merge = hand_over and public is not None and display.get("public_hand") == record.number
            panel = embed(
                showdown_panel(match, record.number, record.result, record.board, self.faces.card),
                SHOWDOWN_COLOUR,
            )
            key = f"s{record.number}" + (f"b{record.board}" if record.board else "")
            files = await self._showdown_picture(table, record)
            public_panel = panel
            if files:  # the picture shows the cards; the text beside it names them
                public_panel = embed(
                    showdown_panel(match, record.number, record.result, record.board),
                    SHOWDOWN_COLOUR,
                )
                public_panel.set_image(url=f"attachment://{files[0].filename}")
            payload = message_payload([public_panel], None)
            if merge:
                assert public is not None
                async with self._public_lock(table):  # after an edit for spectators in flight
                    await edit_message(self.client, int(table.channel_id), public, payload, files)
                self._shown[public] = fingerprint(payload)
                display["showdown_shown"] = public  # the table's edits leave it alone now
            else:
                await self._post(
                    table, key, payload, after=self._channel_anchor(table), files=files
                )
            if hand_over:
                display["shown_hands"] = record.number
                display.pop("shown_boards", None)
            else:
                display["shown_boards"] = [*boards, record.board]

    async def _showdowns_on_hands(self, table: Table) -> None:
        """A finished board's showdown on the DM hand of each of its players, in place of
        its buttons: once, before a new hand's DM takes that hand's place (the channel's
        showdowns, which come after, never go back to it)."""
        match = table.match
        assert match is not None
        display = table.display
        finished = {(r.number, seat): r for r in match.history for seat in r.seats}
        for seat, entry in display.get("hands", {}).items():
            record = finished.get((entry.get("hand"), int(seat)))
            if record is None or entry.get("showdown"):
                continue
            with speaking(self.languages.of_player(table, int(seat))):
                mine = embed(
                    showdown_panel(
                        match, record.number, record.result, record.board, self.faces.card
                    ),
                    SHOWDOWN_COLOUR,
                )
            await self._edit_hand(entry, [mine], None)
            entry["showdown"] = True

    async def _showdown_picture(self, table: Table, record: HandRecord) -> list[Attachment]:
        """The showdown as a picture, when the server wants pictures and the hand had a
        showdown; drawn on a thread (and cached), so no move waits for it. Drawing that
        fails costs the picture only: the text says it all."""
        match = table.match
        if match is None or not table.server.images:
            return []
        picture = showdown_picture(record.result, [p.name for p in match.players])
        if picture is None:
            return []
        try:
            data = await ARTIST.showdown(picture)
        except Exception:
            log.exception(
                "table %s: could not draw the showdown of hand %s", table.id, record.number
            )
            return []
        return [Attachment(f"showdown-{record.number}-{record.board}.png", data)]

    async def _post_match_over(self, table: Table) -> None:
        assert table.match is not None and table.match.result is not None
        display = table.display
        if not display.get("final_posted"):
            await self._clear_channel_pings(table)
            panel = match_over_panel(table.match, table.match.result)
            payload = message_payload([embed(panel, SHOWDOWN_COLOUR)], rematch_view(table))
            human = [table.players[seat].id for seat in table.human_seats]
            payload["content"] = " ".join(f"<@{user_id}>" for user_id in human)
            payload["allowed_mentions"] = only_users(human)
            await self._post(table, "over", payload, after=self._channel_anchor(table))
            display["final_posted"] = True
        public = display.get("public")
        if (
            public is not None
            and display.get("public_hand") == table.match.hand_number
            and display.get("showdown_shown") != public
        ):
            async with self._public_lock(table):
                await self._edit(
                    int(table.channel_id),
                    public,
                    [embed(table_panel(table.match, self.faces.card))],
                    None,
                )
        showed = any(r.number == table.match.hand_number for r in table.match.history)
        result = embed(match_over_panel(table.match, table.match.result), SHOWDOWN_COLOUR)
        sent = display.setdefault("result_dms", [])
        for seat in table.human_seats:
            entry = display.get("hands", {}).get(str(seat))
            if entry and entry.get("hand") == table.match.hand_number and not showed:
                # Ended mid-hand (a resignation, a forfeit): the hand loses its buttons.
                rendered = self.private_hand(table, seat)
                await self._edit_hand(entry, rendered.embeds, None)
            if entry and seat not in sent:  # the result, a DM of its own that stays
                payload = message_payload([result], None)
                await self._post(table, f"r{seat}", payload, channel_id=entry["channel"])
                sent.append(seat)
        over = [
            embed(Panel(tr("Match over"), tr("This match is over: see the result in the channel.")))
        ]
        await self._retire_replies(table, over)

    async def _retire_replies(self, table: Table, embeds: list[discord.Embed]) -> None:
        """The table is done: its private replies lose their buttons and say why."""
        for seat in range(len(table.players)):
            reply = self._replies.pop((table.id, seat), None)
            if reply is not None and time.monotonic() - reply.since <= REPLY_EDIT_SECONDS:
                with contextlib.suppress(discord.HTTPException):
                    await reply.interaction.edit_original_response(embeds=embeds, view=None)

    async def _update_public(self, table: Table) -> None:
        assert table.match is not None
        display = table.display
        if display.get("public_hand") != table.match.hand_number or "public" not in display:
            number = table.match.hand_number  # the hand it shows, whatever comes while it posts
            panel = embed(table_panel(table.match, self.faces.card))
            payload = message_payload([panel], public_view(table))
            message_id = await self._post(
                table, f"p{number}", payload, after=self._channel_anchor(table)
            )
            display["public"] = message_id
            display["public_hand"] = number
            self._shown[message_id] = fingerprint(payload)
            self._public_edited[table.id] = time.monotonic()
            return
        if display.get("showdown_shown") == display["public"]:
            return  # it shows the hand's showdown now; the next hand gets a table of its own
        # Spectators don't need every move the instant it happens: the public table is
        # edited by a task of its own, at most once per interval, when the budget allows,
        # showing the newest state when its turn comes. No player's screen waits for it.
        self._public_pending.add(table.id)
        if table.id not in self._public_jobs:
            task = asyncio.create_task(self._show_spectators(table), name=f"gin-public-{table.id}")
            self._public_jobs[table.id] = task
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    def _public_lock(self, table: Table) -> asyncio.Lock:
        return self._public_locks.setdefault(table.id, asyncio.Lock())

    async def _show_spectators(self, table: Table) -> None:
        """Edit the table's public message while it shows an older state than the table's:
        each edit after the interval since the last, and after its turn in the budget."""
        delay = RETRY_FIRST
        try:
            while table.id in self._public_pending and table.is_open:
                now = time.monotonic()
                at = next_public_edit(self._public_edited.get(table.id), now, PUBLIC_EDIT_INTERVAL)
                if at > now and not self._stopping.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._stopping.wait(), at - now)
                try:
                    with speaking(self.languages.of_channel(table)):
                        await self._edit_public(table)
                    delay = RETRY_FIRST
                except Exception as error:
                    if not transient(error):
                        log.exception("could not edit the public table of table %s", table.id)
                        self._public_pending.discard(table.id)
                        return
                    log.warning(
                        "the public table of table %s failed (%r); trying again soon",
                        table.id,
                        error,
                    )
                    self._public_pending.add(table.id)
                    await asyncio.sleep(delay)
                    delay = min(RETRY_MAX, delay * 2)
        finally:
            self._public_jobs.pop(table.id, None)

    async def _edit_public(self, table: Table) -> None:
        """One edit of the public message, made once its turn in the budget came."""
        budget = self.budget
        turn: contextlib.AbstractAsyncContextManager[None] = (
            budget.spend(Priority.SPECTATOR) if budget is not None else contextlib.nullcontext()
        )
        async with turn:
            self._public_pending.discard(table.id)  # from here, a newer move wants another
            async with self._public_lock(table):
                async with table.lock:
                    pass  # a move being committed finishes first
                match, display = table.match, table.display
                public = display.get("public")
                if (
                    match is None
                    or match.is_over
                    or not table.is_open
                    or public is None
                    or display.get("public_hand") != match.hand_number
                    or display.get("showdown_shown") == public
                ):
                    return  # the sync shows what comes now: a showdown, a result, a new table
                self._public_edited[table.id] = time.monotonic()
                panel = embed(table_panel(match, self.faces.card))
                if not await self._edit(int(table.channel_id), public, [panel], public_view(table)):
                    del display["public"]  # deleted by someone: the sync posts it again
                    self._recovering.discard(table.id)
                    self.sync_soon(table)

    def _dm(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _dm_channel(self, table: Table, seat: int) -> int | None:
        """The player's DM channel id, opened once and remembered (None: no such user)."""
        display = table.display
        channels = display.setdefault("dm_channels", {})
        user_id = table.players[seat].id
        if user_id in channels:
            return int(channels[user_id])
        try:
            user = self.client.get_user(int(user_id)) or await self.client.fetch_user(int(user_id))
            dm = await user.create_dm()
        except (discord.NotFound, discord.Forbidden):
            log.warning("could not open a DM channel with user %s", user_id)
            return None
        channels[user_id] = dm.id
        return dm.id

    async def _update_private(self, table: Table, seat: int) -> None:
        assert table.match is not None
        if table.lock.locked():
            return  # a move is being committed: its own sync shows it, with its buttons
        display = table.display
        hands = display.setdefault("hands", {})
        entry = hands.get(str(seat))
        number = table.match.hand_number
        if entry and entry.get("hand") == number:
            message_id = entry["message"]
            if self.left_behind(table, seat) and await self._carried(table, seat):
                return  # the DM hand is edited later, or when the hand ends
            key = self.private_key(table, seat)
            if self._keys.get(message_id) == key:
                return
            rendered = self.private_hand(table, seat, key)
            if await self._edit_payload(
                entry["channel"], message_id, rendered.payload, rendered.shown
            ):
                self._keys[message_id] = rendered.key
                return
            del hands[str(seat)]  # the message is gone: a new one takes its place below
        closed = display.setdefault("dm_closed", {})
        if closed.get(str(seat)) != number:
            try:
                sent = await self.send_private(table, seat)
            except Exception as error:
                if not transient(error) or not self._dm_failed(table, seat):
                    raise
                log.warning(
                    "seat %s of table %s gets no DM: the channel takes over", seat, table.id
                )
                await self._dms_closed(table, seat, failing=True)
                sent = False
            if sent:
                self._dm_failures.pop((table.id, seat), None)
                return
        if closed.get(str(seat)) == number:  # known before, or found by that DM just now
            await self._update_reply(table, seat)

    def left_behind(self, table: Table, seat: int) -> bool:
        """Whether the player's DM hand is left as it is for now (``_reply_showed``): only
        while it has buttons, which bring it up to date when pressed. A hand without any
        (shown while they waited) is edited as soon as it is their turn."""
        entry = table.display.get("hands", {}).get(str(seat))
        key = None if not entry else self._keys.get(entry["message"])
        return key is not None and _has_buttons(key) and self._reply_showed(table, seat)

    def _reply_showed(self, table: Table, seat: int) -> bool:
        """Whether the player's DM hand may stay as it is for now: their last move came from
        the channel moments ago, and its private reply showed them the result. At their
        turn's hand-off that reply is edited instead (``carrier``); without one, the DM hand
        is. It is edited too when the hand ends, after ``command_dm_seconds``, or at once
        when they press one of its buttons (``Moves.show_current``)."""
        until = self._by_command.get((table.id, seat))
        if until is None or time.monotonic() >= until:
            return False
        match = table.match
        board = None if match is None else match.board_of(seat)
        if board is None or board.is_over or not board.actions:
            return False
        if not self._handed_over(table, seat):
            return True
        # A player who looked away gets their turn's alert by DM instead (``_alert_due``).
        return self.carrier(table, seat) is not None and self._looking(table, seat)

    async def _carried(self, table: Table, seat: int) -> bool:
        """For a DM hand left behind: True when it may stay so, as the player's turn has not
        begun, or their reply in the channel now shows it (``carrier``); False when that
        reply could not be edited, and the DM hand carries the hand-off after all."""
        if not self._handed_over(table, seat):
            return True
        return await self._update_reply(table, seat, self._carriers)

    def _handed_over(self, table: Table, seat: int) -> bool:
        """Whether the player's turn has begun since their last move."""
        match = table.match
        board = None if match is None else match.board_of(seat)
        if board is None or board.is_over or not board.actions:
            return False
        return board.turn == seat and board.actions[-1].seat != seat

    def _dm_failed(self, table: Table, seat: int) -> bool:
        """Count a failed DM of this hand; True once it failed DM_ATTEMPTS times."""
        assert table.match is not None
        number = table.match.hand_number
        hand, failures = self._dm_failures.get((table.id, seat), (number, 0))
        failures = failures + 1 if hand == number else 1
        self._dm_failures[(table.id, seat)] = (number, failures)
        return failures >= DM_ATTEMPTS

    async def _update_reply(
        self,
        table: Table,
        seat: int,
        replies: dict[tuple[int, int], PrivateReply] | None = None,
    ) -> bool:
        """Bring the player's latest private reply (of ``replies``: those of closed DMs by
        default) up to date, while Discord allows it; False when there is none to edit."""
        replies = self._replies if replies is None else replies
        reply = replies.get((table.id, seat))
        if reply is None:
            return False
        if time.monotonic() - reply.since > REPLY_EDIT_SECONDS:
            del replies[(table.id, seat)]
            return False
        ref = _reply_ref(table, seat)
        key = self.private_key(table, seat)
        if self._keys.get(ref) == key:
            return True
        rendered = self.private_hand(table, seat, key)
        if self._shown.get(ref) != rendered.shown:
            try:
                await reply.interaction.edit_original_response(
                    embeds=rendered.embeds, view=rendered.view
                )
            except discord.HTTPException as error:
                if transient(error):
                    raise
                log.info("the private reply of seat %s of table %s is gone", seat, table.id)
                del replies[(table.id, seat)]
                self._shown.pop(ref, None)
                self._keys.pop(ref, None)
                return False
        self._shown[ref] = rendered.shown
        self._keys[ref] = rendered.key
        return True

    async def send_private(
        self, table: Table, seat: int, *, again: bool = False, alert: str = "", key: str = ""
    ) -> bool:
        """Send the player a new private hand message by DM; False when their DMs are closed.
        Other failures are raised: the caller decides whether to try again. ``again``: the
        player asked for a fresh copy of the hand they have (`/gin hand`); ``alert``: the
        text of a turn alert, posted once under ``key``."""
        assert table.match is not None
        display = table.display
        rendered = self.private_hand(table, seat)
        payload = {**rendered.payload, "content": alert} if alert else rendered.payload
        channel_id = await self._dm_channel(table, seat)
        if channel_id is None:
            return False
        number = table.match.hand_number
        old = display.setdefault("hands", {}).get(str(seat))
        after = int(old["message"]) if old else 0
        try:
            if again:
                message_id = await send_message(self.client, channel_id, payload)
            else:
                key = key or f"h{number}:{seat}"
                message_id = await self._post(table, key, payload, channel_id, after)
        except discord.Forbidden as error:
            if error.code != CLOSED_DMS:
                log.warning("DM to seat %s of table %s refused: %s", seat, table.id, error)
            await self._dms_closed(table, seat)
            return False
        display["hands"][str(seat)] = {
            "channel": channel_id,
            "message": message_id,
            "hand": number,
        }
        if message_id not in self._shown:  # an answer to a press on it may have come first
            self._shown[message_id] = rendered.shown
            self._keys[message_id] = rendered.key
        display.get("dm_closed", {}).pop(str(seat), None)
        turn = self._turn_begun(table, seat, first_too=True)
        if turn is not None:  # a hand sent fresh on the player's turn is that turn's alert
            self._pinged[(table.id, turn[0])] = turn[1]
        if old and old.get("hand") == number and old.get("message") != message_id:
            # The same hand re-sent (a turn alert, /gin hand): the older copy's buttons
            # would only be stale.
            self._delete_later(old["channel"], old["message"])
            self._shown.pop(old["message"], None)
            self._keys.pop(old["message"], None)
        return True

    async def _dms_closed(self, table: Table, seat: int, *, failing: bool = False) -> None:
        """The player gets this hand through the channel: said once, with a mention."""
        assert table.match is not None
        display = table.display
        display.setdefault("dm_closed", {})[str(seat)] = table.match.hand_number
        announced = display.setdefault("dm_announced", [])
        if seat in announced and not failing:
            return
        if seat not in announced:
            announced.append(seat)
        user_id = table.players[seat].id
        if failing:
            text = tr(
                "<@{user}>, I couldn't deliver your hand by direct message just now. Use "
                "`/gin hand` here to see your cards: only you can see that reply.",
                user=user_id,
            )
        else:
            text = tr(
                "<@{user}>, I can't send you direct messages. Use `/gin hand` here to see "
                "your cards: the game goes on through private replies only you can see.",
                user=user_id,
            )
        try:
            await self._channel(table).send(content=text, allowed_mentions=only(user_id))
        except discord.HTTPException:
            log.warning("could not tell table %s about closed DMs", table.id)

    def _turn_begun(
        self, table: Table, seat: int, *, first_too: bool = False
    ) -> tuple[int, str] | None:
        """(board, turn key) when this seat's turn has begun since its last notice; not
        mid-turn, and not at a hand's first move unless ``first_too`` (a new hand's DM is
        its own notice)."""
        match = table.match
        assert match is not None
        index = match.board_index(seat)
        if index is None or seat in table.bot_seats:
            return None
        hand = match.boards[index]
        if hand.is_over or hand.turn != seat or (not hand.actions and not first_too):
            return None
        if hand.actions and hand.actions[-1].seat == seat:
            return None
        key = f"{match.hand_number}:{len(hand.actions)}"
        if self._pinged.get((table.id, index)) == key:
            return None
        return index, key

    def _alert_due(self, table: Table, seat: int) -> bool:
        """Whether this player's hand should come afresh as their turn's alert: their turn
        began, their DMs are open, their hand of this hand is there, and they are not
        watching (a watching player's hand is edited in place: its new buttons will do)."""
        assert table.match is not None
        if table.lock.locked():
            return False  # a move is being committed: its own sync gives the turn
        turn = self._turn_begun(table, seat)
        if turn is None:
            return False
        number = table.match.hand_number
        display = table.display
        if display.get("dm_closed", {}).get(str(seat)) == number:
            return False  # the channel's mention does it (``_ping_turn``)
        entry = display.get("hands", {}).get(str(seat))
        if not entry or entry.get("hand") != number:
            return False  # the hand's first message is on its way
        if self._looking(table, seat):
            self._pinged[(table.id, turn[0])] = turn[1]
            return False
        return True

    async def _alert(self, table: Table, seat: int) -> None:
        """The turn alert is the hand itself: sent afresh with a line of text for the
        notification, the older copy deleted, so the live buttons are the newest message
        and nothing else is left behind. A hand that cannot be sent falls back as any DM."""
        turn = self._turn_begun(table, seat)
        if turn is None:
            return
        note = self.note(table, seat)
        opponent, where = _opponent(table, seat), self.where(table)
        if opponent is None:
            text = tr("🃏 Your turn ({where}).", where=where)
        else:
            text = tr("🃏 Your turn vs {opponent} ({where}).", opponent=opponent, where=where)
        if note:
            text += f" {note}"
        sent = await self.send_private(table, seat, alert=text, key=f"t{turn[1]}:{seat}")
        if sent:
            # Kept in memory: a restart at worst alerts once more; a failure above leaves
            # it unset, so the retried sync sends it.
            self._pinged[(table.id, turn[0])] = turn[1]
            if self.carrier(table, seat) is not None:
                # Their reply in the channel, if they come back there, shows the turn too
                # (an interaction's own message: no call of the budget).
                await self._update_reply(table, seat, self._carriers)
        else:
            await self._ping_turn(table)  # the DMs just closed: the channel tells them

    async def _ping_turn(self, table: Table) -> None:
        """For a player whose DMs are closed, a mention in the channel when their turn comes
        (one at a time); players with open DMs get their hand afresh instead (``_alert``)."""
        match = table.match
        assert match is not None
        if table.lock.locked():
            return  # a move is being committed: its own sync announces the turn it gives
        for seat in table.human_seats:
            if table.display.get("dm_closed", {}).get(str(seat)) != match.hand_number:
                continue
            turn = self._turn_begun(table, seat, first_too=True)
            if turn is None:
                continue
            await self._ping_in_channel(table, seat)
            self._pinged[(table.id, turn[0])] = turn[1]

    async def _ping_in_channel(self, table: Table, seat: int) -> None:
        """Mention the player whose turn it is; their previous such message goes, so the
        channel holds one at most per player."""
        user_id = table.players[seat].id
        opponent = _opponent(table, seat)
        if (table.id, seat) in self._replies:
            if opponent is None:
                text = tr(
                    "<@{user}>, your turn: use the buttons on your private hand, or "
                    "`/gin hand` to see it again.",
                    user=user_id,
                )
            else:
                text = tr(
                    "<@{user}>, your turn vs {opponent}: use the buttons on your private "
                    "hand, or `/gin hand` to see it again.",
                    user=user_id,
                    opponent=opponent,
                )
        elif opponent is None:
            text = tr(
                "<@{user}>, your turn: use `/gin hand` to see your cards and play.", user=user_id
            )
        else:
            text = tr(
                "<@{user}>, your turn vs {opponent}: use `/gin hand` to see your cards and play.",
                user=user_id,
                opponent=opponent,
            )
        message = await self._channel(table).send(content=text, allowed_mentions=only(user_id))
        old = self._channel_pings.get((table.id, seat))
        self._channel_pings[(table.id, seat)] = message.id
        if old is not None:
            self._delete_later(int(table.channel_id), old)

    async def _clear_channel_pings(self, table: Table) -> None:
        """The game is over or closed: no "your turn" stays behind in the channel."""
        for seat in range(len(table.players)):
            old = self._channel_pings.pop((table.id, seat), None)
            if old is not None:
                self._delete_later(int(table.channel_id), old)

    def _delete_later(self, channel_id: int, message_id: int) -> None:
        """Housekeeping, in the background at the lowest priority: nothing waits for it."""
        if self.client.is_closed():
            return
        task = asyncio.create_task(self._delete(channel_id, message_id), name="gin-delete")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _delete(self, channel_id: int, message_id: int) -> None:
        """A message that could not be deleted (or waited too long) is left as it is."""
        if await self._delete_by_press(message_id):
            return
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        with priority(Priority.HOUSEKEEPING), contextlib.suppress(discord.HTTPException, Dropped):
            await message.delete()

    async def _edit_hand(
        self, entry: dict[str, Any], embeds: list[discord.Embed], view: discord.ui.View | None
    ) -> bool:
        """Edit a DM hand message; an alert's line of text goes with its turn."""
        payload = {"content": "", **message_payload(embeds, view)}
        shown = fingerprint(payload)
        return await self._edit_payload(entry["channel"], entry["message"], payload, shown)

    async def _edit(
        self,
        channel_id: int,
        message_id: int,
        embeds: list[discord.Embed],
        view: discord.ui.View | None,
    ) -> bool:
        payload = message_payload(embeds, view)
        return await self._edit_payload(channel_id, message_id, payload, fingerprint(payload))

    async def _edit_payload(
        self, channel_id: int, message_id: int, payload: Payload, shown: bytes
    ) -> bool:
        """Edit a message unless it already shows this; False when the message is gone.
        Other failures are raised (the sync tries again when they may pass)."""
        if self._shown.get(message_id) == shown:
            return True
        if await self._edit_by_press(message_id, payload):
            self._shown[message_id] = shown
            return True
        try:
            await edit_message(self.client, channel_id, message_id, payload)
        except discord.NotFound:
            log.info("message %s is gone", message_id)
            self._shown.pop(message_id, None)
            self._keys.pop(message_id, None)
            return False
        self._shown[message_id] = shown
        return True

    def _press_of(self, message_id: int) -> Pressed | None:
        """The message's latest press, while its token may still be used."""
        press = self._pressed.get(message_id)
        if press is not None and time.monotonic() - press.since > REPLY_EDIT_SECONDS:
            del self._pressed[message_id]
            return None
        return press

    def _webhook_session(self, press: Pressed) -> dict[str, Any]:
        """How discord.py's own interaction calls reach Discord: the bot's session, proxy."""
        http = self.client.http
        return {"session": press.session, "proxy": http.proxy, "proxy_auth": http.proxy_auth}

    async def _edit_by_press(self, message_id: int, payload: Payload) -> bool:
        """Edit a DM hand through the token of its latest press (``Pressed``); False when
        there is none to use, and the message is edited as any other. A failure that may pass
        is raised, as for any edit."""
        press = self._press_of(message_id)
        if press is None:
            return False
        try:
            # The raw call under Interaction.edit_original_response, with the payload as it
            # is: for a press on a message, "@original" is that message.
            await async_context.get().edit_original_interaction_response(
                press.application_id,
                press.token,
                **self._webhook_session(press),
                payload={**payload, "allowed_mentions": NO_MENTIONS},
            )
        except discord.HTTPException as error:
            if transient(error):
                raise
            log.info("the press on message %s can no longer edit it (%s)", message_id, error)
            self._pressed.pop(message_id, None)
            return False
        return True

    async def _delete_by_press(self, message_id: int) -> bool:
        """Delete a DM hand through the token of its latest press; False when there is none
        to use (or it failed), and the message is deleted as any other."""
        press = self._press_of(message_id)
        self._pressed.pop(message_id, None)
        if press is None:
            return False
        try:
            await async_context.get().delete_original_interaction_response(
                press.application_id, press.token, **self._webhook_session(press)
            )
        except discord.NotFound:
            return True  # gone already
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            log.info("the press on message %s could not delete it (%r)", message_id, error)
            return False
        return True

    # --- closing and reminders ------------------------------------------------------------------

    async def close(self, table: Table, text: str) -> None:
        """A table closed with no result: take the buttons off everything it showed."""
        panel = [embed(Panel(tr("Table closed"), text))]
        display = table.display
        edits = [
            (int(table.channel_id), display[key])
            for key in ("challenge", "public")
            if key in display
        ]
        edits += [(e["channel"], e["message"]) for e in display.get("hands", {}).values()]
        try:
            await self._clear_channel_pings(table)
            await self._retire_replies(table, panel)
            async with self._public_lock(table):
                await self._edit_patiently(table, edits, panel)
        finally:
            self.forget(table)

    async def expired(self, table: Table, text: str) -> None:
        """An unanswered challenge ran out: its buttons go, the channel is free."""
        message_id = table.display.get("challenge")
        try:
            if message_id is not None:
                panel = [embed(Panel(tr("Challenge expired"), text))]
                await self._edit_patiently(table, [(int(table.channel_id), message_id)], panel)
        finally:
            self.forget(table)

    async def _edit_patiently(
        self, table: Table, messages: list[tuple[int, int]], embeds: list[discord.Embed]
    ) -> None:
        """Edits for a table that just closed: no later sync will make them, so each is
        tried a few times while Discord fails for a reason that may pass."""
        payload = message_payload(embeds, None)
        shown = fingerprint(payload)
        for channel_id, message_id in messages:
            delay = RETRY_FIRST
            for attempt in range(DM_ATTEMPTS):
                try:
                    await self._edit_payload(channel_id, message_id, payload, shown)
                    break
                except Exception as error:
                    if not transient(error) or attempt == DM_ATTEMPTS - 1:
                        log.warning("table %s: message %s kept its buttons", table.id, message_id)
                        break
                    await asyncio.sleep(delay)
                    delay *= 2

    async def tell(self, table: Table, seat: int, text: str) -> None:
        """A short private note to a player; in the channel with a mention if DMs are closed."""
        if table.seats[seat].is_bot:
            return
        display = table.display
        sent = False
        if display.get("dm_closed", {}).get(str(seat)) is None:
            channel_id = await self._dm_channel(table, seat)
            if channel_id is not None:
                try:
                    await self._dm(channel_id).send(content=text)
                    sent = True
                except discord.Forbidden:
                    sent = False
                except discord.HTTPException:
                    log.warning("could not DM seat %s of table %s", seat, table.id)
        if not sent:
            user_id = table.players[seat].id
            try:
                await self._channel(table).send(
                    content=f"<@{user_id}> {text}", allowed_mentions=only(user_id)
                )
            except discord.HTTPException:
                log.warning("could not remind seat %s of table %s", seat, table.id)


def _opponent(table: Table, seat: int) -> str | None:
    """The opponent's name on a two-player board; None when several play one board."""
    match = table.match
    board = None if match is None else match.board_of(seat)
    if match is None or board is None or len(board.seats) != 2:
        return None
    return table.players[match.opponent_of(seat)].name


def only_users(user_ids: list[str]) -> dict[str, Any]:
    """``allowed_mentions`` for a raw payload: exactly these users may be notified."""
    return {"parse": [], "users": list(user_ids)}


def _same_heading(shown: Payload, wanted: Payload) -> bool:
    """Two embeds with the same title and footer: the same message of the same table."""
    footer = (shown.get("footer") or {}).get("text")
    return bool(
        shown.get("title") == wanted.get("title")
        and footer == (wanted.get("footer") or {}).get("text")
    )


def _snowflake_at(moment: datetime | None) -> int:
    """The smallest Discord id of a message made a little before this moment (0: unknown)."""
    if moment is None:
        return 0
    return discord.utils.time_snowflake(moment - timedelta(seconds=5))


def _to_act(table: Table, seat: int) -> bool:
    """Whether it is this seat's turn on its board."""
    match = table.match
    board = None if match is None else match.board_of(seat)
    return board is not None and board.turn == seat and not board.is_over


def _has_buttons(key: tuple[Any, ...]) -> bool:
    """Whether the hand a ``private_key`` describes has move buttons: the player was to act
    on a board still being played."""
    state = key[2]
    return state[0] not in ("waiting", "out") and not state[2]


def _reply_ref(table: Table, seat: int) -> str:
    return f"reply:{table.id}:{seat}"

"""The channel's screens: the public table and its paced edits, each hand's showdown (with
its picture), the match's result, and the messages of a table that closed."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import replace

import discord

from bot.art.artist import Artist
from bot.gin.match import HandRecord
from bot.i18n import speaking, tr
from bot.pacing import Priority
from bot.render.common import Panel
from bot.render.result import match_over_panel
from bot.render.showdown import showdown_panel
from bot.render.table import table_panel, table_title
from bot.tables import Table
from bot.tables.records import Records
from bot.waiting import woken
from cogs.gin.languages import Languages
from cogs.gin.screens.ledger import Payload, fingerprint
from cogs.gin.screens.messages import (
    RETRY_FIRST,
    Attachment,
    Messenger,
    message_payload,
    only_users,
    transient,
)
from cogs.gin.screens.pictures import showdown_picture
from cogs.gin.screens.private import SHOWDOWN_COLOUR, PrivateScreens
from cogs.gin.screens.state import Registry, ScreenIds, TableScreens
from cogs.gin.views import embed, public_view, rematch_view

log = logging.getLogger(__name__)

# Seconds between edits of one table's public message: spectators see the table a move or two
# at a time, within 10 s, while a move costs well under one REST call in all (see bot.pacing).
# A busy bot edits it less often: those edits wait for whatever the players leave of the budget.
PUBLIC_EDIT_INTERVAL = 7.0
RETRY_MAX = 30.0  # the longest pause before a failed edit of the public table is tried again


def next_public_edit(last: float | None, now: float, interval: float) -> float:
    """When a table's public message may be edited next: now if it was last shown a whole
    interval ago, else once that interval has passed. Tables that want edits at the same
    instant need not be spread here: their edits queue in the REST budget."""
    if last is None:
        return now
    return max(now, last + interval)


class ChannelScreens:
    """What a table shows in its channel, for spectators and players alike."""

    def __init__(
        self,
        messenger: Messenger,
        private: PrivateScreens,
        languages: Languages,
        screens: Registry,
        sync_soon: Callable[[Table], None],
        records: Records,
        artist: Artist,
    ) -> None:
        self.messenger = messenger
        self.records = records
        self.artist = artist  # draws the showdown pictures
        self.private = private
        self.languages = languages
        self.screens = screens
        self.sync_soon = sync_soon
        self.stopping = asyncio.Event()
        self.launch = False  # the Activity is set up: the table offers Play at the table
        self.background: set[asyncio.Task[None]] = set()

    async def show_next(self, table: Table) -> bool:
        """The channel's next message, in the order the game went: the first finished board
        whose showdown is not there yet, else the result of a match that is over, else the
        current hand's table. True when it posted a showdown or a new hand's table, after
        which more may follow (the caller asks again).

        Each step is chosen from the table as it is when the step begins, never from a list
        worked out before an earlier post: hands that end while the channel is posting (a
        rate-limited channel, quick players) come next, in order, and the result or a newer
        hand's table waits until every showdown before it is in the channel."""
        match = table.match
        assert match is not None
        pending, hand_number, over = await self._unshown(table)
        if pending:  # chosen from one moment's state, whatever happened since
            await self._post_showdown(table, pending, hand_number, over)
            return True
        live = table.match
        if live is not match or (hand_number, over) != (live.hand_number, live.is_over):
            return True  # the game went on while the store answered: look again
        if over:
            await self.post_match_over(table)
            return False
        return await self.update_public(table)

    async def _post_showdown(
        self, table: Table, pending: list[HandRecord], hand_number: int, over: bool
    ) -> None:
        """The first of the unshown boards (``pending``, read when the hand in play was
        ``hand_number``) shown in the channel. A hand counts as shown once all its boards
        are; its last board's showdown takes the place of the hand's table message, so a
        hand has one message. Hands that ended before the channel caught up are read back
        from the store: every showdown reaches the channel, late if it must."""
        match = table.match
        assert match is not None
        ids = ScreenIds(table.screen_ids)
        faces = self.private.hands.faces
        record = pending[0]
        hand_over = record.number < hand_number or over
        last_board = hand_over and all(r.number != record.number for r in pending[1:])
        if last_board and ids.public_hand != record.number and self.screens(table.id).recovering:
            await self._find_table(table, record.number)
        public = ids.public
        # The hand's table message becomes its (last) showdown: one message per hand.
        merge = last_board and public is not None and ids.public_hand == record.number
        panel = embed(
            showdown_panel(match, record.number, record.result, record.board, faces.card),
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
        try:
            await self._show_showdown(table, key, public if merge else None, payload, files)
        except discord.Forbidden:
            if not files:
                raise
            # No Attach Files in this channel: the showdown goes as text, cards and all.
            log.warning(
                "table %s: no permission to attach the showdown's picture in channel %s",
                table.id,
                table.channel_id,
            )
            payload = message_payload([panel], None)
            await self._show_showdown(table, key, public if merge else None, payload, [])
        if last_board:
            ids.shown_hands = record.number
            ids.shown_boards = []
        else:
            ids.shown_boards = [*ids.shown_boards, record.board]

    async def _find_table(self, table: Table, number: int) -> None:
        """After a restart: the table of hand ``number`` may have been posted before the
        stop and its id not saved; found, its showdown takes its place as in any hand."""
        match = table.match
        assert match is not None
        ids = ScreenIds(table.screen_ids)
        heading = replace(table_panel(match), title=table_title(match, number))
        found = await self.messenger.posted_since(
            int(table.channel_id),
            ids.channel_anchor(),
            table.created_at,
            message_payload([embed(heading)], None),
        )
        if found is not None:
            log.info("table %s: hand %s's table was posted before the restart", table.id, number)
            ids.public, ids.public_hand = found, number

    async def _show_showdown(
        self,
        table: Table,
        key: str,
        public: int | None,
        payload: Payload,
        files: list[Attachment],
    ) -> None:
        """A showdown into the hand's table message (``public``), or as a message of its own."""
        ids = ScreenIds(table.screen_ids)
        if public is not None:
            async with self.screens(table.id).public_lock:  # after a spectators' edit
                await self.messenger.patch(int(table.channel_id), public, payload, files)
            self.messenger.ledger.record(public, fingerprint(payload))
            ids.showdown_shown = public  # the table's edits leave it alone now
        else:
            await self.private.notices.post(
                table, key, payload, after=ids.channel_anchor(), files=files
            )

    async def _unshown(self, table: Table) -> tuple[list[HandRecord], int, bool]:
        """The finished boards whose showdowns are not in the channel yet, in order, with
        the hand in play and whether the match is over: all as they were at one moment,
        when no move was being committed (so every finished hand no longer kept in memory
        is in the store, where it is read)."""
        async with table.lock:
            pass  # a move being committed finishes first
        match = table.match
        assert match is not None
        ids = ScreenIds(table.screen_ids)
        done, boards = ids.shown_hands, set(ids.shown_boards)
        hand_number, over, kept = match.hand_number, match.is_over, list(match.history)

        def unshown(record: HandRecord) -> bool:
            if record.number <= done:
                return False
            return not (record.number == done + 1 and record.board in boards)

        pending = [r for r in kept if unshown(r)]
        oldest_kept = min((r.number for r in kept), default=hand_number + 1)
        if done + 1 < oldest_kept and hand_number > done + 1:
            stored = [
                HandRecord.from_dict(row.result) for row in await self.records.hands(table.id)
            ]
            # Hands that ended while the store answered are left for the next step.
            pending += [r for r in stored if r.number < oldest_kept and unshown(r)]
        return sorted(pending, key=lambda r: (r.number, r.board)), hand_number, over

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
            data = await self.artist.showdown(picture)
        except Exception:
            log.exception(
                "table %s: could not draw the showdown of hand %s", table.id, record.number
            )
            return []
        return [Attachment(f"showdown-{record.number}-{record.board}.png", data)]

    async def post_match_over(self, table: Table) -> None:
        """The result in the channel (once, naming its players), the last table shown as it
        ended, then the players' own screens of the result."""
        match = table.match
        assert match is not None and match.result is not None
        ids = ScreenIds(table.screen_ids)
        if not ids.final_posted:
            await self.private.notices.clear_channel_pings(table)
            friendly = table.meta.tournament is None
            again = rematch_view(table)
            practice = table.vs_bot and again is not None  # its button plays the bot again
            panel = match_over_panel(match, match.result, friendly=friendly, practice=practice)
            payload = message_payload([embed(panel, SHOWDOWN_COLOUR)], again)
            human = [table.players[seat].id for seat in table.human_seats]
            payload["content"] = " ".join(f"<@{user_id}>" for user_id in human)
            # Named, but pinged only where no result DM will tell them: closed DMs.
            closed = [
                table.players[seat].id
                for seat in table.human_seats
                if ids.dm_closed(seat) is not None
            ]
            payload["allowed_mentions"] = only_users(closed)
            await self.private.notices.post(table, "over", payload, after=ids.channel_anchor())
            ids.final_posted = True
        public = ids.public
        if (
            public is not None
            and ids.public_hand == match.hand_number
            and ids.showdown_shown != public
        ):
            async with self.screens(table.id).public_lock:
                await self._edit(
                    table, public, [embed(table_panel(match, self.private.hands.faces.card))]
                )
        await self.private.show_result(table)

    async def _edit(
        self,
        table: Table,
        message_id: int,
        embeds: list[discord.Embed],
        view: discord.ui.View | None = None,
    ) -> bool:
        payload = message_payload(embeds, view)
        return await self.messenger.edit(
            int(table.channel_id), message_id, payload, fingerprint(payload)
        )

    async def update_public(self, table: Table) -> bool:
        """The hand's public table: posted for a new hand (True), else edited for spectators
        by a task of its own, at most once an interval."""
        match = table.match
        assert match is not None
        ids = ScreenIds(table.screen_ids)
        screens = self.screens(table.id)
        if ids.public_hand != match.hand_number or ids.public is None:
            number = match.hand_number  # the hand it shows, whatever comes while it posts
            panel = embed(table_panel(match, self.private.hands.faces.card))
            payload = message_payload([panel], public_view(table, launch=self.launch))
            message_id = await self.private.notices.post(
                table, f"p{number}", payload, after=ids.channel_anchor()
            )
            ids.public = message_id
            ids.public_hand = number
            self.messenger.ledger.record(message_id, fingerprint(payload))
            screens.public_edited = time.monotonic()
            return True
        if ids.showdown_shown == ids.public:
            return False  # it shows the hand's showdown now; the next hand gets its own
        if self._all_at_the_table(table):
            return False  # the Activity shows them every move; the channel's table waits
        # Spectators don't need every move the instant it happens: the public table is
        # edited by a task of its own, at most once per interval, when the budget allows,
        # showing the newest state when its turn comes. No player's screen waits for it.
        screens.public_pending = True
        if screens.public_job is None:
            task = asyncio.create_task(
                self._show_spectators(table, screens), name=f"gin-public-{table.id}"
            )
            screens.public_job = task
            self.background.add(task)
            task.add_done_callback(self.background.discard)
        return False

    def _all_at_the_table(self, table: Table) -> bool:
        """Every person seated has the table open in the Activity."""
        present = self.private.service.presence.users(table.id)
        return bool(present) and all(table.players[s].id in present for s in table.human_seats)

    async def _show_spectators(self, table: Table, screens: TableScreens) -> None:
        """Edit the table's public message while it shows an older state than the table's:
        each edit after the interval since the last, and after its turn in the budget."""
        delay = RETRY_FIRST
        try:
            while screens.public_pending and table.is_open:
                now = time.monotonic()
                at = next_public_edit(screens.public_edited, now, PUBLIC_EDIT_INTERVAL)
                if at > now and not self.stopping.is_set():
                    await woken(self.stopping, at - now)
                try:
                    with speaking(self.languages.of_channel(table)):
                        await self._edit_public(table, screens)
                    delay = RETRY_FIRST
                except Exception as error:
                    if not transient(error):
                        log.exception("could not edit the public table of table %s", table.id)
                        screens.public_pending = False
                        return
                    log.warning(
                        "the public table of table %s failed (%r); trying again soon",
                        table.id,
                        error,
                    )
                    screens.public_pending = True
                    await asyncio.sleep(delay)
                    delay = min(RETRY_MAX, delay * 2)
        finally:
            screens.public_job = None

    async def _edit_public(self, table: Table, screens: TableScreens) -> None:
        """One edit of the public message, made once its turn in the budget came."""
        async with self.messenger.spend(Priority.SPECTATOR):
            screens.public_pending = False  # from here, a newer move wants another
            async with screens.public_lock:
                async with table.lock:
                    pass  # a move being committed finishes first
                match, ids = table.match, ScreenIds(table.screen_ids)
                public = ids.public
                if (
                    match is None
                    or match.is_over
                    or not table.is_open
                    or public is None
                    or ids.public_hand != match.hand_number
                    or ids.showdown_shown == public
                    or self._all_at_the_table(table)
                ):
                    return  # the sync shows what comes now: a showdown, a result, a new table
                screens.public_edited = time.monotonic()
                panel = embed(table_panel(match, self.private.hands.faces.card))
                if not await self._edit(
                    table, public, [panel], public_view(table, launch=self.launch)
                ):
                    ids.public = None  # deleted by someone: the sync posts it again
                    screens.recovering = False
                    self.sync_soon(table)

    # --- a table that closed -----------------------------------------------------------------

    async def close(
        self,
        table: Table,
        say: Callable[[], str],
        challenge: list[discord.Embed] | None = None,
    ) -> None:
        """A table closed with no result (``say``: why, in the language in force). The
        channel's messages lose their buttons, the challenge or lobby message showing
        ``challenge`` when given (the message that announced the closing says why, once);
        each player still in play finds it said on their DM hand, in their own language.
        A DM hand that shows a hand already over (a showdown, a player gone out) stays."""

        def closed(seat: int) -> list[discord.Embed]:
            with speaking(self.languages.of_player(table, seat)):
                return [embed(Panel(tr("Table closed"), say()))]

        ids = ScreenIds(table.screen_ids)
        channel_id = int(table.channel_id)
        edits: list[tuple[int, int, Payload]] = []
        if ids.challenge is not None:
            shown = {"components": []} if challenge is None else message_payload(challenge, None)
            edits.append((channel_id, ids.challenge, shown))
        if ids.public is not None:
            edits.append((channel_id, ids.public, {"components": []}))
        match = table.match
        for seat, entry in ids.hands():
            live = (
                match is not None
                and not match.is_over
                and entry.get("hand") == match.hand_number
                and not entry.get("showdown")
                and match.board_of(seat) is not None
            )
            if live:
                payload = {"content": "", **message_payload(closed(seat), None)}
                edits.append((int(entry["channel"]), int(entry["message"]), payload))
        await self.private.notices.clear_channel_pings(table)
        await self.private.notices.retire_replies(table, closed)
        async with self.screens(table.id).public_lock:
            for where, message, payload in edits:
                await self.messenger.edit_patiently(
                    f"table {table.id}", [(where, message)], payload, fingerprint(payload)
                )

    async def expired(self, table: Table, text: str) -> None:
        """An unanswered challenge ran out: its buttons go."""
        message_id = ScreenIds(table.screen_ids).challenge
        if message_id is not None:
            panel = [embed(Panel(tr("Challenge expired"), text))]
            await self._edit_patiently(table, [(int(table.channel_id), message_id)], panel)

    async def _edit_patiently(
        self, table: Table, messages: list[tuple[int, int]], embeds: list[discord.Embed]
    ) -> None:
        payload = message_payload(embeds, None)
        await self.messenger.edit_patiently(
            f"table {table.id}", messages, payload, fingerprint(payload)
        )

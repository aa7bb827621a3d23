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

The package, top to bottom (each module imports only those below it): this facade;
``channel`` (the channel's messages); ``private`` (each player's); ``handoff`` (the pure
policy of which message carries a turn); ``state`` (what is kept per table and seat);
``messages`` (every REST call); ``ledger`` (what each message shows).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import aiohttp
import discord

from bot.art.artist import Artist
from bot.coaching import Coach
from bot.emojis import CardEmojis
from bot.i18n import speaking
from bot.pacing import Priority, priority
from bot.render.showdown import showdown_panel
from bot.tables import MoveOutcome, Table, TableService
from cogs.gin.errors import update
from cogs.gin.languages import Languages
from cogs.gin.screens.channel import ChannelScreens
from cogs.gin.screens.handoff import Handoff
from cogs.gin.screens.hands import sits_out, to_act
from cogs.gin.screens.ledger import Ledger, Ref, fingerprint, reply_ref
from cogs.gin.screens.messages import Messenger, message_payload, transient
from cogs.gin.screens.private import PrivateScreens, showdown_view
from cogs.gin.screens.refusals import refused
from cogs.gin.screens.state import PrivateHand, PrivateReply, Registry, Retry, ScreenIds
from cogs.gin.views import embed

log = logging.getLogger(__name__)

RETRY_FIRST = 0.5  # seconds before a failed sync runs again; doubled each time
# The longest pause between tries of an open table: its players wait for what failed, so
# the screens catch up within seconds of Discord answering again, however long it failed.
RETRY_MAX = 4.0
RETRY_MAX_CLOSED = 30.0  # ... of a closed table's last messages
RETRY_GIVE_UP = 60  # failed tries in a row after which a closed table is left as it is

__all__ = ["PrivateHand", "PrivateReply", "Screens"]


class Screens:
    """Posts and edits one table's public message and each player's private hand message."""

    def __init__(
        self, client: discord.Client, service: TableService, artist: Artist, coach: Coach
    ) -> None:
        self.client = client
        self.service = service
        self.languages = Languages(client)
        self.ledger = Ledger()
        self.messenger = Messenger(client, self.ledger)
        self.tables = Registry()
        self.private = PrivateScreens(
            client, service, self.messenger, self.languages, self.tables, self.sync_soon, coach
        )
        self.channel = ChannelScreens(
            self.messenger,
            self.private,
            self.languages,
            self.tables,
            self.sync_soon,
            service.records,
            artist,
        )
        self._background: set[asyncio.Task[None]] = set()

    # --- what the flows ask of the screens ----------------------------------------------------

    @property
    def faces(self) -> CardEmojis:
        """The card emojis the bot has (text for any it lacks)."""
        return self.private.hands.faces

    def where(self, table: Table) -> str:
        """Where the table is played, for a message's text (markdown escaped)."""
        return self.private.hands.where_text(table)

    def hand_of(self, table: Table, seat: int, note: str | None = None) -> PrivateHand:
        """The player's private hand as it is now (``note``: a note of its own)."""
        key = None if note is None else self.private.hands.key(table, seat, note=note)
        return self.private.hands.render(table, seat, key)

    def reply_hand(self, table: Table, seat: int) -> PrivateHand:
        """The player's hand for a private reply in the channel (`/gin hand`, Show my hand):
        with its buttons where a reply may carry the hand, else only shown (their DM hand
        carries it: see ``Replies.carries``)."""
        rendered = self.hand_of(table, seat)
        if self._reply_carries(table, seat):
            return rendered
        payload = {"content": "", **message_payload(rendered.embeds, None)}
        return replace(rendered, view=None, payload=payload, shown=fingerprint(payload))

    def _reply_carries(self, table: Table, seat: int) -> bool:
        closed = ScreenIds(table.screen_ids).dm_closed(seat) is not None
        return closed or self.private.replies.carries()

    def note(self, table: Table, seat: int) -> str:
        return self.private.hands.note(table, seat)

    def set_note(self, table: Table, seat: int, note: Callable[[], str] | None) -> None:
        """What the player's private hand says happened last (None: nothing)."""
        self.private.hands.set_note(table, seat, note)

    def mover_reply(
        self, outcome: MoveOutcome, *, in_dm: bool = False
    ) -> tuple[list[discord.Embed], discord.ui.View | None]:
        """What the mover sees: their updated hand, or the showdown when the hand ended."""
        table = outcome.table
        match = table.match
        assert match is not None
        record = outcome.finished_hand
        # A reply in the channel carries the mover's hand from now, buttons and all; where
        # it cannot (a process of a fleet that does not answer the DM presses), their DM
        # hand does, and the reply only shows it.
        carries = in_dm or self._reply_carries(table, outcome.seat)
        if record is None:
            rendered = self.private.hands.render(table, outcome.seat)
            return rendered.embeds, rendered.view if carries else None
        faces = self.faces.card
        panel = showdown_panel(match, record.number, record.result, record.board, faces)
        embeds = [embed(panel)]
        if match.is_over or in_dm or match.board_of(outcome.seat) is None:
            return embeds, showdown_view(table, record)  # the new hand comes as a new DM
        rendered = self.private.hands.render(table, outcome.seat)
        return [*embeds, *rendered.embeds], rendered.view if carries else None

    def answering(self, table: Table, seat: int, *, command: bool) -> None:
        """The answer to the player's move is about to be sent: by a private reply in the
        channel (``command``), which shows it, or on their DM hand, which is their live hand
        from now."""
        if command:
            self.private.replying(table, seat, command=True)
        else:
            self.private.played_in_dm(table, seat)

    def answered(
        self,
        table: Table,
        seat: int,
        interaction: discord.Interaction[Any],
        embeds: list[discord.Embed],
        view: discord.ui.View | None,
        *,
        landed: bool,
        message: int | None,
        original: bool,
    ) -> None:
        """The answer to a move landed (or did not): what it shows, and which message
        carries the player's hand from now (see ``handoff``)."""
        in_dm = interaction.guild_id is None
        if not landed:
            self.private.replying(table, seat, command=False)
            self.private.unshown(table, seat, message)
            return
        if in_dm:
            if message is not None:  # its answer edited the hand: so may its token, a while
                self.private.hands.remember(table, seat, message, embeds, view)
                self.ledger.press(message, interaction)
            return
        # A private reply in the channel: the player's live hand from now.
        self.private.shown_privately(
            table, seat, interaction, embeds, view, message, original=original
        )

    async def show_now(
        self, interaction: discord.Interaction[Any], table: Table, seat: int, said: str
    ) -> None:
        """A button from an earlier moment of the game, or Play here on a DM hand whose
        player played from the channel: the message it is on becomes the hand as it is now,
        saying so (``said``), and their live hand."""
        shown = interaction.message.id if interaction.message is not None else None
        in_dm = interaction.guild_id is None
        async with self.quiet(table):  # no older edit of this message lands after
            last = self.note(table, seat)
            note = f"{said} {last}" if last else said  # here only: a move's answer says its own
            rendered = self.hand_of(table, seat, note=note)
            try:
                await update(interaction, embeds=rendered.embeds, view=rendered.view)
            except (discord.HTTPException, aiohttp.ClientError):
                failed = True
            else:
                failed = False
                if in_dm and shown is not None:
                    self.private.played_in_dm(table, seat)
                    self.private.hands.remember(table, seat, shown, rendered.embeds, rendered.view)
                    self.ledger.press(shown, interaction)
                else:
                    self.private.shown_privately(
                        table, seat, interaction, rendered.embeds, rendered.view, shown
                    )
        if failed:
            self.private.unshown(table, seat, shown)  # the sync shows it instead
            await self.sync(table)

    def shown_privately(
        self,
        table: Table,
        seat: int,
        interaction: discord.Interaction[Any],
        rendered: PrivateHand,
        message_id: int | None,
        *,
        original: bool,
    ) -> None:
        """A private reply (`/gin hand`, Show my hand) just showed the player their hand:
        their live hand from now."""
        self.private.shown_privately(
            table,
            seat,
            interaction,
            rendered.embeds,
            rendered.view,
            message_id,
            original=original,
        )

    def heard(self, table: Table, seat: int, shown_message: int | None) -> None:
        """Another process made this seat's move (``shown_message``: the DM hand its answer
        edited, which shows the table as it is now)."""
        if shown_message is None:
            return
        self.private.played_in_dm(table, seat)
        self.private.shown_elsewhere(table, seat, shown_message)

    def acted(self, table: Table, seat: int) -> None:
        self.private.acted(table, seat)

    def started(self, table: Table) -> None:
        self.private.started(table)

    def recovering(self, tables: list[Table]) -> None:
        """These tables were loaded after a restart: check before posting their messages."""
        for table in tables:
            self.tables(table.id).recovering = True

    def quiet(self, table: Table) -> asyncio.Lock:
        """Held by each sync of the table: inside, no edit of its players' messages is in
        flight."""
        return self.tables(table.id).players_lock

    def retrying(self, table: Table) -> bool:
        """Whether some of the table's messages wait for Discord to answer again."""
        screens = self.tables.get(table.id)
        return screens is not None and screens.retry is not None

    # The hand-off, as the tests' drivers read it.
    def decide(self, table: Table, seat: int) -> Handoff:
        return self.private.decide(table, seat)

    def carrier(self, table: Table, seat: int) -> PrivateReply | None:
        return self.private.carrier(table, seat)

    @property
    def looking_seconds(self) -> float:
        return self.private.looking_seconds

    @looking_seconds.setter
    def looking_seconds(self, value: float) -> None:
        self.private.looking_seconds = value

    async def remind(self, table: Table, seat: int, text: str, key: str) -> None:
        """The halfway reminder of a turn: the player's hand sent afresh by DM with ``text``
        (so nothing of it stays once they move), or a mention in the channel when their DMs
        are closed."""
        if ScreenIds(table.screen_ids).dm_closed(seat) is None and table.match is not None:
            with speaking(self.languages.of_player(table, seat)), priority(Priority.TURN):
                async with self.quiet(table):
                    sent = await self.private.resend(table, seat, text, key)
            if sent:
                try:
                    await self.service.save_display(table)
                except Exception:
                    log.exception("could not save the message ids of table %s", table.id)
                return
        await self.tell(table, seat, text)

    async def tell(self, table: Table, seat: int, text: str) -> None:
        await self.private.notices.tell(table, seat, text)

    # --- endings -----------------------------------------------------------------------------

    async def close(
        self,
        table: Table,
        say: Callable[[], str],
        challenge: list[discord.Embed] | None = None,
    ) -> None:
        """A table closed with no result: take the buttons off everything it showed
        (``ChannelScreens.close``)."""
        try:
            await self.channel.close(table, say, challenge)
        finally:
            self.forget(table)

    async def expired(self, table: Table, text: str) -> None:
        """An unanswered challenge ran out: its buttons go, the channel is free."""
        try:
            await self.channel.expired(table, text)
        finally:
            self.forget(table)

    def forget(self, table: Table) -> None:
        """Drop what was kept about a closed table's messages."""
        screens = self.tables.drop(table.id)
        if screens is not None and screens.silent_due is not None:
            screens.silent_due[1].cancel()
        if screens is not None and screens.retry is not None and screens.retry.handle is not None:
            screens.retry.handle.cancel()
        refs: list[Ref] = [reply_ref(table.id, seat) for seat in range(len(table.players))]
        refs += ScreenIds(table.screen_ids).messages()
        self.ledger.forget(refs)

    async def stop(self) -> None:
        """Finish the delayed public edits now (at shutdown)."""
        self.channel.stopping.set()
        for screens in self.tables.all():
            if screens.retry is not None and screens.retry.handle is not None:
                screens.retry.handle.cancel()
            screens.retry = None
            if screens.silent_due is not None:
                screens.silent_due[1].cancel()
                screens.silent_due = None
        pending = [
            *self._background,
            *self.channel.background,
            *self.private.replies.background,
            *self.messenger.background(),
        ]
        if pending:
            await asyncio.wait(pending, timeout=5)

    # --- syncing ------------------------------------------------------------------------------

    def sync_soon(self, table: Table) -> None:
        """Sync the table from a task of its own (from a callback, or a timer)."""
        if self.client.is_closed():
            return
        task = asyncio.create_task(self.sync(table), name=f"gin-sync-{table.id}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def sync(self, table: Table) -> None:
        """Bring the table's messages up to date; never raises. What failed and may work
        later is tried again by itself, with backoff."""
        if self.client.is_closed() or not self.service.shows(table):
            return  # another process shows this table (see bot.tables.fleet)
        # Two lanes, one after the other, each with a lock of its own: the players' messages,
        # then the channel's (showdowns, a new hand's table, the result). A player's turn in
        # the next move's sync never waits for a channel message of this one.
        screens = self.tables(table.id)
        screens.players_dirty = screens.channel_dirty = True
        players = await self._lane(table, players=True)
        if players is not None:
            self.private.hands.drop_rendered(table)  # shown; the ledger's keys tell later syncs so
        channel = await self._lane(table, players=False)
        ran = [done for done in (players, channel) if done is not None]
        if not ran:
            return  # syncs that started after our change showed it
        if all(ran):
            self._settled(table)
        else:
            self._retry_later(table)
        # A closed table's last sync forgets it; not while another sync waits to show what
        # came after (the move that closed it, say).
        if not table.is_open and not screens.busy and self.tables.get(table.id) is screens:
            self.forget(table)

    async def _lane(self, table: Table, *, players: bool) -> bool | None:
        """Run one lane of a sync under its lock: True when all of it landed, False when some
        must be retried, None when a sync that started after our change already ran it."""
        screens = self.tables(table.id)
        lock = screens.players_lock if players else screens.channel_lock
        async with lock:
            if not (screens.players_dirty if players else screens.channel_dirty):
                return None
            if players:
                screens.players_dirty = False
            else:
                screens.channel_dirty = False
            try:
                if players:
                    return await self._sync_players(table)
                return await self._sync_channel(table)
            except Exception:
                log.exception("could not update the messages of table %s", table.id)
                return True  # a fault of ours: trying again would only repeat it

    def _settled(self, table: Table) -> None:
        screens = self.tables(table.id)
        screens.recovering = False
        retry, screens.retry = screens.retry, None
        if retry is not None and retry.handle is not None:
            retry.handle.cancel()

    def _retry_later(self, table: Table) -> None:
        """Run the sync again after a pause that doubles with each failed try in a row (a
        sync that fails while a try is planned, after a move say, changes nothing: the
        planned try shows its state too)."""
        screens = self.tables(table.id)
        retry = screens.retry = screens.retry or Retry()
        if retry.handle is not None:
            return
        retry.attempts += 1
        if not table.is_open and retry.attempts > RETRY_GIVE_UP:
            log.error("giving up on the last messages of closed table %s", table.id)
            screens.retry = None
            return
        longest = RETRY_MAX if table.is_open else RETRY_MAX_CLOSED
        delay = min(longest, RETRY_FIRST * 2 ** (retry.attempts - 1))

        def again() -> None:
            retry.handle = None
            self.sync_soon(table)

        retry.handle = asyncio.get_running_loop().call_later(delay, again)

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
            if refused(error):  # said once, when the channel refused (screens.refusals)
                log.debug("%s of table %s: the channel refuses it", what, table.id)
                return True
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
        before = repr(table.screen_ids)
        self.languages.keep(table)  # so a restarted bot still writes to them in theirs
        channel = self.languages.of_channel(table)
        private = self.private
        done = await self._step(
            table,
            "the showdowns on the hands",
            lambda: private.showdowns_on_hands(table),
            channel,
            Priority.PLAYER,
        )
        if done and not match.is_over:
            done = await self._private_hands(table)
            done = (
                await self._step(
                    table,
                    "the turn notice",
                    lambda: private.notices.ping_turn(table),
                    channel,
                    Priority.TURN,
                )
                and done
            )
        return await self._saved(table, before) and done

    async def _private_hands(self, table: Table) -> bool:
        """Each player's private hand, side by side (one player's DM that Discord is slow to
        take, or that it retries, holds up no other's), the player to act at the most
        urgent priority; False if some of it must be retried."""
        match = table.match
        assert match is not None
        steps = [
            self._step(
                table,
                f"the hand of seat {seat}",
                lambda seat=seat: self.private.update(table, seat),  # type: ignore[misc]
                self.languages.of_player(table, seat),
                Priority.TURN if to_act(table, seat) else Priority.PLAYER,
            )
            for seat in sorted(table.human_seats, key=lambda seat: not to_act(table, seat))
            if match.board_of(seat) is not None or sits_out(table, seat)
        ]  # the bot needs no private message; a player out of the match, nothing new
        return all(await asyncio.gather(*steps))

    async def _saved(self, table: Table, before: str) -> bool:
        """Save the message ids if they changed since ``before``; False if that failed."""
        if repr(table.screen_ids) == before:
            return True
        try:
            await self.service.save_display(table)
        except Exception:
            log.exception("could not save the message ids of table %s", table.id)
            return False
        return True

    async def _sync_channel(self, table: Table) -> bool:
        """The channel's messages brought up to date a step at a time, in the order of the
        game (``ChannelScreens.show_next``: the showdowns, then the result or the hand's
        table), each step's ids saved as it lands; False if some of it must be retried."""
        async with table.lock:
            pass
        if table.match is None:
            return True
        language = self.languages.of_channel(table)
        channel = self.channel
        more = True
        while more:
            before = repr(table.screen_ids)
            more = False

            async def step() -> None:
                nonlocal more
                more = await channel.show_next(table)

            done = await self._step(table, "the channel", step, language, Priority.RESULT)
            if not (await self._saved(table, before) and done):
                return False
        return True

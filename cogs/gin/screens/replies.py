"""Each player's latest private reply in the channel: the hand it shows while it carries
their game (their DMs closed, or their moves made from the channel), edited through its
interaction's own token (no call of the REST budget), and the older replies it replaces
deleted, so that a player who moves by slash command sees one live hand, not a pile."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import aiohttp
import discord

from bot.tables import Table, TableService
from cogs.gin.screens.hands import Hands
from cogs.gin.screens.ledger import REPLY_EDIT_SECONDS, Ledger, reply_ref
from cogs.gin.screens.messages import transient
from cogs.gin.screens.state import PrivateReply, Registry, ScreenIds, SeatScreen

log = logging.getLogger(__name__)


class Replies:
    """Keeps, edits and retires each seat's latest private reply."""

    def __init__(
        self, service: TableService, ledger: Ledger, hands: Hands, screens: Registry
    ) -> None:
        self.service = service
        self.ledger = ledger
        self.hands = hands
        self.screens = screens
        self.background: set[asyncio.Task[None]] = set()

    def _seat(self, table: Table, seat: int) -> SeatScreen:
        return self.screens(table.id).seat(seat)

    def carries(self) -> bool:
        """Whether a reply may carry a player's hand while their DMs are open: only in a
        process that answers the presses on the DM hands. Elsewhere in a fleet what a DM
        hand shows is not known here, so the DM hand carries the turn."""
        fleet = self.service.fleet
        return fleet is None or fleet.receives_dms

    def latest(self, table: Table, seat: int) -> PrivateReply | None:
        """The player's latest private reply, while its token may still edit it."""
        screen = self._seat(table, seat)
        reply = screen.reply
        if reply is not None and time.monotonic() - reply.since > REPLY_EDIT_SECONDS:
            screen.reply = reply = None
        return reply

    def carrier(self, table: Table, seat: int) -> PrivateReply | None:
        """The reply that carries the player's hand while their DMs are open, if any: they
        play from the channel, where it is."""
        if not self.carries() or ScreenIds(table.screen_ids).dm_closed(seat) is not None:
            return None
        return self.latest(table, seat)

    def shown(
        self,
        table: Table,
        seat: int,
        interaction: discord.Interaction[Any],
        embeds: list[discord.Embed],
        view: discord.ui.View | None,
        message_id: int | None = None,
        *,
        original: bool = True,
    ) -> None:
        """A private reply just showed the player their hand (a new one, or the one whose
        button they pressed): it is their latest, and one before it goes (a hand shown
        twice would be a stale one)."""
        screen = self._seat(table, seat)
        old = screen.reply
        new = PrivateReply(interaction, time.monotonic(), message_id, original)
        screen.reply = new
        screen.replying = False
        self.hands.remember(table, seat, reply_ref(table.id, seat), embeds, view)
        if old is not None and not old.same_message(new):
            self.delete_soon(old)

    def delete_soon(self, reply: PrivateReply) -> None:
        """Delete a reply through its token, in the background (outside the budget)."""
        if time.monotonic() - reply.since > REPLY_EDIT_SECONDS:
            return  # Discord's token is spent: it stays, as a reply a reload clears
        task = asyncio.create_task(self._delete(reply), name="gin-delete-reply")
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _delete(self, reply: PrivateReply) -> None:
        interaction = reply.interaction
        with contextlib.suppress(discord.HTTPException, aiohttp.ClientError, OSError):
            if reply.original or reply.message_id is None:
                await interaction.delete_original_response()
            else:
                await interaction.followup.delete_message(reply.message_id)

    @staticmethod
    async def _edit(
        reply: PrivateReply, embeds: list[discord.Embed], view: discord.ui.View | None
    ) -> None:
        if reply.original or reply.message_id is None:
            await reply.interaction.edit_original_response(embeds=embeds, view=view)
            return
        await reply.interaction.followup.edit_message(reply.message_id, embeds=embeds, view=view)

    async def update(self, table: Table, seat: int) -> bool:
        """Bring the player's latest reply up to date, while Discord allows it; False when
        there is none to edit (it was dropped)."""
        screen = self._seat(table, seat)
        reply = self.latest(table, seat)
        if reply is None:
            return False
        ref = reply_ref(table.id, seat)
        key = self.hands.key(table, seat)
        if self.ledger.key_of(ref) == key:
            return True
        rendered = self.hands.render(table, seat, key)
        if not self.ledger.shows(ref, rendered.shown):
            try:
                await self._edit(reply, rendered.embeds, rendered.view)
            except discord.HTTPException as error:
                if transient(error):
                    raise
                log.info("the private reply of seat %s of table %s is gone", seat, table.id)
                screen.reply = None
                self.ledger.unknown(ref)
                return False
        self.ledger.record(ref, rendered.shown, rendered.key)
        return True

    async def retire(self, table: Table, seat: int, embeds: list[discord.Embed]) -> None:
        """The reply no longer carries the player's hand: it says so (``embeds``), without
        buttons."""
        screen = self._seat(table, seat)
        reply = self.latest(table, seat)
        screen.reply = None
        self.ledger.unknown(reply_ref(table.id, seat))
        if reply is None:
            return
        with contextlib.suppress(discord.HTTPException, aiohttp.ClientError, OSError):
            await self._edit(reply, embeds, None)

    def drop(self, table: Table, seat: int, *, delete: bool) -> None:
        """The reply no longer carries the player's hand (they play in their DMs again);
        ``delete``: it goes, else it stays as it is."""
        screen = self._seat(table, seat)
        reply, screen.reply = screen.reply, None
        self.ledger.unknown(reply_ref(table.id, seat))
        if reply is not None and delete:
            self.delete_soon(reply)

"""What a table tells a player besides their hand: the channel's mentions for a player
whose DMs are closed, short private notes, and the messages a table posts once."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Sequence

import discord

from bot.i18n import tr
from bot.tables import Table
from cogs.gin.people import only
from cogs.gin.screens import handoff
from cogs.gin.screens.handoff import SeatState
from cogs.gin.screens.hands import opponent_name
from cogs.gin.screens.ledger import REPLY_EDIT_SECONDS, Payload
from cogs.gin.screens.messages import Attachment, Messenger
from cogs.gin.screens.state import Registry, ScreenIds, SeatScreen

log = logging.getLogger(__name__)


class Notices:
    """Mentions in the channel, DMs of a line, and posting a table's messages once."""

    def __init__(self, messenger: Messenger, screens: Registry) -> None:
        self.messenger = messenger
        self.screens = screens

    def _seat(self, table: Table, seat: int) -> SeatScreen:
        return self.screens(table.id).seat(seat)

    async def post(
        self,
        table: Table,
        key: str,
        payload: Payload,
        channel_id: int | None = None,
        *,
        after: int = 0,
        files: Sequence[Attachment] = (),
    ) -> int:
        """Post a message the table needs once, named ``key`` among its messages (in its
        channel unless ``channel_id`` says where); its id (``Messenger.post_once``)."""
        return await self.messenger.post_once(
            channel_id or int(table.channel_id),
            f"{table.id}:{key}",
            payload,
            recovering=self.screens(table.id).recovering,
            after=after,
            since=table.created_at,
            files=files,
        )

    async def dm_channel(self, table: Table, seat: int) -> int | None:
        """The player's DM channel id, opened once and remembered (None: no such user)."""
        ids = ScreenIds(table.screen_ids)
        user_id = table.players[seat].id
        known = ids.dm_channel(user_id)
        if known is not None:
            return known
        opened = await self.messenger.open_dm(user_id)
        if opened is not None:
            ids.set_dm_channel(user_id, opened)
        return opened

    async def dms_closed(self, table: Table, seat: int, *, failing: bool = False) -> None:
        """The player gets this hand through the channel: said once, with a mention."""
        assert table.match is not None
        ids = ScreenIds(table.screen_ids)
        ids.close_dms(seat, table.match.hand_number)
        first = ids.announce_closed(seat)
        if not first and not failing:
            return
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
            await self.messenger.say(int(table.channel_id), text, only(user_id))
        except discord.HTTPException:
            log.warning("could not tell table %s about closed DMs", table.id)

    async def ping_turn(self, table: Table) -> None:
        """For a player whose DMs are closed, a mention in the channel when their turn comes
        (one at a time); players with open DMs get their hand afresh instead (``_alert``)."""
        match = table.match
        assert match is not None
        pinged = self.screens(table.id).pinged
        ids = ScreenIds(table.screen_ids)
        for seat in table.human_seats:
            turn = handoff.turn_begun(match, seat, pinged, first_too=True)
            state = SeatState(
                committing=table.lock.locked(),
                turn_begun=turn is not None,
                looking=False,
                dm_closed=ids.dm_closed(seat) == match.hand_number,
                dm_hand=False,
                dm_current=False,
                dm_dormant=False,
                carrier=False,
            )
            if turn is None or not handoff.ping_due(state, turn_begun_at_first_move=True):
                continue
            await self._ping_in_channel(table, seat)
            pinged[turn[0]] = turn[1]

    async def _ping_in_channel(self, table: Table, seat: int) -> None:
        """Mention the player whose turn it is; their previous such message goes, so the
        channel holds one at most per player."""
        user_id = table.players[seat].id
        opponent = opponent_name(table, seat)
        screen = self._seat(table, seat)
        if screen.reply is not None:
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
        message_id = await self.messenger.say(int(table.channel_id), text, only(user_id))
        old, screen.channel_ping = screen.channel_ping, message_id
        if old is not None:
            self.messenger.delete_later(int(table.channel_id), old)

    async def clear_channel_pings(self, table: Table) -> None:
        """The game is over or closed: no "your turn" stays behind in the channel."""
        for screen in self.screens(table.id).seats.values():
            old, screen.channel_ping = screen.channel_ping, None
            if old is not None:
                self.messenger.delete_later(int(table.channel_id), old)

    async def retire_replies(self, table: Table, say: Callable[[int], list[discord.Embed]]) -> None:
        """The table is done: its private replies (of closed DMs, and the replies to moves
        from the channel) lose their buttons and say why (``say``: what, for a seat, in the
        seat's language)."""
        for seat, screen in self.screens(table.id).seats.items():
            reply, screen.reply = screen.reply, None
            if reply is None or time.monotonic() - reply.since > REPLY_EDIT_SECONDS:
                continue
            with contextlib.suppress(discord.HTTPException, OSError):
                await reply.interaction.edit_original_response(embeds=say(seat), view=None)

    async def tell(self, table: Table, seat: int, text: str) -> None:
        """A short private note to a player; in the channel with a mention if DMs are closed."""
        if table.seats[seat].is_bot:
            return
        sent = False
        if ScreenIds(table.screen_ids).dm_closed(seat) is None:
            channel_id = await self.dm_channel(table, seat)
            if channel_id is not None:
                try:
                    await self.messenger.say(channel_id, text, dm=True)
                    sent = True
                except discord.Forbidden:
                    sent = False
                except discord.HTTPException:
                    log.warning("could not DM seat %s of table %s", seat, table.id)
        if not sent:
            user_id = table.players[seat].id
            try:
                await self.messenger.say(
                    int(table.channel_id), f"<@{user_id}> {text}", only(user_id)
                )
            except discord.HTTPException:
                log.warning("could not remind seat %s of table %s", seat, table.id)

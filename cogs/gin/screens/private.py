"""Each player's private screens: their hand delivered as the hand-off policy decides
(``handoff``), their turn announced, and the showdowns and the result on their DM hands."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import discord

from bot.coaching import Coach, hint_seed
from bot.gin.ai.view import is_two_player_hand, view_for
from bot.gin.coach import reviewable
from bot.gin.match import HandRecord
from bot.i18n import speaking, tr
from bot.pacing import Priority, priority
from bot.render.common import Panel
from bot.render.result import match_over_panel
from bot.render.showdown import showdown_panel
from bot.tables import Table, TableService
from cogs.gin.languages import Languages
from cogs.gin.screens import handoff
from cogs.gin.screens.handoff import Delivery, Handoff, SeatState
from cogs.gin.screens.hands import Hands, opponent_name
from cogs.gin.screens.ledger import Key, Ledger, fingerprint, reply_ref
from cogs.gin.screens.messages import Messenger, message_payload, transient
from cogs.gin.screens.notices import Notices
from cogs.gin.screens.replies import Replies
from cogs.gin.screens.state import (
    DmHand,
    PrivateHand,
    PrivateReply,
    Registry,
    ScreenIds,
    SeatScreen,
)
from cogs.gin.views import embed, review_view

log = logging.getLogger(__name__)

CLOSED_DMS = 50007
# A new hand's DM that failed this many times, over at least this many seconds, is left to
# the channel: a Discord that fails for a few seconds delays the DM, it does not lose it.
DM_ATTEMPTS = 4
DM_GIVE_UP_SECONDS = 15.0
SHOWDOWN_COLOUR = discord.Colour.gold()


def showdown_view(table: Table, record: HandRecord) -> discord.ui.View | None:
    """Under a player's own showdown: Review, for the hands the coach can review."""
    return review_view(table.id, record.number, record.board) if reviewable(record) else None


class PrivateScreens:
    """Delivers each player's private hand as the hand-off policy decides."""

    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        messenger: Messenger,
        languages: Languages,
        screens: Registry,
        sync_soon: Callable[[Table], None],
        coach: Coach,
    ) -> None:
        self.client = client
        self.service = service
        self.coach = coach  # the hints of a practice with hints on
        self.messenger = messenger
        self.ledger: Ledger = messenger.ledger
        self.languages = languages
        self.screens = screens
        self.sync_soon = sync_soon
        self.hands = Hands(client, self.ledger, screens)
        self.notices = Notices(messenger, screens)
        self.replies = Replies(service, self.ledger, self.hands, screens)
        self.looking_seconds = handoff.LOOKING_SECONDS
        self.hands.advise = self._advise
        self._advising: set[asyncio.Task[None]] = set()

    def _seat(self, table: Table, seat: int) -> SeatScreen:
        return self.screens(table.id).seat(seat)

    def _advise(self, table: Table, seat: int) -> None:
        """Ask the coach for the seat's move from its view (in its worker, off the loop);
        the hand is shown again with it once it comes."""
        match = table.match
        board = None if match is None else match.board_of(seat)
        if match is None or board is None or not is_two_player_hand(board):
            return
        token = table.token(seat)
        view = view_for(match, seat)

        async def advise() -> None:
            try:
                advice = await self.coach.hint(view, hint_seed(table.id, token))
            except Exception:
                log.exception(
                    "table %s: the coach could not suggest seat %s's move", table.id, seat
                )
                advice = None
            self._seat(table, seat).advice = (token, advice)
            self.sync_soon(table)

        task = asyncio.create_task(advise(), name=f"gin-coach-{table.id}-{seat}")
        self._advising.add(task)
        task.add_done_callback(self._advising.discard)

    # --- what moves tell the screens -------------------------------------------------------

    def shown_elsewhere(self, table: Table, seat: int, message: int) -> None:
        """Another process answered the player's click on their DM hand message by editing
        it to the table as it is now (the same hand this process renders): it needs no
        edit from here."""
        entry = ScreenIds(table.screen_ids).hand(seat)
        match = table.match
        if not entry or match is None or entry.get("hand") != match.hand_number:
            return
        if int(entry["message"]) != message:
            return  # an older message of theirs: the one kept up to date is edited as usual
        with speaking(self.languages.of_player(table, seat)):  # as the sync will render it
            rendered = self.hands.render(table, seat)
        self.hands.remember(table, seat, message, rendered.embeds, rendered.view)
        self.replies.drop(table, seat, delete=False)  # they play in their DMs

    def shown_privately(
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
        """A private reply in the channel just showed this player their hand (the answer to
        their move, `/gin hand`, Show my hand): it is their live hand from now on, and their
        DM hand says so (``Delivery.DORMANT_DM``)."""
        self.replies.shown(table, seat, interaction, embeds, view, message_id, original=original)

    def unshown(self, table: Table, seat: int, message: int | None) -> None:
        """An answer that should have shown the player their hand did not land (or landed
        late, showing an older state): what that message and their private reply show is
        unknown, so the next sync edits them."""
        for ref in (message, reply_ref(table.id, seat)):
            if ref is not None:
                self.ledger.unknown(ref)

    def replying(self, table: Table, seat: int, *, command: bool) -> None:
        """The answer to the player's move is about to be sent: by a private reply in the
        channel (``command``), or on their DM hand. Until it lands, a sync leaves alone the
        reply that will show it."""
        self._seat(table, seat).replying = command

    def played_in_dm(self, table: Table, seat: int) -> None:
        """The player moved on their DM hand (or chose to play there): the DM hand is their
        live hand again, and their reply in the channel goes."""
        self._seat(table, seat).replying = False
        if ScreenIds(table.screen_ids).dm_closed(seat) is None:
            self.replies.drop(table, seat, delete=True)

    def acted(self, table: Table, seat: int) -> None:
        """The player just moved: they are looking at the game (``handoff.looking``)."""
        screen = self._seat(table, seat)
        screen.acted = time.monotonic()
        screen.silent = None

    def started(self, table: Table) -> None:
        """The match just began, on an accept or a join: its players are at the screen, so
        their first turns come as edits of the hand just sent, not as new messages."""
        for seat in table.human_seats:
            self.acted(table, seat)

    def carrier(self, table: Table, seat: int) -> PrivateReply | None:
        """The private reply that carries this player's hand while their DMs are open."""
        return self.replies.carrier(table, seat)

    # --- the hand-off ----------------------------------------------------------------------

    def state(self, table: Table, seat: int, key: Key | None = None) -> SeatState:
        """What the hand-off policy reads of this seat now (``key``: the hand's key now,
        when the caller has it)."""
        match = table.match
        assert match is not None
        screen = self._seat(table, seat)
        ids = ScreenIds(table.screen_ids)
        number = match.hand_number
        pinged = self.screens(table.id).pinged
        entry = ids.hand(seat)
        dm_hand = bool(entry) and entry is not None and entry.get("hand") == number
        shown_key = self.ledger.key_of(int(entry["message"])) if dm_hand and entry else None
        board = match.board_of(seat)
        others = 1 if board is None else len(board.seats) - 1
        turn = handoff.turn_begun(match, seat, pinged)
        silent = screen.silent
        now = time.monotonic()
        looking = handoff.looking(
            now,
            screen.acted,
            others,
            alone_with_bots=len(table.human_seats) == 1 and bool(table.bot_seats),
            looking_seconds=self.looking_seconds,
            shown_silently=silent[1] if silent and turn and silent[0] == turn[1] else None,
        )
        carrier = screen.replying or self.carrier(table, seat) is not None
        return SeatState(
            committing=table.lock.locked(),
            turn_begun=turn is not None,
            looking=looking,
            dm_closed=ids.dm_closed(seat) == number,
            dm_hand=dm_hand,
            dm_current=dm_hand and shown_key == (key or self.hands.key(table, seat)),
            dm_dormant=dm_hand and shown_key == self.hands.elsewhere_key(table, seat),
            carrier=carrier and self.replies.carries(),
            at_table=self.service.presence.at_table(table.id, table.players[seat].id),
        )

    def decide(self, table: Table, seat: int) -> Handoff:
        """How this seat's screens are brought up to date now (``handoff.decide``)."""
        return handoff.decide(self.state(table, seat))

    async def update(self, table: Table, seat: int, *, again: bool = True) -> None:
        """Bring the seat's private screens up to date as the hand-off policy decides."""
        match = table.match
        assert match is not None
        key = self.hands.key(table, seat)
        decided = handoff.decide(self.state(table, seat, key))
        if decided.silent:
            self._shown_silently(table, seat)
        for delivery in decided.deliveries:
            if await self._deliver(table, seat, delivery, key):
                continue
            if delivery is Delivery.EDIT_CARRIER and again:
                # The reply could not be edited (gone, or its token spent): the DM hand
                # carries the hand from now, as the policy decides without a carrier.
                self.replies.drop(table, seat, delete=False)
                await self.update(table, seat, again=False)
            return

    def _shown_silently(self, table: Table, seat: int) -> None:
        """A turn shown to a watching player without a notification: if they have not
        taken it up ``looking_seconds`` from now, a sync then alerts them."""
        assert table.match is not None
        turn = handoff.turn_begun(table.match, seat, self.screens(table.id).pinged)
        screen = self._seat(table, seat)
        if turn is None or (screen.silent is not None and screen.silent[0] == turn[1]):
            return
        screen.silent = (turn[1], time.monotonic())
        self._plan_silent_check(table)

    def _plan_silent_check(self, table: Table) -> None:
        """Plan the table's sync for when the next silent turn of its seats falls due, the
        turn shown ``looking_seconds`` ago (one timer a table, moved earlier if need be)."""
        screens = self.screens(table.id)
        now = time.monotonic()
        wait = self.looking_seconds + 0.05
        due = [s.silent[1] + wait for s in screens.seats.values() if s.silent is not None]
        when = min((at for at in due if at > now + 0.01), default=None)  # the past: synced
        if when is None:
            return
        if screens.silent_due is not None:
            if screens.silent_due[0] <= when:
                return  # it comes first, and plans the next
            screens.silent_due[1].cancel()
        loop = asyncio.get_running_loop()
        screens.silent_due = (when, loop.call_later(when - now, self._silent_due, table))

    def _silent_due(self, table: Table) -> None:
        screens = self.screens.get(table.id)
        if screens is not None:
            screens.silent_due = None
        if table.is_open:
            self.sync_soon(table)
            self._plan_silent_check(table)

    async def _deliver(self, table: Table, seat: int, delivery: Delivery, key: Key) -> bool:
        """Make one delivery, with its fallbacks; False when the next ones should not follow."""
        ids = ScreenIds(table.screen_ids)
        assert table.match is not None
        number = table.match.hand_number
        if delivery is Delivery.ALERT_DM:
            await self._alert(table, seat)
            return True
        if delivery is Delivery.EDIT_CARRIER:
            if self._seat(table, seat).replying and self.carrier(table, seat) is None:
                return True  # the answer on its way shows it
            return await self.replies.update(table, seat)
        if delivery in (Delivery.DORMANT_DM, Delivery.SEND_DORMANT):
            with priority(Priority.PLAYER):  # never before anyone's turn
                await self._elsewhere(table, seat, delivery)
            return True
        if delivery is Delivery.EDIT_DM:
            entry = ids.hand(seat)
            assert entry is not None
            message_id = int(entry["message"])
            if self.ledger.key_of(message_id) == key:
                return True
            rendered = self.hands.render(table, seat, key)
            if await self.messenger.edit(
                int(entry["channel"]), message_id, rendered.payload, rendered.shown
            ):
                self.ledger.record_key(message_id, rendered.key)
                return True
            ids.drop_hand(seat)  # the message is gone: a new one takes its place below
            delivery = handoff.FALLBACK[delivery]
        closed = ids.dm_closed(seat) == number
        if delivery is Delivery.SEND_DM and not closed and await self._send_new_hand(table, seat):
            return True
        if ids.dm_closed(seat) == number:  # known before, or found by that DM just now
            await self.replies.update(table, seat)
        return True

    async def _elsewhere(self, table: Table, seat: int, delivery: Delivery) -> None:
        """The DM hand says the hand is played from the channel (edited, or a new hand's
        first DM), with a button to play it here again."""
        ids = ScreenIds(table.screen_ids)
        entry = ids.hand(seat)
        rendered = self.hands.render_elsewhere(table, seat)
        if delivery is Delivery.DORMANT_DM and entry:
            message_id = int(entry["message"])
            if await self.messenger.edit(
                int(entry["channel"]), message_id, rendered.payload, rendered.shown
            ):
                self.ledger.record_key(message_id, rendered.key)
                return
            ids.drop_hand(seat)
        await self._send_new_hand(table, seat, rendered)

    async def _send_new_hand(
        self, table: Table, seat: int, rendered: PrivateHand | None = None
    ) -> bool:
        """The hand's DM (``rendered``: as that, else the hand itself); True once sent. A
        DM that keeps failing leaves the channel to carry the game, as for closed DMs."""
        try:
            sent = await self.send(table, seat, rendered=rendered)
        except Exception as error:
            if not transient(error) or not self._dm_failed(table, seat):
                raise
            log.warning("seat %s of table %s gets no DM: the channel takes over", seat, table.id)
            await self.notices.dms_closed(table, seat, failing=True)
            return False
        if sent:
            self._seat(table, seat).dm_failures = None
        return sent

    def _dm_failed(self, table: Table, seat: int) -> bool:
        """Count a failed DM of this hand; True once it failed DM_ATTEMPTS times over at
        least DM_GIVE_UP_SECONDS."""
        assert table.match is not None
        number = table.match.hand_number
        screen = self._seat(table, seat)
        now = time.monotonic()
        hand, failures, since = screen.dm_failures or (number, 0, now)
        if hand != number:
            failures, since = 0, now
        failures += 1
        screen.dm_failures = (number, failures, since)
        return failures >= DM_ATTEMPTS and now - since >= DM_GIVE_UP_SECONDS

    async def send(
        self,
        table: Table,
        seat: int,
        *,
        alert: str = "",
        key: str = "",
        rendered: PrivateHand | None = None,
    ) -> bool:
        """Send the player a new private hand message by DM; False when their DMs are closed.
        Other failures are raised: the caller decides whether to try again. ``alert``: the
        text of a turn alert or reminder, posted once under ``key``; ``rendered``: what it
        shows, when not the hand itself."""
        assert table.match is not None
        ids = ScreenIds(table.screen_ids)
        rendered = rendered or self.hands.render(table, seat)
        payload = {**rendered.payload, "content": alert} if alert else rendered.payload
        channel_id = await self.notices.dm_channel(table, seat)
        if channel_id is None:
            return False
        number = table.match.hand_number
        old = ids.hand(seat)
        try:
            after = int(old["message"]) if old else 0
            nonce = key or f"h{number}:{seat}"
            message_id = await self.notices.post(table, nonce, payload, channel_id, after=after)
        except discord.Forbidden as error:
            if error.code != CLOSED_DMS:
                log.warning("DM to seat %s of table %s refused: %s", seat, table.id, error)
            await self.notices.dms_closed(table, seat)
            return False
        ids.set_hand(seat, channel_id, message_id, number)
        if not self.ledger.knows(message_id):  # an answer to a press on it may have come first
            self.ledger.record(message_id, rendered.shown, rendered.key)
        ids.open_dms(seat)
        pinged = self.screens(table.id).pinged
        turn = handoff.turn_begun(match=table.match, seat=seat, pinged=pinged, first_too=True)
        if turn is not None and seat not in table.bot_seats:
            pinged[turn[0]] = turn[1]  # a hand sent fresh on the player's turn is its alert
        if old and old.get("hand") == number and old.get("message") != message_id:
            # The same hand re-sent (a turn alert, a reminder): the older copy's buttons
            # would only be stale.
            self.messenger.delete_later(int(old["channel"]), int(old["message"]))
            self.ledger.unknown(int(old["message"]))
        return True

    async def _alert(self, table: Table, seat: int) -> None:
        """The turn alert is the hand itself: sent afresh with a line of text for the
        notification, the older copy deleted, so the live buttons are the newest message
        and nothing else is left behind. A hand that cannot be sent falls back as any DM."""
        assert table.match is not None
        pinged = self.screens(table.id).pinged
        turn = handoff.turn_begun(table.match, seat, pinged)
        if turn is None:
            return
        note = self.hands.note(table, seat)
        opponent, where = opponent_name(table, seat), self.hands.where_text(table)
        if opponent is None:
            text = tr("🃏 Your turn ({where}).", where=where)
        else:
            text = tr("🃏 Your turn vs {opponent} ({where}).", opponent=opponent, where=where)
        if note:
            text += f" {note}"
        if await self.resend(table, seat, text, f"t{turn[1]}:{seat}"):
            # Kept in memory: a restart at worst alerts once more; a failure above leaves
            # it unset, so the retried sync sends it.
            pinged[turn[0]] = turn[1]
            self._seat(table, seat).silent = None
        else:
            await self.notices.ping_turn(table)  # the DMs just closed: the channel tells them

    async def resend(self, table: Table, seat: int, text: str, key: str) -> bool:
        """The player's hand sent afresh by DM with ``text`` (a notification: a turn alert,
        a reminder), posted once under ``key``: it is their live hand from now, so a reply
        in the channel that carried it says where it went. False when their DMs are
        closed."""
        if not await self.send(table, seat, alert=text, key=key):
            return False
        if self.replies.latest(table, seat) is not None:

            def moved() -> list[discord.Embed]:
                with speaking(self.languages.of_player(table, seat)):
                    said = tr(
                        "Your hand is in your DMs now, with a notification. `/gin hand` "
                        "shows it here again."
                    )
                    return [embed(Panel(tr("Your turn"), said))]

            await self.replies.retire(table, seat, moved())
        return True

    # --- showdowns and endings on the private screens ---------------------------------------

    async def showdowns_on_hands(self, table: Table) -> None:
        """A finished board's showdown on the DM hand of each of its players, in place of
        its buttons: once, before a new hand's DM takes that hand's place (the channel's
        showdowns, which come after, never go back to it)."""
        match = table.match
        assert match is not None
        finished = {(r.number, seat): r for r in match.history for seat in r.seats}
        hands = list(ScreenIds(table.screen_ids).hands())
        behind = [
            seat
            for seat, entry in hands
            if not entry.get("showdown")
            and entry.get("hand", match.hand_number) < match.hand_number
            and (entry.get("hand"), seat) not in finished
        ]
        if behind:  # a hand that ended before its DM showed it, no longer kept in memory
            for row in await self.service.records.hands(table.id):
                stored = HandRecord.from_dict(row.result)
                for seat in stored.seats:
                    finished.setdefault((stored.number, seat), stored)
        for seat, entry in hands:
            found = finished.get((entry.get("hand", -1), seat))
            if found is None or entry.get("showdown"):
                continue
            if self.service.presence.at_table(table.id, table.players[seat].id):
                continue  # the Activity showed it; their DM hand shows it if they come back
            record = found
            with speaking(self.languages.of_player(table, seat)):
                mine = embed(
                    showdown_panel(
                        match, record.number, record.result, record.board, self.hands.faces.card
                    ),
                    SHOWDOWN_COLOUR,
                )
                review = showdown_view(table, record)  # its button in their language too
            await self.edit_hand(entry, [mine], review)
            entry["showdown"] = True

    async def edit_hand(
        self, entry: DmHand, embeds: list[discord.Embed], view: discord.ui.View | None
    ) -> bool:
        """Edit a DM hand message; an alert's line of text goes with its turn."""
        payload = {"content": "", **message_payload(embeds, view)}
        shown = fingerprint(payload)
        return await self.messenger.edit(
            int(entry["channel"]), int(entry["message"]), payload, shown
        )

    async def show_result(self, table: Table) -> None:
        """The match is over: a hand ended mid-play loses its buttons, and each player gets
        the result as a DM of its own that stays; the private replies say it is over."""
        match = table.match
        assert match is not None and match.result is not None
        ids = ScreenIds(table.screen_ids)
        showed = any(r.number == match.hand_number for r in match.history)
        for seat in table.human_seats:
            entry = ids.hand(seat)
            with speaking(self.languages.of_player(table, seat)):  # each in their own
                if entry and entry.get("hand") == match.hand_number and not showed:
                    # Ended mid-hand (a resignation, a forfeit): the hand loses its buttons.
                    rendered = self.hands.render(table, seat)
                    await self.edit_hand(entry, rendered.embeds, None)
                if not ids.result_sent(seat):  # the result, a DM of its own that stays
                    await self._send_result(table, seat, entry)

        def over(seat: int) -> list[discord.Embed]:
            with speaking(self.languages.of_player(table, seat)):
                text = tr("This match is over: see the result in the channel.")
                return [embed(Panel(tr("Match over"), text))]

        await self.notices.retire_replies(table, over)

    async def _send_result(self, table: Table, seat: int, entry: DmHand | None) -> None:
        """The match's result by DM to one player, also to one who sat the last hand out
        and so has no hand message (three players); closed DMs leave the channel's post
        to tell them."""
        match = table.match
        assert match is not None and match.result is not None
        ids = ScreenIds(table.screen_ids)
        friendly = table.meta.tournament is None
        result = embed(match_over_panel(match, match.result, friendly=friendly), SHOWDOWN_COLOUR)
        payload = message_payload([result], None)
        channel_id = int(entry["channel"]) if entry else await self.notices.dm_channel(table, seat)
        if channel_id is None:
            return
        try:
            await self.notices.post(table, f"r{seat}", payload, channel_id)
        except discord.Forbidden:
            log.info(
                "table %s: seat %s's DMs are closed; the channel has the result", table.id, seat
            )
        ids.send_result(seat)

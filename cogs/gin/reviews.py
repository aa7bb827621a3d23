"""Review: the coach's look back at a finished hand, sent to the player who asks by DM.

Anyone can press a Review button (a replay is public), so the hand is read from the store and
only one of its players gets a review, of their own play: the coach judges each decision from
what that player could see, and the page names only their cards and public ones. The review
takes a few seconds of the coach's worker, so the press is acknowledged privately first.
A hand's review goes to a player's DMs once, whichever bot process is asked and across
restarts (the table service keeps the claim in the store): pressing Review again (while it is
being made or after) says so privately instead of sending it again.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.coaching import Coach
from bot.gin.coach import reviewable
from bot.gin.match import HandRecord
from bot.gin.settings import Settings, Variant
from bot.i18n import tr
from bot.render.coach import review_panel
from bot.render.common import Panel
from bot.server_settings import ServerSettings
from bot.tables import TableError, TableService
from bot.tables.records import HandRow, ReviewKey, ReviewState, TableRow
from cogs.gin.errors import ANSWERING, DEFERRING, THINKING, send
from cogs.gin.screens.hands import faces_of
from cogs.gin.views import embed

log = logging.getLogger(__name__)

CLASSIC = "classic"


class Reviews:
    """The Review button's flow."""

    def __init__(self, service: TableService, client: discord.Client, coach: Coach) -> None:
        self.service = service
        self.client = client
        self.coach = coach

    async def review(
        self, interaction: discord.Interaction[Any], match_id: int, number: int, board: int
    ) -> None:
        """Refuse a press by anyone but the hand's players at once; otherwise acknowledge
        privately, review, and send the review by DM (or privately here, DMs closed)."""
        records = self.service.records
        row = await records.match(match_id)
        hands = [] if row is None else await records.hands(match_id)
        found = next((h for h in hands if h.number == number and h.board == board), None)
        if row is None or found is None:
            raise TableError("I can't find that hand any more, so I can't review it.")
        record = HandRecord.from_dict(found.result)
        seat = seat_of(row, record, str(interaction.user.id))
        if seat is None:
            raise TableError(
                "Only the players of that hand can have it reviewed: the review shows their "
                "own cards. Play a match (`/gin practice`) and review your own hands."
            )
        if not reviewable(record):
            raise TableError("The coach reviews two-player hands with knocking only.")
        key = ReviewKey(match_id, number, board, seat)
        state = await self.service.claim_review(key)
        if state is not None:
            await send(interaction, embeds=[embed(already(number, state))])
            return
        delivered = False
        try:
            delivered = await self._review(interaction, row, hands, record, seat, number)
        finally:
            await self.service.settle_review(key, sent=delivered)

    async def _review(
        self,
        interaction: discord.Interaction[Any],
        row: TableRow,
        hands: list[HandRow],
        record: HandRecord,
        seat: int,
        number: int,
    ) -> bool:
        """Review and send: True once it is in the player's DMs (False: shown privately
        here, their DMs closed, so a second press may show it again)."""
        if not interaction.response.is_done() and DEFERRING not in interaction.extras:
            interaction.extras[ANSWERING] = True  # the watchdog leaves the answer to us
            await interaction.response.defer(ephemeral=True, thinking=True)
            interaction.extras[THINKING] = True
        scores = scores_before(row, hands, record)
        review = await self.coach.review(record, match_settings(row), seat, scores, row.id)
        faces = faces_of(self.client)
        panel = review_panel(review, faces.card, match_id=row.id)
        if len(panel.body) > 4000:  # emojis are long: text fits where they don't
            panel = review_panel(review, match_id=row.id)
        try:
            await interaction.user.send(embed=embed(panel))
        except discord.Forbidden:
            log.info("match %s: user %s's DMs are closed; review shown here", row.id, seat)
            await send(interaction, embeds=[embed(panel)])
            return False
        sent = Panel(
            # TRANSLATORS: the private answer to Review once the review is in the player's DMs.
            tr("Review sent"),
            tr("Your review of hand {number} is in your DMs.", number=number),
        )
        await send(interaction, embeds=[embed(sent)])
        return True


def already(number: int, state: ReviewState) -> Panel:
    """The private answer to a second press of Review: the review is not sent twice."""
    if state == "working":
        return Panel(
            # TRANSLATORS: the private answer to a second press of Review while it is made.
            tr("Review on its way"),
            tr("Your review of hand {number} is on its way to your DMs.", number=number),
        )
    return Panel(
        # TRANSLATORS: the private answer to a second press of Review once it was sent.
        tr("Review already sent"),
        tr(
            "Your review of hand {number} is already in your DMs: it is sent once.",
            number=number,
        ),
    )


def seat_of(row: TableRow, record: HandRecord, user_id: str) -> int | None:
    """The seat of ``user_id`` in the hand, if they played it."""
    seats = {s.seat: s.user_id for s in row.seats}
    if not seats:  # two players, saved before seats had rows of their own
        seats = {0: row.challenger_id, 1: row.opponent_id}
    for seat in record.seats:
        if seats.get(seat) == user_id:
            return seat
    return None


def match_settings(row: TableRow) -> Settings:
    """The rules the match was played under."""
    state = row.state or {}
    if "settings" in state:
        return Settings.from_dict(state["settings"])
    return ServerSettings.from_dict(row.settings).rules


def scores_before(
    row: TableRow, hands: list[HandRow], record: HandRecord
) -> tuple[int, ...] | None:
    """Each seat's running score before the hand, in the classic game (a knock is worth
    more near the target); None in other modes, whose scores are not a seat's own."""
    if row.mode != CLASSIC or match_settings(row).variant is Variant.HOLLYWOOD:
        return None
    scores = [0, 0]
    for hand in hands:
        if hand.number < record.number and hand.winner_seat in (0, 1):
            scores[hand.winner_seat] += hand.points
    return tuple(scores)

"""The one move path: a slash command or a button, checked and committed, answered, then shown.

Once the table service has committed a move, the move stands whatever Discord does next: the
answer to the interaction gets ``ANSWER_GRACE`` seconds, and the sync of every screen (the
mover's own hand included, when the answer did not show it) and the bot's next turn run after
it in any case. An answer that fails, or is still retrying, never leaves a screen behind.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from functools import partial
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.gin import Card, parse_card
from bot.gin.hand import ActionKind
from bot.i18n import N_, language, tr
from bot.render import showdown_panel
from bot.tables import MoveOutcome, StaleButton, Table, TableError, TableService
from cogs.gin.errors import COMMITTED, funnel, send, update
from cogs.gin.views import embed

if TYPE_CHECKING:
    from cogs.gin.display import TableDisplay
    from cogs.gin.opponent import BotOpponent

log = logging.getLogger(__name__)

# Seconds an answer may take before the screens are synced without it: Discord drops an
# answer that comes more than 3 s after the interaction.
ANSWER_GRACE = 2.5

GAME_OVER = N_(
    "This game is over; its buttons no longer do anything. Start a new one with `/gin challenge`."
)


def done_text(outcome: MoveOutcome) -> str:
    """What the mover did, in their own words (their private hand's note), in the language
    in force."""
    action = outcome.action
    match action.kind:
        case ActionKind.PASS:
            return tr("You passed on the upcard.")
        case ActionKind.DRAW_STOCK:
            return tr("You drew {card} from the stock.", card=outcome.drawn)
        case ActionKind.DRAW_DISCARD:
            return tr("You took {card} from the discard pile.", card=outcome.drawn)
        case ActionKind.DISCARD:
            return tr("You discarded {card}.", card=action.card)
        case ActionKind.KNOCK:
            return tr("You knocked, discarding {card} face down.", card=action.card)
        case ActionKind.BIG_GIN:
            return tr("You declared Big Gin!")
    raise KeyError(action.kind)


def _made(outcome: MoveOutcome) -> str:
    """The move as it reads inside the apology's parentheses (``committed_text``)."""
    action = outcome.action
    match action.kind:
        case ActionKind.PASS:
            # TRANSLATORS: inside "Your move was made (…), but I couldn't show it here."
            return tr("you passed on the upcard")
        case ActionKind.DRAW_STOCK:
            # TRANSLATORS: inside "Your move was made (…), but I couldn't show it here."
            return tr("you drew {card} from the stock", card=outcome.drawn)
        case ActionKind.DRAW_DISCARD:
            # TRANSLATORS: inside "Your move was made (…), but I couldn't show it here."
            return tr("you took {card} from the discard pile", card=outcome.drawn)
        case ActionKind.DISCARD:
            # TRANSLATORS: inside "Your move was made (…), but I couldn't show it here."
            return tr("you discarded {card}", card=action.card)
        case ActionKind.KNOCK:
            # TRANSLATORS: inside "Your move was made (…), but I couldn't show it here."
            return tr("you knocked, discarding {card} face down", card=action.card)
        case ActionKind.BIG_GIN:
            # TRANSLATORS: inside "Your move was made (…), but I couldn't show it here."
            return tr("you declared Big Gin")
    raise KeyError(action.kind)


def committed_text(outcome: MoveOutcome) -> str:
    """The apology for an error after a move was committed: the move was made."""
    return tr(
        "Your move was made ({move}), but I couldn't show it here. "
        "Your hand message is up to date; `/gin hand` shows it again.",
        move=_made(outcome),
    )


class Moves:
    """Makes moves for people: commands in the channel, buttons and menus on private hands."""

    def __init__(
        self,
        service: TableService,
        display: TableDisplay,
        opponent: BotOpponent,
        activity: Callable[[], AbstractAsyncContextManager[None]],
    ) -> None:
        self.service = service
        self.display = display
        self.opponent = opponent
        self.activity = activity

    async def by_command(
        self, interaction: discord.Interaction[Any], kind: ActionKind, card_text: str | None
    ) -> None:
        """A move by slash command in the table's channel."""
        async with self.activity():
            table = self.service.require_table(str(interaction.channel_id))
            card = None if card_text is None else parse_card(card_text)
            outcome = await self.service.play(table, str(interaction.user.id), kind, card)
            await self._answer_and_show(interaction, outcome, panel=False)

    async def by_panel(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        move: int,
        kind: ActionKind,
        card: Card | None,
    ) -> None:
        """A button or menu on a private hand message (in DMs or an ephemeral reply)."""
        async with funnel(interaction), self.activity():
            table = await self.service.find(table_id)  # opened by another process, maybe
            if table is None:
                raise TableError(GAME_OVER)
            # In DMs, the answer edits the hand message whose button was pressed.
            shown = None
            if interaction.guild_id is None and interaction.message is not None:
                shown = interaction.message.id
            try:
                outcome = await self.service.play(
                    table,
                    str(interaction.user.id),
                    kind,
                    card,
                    expected_move=move,
                    shown_message=shown,
                    language=language(),
                )
            except StaleButton:
                if not await self.show_current(interaction, table):
                    raise
                return
            await self._answer_and_show(interaction, outcome, panel=True)

    async def show_current(self, interaction: discord.Interaction[Any], table: Table) -> bool:
        """A button from an earlier moment of the game (a double click, or a DM hand left
        behind while its player moved by command): the message it is on becomes the hand as
        it is now, saying so. False when there is no such hand to show."""
        match = table.match
        seat = table.seat_of(str(interaction.user.id)) if match is not None else None
        if match is None or match.is_over or seat is None or match.board_of(seat) is None:
            return False
        said = tr("That button was from an earlier moment of the game: this is your hand now.")
        shown = interaction.message.id if interaction.message is not None else None
        async with self.display.quiet(table):  # no older edit of this message lands after
            last = self.display.note(table, seat)
            note = f"{said} {last}" if last else said  # here only: a move's answer says its own
            key = self.display.private_key(table, seat, note=note)
            rendered = self.display.private_hand(table, seat, key)
            try:
                await update(interaction, embeds=rendered.embeds, view=rendered.view)
            except (discord.HTTPException, aiohttp.ClientError):
                failed = True
            else:
                failed = False
                if interaction.guild_id is None and shown is not None:
                    self.display.remember(table, seat, shown, rendered.embeds, rendered.view)
                    self.display.pressed(shown, interaction)
                else:
                    self.display.shown_privately(
                        table, seat, interaction, rendered.embeds, rendered.view, moved=True
                    )
        if failed:
            self.display.unshown(table, seat, shown)  # the sync shows it instead
            self.display.moved_by(table, seat, command=False)
            await self.display.sync(table)
        return True

    async def _answer_and_show(
        self, interaction: discord.Interaction[Any], outcome: MoveOutcome, *, panel: bool
    ) -> None:
        table, seat = outcome.table, outcome.seat
        interaction.extras[COMMITTED] = committed_text(outcome)
        message = interaction.message.id if panel and interaction.message is not None else None
        try:
            self.set_notes(outcome)
            in_dm = interaction.guild_id is None
            embeds, view = self.move_reply(outcome, in_dm=panel and in_dm)

            # Whether the answer is the interaction's own message ("@original"), which its
            # token may edit later: not a follow-up after the watchdog deferred a command.
            original = panel

            async def answer() -> None:
                nonlocal original
                if panel:
                    await update(interaction, embeds=embeds, view=view)
                else:
                    sent = await send(interaction, embeds=embeds, view=view)
                    original = sent.by_callback

            # A private reply in the channel (a command's, or one whose button was pressed)
            # shows the mover their move (set before it is sent, so that whoever sees the
            # reply sees the DM hand left for it); without it, their DM does.
            self.display.moved_by(table, seat, command=not in_dm)
            answered = await self.answer_in_time(answer, table)
            if not answered:
                self.display.moved_by(table, seat, command=False)
            if answered:
                if message is not None:
                    self.display.remember(table, seat, message, embeds, view)
                    if in_dm:  # its answer edited the hand: so may its token, for a while
                        self.display.pressed(message, interaction)
                if not in_dm:  # a private reply in the channel: it carries their hand-off
                    self.display.shown_privately(
                        table, seat, interaction, embeds, view, moved=original
                    )
            else:
                self.display.unshown(table, seat, message)
        finally:
            await self.display.sync(table)
            self.opponent.nudge(table)

    async def answer_in_time(self, answer: Callable[[], Awaitable[None]], table: Table) -> bool:
        """Send the answer to a committed move; True once it landed. False when it failed, or
        was still being retried after ANSWER_GRACE seconds (a 5xx, a long 429): by then it
        would reach Discord too late to count, so it is given up and the screens are synced
        without it."""
        try:
            async with asyncio.timeout(ANSWER_GRACE):
                await answer()
        except TimeoutError:
            log.warning("the answer to a move at table %s took too long; given up", table.id)
            return False
        except (discord.HTTPException, discord.InteractionResponded, aiohttp.ClientError) as error:
            log.warning(
                "a move at table %s was committed but its answer failed: %r", table.id, error
            )
            return False
        return True

    def set_notes(self, outcome: MoveOutcome) -> None:
        """What each player's private hand says happened last."""
        table = outcome.table
        match = table.match
        assert match is not None
        action = outcome.action
        notes = self.display.notes
        self.display.acted(table, outcome.seat)
        # Each note is said when its reader's hand is rendered, in that reader's language.
        if action.kind is not ActionKind.LEAVE:
            notes[(table.id, outcome.seat)] = partial(done_text, outcome)
        if outcome.finished_hand is not None:
            for seat in outcome.finished_hand.seats:
                notes.pop((table.id, seat), None)
            return
        board = match.board_of(outcome.seat) if action.kind is not ActionKind.LEAVE else None
        if board is None:
            board = match.boards[outcome.board] if outcome.board < len(match.boards) else None
        if board is None or board.is_over:
            return
        # The player to act sees the others' whole turns on their hand (the render retells
        # them), so their own last note has had its day. A waiting player hears of a move
        # when their turn comes: an edit of their hand for each move would spend the REST
        # budget on a message they are not using.
        if board.turn != outcome.seat:
            notes.pop((table.id, board.turn), None)

    def move_reply(
        self, outcome: MoveOutcome, *, in_dm: bool = False
    ) -> tuple[list[discord.Embed], discord.ui.View | None]:
        """What the mover sees: their updated hand, or the showdown when the hand ended."""
        table = outcome.table
        match = table.match
        assert match is not None
        record = outcome.finished_hand
        if record is None:
            rendered = self.display.private_hand(table, outcome.seat)
            return rendered.embeds, rendered.view
        faces = self.display.faces.card
        panel = showdown_panel(match, record.number, record.result, record.board, faces)
        embeds = [embed(panel)]
        if match.is_over or in_dm or match.board_of(outcome.seat) is None:
            return embeds, None  # the new hand arrives as a new DM
        rendered = self.display.private_hand(table, outcome.seat)
        return [*embeds, *rendered.embeds], rendered.view

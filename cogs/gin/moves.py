"""The one move path: a slash command or a button, checked and committed, answered, then shown.

Once the table service has committed a move, the move stands whatever Discord does next: the
answer to the interaction gets ``ANSWER_GRACE`` seconds, and what follows every change
(``After.changed``: the screens, the mover's own hand included when the answer did not show
it, and the bot's next turn) runs after it in any case. An answer that fails, or is still
retrying, never leaves a screen behind.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.gin import Card, GinError, parse_card
from bot.gin.hand import ActionKind, Phase
from bot.gin.phrase import Phrase
from bot.i18n import N_, language, tr
from bot.render.common import Panel
from bot.render.hand import discard_choices
from bot.tables import MoveOutcome, StaleButton, Table, TableError, TableService
from cogs.gin.after import After, Flow
from cogs.gin.errors import send, update
from cogs.gin.origin import DISCORD
from cogs.gin.views import embed

log = logging.getLogger(__name__)

# Seconds an answer may take before the screens are synced without it: Discord drops an
# answer that comes more than 3 s after the interaction.
ANSWER_GRACE = 2.5

GAME_OVER = N_(
    "This game is over; its buttons no longer do anything. Start a new one with `/gin challenge`."
)
EARLIER = N_("That button was from an earlier moment of the game: this is your hand now.")
HERE = N_("Your hand is here again: play it with these buttons.")


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


def refusal(reason: str | Phrase) -> TableError:
    """A refusal in the engine's words: a Phrase keeps its template and values, so the
    edge shows it in the reader's language."""
    if isinstance(reason, Phrase):
        return TableError(reason.template, **reason.values)
    return TableError(reason)


class Moves:
    """Makes moves for people: commands in the channel, buttons and menus on private hands;
    shows a player their hand; takes a resignation."""

    def __init__(self, service: TableService, after: After) -> None:
        self.service = service
        self.after = after
        self.screens = after.screens

    async def by_command(
        self, interaction: discord.Interaction[Any], kind: ActionKind, card_text: str | None
    ) -> None:
        """A move by slash command in the table's channel."""
        async with self.after.flow(interaction) as flow:
            table = self.service.require_table(str(interaction.channel_id))
            card = None if card_text is None else parse_card(card_text)
            outcome = await self.service.play(
                table, str(interaction.user.id), kind, card, origin=DISCORD
            )
            await self._answer_and_show(flow, outcome, panel=False)

    async def by_panel(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        move: int,
        kind: ActionKind,
        card: Card | None,
    ) -> None:
        """A button or menu on a private hand message (in DMs or an ephemeral reply)."""
        async with self.after.flow(interaction) as flow:
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
                    origin=DISCORD,
                )
            except StaleButton:
                if not await self.show_current(interaction, table):
                    raise
                return
            await self._answer_and_show(flow, outcome, panel=True)

    async def show_current(self, interaction: discord.Interaction[Any], table: Table) -> bool:
        """A button from an earlier moment of the game (a double click, or a DM hand left
        behind while its player moved by command): the message it is on becomes the hand as
        it is now, saying so. False when there is no such hand to show."""
        match = table.match
        seat = table.seat_of(str(interaction.user.id)) if match is not None else None
        if match is None or match.is_over or seat is None or match.board_of(seat) is None:
            return False
        await self.screens.show_now(interaction, table, seat, tr(EARLIER))
        return True

    async def _answer_and_show(self, flow: Flow, outcome: MoveOutcome, *, panel: bool) -> None:
        interaction = flow.interaction
        table, seat = outcome.table, outcome.seat
        flow.committed(committed_text(outcome), table)
        message = interaction.message.id if panel and interaction.message is not None else None
        screens = self.screens
        self.after.note(outcome)
        in_dm = interaction.guild_id is None
        embeds, view = screens.mover_reply(outcome, in_dm=panel and in_dm)

        # Whether the answer is the interaction's own message ("@original"), which its
        # token may edit later: not a follow-up after the watchdog deferred a command.
        original = panel

        async def answer() -> None:
            nonlocal original, message
            if panel:
                await update(interaction, embeds=embeds, view=view)
            else:
                sent = await send(interaction, embeds=embeds, view=view)
                original, message = sent.by_callback, sent.message_id

        # A private reply in the channel (a command's, or one whose button was pressed)
        # shows the mover their move and is their live hand from now (said before it is
        # sent, so that no sync edits their DM hand back to life meanwhile); an answer
        # on their DM hand makes that their live hand.
        screens.answering(table, seat, command=not in_dm)
        landed = await self.answer_in_time(answer, table)
        screens.answered(
            table,
            seat,
            interaction,
            embeds,
            view,
            landed=landed,
            message=message,
            original=original,
        )

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

    # --- looking at one's hand ------------------------------------------------------------------

    async def show_hand_of_table(
        self, interaction: discord.Interaction[Any], table_id: int
    ) -> None:
        """The public table's Show my hand button."""
        table = self.service.by_id(table_id)
        if table is None or not table.is_open or str(interaction.channel_id) != table.channel_id:
            raise TableError(
                "That table is closed. `/gin table` shows what is being played in a channel."
            )
        await self.show_hand(interaction, table)

    async def play_here(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """Play here, on a DM hand whose player was playing from the channel: the DM hand
        shows the hand with its buttons again, and is their live hand."""
        table = await self.service.find(table_id)
        match = None if table is None else table.match
        if table is None or not table.is_open or match is None or match.is_over:
            raise TableError(GAME_OVER)
        seat = table.seat_of(str(interaction.user.id))
        if seat is None:
            raise TableError(
                "You have no hand here: you're not playing at this table. Start your own "
                "game with `/gin challenge`."
            )
        if match.board_of(seat) is None:
            raise refusal(match.mode.not_playing(match, seat))
        await self.screens.show_now(interaction, table, seat, tr(HERE))

    async def show_hand(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """The player's hand in a private reply with its live buttons: their live hand from
        now (their DM hand says so, and no DM notifies someone looking at the channel)."""
        seat = table.seat_of(str(interaction.user.id))
        if seat is None or table.match is None:
            if seat is None:
                raise TableError(
                    "You have no hand here: you're not playing at this table. Watch it with "
                    "`/gin table`, or start your own game with `/gin challenge`."
                )
            if table.is_lobby:
                raise TableError(
                    "The game hasn't started: the table is still filling its seats. Your hand "
                    "comes by DM when it starts."
                )
            raise TableError(
                "The game hasn't started: the challenge is waiting for an answer "
                "(`/gin accept` or `/gin decline`)."
            )
        if table.match.board_of(seat) is None:
            raise refusal(table.match.mode.not_playing(table.match, seat))
        rendered = self.screens.reply_hand(table, seat)
        sent = await send(interaction, embeds=rendered.embeds, view=rendered.view)
        self.screens.shown_privately(
            table, seat, interaction, rendered, sent.message_id, original=sent.by_callback
        )
        await self.after.changed(table)  # their DM hand says where their hand is now

    # --- resigning ----------------------------------------------------------------------------

    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        """Concede the match in this channel (in elimination: leave it, the others play on)."""
        async with self.after.flow(interaction) as flow:
            table = self.service.require_table(str(interaction.channel_id))
            if table.is_lobby:
                raise TableError(
                    "The match hasn't started: to give up your seat, use `/gin leave`."
                )
            result = await self.service.resign(table, str(interaction.user.id), origin=DISCORD)
            if result is None:  # elimination: out at once, the others play on
                text = tr("You left the match, placed below everyone still in; the others play on.")
            elif table.mode.team_play:
                text = tr("The match is over: your team loses it.")
            else:
                text = tr("The match is over.")
            # TRANSLATORS: {outcome} is one of the sentences about what resigning did.
            flow.committed(tr("You resigned. {outcome}", outcome=text), table)
            # TRANSLATORS: the title of the answer to /gin resign.
            panel = Panel(tr("You resigned"), text)
            await send(interaction, embeds=[embed(panel)])

    # --- the card menu of /gin discard and /gin knock -------------------------------------------

    def card_choices(
        self, interaction: discord.Interaction[Any], current: str, *, knocking: bool
    ) -> list[app_commands.Choice[str]]:
        """The cards a player may name, best first for a discard, with what each leaves."""
        table = self.service.in_channel(str(interaction.channel_id))
        if table is None or table.match is None:
            return []
        seat = table.seat_of(str(interaction.user.id))
        if seat is None:
            return []
        hand = table.match.board_of(seat)
        if hand is None:
            return []
        held = Counter(hand.hands.get(seat, []))
        cards = sorted(held)  # a card held twice is offered once, marked ×2
        left: dict[Card, int] = {}
        if hand.phase is Phase.DISCARD and hand.turn == seat:
            for card, deadwood, can_knock in discard_choices(hand, seat):
                if not knocking or can_knock:
                    left[card] = deadwood
        if knocking and hand.phase is Phase.DISCARD and hand.turn == seat:
            cards = [c for c in cards if c in left]  # only cards that allow a knock
        typed = "".join(current.split()).lower()
        if typed.startswith("t"):
            typed = "10" + typed[1:]  # T means ten
        exact: Card | None = None
        if len(typed) >= 2:
            try:
                exact = parse_card(typed)
            except GinError:
                exact = None
        choices = []
        for card in cards:
            name = str(card)
            if typed and card != exact and not name.lower().startswith(typed):
                continue
            label = name + (f" ×{held[card]}" if held[card] > 1 else "")
            if card in left:
                # TRANSLATORS: a card offered in the card menu of /gin discard or /gin knock:
                # {card} is its name (10♥, or 10♥ ×2 when held twice).
                label = tr("{card} (leaves deadwood {deadwood})", card=label, deadwood=left[card])
            choices.append(app_commands.Choice(name=label, value=name))
        return choices[:25]

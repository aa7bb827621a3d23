"""The private hand's components: draw, take, pass, knock and Big Gin buttons and the card
menus; each custom id carries the table and the move number it was made for."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.gin import DECK, Card
from bot.gin.hand import Action, ActionKind, Phase
from bot.i18n import N_, tr
from bot.render.hand import discard_choices, joins_a_meld
from bot.tables import Table
from cogs.gin.errors import refuse
from cogs.gin.views.base import (
    BUTTON_KINDS,
    HERE_PARTS,
    MOVE_PARTS,
    SELECT_KINDS,
    SELECT_PARTS,
    _handlers,
    _parts,
    _Strict,
)


class MoveButton(
    _Strict,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:mv:(?P<rest>.*)",
):
    """Draw from the stock, take the upcard, pass, knock (or go gin) with one card, or
    declare Big Gin."""

    def __init__(
        self,
        table_id: int,
        move: int,
        kind: str,
        label: str,
        primary: bool = False,
        *,
        custom_id: str | None = None,
        emoji: discord.PartialEmoji | None = None,
        quiet: bool = False,
    ) -> None:
        style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
        if kind == "biggin" or (kind.startswith("knock") and not quiet):
            style = discord.ButtonStyle.success
        custom_id = custom_id or f"gin:mv:{table_id}:{move}:{kind}"
        button = discord.ui.Button[Any](
            label=label[:80], style=style, custom_id=custom_id, emoji=emoji
        )
        super().__init__(button)
        self.parts = _parts(MOVE_PARTS, custom_id.removeprefix("gin:mv:"))
        if self.parts is not None and int(self.parts["card"] or 0) >= len(DECK):
            self.parts = None

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> MoveButton:
        label = str(getattr(item, "label", None) or "?")
        return cls(0, 0, "pass", label, custom_id=match.string)

    async def handle(self, interaction: discord.Interaction[Any], parts: re.Match[str]) -> None:
        table, move, kind = int(parts["table"]), int(parts["move"]), parts["kind"]
        if kind is None:  # a knock with the card the button names
            card = DECK[int(parts["card"])]
            await _handlers(interaction).move(interaction, table, move, ActionKind.KNOCK, card)
            return
        await _handlers(interaction).move(interaction, table, move, BUTTON_KINDS[kind], None)


class CardSelect(
    _Strict,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"gin:sel:(?P<rest>.*)",
):
    """Pick the card to discard, or the card to discard face down when knocking."""

    REBUILT_WITH = (0, 0, "discard")

    def __init__(
        self,
        table_id: int,
        move: int,
        mode: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        *,
        custom_id: str | None = None,
    ) -> None:
        custom_id = custom_id or f"gin:sel:{table_id}:{move}:{mode}"
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                placeholder=placeholder,
                options=(options or [discord.SelectOption(label="-", value="0")])[:25],
                min_values=1,
                max_values=1,
            )
        )
        self.parts = _parts(SELECT_PARTS, custom_id.removeprefix("gin:sel:"))

    async def handle(self, interaction: discord.Interaction[Any], parts: re.Match[str]) -> None:
        values = list(getattr(self.item, "values", None) or [])
        card = _card_value(values)
        if card is None:
            await refuse(
                interaction,
                N_(
                    "Pick one card from the menu of your latest hand message "
                    "(or use `/gin discard`)."
                ),
            )
            return
        table, move = int(parts["table"]), int(parts["move"])
        kind = SELECT_KINDS[parts["mode"]]
        await _handlers(interaction).move(interaction, table, move, kind, card)


class PlayHereButton(
    _Strict,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:here:(?P<rest>.*)",
):
    """On a DM hand while its player plays from the channel: play this hand here again."""

    REBUILT_WITH = (0,)

    def __init__(self, table_id: int, *, custom_id: str | None = None) -> None:
        custom_id = custom_id or f"gin:here:{table_id}"
        # TRANSLATORS: a button on a DM hand: play the hand in this DM rather than the channel.
        label = tr("Play here")
        style = discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))
        self.parts = _parts(HERE_PARTS, custom_id.removeprefix("gin:here:"))

    async def handle(self, interaction: discord.Interaction[Any], parts: re.Match[str]) -> None:
        await _handlers(interaction).play_here(interaction, int(parts["table"]))


def elsewhere_view(table: Table) -> discord.ui.View:
    """The DM hand's one button while its player plays from the channel."""
    view = discord.ui.View(timeout=None)
    view.add_item(PlayHereButton(table.id))
    return view


def _card_value(values: list[str]) -> Card | None:
    """The one card a card menu sends: its number 0-51, as the bot wrote it."""
    if len(values) != 1:
        return None
    value = values[0]
    if not (value.isascii() and value.isdigit() and len(value) <= 2 and int(value) < len(DECK)):
        return None
    return DECK[int(value)]


def no_emoji(card: Card) -> discord.PartialEmoji | None:
    return None


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The coach's move at a table with hints on, the one thing the hand highlights (``action``
    None while it is being worked out: then nothing is highlighted)."""

    action: Action | None


def hand_view(
    table: Table,
    seat: int,
    emoji: Callable[[Card], discord.PartialEmoji | None] = no_emoji,
    suggestion: Suggestion | None = None,
) -> discord.ui.View | None:
    """The moves open to this player right now, as buttons and menus (None when it's not
    their turn or the hand is over). ``emoji`` gives each card option and each button of a
    card its picture, as the hand shows it; the label keeps the card's text, which is what
    a player reads and types.

    One suggestion: with the coach (``suggestion``), its move is the highlighted button or
    the menu's ★, and a knock it advises against is not lit; without it, the server's plain
    hint (take a card that joins a meld, discard the card leaving the least deadwood)."""
    match = table.match
    if match is None or match.is_over:
        return None
    hand = match.board_of(seat)
    if hand is None or hand.is_over or hand.turn != seat:
        return None
    move = table.token(seat)
    view = discord.ui.View(timeout=None)
    upcard = hand.upcard
    hints = table.server.hints and suggestion is None
    advised = None if suggestion is None else suggestion.action
    # A button stands out only where the hint would send the player: take the upcard when it
    # joins a meld, else the stock (or pass). Without hints no button is the default.
    take = (
        hints
        and upcard is not None
        and joins_a_meld(hand.hands[seat], upcard, hand.rules.distinct_suits)
    ) or (advised is not None and advised.kind is ActionKind.DRAW_DISCARD)
    skip = advised is not None and advised.kind in (ActionKind.PASS, ActionKind.DRAW_STOCK)
    picture = None if upcard is None else emoji(upcard)
    if hand.phase is Phase.UPCARD:
        # TRANSLATORS: a button: take the upcard (a card's name, such as 10♥).
        take_label = tr("Take {card}", card=upcard)
        view.add_item(MoveButton(table.id, move, "take", take_label, primary=take, emoji=picture))
        # TRANSLATORS: a button: pass on the upcard.
        pass_label = tr("Pass")
        view.add_item(
            MoveButton(table.id, move, "pass", pass_label, primary=(hints and not take) or skip)
        )
        return view
    if hand.phase is Phase.DRAW:
        can_take = not hand.stock_only and upcard is not None
        if hand.stock:
            stock = (hints and not (take and can_take)) or skip
            # TRANSLATORS: a button: draw the top card of the stock.
            stock_label = tr("Draw from stock")
            view.add_item(MoveButton(table.id, move, "stock", stock_label, primary=stock))
        if can_take:
            # TRANSLATORS: a button: take the upcard (a card's name, such as 10♥).
            take_label = tr("Take {card}", card=upcard)
            view.add_item(
                MoveButton(table.id, move, "take", take_label, primary=take, emoji=picture)
            )
        return view
    # Best first: the card whose loss leaves the least deadwood, the highest on ties.
    choices = sorted(discard_choices(hand, seat), key=lambda c: (c[1], -c[0].value, -int(c[0])))
    starred = choices[0][0] if hints and choices else None
    if advised is not None and advised.kind is ActionKind.DISCARD:
        starred = advised.card
    held = Counter(hand.hands[seat])
    discard_options = [
        discord.SelectOption(
            label=str(card) + (f" ×{held[card]}" if held[card] > 1 else ""),
            value=str(int(card)),
            description=_discard_description(left, best=card == starred),
            emoji=emoji(card),
        )
        for card, left, _ in choices
    ]
    # TRANSLATORS: the placeholder of the menu of cards to discard.
    discard_placeholder = tr("Discard a card…")
    view.add_item(CardSelect(table.id, move, "discard", discard_options, discard_placeholder))
    gin_only = not hand.rules.knocking
    knocks = [(card, left) for card, left, can_knock in choices if can_knock]
    if advised is not None and advised.kind is ActionKind.KNOCK:  # the coach's knock first
        knocks.sort(key=lambda k: k[0] != advised.card)
    if knocks:
        card, left = knocks[0]  # the best knock, as a button of its own
        if left == 0:
            # TRANSLATORS: a button: go gin, discarding this card face down.
            label = tr("Go gin: discard {card}", card=card)
        else:
            # TRANSLATORS: a button: knock, discarding this card face down; {left} is the
            # deadwood count kept.
            label = tr("Knock: discard {card} (deadwood {left})", card=card, left=left)
        # With the coach on, a knock is lit only when it is the coach's move.
        quiet = suggestion is not None and (advised is None or advised.kind is not ActionKind.KNOCK)
        view.add_item(
            MoveButton(table.id, move, f"knock{int(card)}", label, emoji=emoji(card), quiet=quiet)
        )
    if len(knocks) > 1:
        knock_options = [
            discord.SelectOption(
                label=_knock_label(card, left),
                value=str(int(card)),
                # TRANSLATORS: under a card of the knock menu: the deadwood count kept.
                description=tr("deadwood {left}", left=left),
                emoji=emoji(card),
            )
            for card, left in knocks[1:]
        ]
        if gin_only:
            # TRANSLATORS: the placeholder of the menu of other cards to go gin with.
            placeholder = tr("Go gin with another card…")
        else:
            # TRANSLATORS: the placeholder of the menu of other cards to knock with.
            placeholder = tr("Knock with another card…")
        view.add_item(CardSelect(table.id, move, "knock", knock_options, placeholder))
    if any(a.kind is ActionKind.BIG_GIN for a in hand.legal_actions()):
        # TRANSLATORS: a button: declare Big Gin (all eleven cards in melds).
        view.add_item(MoveButton(table.id, move, "biggin", tr("Big Gin!")))
    return view


def _discard_description(left: int, *, best: bool) -> str:
    """What discarding a card leaves, under it in the discard menu."""
    if best:
        # TRANSLATORS: under the best card of the discard menu: the deadwood count kept.
        return tr("★ best: leaves deadwood {left}", left=left)
    # TRANSLATORS: under a card of the discard menu: the deadwood count kept.
    return tr("leaves deadwood {left}", left=left)


def _knock_label(card: Card, left: int) -> str:
    """A card of the knock menu: gin when it leaves no deadwood."""
    if left == 0:
        # TRANSLATORS: a choice of the knock menu: go gin discarding this card.
        return tr("Gin: discard {card} face down", card=card)
    # TRANSLATORS: a choice of the knock menu: knock discarding this card.
    return tr("Knock: discard {card} face down", card=card)

"""Buttons and menus that survive restarts: each custom id carries the table and move number."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, cast

import discord

from bot.gin import DECK, Card
from bot.gin.hand import ActionKind, Phase
from bot.i18n import N_, tr, translate
from bot.render import Panel, discard_choices, joins_a_meld
from bot.tables import Table
from cogs.gin.errors import UNKNOWN_COMPONENT, funnel, refuse

if TYPE_CHECKING:
    from cogs.gin.cog import GinCog

COLOUR = discord.Colour.dark_green()

BUTTON_KINDS = {
    "take": ActionKind.DRAW_DISCARD,
    "pass": ActionKind.PASS,
    "stock": ActionKind.DRAW_STOCK,
    "biggin": ActionKind.BIG_GIN,
}
SELECT_KINDS = {"discard": ActionKind.DISCARD, "knock": ActionKind.KNOCK}


YOUR_TURN = discord.Colour.brand_green()
WAITING = discord.Colour.light_grey()


def embed(panel: Panel, colour: discord.Colour = COLOUR) -> discord.Embed:
    """A panel as an embed; a private hand is coloured by whose turn it is."""
    if panel.turn is not None:
        colour = YOUR_TURN if panel.turn else WAITING
    result = discord.Embed(title=panel.title, description=panel.body, colour=colour)
    if panel.footer:
        result.set_footer(text=panel.footer)
    return result


def _cog(interaction: discord.Interaction[Any]) -> GinCog:
    cog = interaction.client.get_cog("GinCog")
    assert cog is not None
    return cast("GinCog", cog)


# What the bot writes into custom ids, read back strictly: a modified client can send anything
# after the prefix, and whatever does not parse is answered as an unknown button.
ID = r"\d{1,18}"  # a table id or a snowflake
MOVE = r"\d{1,9}"
PAGE = r"\d{1,6}"
MOVE_PARTS = re.compile(
    rf"(?P<table>{ID}):(?P<move>{MOVE}):(?:(?P<kind>take|pass|stock|biggin)|knock(?P<card>\d{{1,2}}))"
)
SELECT_PARTS = re.compile(rf"(?P<table>{ID}):(?P<move>{MOVE}):(?P<mode>discard|knock)")
CHALLENGE_PARTS = re.compile(rf"(?P<table>{ID}):(?P<answer>accept|decline)")
MODES = r"(?:~(?:three|teams|elimination))?"  # the mode of a leaderboard or history page
PAGE_PARTS = re.compile(
    rf"(?:lb:(?P<sort>(?:rating|wins|points|bot){MODES})|hist:(?P<user>{ID}{MODES})"
    rf"|replay:(?P<match>{ID}))"
    rf":(?P<page>{PAGE}):(?P<dir>prev|next)"
)
MAX_ID = 2**63 - 1  # the largest id the store can hold


def _parts(pattern: re.Pattern[str], rest: str) -> re.Match[str] | None:
    parts = pattern.fullmatch(rest)
    if parts is None or int(parts.groupdict().get("table") or 0) > MAX_ID:
        return None
    return parts


class _Strict:
    """A dynamic item that may have been built from a custom id the bot never wrote.

    discord.py rebuilds it from a pressed custom id alone: ``REBUILT_WITH`` are the
    constructor's placeholder arguments then, the custom id itself saying everything else
    (and ``parts`` None when it does not parse)."""

    parts: re.Match[str] | None
    REBUILT_WITH: ClassVar[tuple[Any, ...]] = ()

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Any:
        return cls(*cls.REBUILT_WITH, custom_id=match.string)  # type: ignore[call-arg]

    async def refuse_unknown(self, interaction: discord.Interaction[Any]) -> bool:
        """Answer a custom id that did not parse; True when it did not."""
        if self.parts is not None:
            return False
        async with funnel(interaction):
            await refuse(interaction, UNKNOWN_COMPONENT)
        return True


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
    ) -> None:
        style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
        if kind == "biggin" or kind.startswith("knock"):
            style = discord.ButtonStyle.success
        custom_id = custom_id or f"gin:mv:{table_id}:{move}:{kind}"
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=custom_id))
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

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await self.refuse_unknown(interaction):
            return
        assert self.parts is not None
        table, move, kind = int(self.parts["table"]), int(self.parts["move"]), self.parts["kind"]
        if kind is None:  # a knock with the card the button names
            card = DECK[int(self.parts["card"])]
            await _cog(interaction).moves.by_panel(interaction, table, move, ActionKind.KNOCK, card)
            return
        await _cog(interaction).moves.by_panel(interaction, table, move, BUTTON_KINDS[kind], None)


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

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await self.refuse_unknown(interaction):
            return
        assert self.parts is not None
        values = list(getattr(self.item, "values", None) or [])
        card = _card_value(values)
        if card is None:
            async with funnel(interaction):
                await refuse(
                    interaction,
                    N_(
                        "Pick one card from the menu of your latest hand message "
                        "(or use `/gin discard`)."
                    ),
                )
            return
        table, move = int(self.parts["table"]), int(self.parts["move"])
        kind = SELECT_KINDS[self.parts["mode"]]
        await _cog(interaction).moves.by_panel(interaction, table, move, kind, card)


def _card_value(values: list[str]) -> Card | None:
    """The one card a card menu sends: its number 0-51, as the bot wrote it."""
    if len(values) != 1:
        return None
    value = values[0]
    if not (value.isascii() and value.isdigit() and len(value) <= 2 and int(value) < len(DECK)):
        return None
    return DECK[int(value)]


class ChallengeButton(
    _Strict,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:ch:(?P<rest>.*)",
):
    """Accept or decline a challenge from the public challenge message."""

    REBUILT_WITH = (0, "accept")

    def __init__(self, table_id: int, answer: str, *, custom_id: str | None = None) -> None:
        accept = answer == "accept"
        custom_id = custom_id or f"gin:ch:{table_id}:{answer}"
        label = (
            # TRANSLATORS: a button under a challenge to a game.
            tr("Accept")
            if accept
            # TRANSLATORS: a button under a challenge to a game.
            else tr("Decline")
        )
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=custom_id,
            )
        )
        self.parts = _parts(CHALLENGE_PARTS, custom_id.removeprefix("gin:ch:"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await self.refuse_unknown(interaction):
            return
        assert self.parts is not None
        table, answer = int(self.parts["table"]), self.parts["answer"]
        await _cog(interaction).answer_challenge(interaction, table, answer)


SHOW_PARTS = re.compile(rf"(?P<table>{ID})")


class RematchButton(
    _Strict,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:rm:(?P<rest>.*)",
):
    """On a two-player match's result: challenge the same opponent with the same settings."""

    REBUILT_WITH = (0,)

    def __init__(self, table_id: int, *, custom_id: str | None = None) -> None:
        custom_id = custom_id or f"gin:rm:{table_id}"
        # TRANSLATORS: a button under a match's result: play the same opponent again.
        label = tr("Rematch")
        super().__init__(
            discord.ui.Button(
                label=label, emoji="🔁", style=discord.ButtonStyle.primary, custom_id=custom_id
            )
        )
        self.parts = _parts(SHOW_PARTS, custom_id.removeprefix("gin:rm:"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await self.refuse_unknown(interaction):
            return
        assert self.parts is not None
        async with funnel(interaction):
            await _cog(interaction).rematch(interaction, int(self.parts["table"]))


def rematch_view(table: Table) -> discord.ui.View | None:
    """A Rematch button under the result of a two-player match between people."""
    if table.mode_name != "classic" or table.bot_seats:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(table.id))
    return view


class ShowHandButton(
    _Strict,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:show:(?P<rest>.*)",
):
    """On the public table: shows the player who presses it their hand, privately, with its
    live buttons (the same as /gin hand)."""

    REBUILT_WITH = (0,)

    def __init__(self, table_id: int, *, custom_id: str | None = None) -> None:
        custom_id = custom_id or f"gin:show:{table_id}"
        super().__init__(
            discord.ui.Button(
                # TRANSLATORS: a button on the public table: see your own cards privately.
                label=tr("Show my hand"),
                emoji="🃏",
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id,
            )
        )
        self.parts = _parts(SHOW_PARTS, custom_id.removeprefix("gin:show:"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await self.refuse_unknown(interaction):
            return
        assert self.parts is not None
        async with funnel(interaction):
            await _cog(interaction).show_hand_of_table(interaction, int(self.parts["table"]))


def public_view(table: Table) -> discord.ui.View | None:
    """The public table's one button, while a hand is being played: Show my hand."""
    match = table.match
    if match is None or match.is_over or not table.is_open:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ShowHandButton(table.id))
    return view


class PageButton(
    _Strict,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:pg:(?P<rest>.*)",
):
    """Paging through a leaderboard, a history or a replay; each click recomputes the page."""

    REBUILT_WITH = ("lb", "rating", 0, "next")

    def __init__(
        self,
        kind: str,
        arg: str,
        page: int,
        direction: str,
        disabled: bool = False,
        *,
        custom_id: str | None = None,
    ) -> None:
        custom_id = custom_id or f"gin:pg:{kind}:{arg}:{page}:{direction}"
        label = (
            # TRANSLATORS: a button turning back a page of a leaderboard, history or replay.
            tr("◀ Previous")
            if direction == "prev"
            # TRANSLATORS: a button turning on a page of a leaderboard, history or replay.
            else tr("Next ▶")
        )
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id,
                disabled=disabled,
            )
        )
        self.parts = _parts(PAGE_PARTS, custom_id.removeprefix("gin:pg:"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await self.refuse_unknown(interaction):
            return
        parts = self.parts
        assert parts is not None
        if parts["sort"]:
            kind, arg = "lb", parts["sort"]
        elif parts["user"]:
            kind, arg = "hist", parts["user"]
        else:
            kind, arg = "replay", parts["match"]
        await _cog(interaction).show_page(interaction, kind, arg, int(parts["page"]))


def challenge_view(table_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(table_id, "accept"))
    view.add_item(ChallengeButton(table_id, "decline"))
    return view


def pages_view(kind: str, arg: str, page: int, pages: int) -> discord.ui.View | None:
    """Previous / next buttons carrying the page they lead to (None for a single page)."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(kind, arg, max(page - 1, 0), "prev", disabled=page <= 0))
    view.add_item(
        PageButton(kind, arg, min(page + 1, pages - 1), "next", disabled=page >= pages - 1)
    )
    return view


def no_emoji(card: Card) -> discord.PartialEmoji | None:
    return None


def hand_view(
    table: Table,
    seat: int,
    emoji: Callable[[Card], discord.PartialEmoji | None] = no_emoji,
) -> discord.ui.View | None:
    """The moves open to this player right now, as buttons and menus (None when it's not
    their turn or the hand is over). ``emoji`` gives each card option its picture; the
    label keeps the card's text, which is what a player reads and types."""
    match = table.match
    if match is None or match.is_over:
        return None
    hand = match.board_of(seat)
    if hand is None or hand.is_over or hand.turn != seat:
        return None
    move = table.token(seat)
    view = discord.ui.View(timeout=None)
    upcard = hand.upcard
    hints = table.server.hints
    # A button stands out only where the hint would send the player: take the upcard when it
    # joins a meld, else the stock (or pass). Without hints no button is the default.
    take = (
        hints
        and upcard is not None
        and joins_a_meld(hand.hands[seat], upcard, hand.rules.distinct_suits)
    )
    if hand.phase is Phase.UPCARD:
        # TRANSLATORS: a button: take the upcard (a card's name, such as 10♥).
        take_label = tr("Take {card}", card=upcard)
        view.add_item(MoveButton(table.id, move, "take", take_label, primary=take))
        # TRANSLATORS: a button: pass on the upcard.
        pass_label = tr("Pass")
        view.add_item(MoveButton(table.id, move, "pass", pass_label, primary=hints and not take))
        return view
    if hand.phase is Phase.DRAW:
        can_take = not hand.stock_only and upcard is not None
        if hand.stock:
            stock = hints and not (take and can_take)
            # TRANSLATORS: a button: draw the top card of the stock.
            stock_label = tr("Draw from stock")
            view.add_item(MoveButton(table.id, move, "stock", stock_label, primary=stock))
        if can_take:
            # TRANSLATORS: a button: take the upcard (a card's name, such as 10♥).
            take_label = tr("Take {card}", card=upcard)
            view.add_item(MoveButton(table.id, move, "take", take_label, primary=take))
        return view
    # Best first: the card whose loss leaves the least deadwood, the highest on ties.
    choices = sorted(discard_choices(hand, seat), key=lambda c: (c[1], -c[0].value, -int(c[0])))
    held = Counter(hand.hands[seat])
    discard_options = [
        discord.SelectOption(
            label=str(card) + (f" ×{held[card]}" if held[card] > 1 else ""),
            value=str(int(card)),
            description=_discard_description(left, best=i == 0 and hints),
            emoji=emoji(card),
        )
        for i, (card, left, _) in enumerate(choices)
    ]
    # TRANSLATORS: the placeholder of the menu of cards to discard.
    discard_placeholder = tr("Discard a card…")
    view.add_item(CardSelect(table.id, move, "discard", discard_options, discard_placeholder))
    gin_only = not hand.rules.knocking
    knocks = [(card, left) for card, left, can_knock in choices if can_knock]
    if knocks:
        card, left = knocks[0]  # the best knock, as a button of its own
        if left == 0:
            # TRANSLATORS: a button: go gin, discarding this card face down.
            label = tr("Go gin: discard {card}", card=card)
        else:
            # TRANSLATORS: a button: knock, discarding this card face down; {left} is the
            # deadwood count kept.
            label = tr("Knock: discard {card} (deadwood {left})", card=card, left=left)
        view.add_item(MoveButton(table.id, move, f"knock{int(card)}", label))
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


class LobbyButton(
    _Strict,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:lb:(?P<rest>.*)",
):
    """Join (a side, at a teams table), leave or start a lobby from its public message."""

    REBUILT_WITH = (0, "join")

    # Labels translated where the button is made.
    LABELS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        # TRANSLATORS: a button under a lobby: take a seat at the table.
        "join": (N_("Join"), discord.ButtonStyle.success),
        # TRANSLATORS: a button under a teams lobby.
        "team1": (N_("Join team 1"), discord.ButtonStyle.success),
        # TRANSLATORS: a button under a teams lobby.
        "team2": (N_("Join team 2"), discord.ButtonStyle.success),
        # TRANSLATORS: a button under a lobby: give up your seat.
        "leave": (N_("Leave"), discord.ButtonStyle.secondary),
        # TRANSLATORS: a button under a lobby: start the game.
        "start": (N_("Start"), discord.ButtonStyle.primary),
    }

    def __init__(self, table_id: int, what: str, *, custom_id: str | None = None) -> None:
        label, style = self.LABELS.get(what, ("?", discord.ButtonStyle.secondary))
        custom_id = custom_id or f"gin:lb:{table_id}:{what}"
        super().__init__(
            discord.ui.Button(label=translate(label), style=style, custom_id=custom_id)
        )
        self.parts = _parts(LOBBY_PARTS, custom_id.removeprefix("gin:lb:"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await self.refuse_unknown(interaction):
            return
        assert self.parts is not None
        table, what = int(self.parts["table"]), self.parts["what"]
        await _cog(interaction).lobby_button(interaction, table, what)


LOBBY_PARTS = re.compile(rf"(?P<table>{ID}):(?P<what>join|team1|team2|leave|start)")


def lobby_view(table: Table) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if table.mode_name == "teams":
        view.add_item(LobbyButton(table.id, "team1"))
        view.add_item(LobbyButton(table.id, "team2"))
    view.add_item(LobbyButton(table.id, "join"))
    view.add_item(LobbyButton(table.id, "leave"))
    view.add_item(LobbyButton(table.id, "start"))
    return view


DYNAMIC_ITEMS = (
    MoveButton,
    CardSelect,
    ChallengeButton,
    PageButton,
    LobbyButton,
    ShowHandButton,
    RematchButton,
)

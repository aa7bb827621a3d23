"""Buttons and menus that survive restarts: each custom id carries the table and move number."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.gin import DECK
from bot.gin.hand import ActionKind, Phase
from bot.render import Panel, discard_choices
from bot.tables import Table

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


def embed(panel: Panel, colour: discord.Colour = COLOUR) -> discord.Embed:
    result = discord.Embed(title=panel.title, description=panel.body, colour=colour)
    if panel.footer:
        result.set_footer(text=panel.footer)
    return result


def _cog(interaction: discord.Interaction[Any]) -> GinCog:
    cog = interaction.client.get_cog("GinCog")
    assert cog is not None
    return cog  # type: ignore[return-value]


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:mv:(?P<table>\d+):(?P<move>\d+):(?P<kind>take|pass|stock|biggin)",
):
    """Draw from the stock, take the upcard, pass, or declare Big Gin."""

    def __init__(self, table_id: int, move: int, kind: str, label: str, primary: bool = False):
        style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
        if kind == "biggin":
            style = discord.ButtonStyle.success
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"gin:mv:{table_id}:{move}:{kind}"
            )
        )
        self.table_id, self.move, self.kind = table_id, move, kind

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> MoveButton:
        label = getattr(item, "label", None) or match["kind"]
        return cls(int(match["table"]), int(match["move"]), match["kind"], label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).panel_move(
            interaction, self.table_id, self.move, BUTTON_KINDS[self.kind], None
        )


class CardSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"gin:sel:(?P<table>\d+):(?P<move>\d+):(?P<mode>discard|knock)",
):
    """Pick the card to discard, or the card to discard face down when knocking."""

    def __init__(
        self,
        table_id: int,
        move: int,
        mode: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"gin:sel:{table_id}:{move}:{mode}",
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-", value="0")],
                min_values=1,
                max_values=1,
            )
        )
        self.table_id, self.move, self.mode = table_id, move, mode

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CardSelect:
        options = list(getattr(item, "options", []) or [])
        return cls(int(match["table"]), int(match["move"]), match["mode"], options)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        card = DECK[int(values[0])] if values and values[0].isdigit() else None
        await _cog(interaction).panel_move(
            interaction, self.table_id, self.move, SELECT_KINDS[self.mode], card
        )


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:ch:(?P<table>\d+):(?P<answer>accept|decline)",
):
    """Accept or decline a challenge from the public challenge message."""

    def __init__(self, table_id: int, answer: str) -> None:
        accept = answer == "accept"
        super().__init__(
            discord.ui.Button(
                label="Accept" if accept else "Decline",
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=f"gin:ch:{table_id}:{answer}",
            )
        )
        self.table_id, self.answer = table_id, answer

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ChallengeButton:
        return cls(int(match["table"]), match["answer"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).answer_challenge(interaction, self.table_id, self.answer)


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:pg:(?P<kind>[a-z]+):(?P<arg>[0-9a-z]+):(?P<page>\d+):(?P<dir>prev|next)",
):
    """Paging through a leaderboard, a history or a replay; each click recomputes the page."""

    def __init__(
        self, kind: str, arg: str, page: int, direction: str, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label="◀ Previous" if direction == "prev" else "Next ▶",
                style=discord.ButtonStyle.secondary,
                custom_id=f"gin:pg:{kind}:{arg}:{page}:{direction}",
                disabled=disabled,
            )
        )
        self.kind, self.arg, self.page, self.direction = kind, arg, page, direction

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PageButton:
        return cls(match["kind"], match["arg"], int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).show_page(interaction, self.kind, self.arg, self.page)


DYNAMIC_ITEMS = (MoveButton, CardSelect, ChallengeButton, PageButton)


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


def hand_view(table: Table, seat: int) -> discord.ui.View | None:
    """The moves open to this player right now, as buttons and menus (None when it's not
    their turn or the hand is over)."""
    match = table.match
    if match is None or match.is_over:
        return None
    hand = match.hand
    if hand.is_over or hand.turn != seat:
        return None
    move = table.move_count
    view = discord.ui.View(timeout=None)
    upcard = hand.upcard
    if hand.phase is Phase.UPCARD:
        view.add_item(MoveButton(table.id, move, "take", f"Take {upcard}", primary=True))
        view.add_item(MoveButton(table.id, move, "pass", "Pass"))
        return view
    if hand.phase is Phase.DRAW:
        view.add_item(MoveButton(table.id, move, "stock", "Draw from stock", primary=True))
        if not hand.stock_only and upcard is not None:
            view.add_item(MoveButton(table.id, move, "take", f"Take {upcard}"))
        return view
    choices = discard_choices(hand, seat)
    discard_options = [
        discord.SelectOption(
            label=str(card), value=str(int(card)), description=f"leaves deadwood {left}"
        )
        for card, left, _ in choices
    ]
    view.add_item(CardSelect(table.id, move, "discard", discard_options, "Discard a card…"))
    knock_options = [
        discord.SelectOption(
            label=f"{'Gin' if left == 0 else 'Knock'}: discard {card} face down",
            value=str(int(card)),
            description=f"deadwood {left}",
        )
        for card, left, can_knock in choices
        if can_knock
    ]
    if knock_options:
        view.add_item(CardSelect(table.id, move, "knock", knock_options, "Knock or go gin…"))
    if any(a.kind is ActionKind.BIG_GIN for a in hand.legal_actions()):
        view.add_item(MoveButton(table.id, move, "biggin", "Big Gin!"))
    return view

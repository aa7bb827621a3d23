"""The coach's button: Review, on a player's showdown and on a replay's hands. Its custom id
names the match, the hand and the board, so a press after a restart finds the hand again."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import discord

from bot.i18n import tr
from cogs.gin.views.base import ID, _handlers, _parts, _Strict

HAND = r"\d{1,6}"
REVIEW_PARTS = re.compile(rf"(?P<table>{ID}):(?P<hand>{HAND}):(?P<board>[01])")
REVIEWS_SHOWN = 4  # a replay page's hands; a view holds 25 buttons


class ReviewButton(
    _Strict,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:rv:(?P<rest>.*)",
):
    """Sends the presser the coach's review of one finished hand they played, by DM."""

    REBUILT_WITH = (0, 1, 0)

    def __init__(
        self,
        table_id: int,
        hand: int,
        board: int,
        *,
        numbered: bool = False,
        custom_id: str | None = None,
    ) -> None:
        custom_id = custom_id or f"gin:rv:{table_id}:{hand}:{board}"
        label = (
            # TRANSLATORS: a button under a replay: the coach's review of that hand, by DM.
            tr("Review hand {number}", number=hand)
            if numbered
            # TRANSLATORS: a button under a showdown: the coach's review of the hand, by DM.
            else tr("Review")
        )
        super().__init__(
            discord.ui.Button(
                label=label, emoji="🎓", style=discord.ButtonStyle.secondary, custom_id=custom_id
            )
        )
        self.parts = _parts(REVIEW_PARTS, custom_id.removeprefix("gin:rv:"))

    async def handle(self, interaction: discord.Interaction[Any], parts: re.Match[str]) -> None:
        table, hand, board = int(parts["table"]), int(parts["hand"]), int(parts["board"])
        await _handlers(interaction).review(interaction, table, hand, board)


def review_view(table_id: int, hand: int, board: int) -> discord.ui.View:
    """A showdown's Review button."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReviewButton(table_id, hand, board))
    return view


def add_reviews(
    view: discord.ui.View | None, table_id: int, hands: Iterable[tuple[int, int]]
) -> discord.ui.View | None:
    """A replay page's view with a Review button for each of its hands (number, board)."""
    wanted = list(hands)[:REVIEWS_SHOWN]
    if not wanted:
        return view
    view = view or discord.ui.View(timeout=None)
    for number, board in wanted:
        view.add_item(ReviewButton(table_id, number, board, numbered=True))
    return view

"""What every component shares: the ``Handlers`` it calls, the strict reading of custom ids
(a modified client can send anything), and how a panel becomes an embed."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol, runtime_checkable

import discord
from discord.ext import commands

from bot.gin import Card
from bot.gin.hand import ActionKind
from bot.render.common import Panel
from cogs.gin.errors import UNKNOWN_COMPONENT, funnel, refuse

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


@runtime_checkable
class Handlers(Protocol):
    """What the components call: the flows behind every button and menu. discord.py
    rebuilds a component from its custom id alone, so the handlers are looked up on the
    client (the cog implements them) rather than handed to each component."""

    async def move(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        move: int,
        kind: ActionKind,
        card: Card | None,
    ) -> None:
        """A move button or menu on a private hand."""

    async def play_here(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """Play here on a DM hand whose player was playing from the channel."""

    async def answer_challenge(
        self, interaction: discord.Interaction[Any], table_id: int, answer: str
    ) -> None:
        """Accept or Decline on a challenge."""

    async def rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """Rematch on a two-player match's result."""

    async def show_hand_of_table(
        self, interaction: discord.Interaction[Any], table_id: int
    ) -> None:
        """Show my hand on the public table."""

    async def show_page(
        self, interaction: discord.Interaction[Any], kind: str, arg: str, page: int
    ) -> None:
        """Previous / Next on a record page."""

    async def lobby_button(
        self, interaction: discord.Interaction[Any], table_id: int, what: str
    ) -> None:
        """Join, Join team 1/2, Leave or Start on a lobby."""

    async def review(
        self, interaction: discord.Interaction[Any], table_id: int, hand: int, board: int
    ) -> None:
        """Review on a showdown or a replay: the coach's review of that hand, by DM."""


HANDLERS = "GinCog"  # the cog that implements ``Handlers``


def _handlers(interaction: discord.Interaction[Any]) -> Handlers:
    client = interaction.client
    found = client.get_cog(HANDLERS) if isinstance(client, commands.Bot) else None
    if not isinstance(found, Handlers):
        raise RuntimeError(f"no {HANDLERS} cog is loaded to handle a component")
    return found


# What the bot writes into custom ids, read back strictly: a modified client can send anything
# after the prefix, and whatever does not parse is answered as an unknown button.
ID = r"\d{1,18}"  # a table id or a snowflake
MOVE = r"\d{1,9}"
PAGE = r"\d{1,6}"
MOVE_PARTS = re.compile(
    rf"(?P<table>{ID}):(?P<move>{MOVE}):(?:(?P<kind>take|pass|stock|biggin)|knock(?P<card>\d{{1,2}}))"
)
SELECT_PARTS = re.compile(rf"(?P<table>{ID}):(?P<move>{MOVE}):(?P<mode>discard|knock)")
HERE_PARTS = re.compile(rf"(?P<table>{ID})")
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

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Every component's one way in: a custom id that did not parse is refused, and every
        error its handler raises gets its private answer (the funnel, entered here only)."""
        async with funnel(interaction):
            if self.parts is None:
                await refuse(interaction, UNKNOWN_COMPONENT)
                return
            await self.handle(interaction, self.parts)

    async def handle(self, interaction: discord.Interaction[Any], parts: re.Match[str]) -> None:
        """What a press does, its custom id read (``parts``)."""
        raise NotImplementedError

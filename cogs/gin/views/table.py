"""The channel's components: a challenge's answers, the public table's Show my hand, a
result's Rematch, a lobby's seats and the record pages' Previous / Next."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord

from bot.i18n import N_, tr, translate
from bot.tables import Table
from cogs.gin.views.base import (
    CHALLENGE_PARTS,
    ID,
    PAGE_PARTS,
    _handlers,
    _parts,
    _Strict,
)


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

    async def handle(self, interaction: discord.Interaction[Any], parts: re.Match[str]) -> None:
        table, answer = int(parts["table"]), parts["answer"]
        await _handlers(interaction).answer_challenge(interaction, table, answer)


SHOW_PARTS = re.compile(rf"(?P<table>{ID})")


class RematchButton(
    _Strict,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:rm:(?P<rest>.*)",
):
    """On a two-player match's result: challenge the same opponent with the same settings
    (a practice match: play the bot again, at once)."""

    REBUILT_WITH = (0,)

    def __init__(
        self, table_id: int, *, custom_id: str | None = None, practice: bool = False
    ) -> None:
        custom_id = custom_id or f"gin:rm:{table_id}"
        # TRANSLATORS: a button under a match's result: play the same opponent again.
        label = tr("Rematch")
        if practice:
            # TRANSLATORS: a button under a practice match's result: play the bot again.
            label = tr("Play again")
        super().__init__(
            discord.ui.Button(
                label=label, emoji="🔁", style=discord.ButtonStyle.primary, custom_id=custom_id
            )
        )
        self.parts = _parts(SHOW_PARTS, custom_id.removeprefix("gin:rm:"))

    async def handle(self, interaction: discord.Interaction[Any], parts: re.Match[str]) -> None:
        await _handlers(interaction).rematch(interaction, int(parts["table"]))


def rematch_view(table: Table) -> discord.ui.View | None:
    """A Rematch button under the result of a two-player match between people, or Play
    again under a practice match against the bot (not under a tournament's match: the
    tournament says what comes next)."""
    if not table.mode.rematch_allowed or table.meta.tournament is not None:
        return None
    practice = table.vs_bot
    if table.bot_seats and not practice:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(table.id, practice=practice))
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

    async def handle(self, interaction: discord.Interaction[Any], parts: re.Match[str]) -> None:
        await _handlers(interaction).show_hand_of_table(interaction, int(parts["table"]))


def public_view(table: Table, *, launch: bool = False) -> discord.ui.View | None:
    """The public table's buttons, while a hand is being played: Show my hand, and Play at
    the table when the bot's Activity is set up (``launch``)."""
    match = table.match
    if match is None or match.is_over or not table.is_open:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ShowHandButton(table.id))
    if launch:
        view.add_item(LaunchButton(table.id))
    return view


class LaunchButton(
    _Strict,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:play:(?P<rest>.*)",
):
    """On the public table: opens the Activity at this channel's table (Discord's
    LAUNCH_ACTIVITY answer), for a player or anyone who wants to watch."""

    REBUILT_WITH = (0,)

    def __init__(self, table_id: int, *, custom_id: str | None = None) -> None:
        custom_id = custom_id or f"gin:play:{table_id}"
        super().__init__(
            discord.ui.Button(
                # TRANSLATORS: a button on the public table: open the Activity, a card table
                # inside Discord, at this channel's game.
                label=tr("Play at the table"),
                emoji="🎴",
                style=discord.ButtonStyle.primary,
                custom_id=custom_id,
            )
        )
        self.parts = _parts(SHOW_PARTS, custom_id.removeprefix("gin:play:"))

    async def handle(self, interaction: discord.Interaction[Any], parts: re.Match[str]) -> None:
        await interaction.response.launch_activity()


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

    async def handle(self, interaction: discord.Interaction[Any], parts: re.Match[str]) -> None:
        if parts["sort"]:
            kind, arg = "lb", parts["sort"]
        elif parts["user"]:
            kind, arg = "hist", parts["user"]
        else:
            kind, arg = "replay", parts["match"]
        await _handlers(interaction).show_page(interaction, kind, arg, int(parts["page"]))


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

    async def handle(self, interaction: discord.Interaction[Any], parts: re.Match[str]) -> None:
        table, what = int(parts["table"]), parts["what"]
        await _handlers(interaction).lobby_button(interaction, table, what)


LOBBY_PARTS = re.compile(rf"(?P<table>{ID}):(?P<what>join|team1|team2|leave|start)")


def lobby_view(table: Table) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if table.mode.team_play:
        view.add_item(LobbyButton(table.id, "team1"))
        view.add_item(LobbyButton(table.id, "team2"))
    view.add_item(LobbyButton(table.id, "join"))
    view.add_item(LobbyButton(table.id, "leave"))
    view.add_item(LobbyButton(table.id, "start"))
    return view

"""A tournament's sign-up buttons: Join, Leave and Start under its first message. Their custom
ids carry the tournament's id, so they keep working after a restart."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol, runtime_checkable

import discord
from discord.ext import commands

from bot.i18n import N_, translate
from cogs.gin.views.base import ID, _parts, _Strict

TOURNAMENT_PARTS = re.compile(rf"(?P<tournament>{ID}):(?P<what>join|leave|start)")
HANDLERS = "TournamentCog"  # the cog that implements ``TournamentHandlers``


@runtime_checkable
class TournamentHandlers(Protocol):
    """What the sign-up buttons call (looked up on the client, as ``Handlers`` are)."""

    async def tournament_button(
        self, interaction: discord.Interaction[Any], tournament_id: int, what: str
    ) -> None:
        """Join, Leave or Start under a tournament's sign-up message."""


class TournamentButton(
    _Strict,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gin:tn:(?P<rest>.*)",
):
    """Join or leave a tournament taking sign-ups, or start it (its organiser)."""

    REBUILT_WITH = (0, "join")

    LABELS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        # TRANSLATORS: a button under a tournament's sign-up: enter it.
        "join": (N_("Join"), discord.ButtonStyle.success),
        # TRANSLATORS: a button under a tournament's sign-up: leave it.
        "leave": (N_("Leave"), discord.ButtonStyle.secondary),
        # TRANSLATORS: a button under a tournament's sign-up (its organiser's).
        "start": (N_("Start"), discord.ButtonStyle.primary),
    }

    def __init__(self, tournament_id: int, what: str, *, custom_id: str | None = None) -> None:
        label, style = self.LABELS.get(what, ("?", discord.ButtonStyle.secondary))
        custom_id = custom_id or f"gin:tn:{tournament_id}:{what}"
        super().__init__(
            discord.ui.Button(label=translate(label), style=style, custom_id=custom_id)
        )
        self.parts = _parts(TOURNAMENT_PARTS, custom_id.removeprefix("gin:tn:"))

    async def handle(self, interaction: discord.Interaction[Any], parts: re.Match[str]) -> None:
        client = interaction.client
        found = client.get_cog(HANDLERS) if isinstance(client, commands.Bot) else None
        if not isinstance(found, TournamentHandlers):
            raise RuntimeError(f"no {HANDLERS} cog is loaded to handle a component")
        tournament, what = int(parts["tournament"]), parts["what"]
        await found.tournament_button(interaction, tournament, what)


def signup_view(tournament_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for what in ("join", "leave", "start"):
        view.add_item(TournamentButton(tournament_id, what))
    return view

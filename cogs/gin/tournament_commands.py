"""/gin tournament: open, join, leave, start, cancel, standings, list and organisers. A group
under /gin (where the issue's players look for it), attached by the extension's setup; each
command hands its options to the ``Tournaments`` flow."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.i18n import N_
from bot.tournaments import swiss
from bot.tournaments.settings import MAX_PLAYERS, ROUND_MINUTES, SIGNUP_MINUTES
from cogs.gin.errors import PUBLIC_ANSWER, taken
from cogs.gin.options import VARIANT_CHOICES
from cogs.gin.tournaments import Tournaments

PUBLIC = {PUBLIC_ANSWER: True}
MAX_TOURNAMENT = 2**53 - 1  # Discord's largest integer option

FORMAT_CHOICES = [
    # TRANSLATORS: a choice of option: a Swiss tournament (everyone plays every round).
    app_commands.Choice(name=N_("swiss"), value="swiss"),
    # TRANSLATORS: a choice of option: a knockout tournament (lose once and you are out).
    app_commands.Choice(name=N_("knockout"), value="knockout"),
]


class TournamentCommands(app_commands.Group):
    """The /gin tournament group; its commands are bound to it, and it to its flow."""

    def __init__(self, flow: Tournaments | None) -> None:
        super().__init__(
            name="tournament",
            description=N_("Tournaments: Swiss or knockout, each match in a thread"),
        )
        self._flow = flow

    @property
    def flow(self) -> Tournaments:
        assert self._flow is not None
        return self._flow

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        taken(interaction)
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    # --- the commands ------------------------------------------------------------------------

    @app_commands.command(
        name="open", description=N_("Open a tournament in this channel (organisers)"), extras=PUBLIC
    )
    @app_commands.describe(
        format=N_("Swiss (every round, never the same opponent twice) or knockout"),
        rounds=N_("Swiss: how many rounds (default: by the number of players)"),
        round_minutes=N_("Minutes a round may last (default 60)"),
        signup_minutes=N_("Start by itself after this many minutes (default: when started)"),
        max_players=N_("Most players who may join (default 32)"),
        duplicate=N_("Deal every match of a round the same cards"),
        target=N_("Points to win a match (default: the server's)"),
        variant=N_("Classic, Oklahoma or Hollywood (default: the server's)"),
    )
    @app_commands.choices(format=FORMAT_CHOICES, variant=VARIANT_CHOICES)
    async def open_(
        self,
        interaction: discord.Interaction[Any],
        format: Literal["swiss", "knockout"],
        rounds: app_commands.Range[int, 1, swiss.MAX_ROUNDS] | None = None,
        round_minutes: app_commands.Range[int, ROUND_MINUTES[0], ROUND_MINUTES[1]] | None = None,
        signup_minutes: app_commands.Range[int, SIGNUP_MINUTES[0], SIGNUP_MINUTES[1]] | None = None,
        max_players: app_commands.Range[int, MAX_PLAYERS[0], MAX_PLAYERS[1]] | None = None,
        duplicate: bool | None = None,
        target: app_commands.Range[int, 50, 500] | None = None,
        variant: Literal["classic", "oklahoma", "hollywood"] | None = None,
    ) -> None:
        await self.flow.open(
            interaction,
            format=format,
            rounds=rounds,
            round_minutes=round_minutes,
            signup_minutes=signup_minutes,
            max_players=max_players,
            duplicate=duplicate,
            target=target,
            variant=variant,
        )

    @app_commands.command(name="join", description=N_("Join this channel's tournament"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.join(interaction, await self.flow.here(interaction))

    @app_commands.command(
        name="leave", description=N_("Leave this channel's tournament (once started: withdraw)")
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.leave(interaction, await self.flow.here(interaction))

    @app_commands.command(
        name="start", description=N_("Start this channel's tournament (organisers)")
    )
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.start(interaction, await self.flow.here(interaction))

    @app_commands.command(
        name="cancel", description=N_("Call this channel's tournament off (organisers)")
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.cancel(interaction)

    @app_commands.command(
        name="standings", description=N_("A tournament's standings and current round")
    )
    @app_commands.describe(
        tournament=N_("Its number, as /gin tournament list shows (default: this channel's)")
    )
    async def standings(
        self,
        interaction: discord.Interaction[Any],
        tournament: app_commands.Range[int, 1, MAX_TOURNAMENT] | None = None,
    ) -> None:
        await self.flow.standings(interaction, tournament)

    @app_commands.command(name="list", description=N_("This server's tournaments, newest first"))
    async def list_(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.listing(interaction)

    @app_commands.command(
        name="organisers",
        description=N_("The role that may organise tournaments (Manage Server)"),
    )
    @app_commands.describe(role=N_("Leave out: only members with Manage Server"))
    async def organisers(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        await self.flow.organisers(interaction, role)

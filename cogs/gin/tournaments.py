"""The tournament commands and the sign-up buttons: open, join, leave, start, call off, the
standings, the server's tournaments, and who may organise.

Organisers are members with the Manage Server permission, or with the role the server named
(``/gin tournament organisers``). The tournament service decides every request (refusals
are its ``TournamentError``s, shown privately and changing nothing); ``Rounds`` shows what it
changed. Answers to the person who asked are private, in their language; what the channel
sees is in the server's.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

import discord

from bot.i18n import speaking, tr
from bot.render.common import Panel
from bot.render.tournament_records import server_tournaments_panel
from bot.render.tournaments import (
    round_panel,
    signup_panel,
    standings_panel,
)
from bot.tables import TableService
from bot.tournaments import Tournament, TournamentError, TournamentService, TournamentSettings
from bot.tournaments.settings import Format
from cogs.gin.after import After
from cogs.gin.challenges import given
from cogs.gin.errors import send, update
from cogs.gin.people import name_of
from cogs.gin.rounds import Rounds
from cogs.gin.tournament_ids import TournamentIds, ids_of
from cogs.gin.views import embed
from cogs.gin.views.tournament import signup_view

THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)
LISTED = 10  # tournaments listed by /gin tournament list


class Tournaments:
    """`/gin tournament` and the Join / Leave / Start buttons."""

    def __init__(
        self,
        tables: TableService,
        tournaments: TournamentService,
        rounds: Rounds,
        after: After,
    ) -> None:
        self.tables = tables
        self.service = tournaments
        self.rounds = rounds
        self.after = after

    # --- who may do what, and where -----------------------------------------------------------

    async def may_organise(self, interaction: discord.Interaction[Any]) -> bool:
        """Manage Server, or the server's organiser role."""
        if interaction.permissions.manage_guild:
            return True
        role = (await self.tables.server_settings(str(interaction.guild_id))).tournament_role
        roles = getattr(interaction.user, "roles", [])
        return bool(role) and any(str(r.id) == role for r in roles)

    async def _organiser(self, interaction: discord.Interaction[Any]) -> None:
        if not await self.may_organise(interaction):
            raise TournamentError(
                "Only organisers can do that: members with the Manage Server permission, or "
                "the role a server manager named with `/gin tournament organisers`."
            )

    @staticmethod
    def channel_of(interaction: discord.Interaction[Any]) -> str:
        """The tournament's channel: this one, or the one this thread is under."""
        channel = interaction.channel
        if getattr(channel, "type", None) in THREADS:
            parent = getattr(channel, "parent_id", None)
            if parent is not None:
                return str(parent)
        return str(interaction.channel_id)

    async def here(self, interaction: discord.Interaction[Any]) -> Tournament:
        """The channel's open tournament (signing up or running)."""
        found = await self.service.in_channel(self.channel_of(interaction))
        if found is None:
            raise TournamentError(
                "There is no tournament in this channel. See them all with "
                "`/gin tournament list`; an organiser opens one with `/gin tournament open`."
            )
        return found

    async def _latest_here(self, interaction: discord.Interaction[Any]) -> Tournament:
        """The channel's open tournament, else the last one it had."""
        found = await self.service.in_channel(self.channel_of(interaction))
        if found is not None:
            return found
        recent, _ = await self.service.server_tournaments(str(interaction.guild_id), LISTED)
        channel = self.channel_of(interaction)
        latest = next((t for t in recent if t.row.channel_id == channel), None)
        return latest if latest is not None else await self.here(interaction)

    async def _of_server(self, interaction: discord.Interaction[Any], number: int) -> Tournament:
        try:
            found = await self.service.get(number)
        except TournamentError:
            found = None
        if found is None or found.row.guild_id != str(interaction.guild_id):
            raise TournamentError(
                "There is no tournament #{number} in this server. `/gin tournament list` shows "
                "them.",
                number=number,
            )
        return found

    # --- opening --------------------------------------------------------------------------------

    async def open(
        self,
        interaction: discord.Interaction[Any],
        *,
        format: str,
        rounds: int | None,
        round_minutes: int | None,
        signup_minutes: int | None,
        max_players: int | None,
        duplicate: bool | None,
        target: int | None,
        variant: str | None,
    ) -> None:
        await self._organiser(interaction)
        if getattr(interaction.channel, "type", None) in THREADS:
            raise TournamentError(
                "Open a tournament in a text channel, not in a thread: its matches are played "
                "in threads of that channel."
            )
        guild_id = str(interaction.guild_id)
        server = await self.tables.server_settings(guild_id)
        rules = server.with_changes(**given(target=target, variant=variant)).rules
        settings = TournamentSettings(
            format=Format(format),
            rounds=rounds,
            round_minutes=60 if round_minutes is None else round_minutes,
            signup_minutes=signup_minutes,
            max_players=32 if max_players is None else max_players,
            duplicate=bool(duplicate),
            rules=rules,
        )
        async with self.after.flow(interaction) as flow:
            tournament = await self.service.open(
                guild_id, str(interaction.channel_id), str(interaction.user.id), settings
            )
            flow.committed(
                tr(
                    "Tournament #{number} is open, but I couldn't post it here. Players can "
                    "join with `/gin tournament join`.",
                    number=tournament.id,
                )
            )
            with speaking(await self.rounds.language(guild_id)):
                panel = signup_panel(tournament)
                view = signup_view(tournament.id)
            sent = await send(interaction, embeds=[embed(panel)], view=view, ephemeral=False)
            if sent.message_id is not None:
                message = sent.message_id

                def keep(kept: dict[str, Any]) -> None:
                    TournamentIds(kept).signup = message

                await self.service.keep(tournament.id, keep)
            self.rounds.deadline_changed.set()  # its sign-up may close by itself

    # --- signing up -------------------------------------------------------------------------------

    async def join(self, interaction: discord.Interaction[Any], tournament: Tournament) -> None:
        user = interaction.user
        name = name_of(user)
        async with self.after.flow(interaction):
            joined = await self.service.join(tournament.id, str(user.id), name)
            text = tr(
                "You're in tournament #{number}: {count} players so far. You'll be pinged in "
                "your match's thread when it starts.",
                number=joined.id,
                count=len(joined.joined),
            )
            await self._signup_changed(interaction, joined, text)

    async def leave(self, interaction: discord.Interaction[Any], tournament: Tournament) -> None:
        async with self.after.flow(interaction) as flow:
            changed = await self.service.leave(tournament.id, str(interaction.user.id))
            if tournament.state == "signup":
                text = tr(
                    "You left tournament #{number}. You can join again while sign-up is open.",
                    number=tournament.id,
                )
                await self._signup_changed(interaction, changed.tournament, text)
                return
            flow.committed(
                tr("You withdrew from the tournament."), then=partial(self.rounds.show, changed)
            )
            await send(
                interaction,
                embeds=[
                    embed(
                        # TRANSLATORS: the title of the answer to leaving a tournament.
                        Panel(
                            tr("Withdrawn"),
                            tr(
                                "You withdrew from tournament #{number}: you won't be paired "
                                "again, and your results so far stand. A match you were "
                                "playing goes to your opponent.",
                                number=tournament.id,
                            ),
                        )
                    )
                ],
            )

    async def _signup_changed(
        self, interaction: discord.Interaction[Any], tournament: Tournament, text: str
    ) -> None:
        """The sign-up message shows the players as they are; the player hears privately.
        Pressed on that message, its answer edits it (no REST call of the budget)."""
        with speaking(await self.rounds.language(tournament.row.guild_id)):
            panel = signup_panel(tournament)
            view = signup_view(tournament.id) if tournament.state == "signup" else None
        signup = ids_of(tournament).signup
        on_signup = interaction.message is not None and interaction.message.id == signup
        # TRANSLATORS: the title of the answer to joining or leaving a tournament.
        answer = [embed(Panel(tr("Sign-up"), text))]
        if on_signup:
            await update(interaction, embeds=[embed(panel)], view=view)
            await interaction.followup.send(embeds=answer, ephemeral=True)
            return
        await send(interaction, embeds=answer)
        with speaking(await self.rounds.language(tournament.row.guild_id)):
            await self.rounds.refresh_signup(tournament.id)

    # --- the organiser's -------------------------------------------------------------------------

    async def start(self, interaction: discord.Interaction[Any], tournament: Tournament) -> None:
        may = await self.may_organise(interaction)
        async with self.after.flow(interaction) as flow:
            started = await self.service.start(
                tournament.id, str(interaction.user.id), may_manage=may
            )
            flow.committed(
                tr("The tournament has started."), then=partial(self.rounds.show, started)
            )
            text = tr(
                "Tournament #{number} has started with {count} players: the first round's "
                "pairings are in the channel, and each match has a thread.",
                number=tournament.id,
                count=len(started.tournament.joined),
            )
            # TRANSLATORS: the title of the answer to starting a tournament.
            await send(interaction, embeds=[embed(Panel(tr("Started"), text))])

    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        tournament = await self.here(interaction)
        may = await self.may_organise(interaction)
        user = str(interaction.user.id)
        async with self.after.flow(interaction) as flow:
            called_off = await self.service.cancel(tournament.id, user, may_manage=may)
            flow.committed(
                tr("The tournament is called off."),
                then=partial(self.rounds.show, called_off, called_off_by=user),
            )
            text = tr("You called tournament #{number} off.", number=tournament.id)
            # TRANSLATORS: the title of the answer to calling a tournament off.
            await send(interaction, embeds=[embed(Panel(tr("Called off"), text))])

    async def organisers(
        self, interaction: discord.Interaction[Any], role: discord.Role | None
    ) -> None:
        """Name the role whose members may organise tournaments (none: Manage Server only)."""
        if not interaction.permissions.manage_guild:
            raise TournamentError(
                "Only members with the Manage Server permission can choose who organises "
                "tournaments."
            )
        chosen = "" if role is None else str(role.id)
        await self.tables.change_server_settings(str(interaction.guild_id), tournament_role=chosen)
        if role is None:
            text = tr("Only members with the Manage Server permission organise tournaments now.")
        else:
            text = tr(
                "Members with the role {role} (and those with Manage Server) organise "
                "tournaments now.",
                role=role.mention,
            )
        # TRANSLATORS: the title of the answer to choosing the organisers' role.
        await send(interaction, embeds=[embed(Panel(tr("Organisers"), text))])

    # --- looking ---------------------------------------------------------------------------------

    async def standings(self, interaction: discord.Interaction[Any], number: int | None) -> None:
        """A tournament's standings and its current round, privately: this channel's, or
        any of the server's by its number."""
        if number is not None:
            tournament = await self._of_server(interaction, number)
        else:
            tournament = await self._latest_here(interaction)
        if tournament.round == 0:
            embeds = [embed(signup_panel(tournament))]
        else:
            standings = await self.service.standings(tournament.id)
            embeds = [embed(standings_panel(tournament, standings))]
            if tournament.state == "running":
                row = tournament.round_row(tournament.round)
                deadline = None
                if row is not None and row.deadline is not None:
                    deadline = datetime.fromisoformat(row.deadline)
                threads = ids_of(tournament).threads()
                embeds.append(embed(round_panel(tournament, tournament.round, threads, deadline)))
        await send(interaction, embeds=embeds)

    async def listing(self, interaction: discord.Interaction[Any]) -> None:
        found, total = await self.service.server_tournaments(str(interaction.guild_id), LISTED)
        await send(interaction, embeds=[embed(server_tournaments_panel(found, total))])

    # --- the buttons ---------------------------------------------------------------------------

    async def button(
        self, interaction: discord.Interaction[Any], tournament_id: int, what: str
    ) -> None:
        tournament = await self._of_server(interaction, tournament_id)
        if what == "join":
            await self.join(interaction, tournament)
        elif what == "leave":
            await self.leave(interaction, tournament)
        else:
            await self.start(interaction, tournament)

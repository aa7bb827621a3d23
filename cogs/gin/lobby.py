"""Lobbies in Discord: the public message that lists the seats, its Join / Leave / Start
buttons, the commands that do the same, and practice tables filled with the bot.

The table service decides; this turns its answers into messages. The lobby message is the
table's first public message: it lists the seats while they fill, then says the match started
(or the table closed) and loses its buttons.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.gin.match import Player
from bot.gin.modes import find_mode
from bot.i18n import N_, speaking, tr, translate
from bot.pacing import Dropped
from bot.render.common import Panel
from bot.render.lobby import MODE_LABELS, LobbySeat, lobby_panel
from bot.render.table import table_panel
from bot.server_settings import ServerSettings
from bot.tables import Table, TableError, TableService
from cogs.gin.after import After, Flow
from cogs.gin.errors import send, update
from cogs.gin.origin import DISCORD
from cogs.gin.people import name_of, player_of
from cogs.gin.screens.messages import message_payload
from cogs.gin.screens.state import ScreenIds
from cogs.gin.views import embed, lobby_view

log = logging.getLogger(__name__)

# Said to the player whose press started a match when the channel refused the news.
STARTED_UNSAID = N_(
    "The match has started, but I couldn't say so here. Your hand is on its way by DM; "
    "`/gin hand` shows it here too."
)


def bot_players(me: discord.abc.User, count: int, level: str) -> list[Player]:
    """The bot's own seats: one player each, told apart by a number."""
    name = name_of(me)
    return [Player(f"bot:{i}", f"{name} {i}") for i in range(1, count + 1)]


class Lobbies:
    """Opens tables of more than two, seats people and bots, and starts them."""

    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        after: After,
    ) -> None:
        self.client = client
        self.service = service
        self.after = after
        self.screens = after.screens

    def panel(self, table: Table, state: str = "open") -> Panel:
        seats = [
            LobbySeat(s.player.name, s.team, s.bot_level, s.player.id == table.host)
            for s in table.seats
        ]
        host = f"<@{table.host}>"
        return lobby_panel(
            table.mode_name, table.size, seats, table.server, mention=host, state=state
        )

    def payload(self, table: Table) -> tuple[list[discord.Embed], discord.ui.View | None]:
        if table.is_lobby and table.is_open:
            return [embed(self.panel(table))], lobby_view(table)
        return [embed(self.panel(table, "started" if table.match else "closed"))], None

    async def open(
        self,
        interaction: discord.Interaction[Any],
        mode: str,
        server: ServerSettings,
        *,
        players: int | None,
        bots: int,
        level: str,
        team: int | None,
        practice: bool = False,
    ) -> None:
        """Open a lobby in the channel (filled with the bot at once for practice)."""
        me = self.client.user
        assert me is not None
        async with self.after.flow(interaction) as flow:
            table = await self.service.opening.open_lobby(
                str(interaction.guild_id),
                str(interaction.channel_id),
                player_of(interaction.user),
                mode,
                server,
                size=players,
                bots=bot_players(me, bots, level),
                bot_level=level,
                team=team,
                origin=DISCORD,
            )
            if table.match is not None:
                flow.committed(tr(STARTED_UNSAID), table)
            with speaking(self.screens.languages.of_channel(table)):
                embeds, view = self.payload(table)
                if practice or table.match is not None:
                    embeds.append(embed(self.started_panel(table)))
            response = await send(interaction, embeds=embeds, view=view, ephemeral=False)
            if response.message_id is not None:
                ScreenIds(table.screen_ids).challenge = response.message_id
                await self.service.save_display(table)

    async def open_table(
        self,
        interaction: discord.Interaction[Any],
        mode: str,
        players: int | None,
        bots: int,
        level: str,
        target: int | None,
        team: int | None,
    ) -> None:
        """`/gin open`: a table of more than two, waiting for its seats to fill."""
        server = await self.service.server_settings(str(interaction.guild_id))
        if target is not None:
            chosen = find_mode(mode)
            if not chosen.has_target:
                raise TableError("Elimination has no target: the last one left loses.")
            server = server.with_changes(**{chosen.target_setting: target})
        await self.open(
            interaction,
            mode,
            server,
            players=players,
            bots=bots,
            level=level,
            team=None if team is None else team - 1,
        )

    def started_panel(self, table: Table) -> Panel:
        # TRANSLATORS: what separates the names in a list of players.
        players = tr(", ").join(p.name for p in table.players)
        label = translate(MODE_LABELS[table.mode_name])
        return Panel(
            # TRANSLATORS: the title of the message that starts a table of more than two.
            tr("The match has started"),
            # TRANSLATORS: {mode} is the way of playing ("Three players", "Elimination").
            tr(
                "{mode}: {players}. Hands are on their way by DM (`/gin hand` shows yours here "
                "too); the table is below.",
                mode=label.capitalize(),
                players=players,
            ),
        )

    async def join(
        self, interaction: discord.Interaction[Any], table: Table, team: int | None
    ) -> None:
        async with self.after.flow(interaction) as flow:
            started = await self.service.opening.join(
                table, player_of(interaction.user), team, origin=DISCORD
            )
            done = tr("You took seat {seat}.", seat=len(table.seats))
            await self._changed(flow, table, started, done)

    async def leave(self, interaction: discord.Interaction[Any], table: Table) -> None:
        async with self.after.flow(interaction) as flow:
            closed = await self.service.opening.leave(
                table, str(interaction.user.id), origin=DISCORD
            )
            if closed:
                text = tr(
                    "You gave up your seat. Nobody is left at the table, so it closed and the "
                    "channel is free."
                )
            else:
                text = tr("You gave up your seat.")
            await self._changed(flow, table, False, text)

    async def start(self, interaction: discord.Interaction[Any], table: Table) -> None:
        async with self.after.flow(interaction) as flow:
            await self.service.opening.start_lobby(table, str(interaction.user.id), origin=DISCORD)
            await self._changed(flow, table, True, tr("You started the match."))

    async def button(self, interaction: discord.Interaction[Any], table_id: int, what: str) -> None:
        """Join, Join team 1/2, Leave or Start on the lobby message."""
        table = self.service.by_id(table_id)
        if table is None or not table.is_lobby:
            raise TableError(
                "This table is no longer taking seats. Open a new one with `/gin open`."
            )
        if what == "leave":
            await self.leave(interaction, table)
        elif what == "start":
            await self.start(interaction, table)
        else:
            team = {"team1": 0, "team2": 1}.get(what)
            await self.join(interaction, table, team)

    async def _changed(self, flow: Flow, table: Table, started: bool, done: str) -> None:
        """After a seat changed: the lobby message shows it, the player hears, and a match
        that started is shown everywhere."""
        interaction = flow.interaction
        if started:
            self.screens.started(table)
            flow.committed(tr(STARTED_UNSAID), table)
        with speaking(self.screens.languages.of_channel(table)):
            embeds, view = self.payload(table)
            notice = [embed(self.started_panel(table))] if started else []
        on_lobby = interaction.message is not None and interaction.message.id == (
            ScreenIds(table.screen_ids).challenge
        )
        if on_lobby:
            await update(interaction, embeds=embeds, view=view)
        else:
            await self.refresh(table, embeds, view)
        if started:
            await send(interaction, embeds=notice, ephemeral=False)
        elif not on_lobby:
            # TRANSLATORS: the title of the answer to joining or leaving a table.
            await send(interaction, embeds=[embed(Panel(tr("Seats"), done))])

    async def refresh(
        self,
        table: Table,
        embeds: list[discord.Embed] | None = None,
        view: discord.ui.View | None = None,
    ) -> None:
        """Edit the lobby message to show the table as it is now."""
        message_id = ScreenIds(table.screen_ids).challenge
        if message_id is None:
            return
        if embeds is None:
            embeds, view = self.payload(table)
        payload = message_payload(embeds, view)
        try:
            await self.screens.messenger.patch(int(table.channel_id), message_id, payload)
        except (discord.HTTPException, Dropped):
            log.info("could not update the lobby message of table %s", table.id)

    async def show(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """`/gin table`: the channel's table (or lobby), privately."""
        if table.match is None:
            if table.is_lobby:
                await send(interaction, embeds=self.payload(table)[0])
                return
            raise TableError(
                "{challenger} has challenged {opponent}; the game starts when the challenge is "
                "accepted.",
                challenger=table.challenger.name,
                opponent=table.opponent.name,
            )
        await send(interaction, embeds=[embed(table_panel(table.match))])

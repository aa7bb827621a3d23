"""Two-player matches begin here: a challenge and its answer, a rematch, a match against the
bot, and practice tables of any mode filled with the bot."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from dataclasses import replace
from typing import Any

import discord

from bot.gin.match import Player
from bot.gin.modes import find_mode
from bot.gin.settings import Variant
from bot.i18n import speaking, tr, translate
from bot.pacing import Dropped
from bot.render.challenges import challenge_panel, variant_text
from bot.render.common import Panel
from bot.server_settings import ServerSettings
from bot.tables import Status, Table, TableError, TableService
from bot.tables.events import ELSEWHERE, MatchStarted, TableClosed, TableEvent, TableOpened
from bot.tables.lobby import table_size
from bot.tables.model import COACH
from cogs.gin.after import After
from cogs.gin.errors import send, update
from cogs.gin.lobby import Lobbies
from cogs.gin.origin import DISCORD
from cogs.gin.people import name_of, only, player_of
from cogs.gin.screens.messages import message_payload, only_users
from cogs.gin.screens.state import ScreenIds
from cogs.gin.views import challenge_view, embed

log = logging.getLogger(__name__)


def given(**options: Any) -> dict[str, Any]:
    """The command options the user actually set."""
    return {name: value for name, value in options.items() if value is not None}


def lobby_size(mode: str, players: int | None) -> int:
    """Seats of a practice table: the mode's own count, or the elimination players asked."""
    return table_size(find_mode(mode), players)


class Challenges:
    """Challenges between people, matches against the bot, and their answers."""

    def __init__(
        self, client: discord.Client, service: TableService, after: After, lobbies: Lobbies
    ) -> None:
        self.client = client
        self.service = service
        self.after = after
        self.screens = after.screens
        self.lobbies = lobbies

    def _channel_language(self, table: Table) -> Any:
        """Text made in the block is for the table's channel: in its server's language."""
        return speaking(self.screens.languages.of_channel(table))

    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | discord.User,
        overrides: dict[str, Any],
        level: str | None,
    ) -> None:
        """Challenge someone (or the bot) to a two-player match in this channel."""
        me = self.client.user
        if me is not None and opponent.id == me.id:
            await self.play_the_bot(interaction, level or "normal", overrides)
            return
        if level is not None:
            raise TableError(
                "`level` is for games against me: challenge me, or use `/gin practice`."
            )
        guild_id = str(interaction.guild_id)
        server = await self.match_settings(guild_id, overrides)
        table = await self.service.opening.challenge(
            guild_id,
            str(interaction.channel_id),
            player_of(interaction.user),
            player_of(opponent),
            server,
            opponent_is_bot=opponent.bot,
            origin=DISCORD,
        )
        await self._post_challenge(interaction, table, opponent, server, set(overrides))

    async def practice(
        self,
        interaction: discord.Interaction[Any],
        level: str,
        mode: str,
        players: int | None,
        variant: str | None,
        *,
        hints: bool = False,
    ) -> None:
        """A match against the bot right now: two players, or a table of any mode;
        ``hints``: the player's hand shows the coach's suggested move (two players)."""
        if find_mode(mode).two_player_game:
            if players not in (None, 2):
                raise TableError("The two-player game seats two: leave `players` out.")
            await self.play_the_bot(interaction, level, given(variant=variant), hints=hints)
            return
        if hints:
            raise TableError(
                "The coach's hints are for the two-player game: leave `hints` out for "
                "`mode:{mode}`.",
                mode=mode,
            )
        if variant not in (None, "classic"):
            # TRANSLATORS: {variant} is Oklahoma or Hollywood; `mode:{mode}` is typed as it is.
            raise TableError(
                "{variant} is a two-player game: leave `variant` out for `mode:{mode}`, or "
                "practise it with `mode:classic`.",
                variant=variant.capitalize(),
                mode=mode,
            )
        server = await self.service.server_settings(str(interaction.guild_id))
        size = lobby_size(mode, players)
        await self.lobbies.open(
            interaction,
            mode,
            server,
            players=size,
            bots=size - 1,
            level=level,
            team=None,
            practice=True,
        )

    async def rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The result's Rematch button: the same two players, the same settings; the other
        player still accepts."""
        row = await self.service.records.match(table_id)
        user = str(interaction.user.id)
        replayable = row is not None and find_mode(row.mode).rematch_allowed
        if row is not None and replayable and row.vs_bot:
            settings = ServerSettings.from_dict(row.settings)
            await self._practice_again(
                interaction, row.challenger_id, row.channel_id, row.display, settings
            )
            return
        if row is None or not replayable or row.vs_bot or not row.opponent_id:
            raise TableError("That match can't be replayed: start one with `/gin challenge`.")
        if user not in (row.challenger_id, row.opponent_id):
            raise TableError(
                "Only the two players of that match can ask for a rematch. Start your own "
                "with `/gin challenge`."
            )
        if str(interaction.channel_id) != row.channel_id:
            raise TableError("A rematch is played where the match was: use its channel.")
        other_id = row.opponent_id if user == row.challenger_id else row.challenger_id
        guild = interaction.guild
        opponent: discord.Member | discord.User | None = (
            guild.get_member(int(other_id)) if guild is not None else None
        )
        if opponent is None:
            try:
                opponent = await self.client.fetch_user(int(other_id))
            except discord.HTTPException:
                raise TableError(
                    "I can't find your opponent any more: challenge someone with `/gin challenge`."
                ) from None
        server = ServerSettings.from_dict(row.settings)
        table = await self.service.opening.challenge(
            str(interaction.guild_id),
            str(interaction.channel_id),
            player_of(interaction.user),
            player_of(opponent),
            server,
            origin=DISCORD,
        )
        await self._post_challenge(interaction, table, opponent, server, set())

    async def _practice_again(
        self,
        interaction: discord.Interaction[Any],
        player_id: str,
        channel_id: str,
        saved: dict[str, Any],
        server: ServerSettings,
    ) -> None:
        """Play again under a practice match: its player plays the bot again at once, at the
        same level, with the same settings and hints (``saved``: the match's saved JSON)."""
        if str(interaction.user.id) != player_id:
            raise TableError(
                "Only the player of that practice match can play it again. Practise "
                "yourself with `/gin practice`."
            )
        if str(interaction.channel_id) != channel_id:
            raise TableError("A practice match is played again where it was: use its channel.")
        level = str(saved.get("bot_level") or "normal")
        await self._play_the_bot(interaction, level, {}, server, hints=bool(saved.get(COACH)))

    async def _post_challenge(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        opponent: discord.Member | discord.User,
        server: ServerSettings,
        changed: set[str],
    ) -> None:
        """The public challenge with its Accept / Decline buttons; the table is withdrawn if
        it cannot be shown."""
        with self._channel_language(table):
            panel = challenge_panel(
                interaction.user.mention, opponent.mention, server, changed=changed
            )
        try:
            response = await send(
                interaction,
                content=opponent.mention,
                embeds=[embed(panel)],
                view=challenge_view(table.id),
                ephemeral=False,
                allowed_mentions=only(opponent.id),
            )
        except BaseException:
            await self.service.opening.decline(table, table.challenger.id, origin=DISCORD)
            raise
        if response.message_id is not None:
            ScreenIds(table.screen_ids).challenge = response.message_id
            await self.service.save_display(table)

    async def match_settings(self, guild_id: str, overrides: dict[str, Any]) -> ServerSettings:
        """The server's settings with a challenge's own changes; Oklahoma's options make
        sense only with Oklahoma, so they are refused (clearly) without it."""
        server = (await self.service.server_settings(guild_id)).with_changes(**overrides)
        oklahoma_only = {"ace", "spades_double"} & set(overrides)
        if oklahoma_only and server.rules.variant is not Variant.OKLAHOMA:
            if len(oklahoma_only) == 1:
                raise TableError(
                    "`{option}` is for Oklahoma: add `variant:oklahoma`, or leave them out.",
                    option=min(oklahoma_only),
                )
            first, second = sorted(oklahoma_only)
            raise TableError(
                "`{first}` and `{second}` are for Oklahoma: add `variant:oklahoma`, or leave "
                "them out.",
                first=first,
                second=second,
            )
        return server

    async def play_the_bot(
        self,
        interaction: discord.Interaction[Any],
        level: str,
        overrides: dict[str, Any],
        *,
        hints: bool = False,
    ) -> None:
        await self._play_the_bot(interaction, level, overrides, hints=hints)

    async def _play_the_bot(
        self,
        interaction: discord.Interaction[Any],
        level: str,
        overrides: dict[str, Any],
        server: ServerSettings | None = None,
        *,
        hints: bool = False,
    ) -> None:
        """A match against the bot, at once: with the server's settings and ``overrides``,
        or with ``server``'s settings as they are (a practice match played again)."""
        me = self.client.user
        assert me is not None
        guild_id = str(interaction.guild_id)
        async with self.after.flow(interaction) as flow:
            if server is None:
                server = await self.match_settings(guild_id, overrides)
            me_player = Player(str(me.id), name_of(me))
            player = player_of(interaction.user)
            table = await self.service.opening.challenge(
                guild_id,
                str(interaction.channel_id),
                player,
                me_player,
                server,
                opponent_is_bot=True,
                bot_level=level,
                origin=DISCORD,
            )
            if hints:  # kept with the table, so a restart keeps showing them
                table.meta.coach = True
                await self.service.save_display(table)
            flow.committed(
                tr(
                    "Your practice match has started, but I couldn't say so here. Your hand is "
                    "on its way by DM; `/gin hand` shows it here too."
                ),
                table,
            )
            with self._channel_language(table):
                level_name = translate(level)  # the name of its choice (LEVEL_CHOICES)
                panel = Panel(
                    # TRANSLATORS: a title: the player, the bot and how well it plays.
                    tr(
                        "Gin Rummy · {player} vs {bot} ({level})",
                        player=player.name,
                        bot=me_player.name,
                        level=level_name,
                    ),
                    tr(
                        "{mention} plays me at the **{level}** level, first to {target}. "
                        "Your hand is on its way by DM (`/gin hand` shows it here too); the "
                        "table is below. This match counts in your stats and history, but "
                        "not on the leaderboard.",
                        mention=interaction.user.mention,
                        level=level_name,
                        target=server.rules.target,
                    ),
                )
                if hints:
                    panel = replace(
                        panel,
                        body=panel.body
                        + "\n"
                        + tr("🎓 Hints are on: on your turn, your hand shows my suggested move."),
                    )
            await send(interaction, embeds=[embed(panel)], ephemeral=False)

    async def answer(
        self, interaction: discord.Interaction[Any], table_id: int, answer: str
    ) -> None:
        """The Accept / Decline buttons on a challenge message."""
        table = self.service.by_id(table_id)
        if table is None:
            raise TableError(
                "That challenge is no longer open. Start a new one with `/gin challenge`."
            )
        if answer == "accept":
            await self.accept(interaction, table, via_button=True)
        else:
            await self.decline(interaction, table, via_button=True)

    async def accept(
        self, interaction: discord.Interaction[Any], table: Table, *, via_button: bool
    ) -> None:
        async with self.after.flow(interaction) as flow:
            await self.service.opening.accept(
                table, str(interaction.user.id), name_of(interaction.user), origin=DISCORD
            )
            self.screens.started(table)
            flow.committed(
                tr(
                    "You accepted: the match has started, but I couldn't say so here. Your hand "
                    "is on its way by DM; `/gin hand` shows it here too."
                ),
                table,
            )
            # TRANSLATORS: the title of the message that starts a challenged match.
            with self._channel_language(table):
                panel = Panel(tr("Challenge accepted"), accepted_text(table))
            if via_button:
                await update(interaction, embeds=[embed(panel)], view=None)
            else:
                await send(interaction, embeds=[embed(panel)], ephemeral=False)
                await self._close_challenge_message(table, panel)

    async def decline(
        self, interaction: discord.Interaction[Any], table: Table, *, via_button: bool
    ) -> None:
        async with self.after.flow(interaction) as flow:
            await self.service.opening.decline(table, str(interaction.user.id), origin=DISCORD)
            name = name_of(interaction.user)
            if str(interaction.user.id) == table.challenger.id:
                flow.committed(tr("You withdrew the challenge; the channel is free again."))
                with self._channel_language(table):
                    text = tr(
                        "{name} withdrew the challenge. The channel is free again.", name=name
                    )
            else:
                flow.committed(tr("You declined the challenge; the channel is free again."))
                with self._channel_language(table):
                    text = tr(
                        "{name} declined the challenge. The channel is free again.", name=name
                    )
            with self._channel_language(table):
                # TRANSLATORS: the title of the message when a challenge is withdrawn or declined.
                panel = Panel(tr("Challenge closed"), text)
            if via_button:
                await update(interaction, embeds=[embed(panel)], view=None)
            else:
                await send(interaction, embeds=[embed(panel)], ephemeral=False)
                await self._close_challenge_message(table, panel)

    def heard(self, event: TableEvent) -> Awaitable[None] | None:
        """A challenge opened or answered through another front end (the Activity's
        rematch, say): the channel shows it as a challenge made here would be, so a player
        on Discord can answer it, and its message is closed once it is answered."""
        table = event.table
        if event.origin in (DISCORD, ELSEWHERE) or not table.mode.two_player_game:
            return None
        if table.vs_bot or not self.service.shows(table):
            return None
        if isinstance(event, TableOpened) and table.status is Status.CHALLENGE:
            return self._post_challenge_here(table)
        if isinstance(event, MatchStarted | TableClosed) and ScreenIds(table.screen_ids).challenge:
            with self._channel_language(table):
                if isinstance(event, MatchStarted):
                    panel = Panel(tr("Challenge accepted"), accepted_text(table))
                else:
                    # TRANSLATORS: the title of the message when a challenge is withdrawn or
                    # declined.
                    panel = Panel(tr("Challenge closed"), tr("The channel is free again."))
            return self._close_challenge_message(table, panel)
        return None

    async def _post_challenge_here(self, table: Table) -> None:
        """The public challenge with its Accept / Decline buttons, for a challenge opened
        elsewhere (no interaction here to answer with it)."""
        challenger, opponent = table.challenger.id, table.opponent.id
        with self._channel_language(table):
            panel = challenge_panel(f"<@{challenger}>", f"<@{opponent}>", table.server)
        payload = {
            "content": f"<@{opponent}>",
            **message_payload([embed(panel)], challenge_view(table.id)),
            "allowed_mentions": only_users([opponent]),
        }
        try:
            message_id = await self.screens.messenger.send(int(table.channel_id), payload)
        except (discord.HTTPException, Dropped):
            log.info("could not post the challenge of table %s", table.id)
            return
        ScreenIds(table.screen_ids).challenge = message_id
        await self.service.save_display(table)

    async def _close_challenge_message(self, table: Table, panel: Panel) -> None:
        message_id = ScreenIds(table.screen_ids).challenge
        if message_id is None:
            return
        payload = {"content": "", **message_payload([embed(panel)], None)}
        try:
            await self.screens.messenger.patch(int(table.channel_id), message_id, payload)
        except (discord.HTTPException, Dropped):
            log.info("could not close the challenge message of table %s", table.id)


def accepted_text(table: Table) -> str:
    """The line that starts a challenged match: who plays whom, the variant when there is
    one, and where the hands are."""
    a, b = table.players
    rules = table.settings
    if rules.variant is Variant.CLASSIC:
        return tr(
            "<@{a}> vs <@{b}> — first to {target}. Your hands are on their way by DM "
            "(`/gin hand` shows yours here too); the table is below.",
            a=a.id,
            b=b.id,
            target=rules.target,
        )
    # TRANSLATORS: {variant} names the variant and its options: "Oklahoma (ace: gin only)".
    return tr(
        "<@{a}> vs <@{b}> — {variant}, first to {target}. Your hands are on their way by DM "
        "(`/gin hand` shows yours here too); the table is below.",
        a=a.id,
        b=b.id,
        variant=variant_text(rules),
        target=rules.target,
    )

"""The /gin commands and the handlers behind the buttons: thin adapters to the table service."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.gin import Card, GinError, parse_card
from bot.gin.hand import ActionKind, Phase
from bot.gin.match import Player
from bot.gin.phrase import Phrase
from bot.gin.settings import Variant
from bot.i18n import LANGUAGES, N_, speaking, tr, translate
from bot.render import (
    Panel,
    challenge_panel,
    discard_choices,
    rules_panel,
    settings_panel,
    table_panel,
    variant_text,
)
from bot.server_settings import ServerSettings
from bot.tables import Table, TableError, TableService
from cogs.gin.display import TableDisplay
from cogs.gin.errors import (
    COMMITTED,
    PUBLIC_ANSWER,
    disarm,
    funnel,
    handle_error,
    send,
    taken,
    update,
    watch,
)
from cogs.gin.languages import heard
from cogs.gin.lobby import Lobbies
from cogs.gin.moves import Moves
from cogs.gin.opponent import BotOpponent
from cogs.gin.people import name_of, only, player_of
from cogs.gin.records import RecordPages
from cogs.gin.timers import TimerRunner
from cogs.gin.views import DYNAMIC_ITEMS, challenge_view, embed

log = logging.getLogger(__name__)

# A command whose answer is public when all goes well (a watchdog deferral shows it so).
PUBLIC = {PUBLIC_ANSWER: True}

MAX_MATCH_NUMBER = 2**53 - 1  # Discord's largest integer option (its Int53Type)

# The options with a fixed set of values: the values stay what the code reads, the names are
# what Discord shows (in the reader's language, through the command translator).
Choices = list[app_commands.Choice[str]]

LEVEL_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: how well the bot plays.
    app_commands.Choice(name=N_("easy"), value="easy"),
    # TRANSLATORS: a choice of option: how well the bot plays.
    app_commands.Choice(name=N_("normal"), value="normal"),
    # TRANSLATORS: a choice of option: how well the bot plays.
    app_commands.Choice(name=N_("hard"), value="hard"),
]
VARIANT_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: the plain two-player game, no variant.
    app_commands.Choice(name=N_("classic"), value="classic"),
    # TRANSLATORS: a choice of option: the variant's name (Oklahoma Gin).
    app_commands.Choice(name=N_("oklahoma"), value="oklahoma"),
    # TRANSLATORS: a choice of option: the variant's name (Hollywood Gin, three games at once).
    app_commands.Choice(name=N_("hollywood"), value="hollywood"),
]
LANGUAGE_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: write the channel's messages in the language Discord
    # says the server prefers.
    app_commands.Choice(name=N_("the server's Discord language"), value="auto"),
    # Each language by its own name, the same in every language.
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()),
]
ACE_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: an ace upcard (Oklahoma) means gin only.
    app_commands.Choice(name=N_("gin"), value="gin"),
    # TRANSLATORS: a choice of option: an ace upcard (Oklahoma) means a 1-point knock.
    app_commands.Choice(name=N_("one"), value="one"),
]
OPEN_MODE_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: the game for three players.
    app_commands.Choice(name=N_("three"), value="three"),
    # TRANSLATORS: a choice of option: the game for two teams of two.
    app_commands.Choice(name=N_("teams"), value="teams"),
    # TRANSLATORS: a choice of option: the game where players drop out until one loses.
    app_commands.Choice(name=N_("elimination"), value="elimination"),
]
MODE_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: the two-player game.
    app_commands.Choice(name=N_("classic"), value="classic"),
    *OPEN_MODE_CHOICES,
]
SOURCE_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: draw from the stock (the face-down pile).
    app_commands.Choice(name=N_("stock"), value="stock"),
    # TRANSLATORS: a choice of option: draw from the discard pile.
    app_commands.Choice(name=N_("discard"), value="discard"),
]
NEXT_DEALER_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: the loser of a hand deals the next one.
    app_commands.Choice(name=N_("loser"), value="loser"),
    # TRANSLATORS: a choice of option: the winner of a hand deals the next one.
    app_commands.Choice(name=N_("winner"), value="winner"),
    # TRANSLATORS: a choice of option: the players take turns dealing.
    app_commands.Choice(name=N_("alternate"), value="alternate"),
]
SIT_OUT_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: three players take turns sitting out.
    app_commands.Choice(name=N_("rotate"), value="rotate"),
    # TRANSLATORS: a choice of option: the loser of a hand deals and sits out next.
    app_commands.Choice(name=N_("loser"), value="loser"),
]
SET_SUITS_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: a set may hold identical cards (several decks).
    app_commands.Choice(name=N_("any"), value="any"),
    # TRANSLATORS: a choice of option: a set's cards must all be of different suits.
    app_commands.Choice(name=N_("different"), value="different"),
]
SORT_CHOICES: Choices = [
    # TRANSLATORS: a choice of option: order the leaderboard by rating.
    app_commands.Choice(name=N_("rating"), value="rating"),
    # TRANSLATORS: a choice of option: order the leaderboard by matches won.
    app_commands.Choice(name=N_("wins"), value="wins"),
    # TRANSLATORS: a choice of option: order the leaderboard by final scores.
    app_commands.Choice(name=N_("points"), value="points"),
]


async def reply(
    interaction: discord.Interaction[Any],
    *,
    embeds: list[discord.Embed],
    view: discord.ui.View | None = None,
    ephemeral: bool = True,
) -> None:
    """Answer an interaction, or follow up if it was already answered."""
    await send(interaction, embeds=embeds, view=view, ephemeral=ephemeral)


class GinCog(commands.Cog):
    """Gin Rummy: challenges, moves, and the views that show them."""

    gin = app_commands.Group(
        name="gin", description=N_("Play Gin Rummy in this channel"), guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.service: TableService = bot.service  # type: ignore[attr-defined]
        self.display = TableDisplay(bot, self.service)
        self.timers = TimerRunner(self.service, self.display)
        delay = bot.config.bot_delay  # type: ignore[attr-defined]
        self.opponent = BotOpponent(self.service, self.display, delay)
        self.moves = Moves(self.service, self.display, self.opponent, self._activity)
        self.lobbies = Lobbies(bot, self.service, self.display, self.opponent, self._activity)
        self.opponent.on_move = self.moves.set_notes
        self.records = RecordPages(self.service, bot)
        self._in_flight: set[asyncio.Task[Any]] = set()
        self._watchdogs: set[asyncio.Task[None]] = set()

    @asynccontextmanager
    async def _activity(self) -> AsyncIterator[None]:
        """Marks work that shutdown must let finish; refuses new work once shutdown began."""
        if self.bot.closing.is_set():  # type: ignore[attr-defined]
            raise TableError("I'm restarting; try again in a few seconds. Nothing was changed.")
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._in_flight.discard(task)

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait for the moves being answered and shown to finish (called at shutdown)."""
        await self.timers.stop()
        await self.opponent.stop()
        await self.display.stop()
        current = asyncio.current_task()
        pending = {t for t in self._in_flight if t is not current and not t.done()}
        if pending:
            _, late = await asyncio.wait(pending, timeout=timeout)
            for task in late:
                log.warning("still busy at shutdown: %s", task.get_stack(limit=8))

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.display.recovering(self.service.tables())
        self.timers.start()

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Every /gin command runs in a server channel: Discord hides them in DMs, but a
        command that arrives from a DM anyway is refused, not run. The command answers in
        the language of the player's Discord."""
        taken(interaction)
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    def _channel_language(self, table: Table) -> contextlib.AbstractContextManager[str]:
        """Text made in the block is for the table's channel: in its server's language."""
        return speaking(self.display.languages.of_channel(table))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        heard(interaction)  # the watchdog's answer, if it must give one, in their language
        watch(interaction, self._watchdogs)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        await self.timers.stop()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # Messages may lag behind the state if the bot stopped between a commit and an edit.
        if self.bot.closing.is_set():  # type: ignore[attr-defined]
            return
        async with self._activity():
            for table in self.service.tables():
                if table.match is not None and not self.bot.closing.is_set():  # type: ignore[attr-defined]
                    await self.display.sync(table)
                    self.opponent.nudge(table)

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await handle_error(interaction, error)
        disarm(interaction)

    @commands.Cog.listener()
    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: object
    ) -> None:
        disarm(interaction)

    # --- challenges -----------------------------------------------------------------------

    @gin.command(
        name="challenge",
        description=N_("Challenge someone to a match in this channel"),
        extras=PUBLIC,
    )
    @app_commands.describe(
        opponent=N_("Who to play"),
        target=N_("Points to win (server default if left out)"),
        gin_bonus=N_("Bonus for going gin"),
        undercut_bonus=N_("Bonus for an undercut"),
        big_gin=N_("Allow Big Gin (all 11 cards melded)"),
        level=N_("How well I play, when you challenge me (default normal)"),
        variant=N_(
            "Classic, Oklahoma (the upcard sets the knock limit) or Hollywood (three games)"
        ),
        ace=N_("Oklahoma: an ace upcard means gin only (default) or a 1-point knock"),
        spades_double=N_("Oklahoma: a spade upcard doubles the hand's score"),
    )
    @app_commands.choices(level=LEVEL_CHOICES, variant=VARIANT_CHOICES, ace=ACE_CHOICES)
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | discord.User,
        target: app_commands.Range[int, 50, 500] | None = None,
        gin_bonus: app_commands.Range[int, 0, 50] | None = None,
        undercut_bonus: app_commands.Range[int, 0, 50] | None = None,
        big_gin: bool | None = None,
        level: Literal["easy", "normal", "hard"] | None = None,
        variant: Literal["classic", "oklahoma", "hollywood"] | None = None,
        ace: Literal["gin", "one"] | None = None,
        spades_double: bool | None = None,
    ) -> None:
        overrides = _given(
            target=target,
            gin_bonus=gin_bonus,
            undercut_bonus=undercut_bonus,
            big_gin=big_gin,
            variant=variant,
            ace=ace,
            spades_double=spades_double,
        )
        me = self.bot.user
        if me is not None and opponent.id == me.id:
            await self._play_the_bot(interaction, level or "normal", overrides)
            return
        if level is not None:
            raise TableError(
                "`level` is for games against me: challenge me, or use `/gin practice`."
            )
        guild_id = str(interaction.guild_id)
        server = await self._match_settings(guild_id, overrides)
        table = await self.service.challenge(
            guild_id,
            str(interaction.channel_id),
            player_of(interaction.user),
            player_of(opponent),
            server,
            opponent_is_bot=opponent.bot,
        )
        await self._post_challenge(interaction, table, opponent, server, set(overrides))

    async def rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The result's Rematch button: the same two players, the same settings; the other
        player still accepts."""
        row = await self.service.store.get_table(table_id)
        user = str(interaction.user.id)
        if row is None or row.mode != "classic" or row.vs_bot or not row.opponent_id:
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
                opponent = await self.bot.fetch_user(int(other_id))
            except discord.HTTPException:
                raise TableError(
                    "I can't find your opponent any more: challenge someone with `/gin challenge`."
                ) from None
        server = ServerSettings.from_dict(row.settings)
        table = await self.service.challenge(
            str(interaction.guild_id),
            str(interaction.channel_id),
            player_of(interaction.user),
            player_of(opponent),
            server,
        )
        await self._post_challenge(interaction, table, opponent, server, set())

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
            await self.service.decline(table, table.challenger.id)
            raise
        if response.message_id is not None:
            table.display["challenge"] = response.message_id
            await self.service.save_display(table)

    @gin.command(
        name="practice", description=N_("Play a match against me, right now"), extras=PUBLIC
    )
    @app_commands.describe(
        level=N_("How well I play (default normal)"),
        mode=N_("Two players (default), three, two teams of two, or elimination"),
        players=N_("Elimination: how many seats, you included (default 6)"),
        variant=N_("Two players: classic, Oklahoma or Hollywood (default: the server's)"),
    )
    @app_commands.choices(level=LEVEL_CHOICES, mode=MODE_CHOICES, variant=VARIANT_CHOICES)
    async def practice(
        self,
        interaction: discord.Interaction[Any],
        level: Literal["easy", "normal", "hard"] = "normal",
        mode: Literal["classic", "three", "teams", "elimination"] = "classic",
        players: app_commands.Range[int, 2, 14] | None = None,
        variant: Literal["classic", "oklahoma", "hollywood"] | None = None,
    ) -> None:
        if mode == "classic":
            if players not in (None, 2):
                raise TableError("The two-player game seats two: leave `players` out.")
            await self._play_the_bot(interaction, level, _given(variant=variant))
            return
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

    # --- tables of more than two -----------------------------------------------------------

    @gin.command(
        name="open",
        description=N_("Open a table here: three, two teams, or elimination"),
        extras=PUBLIC,
    )
    @app_commands.describe(
        mode=N_("Three players, two teams of two, or elimination (2 to 14)"),
        players=N_("Elimination: how many seats (2-14, default 6)"),
        bots=N_("How many seats I fill myself (default none)"),
        level=N_("How well I play in my seats (default normal)"),
        target=N_("Points to win (three players) or the team target (teams)"),
        team=N_("Teams: the side you want (1 or 2); leave out to let the cut decide"),
    )
    @app_commands.choices(mode=OPEN_MODE_CHOICES, level=LEVEL_CHOICES)
    async def open_table(
        self,
        interaction: discord.Interaction[Any],
        mode: Literal["three", "teams", "elimination"],
        players: app_commands.Range[int, 2, 14] | None = None,
        bots: app_commands.Range[int, 0, 13] = 0,
        level: Literal["easy", "normal", "hard"] = "normal",
        target: app_commands.Range[int, 50, 500] | None = None,
        team: app_commands.Range[int, 1, 2] | None = None,
    ) -> None:
        server = await self.service.server_settings(str(interaction.guild_id))
        if target is not None:
            if mode == "elimination":
                raise TableError("Elimination has no target: the last one left loses.")
            server = server.with_changes(**{"team_target" if mode == "teams" else "target": target})
        await self.lobbies.open(
            interaction,
            mode,
            server,
            players=players,
            bots=bots,
            level=level,
            team=None if team is None else team - 1,
        )

    @gin.command(name="join", description=N_("Take a seat at the table open in this channel"))
    @app_commands.describe(team=N_("Teams: the side you want (1 or 2); leave out for the cut"))
    async def join(
        self,
        interaction: discord.Interaction[Any],
        team: app_commands.Range[int, 1, 2] | None = None,
    ) -> None:
        table = self.service.require_table(str(interaction.channel_id))
        await self.lobbies.join(interaction, table, None if team is None else team - 1)

    @gin.command(name="leave", description=N_("Give up your seat at the table open here"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.require_table(str(interaction.channel_id))
        await self.lobbies.leave(interaction, table)

    @gin.command(
        name="start", description=N_("Start the table open here (its host only)"), extras=PUBLIC
    )
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.require_table(str(interaction.channel_id))
        await self.lobbies.start(interaction, table)

    async def lobby_button(
        self, interaction: discord.Interaction[Any], table_id: int, what: str
    ) -> None:
        await self.lobbies.button(interaction, table_id, what)

    async def _match_settings(self, guild_id: str, overrides: dict[str, Any]) -> ServerSettings:
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

    async def _play_the_bot(
        self, interaction: discord.Interaction[Any], level: str, overrides: dict[str, Any]
    ) -> None:
        me = self.bot.user
        assert me is not None
        guild_id = str(interaction.guild_id)
        async with self._activity():
            server = await self._match_settings(guild_id, overrides)
            me_player = Player(str(me.id), name_of(me))
            player = player_of(interaction.user)
            table = await self.service.challenge(
                guild_id,
                str(interaction.channel_id),
                player,
                me_player,
                server,
                opponent_is_bot=True,
                bot_level=level,
            )
            interaction.extras[COMMITTED] = tr(
                "Your practice match has started, but I couldn't say so here. Your hand is "
                "on its way by DM; `/gin hand` shows it here too."
            )
            try:
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
                await send(interaction, embeds=[embed(panel)], ephemeral=False)
            finally:
                await self.display.sync(table)
                self.opponent.nudge(table)

    @gin.command(
        name="accept", description=N_("Accept the challenge in this channel"), extras=PUBLIC
    )
    async def accept(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.require_table(str(interaction.channel_id))
        await self._accept(interaction, table, via_button=False)

    @gin.command(
        name="decline", description=N_("Decline the challenge in this channel"), extras=PUBLIC
    )
    async def decline(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.require_table(str(interaction.channel_id))
        await self._decline(interaction, table, via_button=False)

    async def answer_challenge(
        self, interaction: discord.Interaction[Any], table_id: int, answer: str
    ) -> None:
        """The Accept / Decline buttons on a challenge message."""
        async with funnel(interaction):
            table = self.service.by_id(table_id)
            if table is None:
                raise TableError(
                    "That challenge is no longer open. Start a new one with `/gin challenge`."
                )
            if answer == "accept":
                await self._accept(interaction, table, via_button=True)
            else:
                await self._decline(interaction, table, via_button=True)

    async def _accept(
        self, interaction: discord.Interaction[Any], table: Table, *, via_button: bool
    ) -> None:
        async with self._activity():
            await self.service.accept(table, str(interaction.user.id), name_of(interaction.user))
            self.display.started(table)
            interaction.extras[COMMITTED] = tr(
                "You accepted: the match has started, but I couldn't say so here. Your hand is "
                "on its way by DM; `/gin hand` shows it here too."
            )
            try:
                # TRANSLATORS: the title of the message that starts a challenged match.
                with self._channel_language(table):
                    panel = Panel(tr("Challenge accepted"), _accepted_text(table))
                if via_button:
                    await update(interaction, embeds=[embed(panel)], view=None)
                else:
                    await send(interaction, embeds=[embed(panel)], ephemeral=False)
                    await self._close_challenge_message(table, panel)
            finally:
                await self.display.sync(table)
                self.opponent.nudge(table)

    async def _decline(
        self, interaction: discord.Interaction[Any], table: Table, *, via_button: bool
    ) -> None:
        await self.service.decline(table, str(interaction.user.id))
        name = name_of(interaction.user)
        if str(interaction.user.id) == table.challenger.id:
            interaction.extras[COMMITTED] = tr(
                "You withdrew the challenge; the channel is free again."
            )
            with self._channel_language(table):
                text = tr("{name} withdrew the challenge. The channel is free again.", name=name)
        else:
            interaction.extras[COMMITTED] = tr(
                "You declined the challenge; the channel is free again."
            )
            with self._channel_language(table):
                text = tr("{name} declined the challenge. The channel is free again.", name=name)
        with self._channel_language(table):
            # TRANSLATORS: the title of the message when a challenge is withdrawn or declined.
            panel = Panel(tr("Challenge closed"), text)
        if via_button:
            await update(interaction, embeds=[embed(panel)], view=None)
        else:
            await send(interaction, embeds=[embed(panel)], ephemeral=False)
            await self._close_challenge_message(table, panel)

    async def _close_challenge_message(self, table: Table, panel: Panel) -> None:
        message_id = table.display.get("challenge")
        if message_id is None:
            return
        channel = self.bot.get_partial_messageable(int(table.channel_id))
        try:
            await channel.get_partial_message(message_id).edit(
                content=None, embed=embed(panel), view=None
            )
        except discord.HTTPException:
            log.info("could not close the challenge message of table %s", table.id)

    # --- moves ----------------------------------------------------------------------------

    @gin.command(name="draw", description=N_("Draw a card from the stock or the discard pile"))
    @app_commands.describe(source=N_("Where to draw from"))
    @app_commands.choices(source=SOURCE_CHOICES)
    async def draw(
        self, interaction: discord.Interaction[Any], source: Literal["stock", "discard"]
    ) -> None:
        kind = ActionKind.DRAW_STOCK if source == "stock" else ActionKind.DRAW_DISCARD
        await self._command_move(interaction, kind, None)

    @gin.command(name="pass", description=N_("Pass on the upcard at the start of a hand"))
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        await self._command_move(interaction, ActionKind.PASS, None)

    @gin.command(name="discard", description=N_("Discard a card from your hand"))
    @app_commands.describe(card=N_("The card to discard, e.g. 10♥, Th, qs"))
    async def discard(self, interaction: discord.Interaction[Any], card: str) -> None:
        await self._command_move(interaction, ActionKind.DISCARD, card)

    @gin.command(name="knock", description=N_("Knock (or go gin) by discarding a card face down"))
    @app_commands.describe(card=N_("The card to discard face down; leave out to declare Big Gin"))
    async def knock(self, interaction: discord.Interaction[Any], card: str | None = None) -> None:
        if card is None:
            await self._command_move(interaction, ActionKind.BIG_GIN, None)
            return
        await self._command_move(interaction, ActionKind.KNOCK, card)

    @discard.autocomplete("card")
    @knock.autocomplete("card")
    async def card_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        table = self.service.in_channel(str(interaction.channel_id))
        if table is None or table.match is None:
            return []
        seat = table.seat_of(str(interaction.user.id))
        if seat is None:
            return []
        hand = table.match.board_of(seat)
        if hand is None:
            return []
        held = Counter(hand.hands.get(seat, []))
        cards = sorted(held)  # a card held twice is offered once, marked ×2
        knocking = interaction.command is not None and interaction.command.name == "knock"
        left: dict[Card, int] = {}
        if hand.phase is Phase.DISCARD and hand.turn == seat:
            for card, deadwood, can_knock in discard_choices(hand, seat):
                if not knocking or can_knock:
                    left[card] = deadwood
        if knocking and hand.phase is Phase.DISCARD and hand.turn == seat:
            cards = [c for c in cards if c in left]  # only cards that allow a knock
        typed = "".join(current.split()).lower()
        if typed.startswith("t"):
            typed = "10" + typed[1:]  # T means ten
        exact: Card | None = None
        if len(typed) >= 2:
            try:
                exact = parse_card(typed)
            except GinError:
                exact = None
        choices = []
        for card in cards:
            name = str(card)
            if typed and card != exact and not name.lower().startswith(typed):
                continue
            label = name + (f" ×{held[card]}" if held[card] > 1 else "")
            if card in left:
                # TRANSLATORS: a card offered in the card menu of /gin discard or /gin knock:
                # {card} is its name (10♥, or 10♥ ×2 when held twice).
                label = tr("{card} (leaves deadwood {deadwood})", card=label, deadwood=left[card])
            choices.append(app_commands.Choice(name=label, value=name))
        return choices[:25]

    async def _command_move(
        self, interaction: discord.Interaction[Any], kind: ActionKind, card_text: str | None
    ) -> None:
        await self.moves.by_command(interaction, kind, card_text)

    # --- looking ----------------------------------------------------------------------------

    @gin.command(name="hand", description=N_("Show your hand privately and send it again by DM"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.require_table(str(interaction.channel_id))
        await self.show_hand(interaction, table)

    async def show_hand_of_table(
        self, interaction: discord.Interaction[Any], table_id: int
    ) -> None:
        """The public table's Show my hand button."""
        table = self.service.by_id(table_id)
        if table is None or not table.is_open or str(interaction.channel_id) != table.channel_id:
            raise TableError(
                "That table is closed. `/gin table` shows what is being played in a channel."
            )
        await self.show_hand(interaction, table)

    async def show_hand(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """The player's hand in a private reply with its live buttons, and again by DM."""
        seat = table.seat_of(str(interaction.user.id))
        if seat is None or table.match is None:
            if seat is None:
                raise TableError(
                    "You have no hand here: you're not playing at this table. Watch it with "
                    "`/gin table`, or start your own game with `/gin challenge`."
                )
            if table.is_lobby:
                raise TableError(
                    "The game hasn't started: the table is still filling its seats. Your hand "
                    "comes by DM when it starts."
                )
            raise TableError(
                "The game hasn't started: the challenge is waiting for an answer "
                "(`/gin accept` or `/gin decline`)."
            )
        if table.match.board_of(seat) is None:
            raise _refusal(table.match.mode.not_playing(table.match, seat))
        rendered = self.display.private_hand(table, seat)
        await reply(interaction, embeds=rendered.embeds, view=rendered.view)
        self.display.shown_privately(table, seat, interaction, rendered.embeds, rendered.view)
        try:
            await self.display.send_private(table, seat, again=True)
        except Exception as error:  # the reply above already shows the hand
            log.warning("could not DM the hand again at table %s: %r", table.id, error)
        await self.service.save_display(table)

    @gin.command(name="table", description=N_("Show this channel's table privately"))
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.require_table(str(interaction.channel_id))
        if table.match is None:
            if table.is_lobby:
                await reply(interaction, embeds=self.lobbies.payload(table)[0])
                return
            raise TableError(
                "{challenger} has challenged {opponent}; the game starts when the challenge is "
                "accepted.",
                challenger=table.challenger.name,
                opponent=table.opponent.name,
            )
        await reply(interaction, embeds=[embed(table_panel(table.match))])

    @gin.command(name="resign", description=N_("Concede the match in this channel"))
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        async with self._activity():
            table = self.service.require_table(str(interaction.channel_id))
            if table.is_lobby:
                raise TableError(
                    "The match hasn't started: to give up your seat, use `/gin leave`."
                )
            result = await self.service.resign(table, str(interaction.user.id))
            if result is None:  # elimination: out at once, the others play on
                text = tr("You left the match, placed below everyone still in; the others play on.")
            elif table.mode_name == "teams":
                text = tr("The match is over: your team loses it.")
            else:
                text = tr("The match is over.")
            # TRANSLATORS: {outcome} is one of the sentences about what resigning did.
            interaction.extras[COMMITTED] = tr("You resigned. {outcome}", outcome=text)
            try:
                # TRANSLATORS: the title of the answer to /gin resign.
                panel = Panel(tr("You resigned"), text)
                await reply(interaction, embeds=[embed(panel)])
            finally:
                await self.display.sync(table)
                self.opponent.nudge(table)

    @gin.command(name="rules", description=N_("A short summary of the rules at this table"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.in_channel(str(interaction.channel_id))
        if table is not None:
            settings = table.settings
        else:
            settings = (await self.service.server_settings(str(interaction.guild_id))).rules
        await reply(interaction, embeds=[embed(rules_panel(settings))])

    # --- moderation and server settings ---------------------------------------------------

    @gin.command(
        name="end",
        description=N_("Close this channel's table with no result (moderators)"),
        extras=PUBLIC,
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        if not interaction.permissions.manage_messages:
            raise TableError(
                "Only members who can manage messages in this channel can end a table. "
                "Players can leave a match with `/gin resign`."
            )
        async with self._activity():
            table = self.service.require_table(str(interaction.channel_id))
            await self.service.end(table)
            with self._channel_language(table):
                text = tr(
                    "{moderator} closed this table. The match between <@{challenger}> and "
                    "<@{opponent}> ends with no result.",
                    moderator=name_of(interaction.user),
                    challenger=table.challenger.id,
                    opponent=table.opponent.id,
                )
            interaction.extras[COMMITTED] = tr("The table is closed, with no result.")
            try:
                # TRANSLATORS: the title of the message when a moderator ends a table.
                panel = Panel(tr("Table closed"), text)
                await reply(interaction, embeds=[embed(panel)], ephemeral=False)
            finally:
                await self.display.close(table, text)

    settings_group = app_commands.Group(
        name="settings", description=N_("This server's Gin Rummy settings"), parent=gin
    )

    @settings_group.command(name="show", description=N_("Show this server's Gin Rummy settings"))
    async def settings_show(self, interaction: discord.Interaction[Any]) -> None:
        server = await self.service.server_settings(str(interaction.guild_id))
        await reply(interaction, embeds=[embed(settings_panel(server))])

    @settings_group.command(
        name="set", description=N_("Change this server's settings (Manage Server)")
    )
    @app_commands.describe(
        target=N_("Points to win a match"),
        gin_bonus=N_("Bonus for going gin"),
        undercut_bonus=N_("Bonus for an undercut"),
        big_gin=N_("Allow Big Gin (all 11 cards melded)"),
        big_gin_bonus=N_("Bonus for Big Gin"),
        knock_limit=N_("Most deadwood you may knock with (0: gin only)"),
        void_stock=N_("Stock cards left when an unfinished hand is void"),
        next_dealer=N_("Who deals the next hand"),
        game_bonus=N_("Bonus for reaching the target"),
        box_bonus=N_("Bonus per hand won"),
        turn_minutes=N_("Minutes a player has for a turn before forfeiting"),
        challenge_minutes=N_("Minutes before an unanswered challenge expires"),
        hints=N_("Show the best discard in private hands"),
        images=N_("Attach a picture of each showdown"),
        provisional_matches=N_("Matches a player needs before being ranked"),
        sit_out=N_("Three players: who deals and sits out next (rotate, or the loser)"),
        rotate_opponents=N_("Teams: partners switch opponents every hand"),
        team_target=N_("Teams: points a team needs to win"),
        set_suits=N_("Elimination with several decks: may a set hold identical cards"),
        variant=N_("Two-player matches: classic, Oklahoma or Hollywood"),
        ace=N_("Oklahoma: an ace upcard means gin only or a 1-point knock"),
        spades_double=N_("Oklahoma: a spade upcard doubles the hand's score"),
        language=N_("The language of the channel's messages (players read their own)"),
    )
    @app_commands.choices(
        language=LANGUAGE_CHOICES,
        next_dealer=NEXT_DEALER_CHOICES,
        sit_out=SIT_OUT_CHOICES,
        set_suits=SET_SUITS_CHOICES,
        variant=VARIANT_CHOICES,
        ace=ACE_CHOICES,
    )
    async def settings_set(
        self,
        interaction: discord.Interaction[Any],
        target: app_commands.Range[int, 50, 500] | None = None,
        gin_bonus: app_commands.Range[int, 0, 50] | None = None,
        undercut_bonus: app_commands.Range[int, 0, 50] | None = None,
        big_gin: bool | None = None,
        big_gin_bonus: app_commands.Range[int, 0, 50] | None = None,
        knock_limit: app_commands.Range[int, 0, 10] | None = None,
        void_stock: app_commands.Range[int, 0, 2] | None = None,
        next_dealer: Literal["loser", "winner", "alternate"] | None = None,
        game_bonus: app_commands.Range[int, 0, 200] | None = None,
        box_bonus: app_commands.Range[int, 0, 50] | None = None,
        turn_minutes: app_commands.Range[int, 1, 1440] | None = None,
        challenge_minutes: app_commands.Range[int, 1, 1440] | None = None,
        hints: bool | None = None,
        images: bool | None = None,
        provisional_matches: app_commands.Range[int, 0, 50] | None = None,
        sit_out: Literal["rotate", "loser"] | None = None,
        rotate_opponents: bool | None = None,
        team_target: app_commands.Range[int, 50, 500] | None = None,
        set_suits: Literal["any", "different"] | None = None,
        variant: Literal["classic", "oklahoma", "hollywood"] | None = None,
        ace: Literal["gin", "one"] | None = None,
        spades_double: bool | None = None,
        language: str | None = None,
    ) -> None:
        if not interaction.permissions.manage_guild:
            raise TableError(
                "Only members with the Manage Server permission can change these settings. "
                "Anyone can see them with `/gin settings show`."
            )
        changes = _given(
            target=target,
            gin_bonus=gin_bonus,
            undercut_bonus=undercut_bonus,
            big_gin=big_gin,
            big_gin_bonus=big_gin_bonus,
            knock_limit=knock_limit,
            void_stock=void_stock,
            next_dealer=next_dealer,
            game_bonus=game_bonus,
            box_bonus=box_bonus,
            hints=hints,
            images=images,
            provisional_matches=provisional_matches,
            sit_out=sit_out,
            rotate_opponents=rotate_opponents,
            team_target=team_target,
            set_suits=set_suits,
            variant=variant,
            ace=ace,
            spades_double=spades_double,
        )
        if language is not None:
            changes["language"] = "" if language == "auto" else language
        if turn_minutes is not None:
            changes["turn_seconds"] = turn_minutes * 60
        if challenge_minutes is not None:
            changes["challenge_seconds"] = challenge_minutes * 60
        if not changes:
            raise TableError(
                "Nothing to change: pick at least one setting, e.g. `/gin settings set target:150`."
            )
        server = await self.service.change_server_settings(str(interaction.guild_id), **changes)
        panel = settings_panel(server)
        done = Panel(
            # TRANSLATORS: the title of the answer to /gin settings set.
            tr("Settings saved"),
            panel.body,
            tr("New matches use them; matches in play keep theirs."),
        )
        await reply(interaction, embeds=[embed(done)])

    # --- standings --------------------------------------------------------------------------

    @gin.command(name="leaderboard", description=N_("This server's best players"), extras=PUBLIC)
    @app_commands.describe(
        sort=N_("Order by rating (default), matches won, or final scores (with bonuses)"),
        against_bot=N_("Show records against the bot instead"),
        mode=N_("Which way of playing (default: the two-player game)"),
    )
    @app_commands.choices(sort=SORT_CHOICES, mode=MODE_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        sort: Literal["rating", "wins", "points"] = "rating",
        against_bot: bool = False,
        mode: Literal["classic", "three", "teams", "elimination"] = "classic",
    ) -> None:
        kind = "bot" if against_bot else sort
        with speaking(self.display.languages.of_server(interaction.guild_id)):  # in public
            embeds, view = await self.records.page("lb", _with_mode(kind, mode), 0, interaction)
        await reply(interaction, embeds=embeds, view=view, ephemeral=False)

    @gin.command(name="history", description=N_("A player's recent matches"))
    @app_commands.describe(
        player=N_("Whose matches (default: yours)"),
        mode=N_("Which way of playing (default: the two-player game)"),
    )
    @app_commands.choices(mode=MODE_CHOICES)
    async def history(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member | discord.User | None = None,
        mode: Literal["classic", "three", "teams", "elimination"] = "classic",
    ) -> None:
        who = player or interaction.user
        arg = _with_mode(str(who.id), mode)
        embeds, view = await self.records.page("hist", arg, 0, interaction)
        await reply(interaction, embeds=embeds, view=view)

    @gin.command(name="replay", description=N_("A match hand by hand, with each showdown"))
    @app_commands.describe(match=N_("The match number, as /gin history shows it"))
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        match: app_commands.Range[int, 1, MAX_MATCH_NUMBER],
    ) -> None:
        embeds, view = await self.records.page("replay", str(match), 0, interaction)
        await reply(interaction, embeds=embeds, view=view)

    @gin.command(
        name="stats", description=N_("Match and hand statistics for a player"), extras=PUBLIC
    )
    @app_commands.describe(
        player=N_("Whose stats (default: yours)"),
        mode=N_("Which way of playing (default: the two-player game)"),
    )
    @app_commands.choices(mode=MODE_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member | discord.User | None = None,
        mode: Literal["classic", "three", "teams", "elimination"] = "classic",
    ) -> None:
        who = player or interaction.user
        embeds = await self.records.stats(interaction, who, mode)
        await reply(interaction, embeds=embeds, ephemeral=False)

    async def show_page(
        self, interaction: discord.Interaction[Any], kind: str, arg: str, page: int
    ) -> None:
        """A page button: show that page in place of the current one."""
        async with funnel(interaction):
            embeds, view = await self.records.page(kind, arg, page, interaction)
            await update(interaction, embeds=embeds, view=view)


def _with_mode(arg: str, mode: str) -> str:
    """A record page's argument for a mode other than the two-player game."""
    return arg if mode == "classic" else f"{arg}~{mode}"


def lobby_size(mode: str, players: int | None) -> int:
    """Seats of a practice table: the mode's own count, or the elimination players asked."""
    from bot.gin.modes import find_mode
    from bot.tables.lobby import table_size

    return table_size(find_mode(mode), players)


def _given(**options: Any) -> dict[str, Any]:
    """The command options the user actually set."""
    return {name: value for name, value in options.items() if value is not None}


def _accepted_text(table: Table) -> str:
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


def _refusal(reason: str | Phrase) -> TableError:
    """A refusal in the engine's words: a Phrase keeps its template and values, so the
    edge shows it in the reader's language."""
    if isinstance(reason, Phrase):
        return TableError(reason.template, **reason.values)
    return TableError(reason)

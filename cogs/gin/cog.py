"""The /gin commands, their autocomplete and the cog's listeners: each command's body hands
its options to one flow (``Challenges``, ``Lobbies``, ``Moves``, ``RecordPages``, ...), and
the component callbacks reach those flows through the ``Handlers`` the cog implements."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.coaching import Coach
from bot.gin import Card
from bot.gin.hand import ActionKind
from bot.i18n import N_, speaking
from bot.tables import TableService
from bot.tournaments import TournamentService
from cogs.gin.after import After
from cogs.gin.challenges import Challenges, given
from cogs.gin.errors import (
    PUBLIC_ANSWER,
    disarm,
    handle_error,
    send,
    taken,
    update,
    watch,
)
from cogs.gin.languages import heard
from cogs.gin.lobby import Lobbies
from cogs.gin.moderation import Moderation
from cogs.gin.moves import Moves
from cogs.gin.options import (
    ACE_CHOICES,
    LANGUAGE_CHOICES,
    LEVEL_CHOICES,
    MAX_MATCH_NUMBER,
    MODE_CHOICES,
    NEXT_DEALER_CHOICES,
    OPEN_MODE_CHOICES,
    SET_SUITS_CHOICES,
    SIT_OUT_CHOICES,
    SORT_CHOICES,
    SOURCE_CHOICES,
    VARIANT_CHOICES,
)
from cogs.gin.records import RecordPages
from cogs.gin.reviews import Reviews
from cogs.gin.screens import Screens
from cogs.gin.settings import ServerSettingsFlow
from cogs.gin.timers import TimerRunner
from cogs.gin.views import DYNAMIC_ITEMS, Handlers

log = logging.getLogger(__name__)

# A command whose answer is public when all goes well (a watchdog deferral shows it so).
PUBLIC = {PUBLIC_ANSWER: True}
Mode = Literal["classic", "three", "teams", "elimination"]
Level = Literal["easy", "normal", "hard", "expert"]
VariantName = Literal["classic", "oklahoma", "hollywood"]


class GinCog(commands.Cog):
    """Gin Rummy: challenges, moves, tables, records and settings."""

    gin = app_commands.Group(
        name="gin", description=N_("Play Gin Rummy in this channel"), guild_only=True
    )

    def __init__(
        self,
        bot: commands.Bot,
        service: TableService,
        after: After,
        tournaments: TournamentService | None = None,
        *,
        coach: Coach,
    ) -> None:
        self.bot = bot
        self.service = service
        self.after = after
        self.screens: Screens = after.screens
        self.timers = TimerRunner(service, after)
        self.moves = Moves(service, after)
        self.lobbies = Lobbies(bot, service, after)
        self.challenges = Challenges(bot, service, after, self.lobbies)
        self.records = RecordPages(service, bot, tournaments)
        self.reviews = Reviews(service, bot, coach)
        self.settings = ServerSettingsFlow(service)
        self.moderation = Moderation(service, after, self.lobbies)
        # The services' events this layer hears (filled where the extension is set up).
        self.subscriptions: list[Callable[[], None]] = []

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait for the moves being answered and shown to finish (called at shutdown)."""
        await self.timers.stop()
        await self.after.drain(timeout)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.screens.recovering(self.service.tables())
        self.timers.start()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        while self.subscriptions:
            self.subscriptions.pop()()
        await self.timers.stop()

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Every /gin command runs in a server channel: Discord hides them in DMs, but a
        command that arrives from a DM anyway is refused, not run. The command answers in
        the language of the player's Discord."""
        taken(interaction)
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        heard(interaction)  # the watchdog's answer, if it must give one, in their language
        watch(interaction)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # Messages may lag behind the state if the bot stopped between a commit and an edit.
        closing: asyncio.Event = self.after.closing
        if closing.is_set():
            return
        async with self.after.activity():
            for table in self.service.tables():
                if table.match is not None and not closing.is_set():
                    await self.after.changed(table)

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

    # --- the handlers behind the buttons (``views.Handlers``) -------------------------------

    async def move(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        move: int,
        kind: ActionKind,
        card: Card | None,
    ) -> None:
        await self.moves.by_panel(interaction, table_id, move, kind, card)

    async def play_here(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        await self.moves.play_here(interaction, table_id)

    async def answer_challenge(
        self, interaction: discord.Interaction[Any], table_id: int, answer: str
    ) -> None:
        await self.challenges.answer(interaction, table_id, answer)

    async def rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        await self.challenges.rematch(interaction, table_id)

    async def show_hand_of_table(
        self, interaction: discord.Interaction[Any], table_id: int
    ) -> None:
        await self.moves.show_hand_of_table(interaction, table_id)

    async def show_page(
        self, interaction: discord.Interaction[Any], kind: str, arg: str, page: int
    ) -> None:
        """A page button: show that page in place of the current one."""
        embeds, view = await self.records.page(kind, arg, page, interaction)
        await update(interaction, embeds=embeds, view=view)

    async def review(
        self, interaction: discord.Interaction[Any], table_id: int, hand: int, board: int
    ) -> None:
        await self.reviews.review(interaction, table_id, hand, board)

    async def lobby_button(
        self, interaction: discord.Interaction[Any], table_id: int, what: str
    ) -> None:
        await self.lobbies.button(interaction, table_id, what)

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
        level: Level | None = None,
        variant: VariantName | None = None,
        ace: Literal["gin", "one"] | None = None,
        spades_double: bool | None = None,
    ) -> None:
        overrides = given(
            target=target,
            gin_bonus=gin_bonus,
            undercut_bonus=undercut_bonus,
            big_gin=big_gin,
            variant=variant,
            ace=ace,
            spades_double=spades_double,
        )
        await self.challenges.challenge(interaction, opponent, overrides, level)

    @gin.command(
        name="practice", description=N_("Play a match against me, right now"), extras=PUBLIC
    )
    @app_commands.describe(
        level=N_("How well I play (default normal)"),
        mode=N_("Two players (default), three, two teams of two, or elimination"),
        players=N_("Elimination: how many seats, you included (default 6)"),
        variant=N_("Two players: classic, Oklahoma or Hollywood (default: the server's)"),
        hints=N_("Show the coach's suggested move on your turn (default off)"),
    )
    @app_commands.choices(level=LEVEL_CHOICES, mode=MODE_CHOICES, variant=VARIANT_CHOICES)
    async def practice(
        self,
        interaction: discord.Interaction[Any],
        level: Level = "normal",
        mode: Mode = "classic",
        players: app_commands.Range[int, 2, 14] | None = None,
        variant: VariantName | None = None,
        hints: bool = False,
    ) -> None:
        await self.challenges.practice(interaction, level, mode, players, variant, hints=hints)

    @gin.command(
        name="accept", description=N_("Accept the challenge in this channel"), extras=PUBLIC
    )
    async def accept(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.require_table(str(interaction.channel_id))
        await self.challenges.accept(interaction, table, via_button=False)

    @gin.command(
        name="decline", description=N_("Decline the challenge in this channel"), extras=PUBLIC
    )
    async def decline(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.require_table(str(interaction.channel_id))
        await self.challenges.decline(interaction, table, via_button=False)

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
        level: Level = "normal",
        target: app_commands.Range[int, 50, 500] | None = None,
        team: app_commands.Range[int, 1, 2] | None = None,
    ) -> None:
        await self.lobbies.open_table(interaction, mode, players, bots, level, target, team)

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

    # --- moves ----------------------------------------------------------------------------

    @gin.command(name="draw", description=N_("Draw a card from the stock or the discard pile"))
    @app_commands.describe(source=N_("Where to draw from"))
    @app_commands.choices(source=SOURCE_CHOICES)
    async def draw(
        self, interaction: discord.Interaction[Any], source: Literal["stock", "discard"]
    ) -> None:
        kind = ActionKind.DRAW_STOCK if source == "stock" else ActionKind.DRAW_DISCARD
        await self.moves.by_command(interaction, kind, None)

    @gin.command(name="pass", description=N_("Pass on the upcard at the start of a hand"))
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        await self.moves.by_command(interaction, ActionKind.PASS, None)

    @gin.command(name="discard", description=N_("Discard a card from your hand"))
    @app_commands.describe(card=N_("The card to discard, e.g. 10♥, Th, qs"))
    async def discard(self, interaction: discord.Interaction[Any], card: str) -> None:
        await self.moves.by_command(interaction, ActionKind.DISCARD, card)

    @gin.command(name="knock", description=N_("Knock (or go gin) by discarding a card face down"))
    @app_commands.describe(card=N_("The card to discard face down; leave out to declare Big Gin"))
    async def knock(self, interaction: discord.Interaction[Any], card: str | None = None) -> None:
        if card is None:
            await self.moves.by_command(interaction, ActionKind.BIG_GIN, None)
            return
        await self.moves.by_command(interaction, ActionKind.KNOCK, card)

    @discard.autocomplete("card")
    @knock.autocomplete("card")
    async def card_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        knocking = interaction.command is not None and interaction.command.name == "knock"
        return self.moves.card_choices(interaction, current, knocking=knocking)

    # --- looking, leaving -------------------------------------------------------------------

    @gin.command(name="hand", description=N_("Show your hand privately and send it again by DM"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.require_table(str(interaction.channel_id))
        await self.moves.show_hand(interaction, table)

    @gin.command(name="table", description=N_("Show this channel's table privately"))
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        table = self.service.require_table(str(interaction.channel_id))
        await self.lobbies.show(interaction, table)

    @gin.command(name="resign", description=N_("Concede the match in this channel"))
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        await self.moves.resign(interaction)

    @gin.command(name="rules", description=N_("A short summary of the rules at this table"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await self.settings.rules(interaction)

    @gin.command(
        name="end",
        description=N_("Close this channel's table with no result (moderators)"),
        extras=PUBLIC,
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self.moderation.end(interaction)

    # --- server settings --------------------------------------------------------------------

    settings_group = app_commands.Group(
        name="settings", description=N_("This server's Gin Rummy settings"), parent=gin
    )

    @settings_group.command(name="show", description=N_("Show this server's Gin Rummy settings"))
    async def settings_show(self, interaction: discord.Interaction[Any]) -> None:
        await self.settings.show(interaction)

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
        variant: VariantName | None = None,
        ace: Literal["gin", "one"] | None = None,
        spades_double: bool | None = None,
        language: str | None = None,
    ) -> None:
        changes = given(
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
        await self.settings.change(
            interaction,
            changes,
            language=language,
            turn_minutes=turn_minutes,
            challenge_minutes=challenge_minutes,
        )

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
        mode: Mode = "classic",
    ) -> None:
        kind = "bot" if against_bot else sort
        with speaking(self.screens.languages.of_server(interaction.guild_id)):  # in public
            embeds, view = await self.records.page("lb", with_mode(kind, mode), 0, interaction)
        await send(interaction, embeds=embeds, view=view, ephemeral=False)

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
        mode: Mode = "classic",
    ) -> None:
        who = player or interaction.user
        arg = with_mode(str(who.id), mode)
        embeds, view = await self.records.page("hist", arg, 0, interaction)
        await send(interaction, embeds=embeds, view=view)

    @gin.command(name="replay", description=N_("A match hand by hand, with each showdown"))
    @app_commands.describe(match=N_("The match number, as /gin history shows it"))
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        match: app_commands.Range[int, 1, MAX_MATCH_NUMBER],
    ) -> None:
        embeds, view = await self.records.page("replay", str(match), 0, interaction)
        await send(interaction, embeds=embeds, view=view)

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
        mode: Mode = "classic",
    ) -> None:
        who = player or interaction.user
        embeds = await self.records.stats(interaction, who, mode)
        await send(interaction, embeds=embeds, ephemeral=False)


def with_mode(arg: str, mode: str) -> str:
    """A record page's argument for a mode other than the two-player game."""
    return arg if mode == "classic" else f"{arg}~{mode}"


# The components find the cog by its name (discord.py rebuilds them from their ids alone):
# mypy checks here that it has every handler they call.
IMPLEMENTS: type[Handlers] = GinCog

"""The /gin-season commands, the sign-up buttons' handler, and the tasks that keep
tournaments and seasons going (deadlines, standings posts, results of matches); the
/gin tournament commands are ``TournamentCommands``, a group this cog's flows answer.

/gin-season is a command of its own beside /gin rather than a group inside it: Discord counts
a command's names, descriptions and choices together (8,000 characters, each field in its
longest language). /gin uses some 5,600 of them and its tournament group some 1,400 more;
the season group's 1,200 would take it past the limit.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_
from bot.tables import TableService
from bot.tournaments import TournamentService
from cogs.gin.after import After
from cogs.gin.errors import PUBLIC_ANSWER, taken
from cogs.gin.options import SORT_CHOICES
from cogs.gin.rounds import DeadlineRunner, Rounds
from cogs.gin.seasons import Poster, Seasons
from cogs.gin.tournament_commands import TournamentCommands
from cogs.gin.tournaments import Tournaments
from cogs.gin.views.tournament import TournamentButton, TournamentHandlers

PUBLIC = {PUBLIC_ANSWER: True}

CADENCE_CHOICES = [
    # TRANSLATORS: a choice of option: a season lasts a calendar month.
    app_commands.Choice(name=N_("monthly"), value="monthly"),
    # TRANSLATORS: a choice of option: a season lasts a week.
    app_commands.Choice(name=N_("weekly"), value="weekly"),
    # TRANSLATORS: a choice of option: a season lasts a number of days.
    app_commands.Choice(name=N_("days"), value="days"),
]
WEEKDAY_CHOICES = [
    app_commands.Choice(name=name, value=number)
    for number, name in enumerate(
        (
            N_("Monday"),
            N_("Tuesday"),
            N_("Wednesday"),
            N_("Thursday"),
            N_("Friday"),
            N_("Saturday"),
            N_("Sunday"),
        )
    )
]
SEASON_SORT_CHOICES = [c for c in SORT_CHOICES if c.value != "rating"]


class TournamentCog(commands.Cog):
    """Tournaments in a channel, and the seasons of the server's leaderboard."""

    season = app_commands.Group(
        name="gin-season",
        description=N_("Gin Rummy seasons: the leaderboard by season, divisions, weekly posts"),
        guild_only=True,
    )

    def __init__(
        self,
        bot: commands.Bot,
        tables: TableService,
        tournaments: TournamentService,
        after: After,
    ) -> None:
        self.bot = bot
        self.rounds = Rounds(bot, tables, tournaments, after)
        self.flow = Tournaments(tables, tournaments, self.rounds, after)
        self.seasons = Seasons(tables, tournaments.seasons, self.rounds)
        self.deadlines = DeadlineRunner(self.rounds)
        self.poster = Poster(self.seasons)
        self.tables = tables
        self.commands = TournamentCommands(self.flow)  # /gin tournament, under GinCog's /gin

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TournamentButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(TournamentButton)
        await self.drain()

    async def drain(self, timeout: float = 5.0) -> None:
        """Stop the deadlines and the posts, and let the results being recorded finish."""
        await self.deadlines.stop()
        await self.poster.stop()
        await self.rounds.drain(timeout)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        taken(interaction)
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Tournaments carry on where they were (once per process), then their clocks run."""
        await self.rounds.resume()
        self.deadlines.start()
        self.poster.start()

    async def tournament_button(
        self, interaction: discord.Interaction[Any], tournament_id: int, what: str
    ) -> None:
        await self.flow.button(interaction, tournament_id, what)

    # --- /gin-season -----------------------------------------------------------------------------

    @season.command(name="show", description=N_("A season's table"), extras=PUBLIC)
    @app_commands.describe(
        season=N_("Which season (default: this one)"),
        division=N_("Which division (default: everyone)"),
        sort=N_("Order by matches won (default) or final scores"),
        page=N_("Which page (default 1)"),
    )
    @app_commands.choices(sort=SEASON_SORT_CHOICES)
    async def season_show(
        self,
        interaction: discord.Interaction[Any],
        season: str | None = None,
        division: app_commands.Range[int, 1, 10] | None = None,
        sort: Literal["wins", "points"] = "wins",
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        await self.seasons.show(interaction, season, division, sort, page)

    @season_show.autocomplete("season")
    async def season_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.seasons.choices(interaction, current)

    @season.command(name="list", description=N_("This server's seasons, newest first"))
    async def season_list(self, interaction: discord.Interaction[Any]) -> None:
        await self.seasons.listing(interaction)

    @season.command(name="schedule", description=N_("How long a season lasts (Manage Server)"))
    @app_commands.describe(
        cadence=N_("Monthly (default), weekly, or a number of days"),
        days=N_("Seasons of days: how many (1-366)"),
        start=N_("Seasons of days: the first day, as 2025-03-01"),
    )
    @app_commands.choices(cadence=CADENCE_CHOICES)
    async def season_schedule(
        self,
        interaction: discord.Interaction[Any],
        cadence: Literal["monthly", "weekly", "days"],
        days: app_commands.Range[int, 1, 366] | None = None,
        start: str | None = None,
    ) -> None:
        await self.seasons.schedule(interaction, cadence, days, start)

    @season.command(
        name="posts", description=N_("Where to post the standings weekly (Manage Server)")
    )
    @app_commands.describe(
        channel=N_("The channel (leave out to stop the posts)"),
        weekday=N_("Which day of the week (default Monday)"),
        hour=N_("At what hour, UTC (default 0)"),
    )
    @app_commands.choices(weekday=WEEKDAY_CHOICES)
    async def season_posts(
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel | None = None,
        weekday: int = 0,
        hour: app_commands.Range[int, 0, 23] = 0,
    ) -> None:
        await self.seasons.posts(interaction, channel, weekday, hour)

    @season.command(
        name="divisions", description=N_("Divisions with promotion and relegation (Manage Server)")
    )
    @app_commands.describe(
        count=N_("How many divisions (0: none)"),
        promote=N_("Players who go up at a season's end (default 2)"),
        relegate=N_("Players who go down at a season's end (default 2)"),
    )
    async def season_divisions(
        self,
        interaction: discord.Interaction[Any],
        count: app_commands.Range[int, 0, 10],
        promote: app_commands.Range[int, 0, 25] = 2,
        relegate: app_commands.Range[int, 0, 25] = 2,
    ) -> None:
        await self.seasons.divisions(interaction, count, promote, relegate)


# The sign-up buttons find this cog by its name: mypy checks here that it has their handler.
IMPLEMENTS: type[TournamentHandlers] = TournamentCog

"""Seasons on Discord: a season's table (this one or any past one, a division of it), the
server's schedule, its standings channel and divisions, and the posts made there: each week's
standings and each season's final table, made once whatever the processes.

Ratings carry across seasons; a season's table ranks the matches finished in it (see
``bot.tournaments.season_service``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from datetime import date, datetime
from typing import Any

import discord
from discord import app_commands

from bot.i18n import N_, speaking, tr, translate
from bot.pacing import Dropped
from bot.render.common import Panel
from bot.render.seasons import movements_text, season_panel, season_title, seasons_list
from bot.render.tournaments import when
from bot.tables import TableService
from bot.tournaments import Cadence, DuePost, Season, SeasonSchedule, TournamentError
from bot.tournaments.season_service import SeasonService
from bot.waiting import woken
from cogs.gin.errors import send
from cogs.gin.rounds import IDLE_WAIT, DeadlineRunner, Rounds
from cogs.gin.screens.ledger import Payload
from cogs.gin.views import embed

log = logging.getLogger(__name__)

PAGE_SIZE = 10
POSTED_ROWS = 20  # players a standings post lists (per division)
SEASONS_OFFERED = 24  # past seasons the autocomplete offers


class Seasons:
    """`/gin-season` and the standings posts."""

    def __init__(self, tables: TableService, seasons: SeasonService, rounds: Rounds) -> None:
        self.tables = tables
        self.service = seasons
        self.rounds = rounds
        self.posts_changed = asyncio.Event()  # wakes the poster

    async def _season(self, guild_id: str, key: str | None) -> Season:
        if not key:
            return await self.service.current(guild_id)
        found = await self.service.find(guild_id, key)
        if found is None:
            raise TournamentError(
                "There is no such season. Pick one from the list the `season` option offers."
            )
        return found

    async def show(
        self,
        interaction: discord.Interaction[Any],
        key: str | None,
        division: int | None,
        sort: str,
        page: int,
    ) -> None:
        """A page of a season's table (of one division), in public."""
        guild_id = str(interaction.guild_id)
        season = await self._season(guild_id, key)
        current = season == await self.service.current(guild_id)
        chosen = None if division is None else division - 1
        if chosen is not None:
            await self.service.roll_divisions(guild_id)  # a new season's, if not yet rolled on
            tables = await self.service.division_tables(guild_id, season)
            if chosen >= len(tables):
                raise TournamentError(
                    "Season {season} has no division {number}.",
                    season=season.label,
                    number=division,
                )
        server = await self.tables.server_settings(guild_id)
        rows, total = await self.service.leaderboard(
            guild_id,
            season,
            PAGE_SIZE,
            (page - 1) * PAGE_SIZE,
            sort=sort,  # type: ignore[arg-type]
            provisional_below=server.provisional_matches,
            division=chosen,
        )
        pages = max(1, -(-total // PAGE_SIZE))
        with speaking(await self.rounds.language(guild_id)):
            panel = season_panel(
                season, rows, page - 1, pages, sort, division=chosen, current=current
            )
        await send(interaction, embeds=[embed(panel)], ephemeral=False)

    async def choices(
        self, interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[str]]:
        """The server's seasons, newest first, for the `season` option."""
        found = await self.service.seasons(str(interaction.guild_id), SEASONS_OFFERED)
        typed = typed.strip().lower()
        return [
            app_commands.Choice(name=s.label, value=s.key)
            for s in found
            if typed in s.label.lower()
        ][:25]

    # --- the server's settings ----------------------------------------------------------------

    @staticmethod
    def _manager(interaction: discord.Interaction[Any]) -> None:
        if not interaction.permissions.manage_guild:
            raise TournamentError(
                "Only members with the Manage Server permission can change the seasons. "
                "Anyone can see them with `/gin-season show`."
            )

    async def schedule(
        self,
        interaction: discord.Interaction[Any],
        cadence: str,
        days: int | None,
        start: str | None,
    ) -> None:
        self._manager(interaction)
        anchor = None
        if start is not None:
            try:
                anchor = date.fromisoformat(start.strip())
            except ValueError:
                raise TournamentError(
                    "I couldn't read the start date “{value}”: write it as 2025-03-01.",
                    value=start,
                ) from None
        schedule = SeasonSchedule(Cadence(cadence), days, anchor)
        season = await self.service.set_schedule(str(interaction.guild_id), schedule)
        self.posts_changed.set()
        text = tr(
            "From now on each season is {length}. The season under way ended now; season "
            "{season} runs until {ends}.",
            length=_length(schedule),
            season=season.label,
            ends=when(season.ends, "f"),
        )
        # TRANSLATORS: the title of the answer to changing the season schedule.
        await send(interaction, embeds=[embed(Panel(tr("Seasons"), text))])

    async def posts(
        self,
        interaction: discord.Interaction[Any],
        channel: discord.abc.GuildChannel | None,
        weekday: int,
        hour: int,
    ) -> None:
        self._manager(interaction)
        guild_id = str(interaction.guild_id)
        chosen = None if channel is None else str(channel.id)
        await self.service.set_posts(guild_id, chosen, weekday=weekday, hour=hour)
        self.posts_changed.set()
        if channel is None:
            text = tr("I won't post the standings any more.")
        else:
            where, at = channel.mention, f"{hour:02d}"
            text = tr(
                "I'll post the season's standings in {channel} every {weekday} at {hour}:00 UTC, "
                "and each season's final table when it ends.",
                channel=where,
                weekday=translate(_WEEKDAYS[weekday]),
                hour=at,
            )
        # TRANSLATORS: the title of the answer to choosing the standings channel.
        await send(interaction, embeds=[embed(Panel(tr("Standings posts"), text))])

    async def divisions(
        self, interaction: discord.Interaction[Any], count: int, promote: int, relegate: int
    ) -> None:
        self._manager(interaction)
        guild_id = str(interaction.guild_id)
        config = await self.service.set_divisions(
            guild_id, count, promote=promote, relegate=relegate
        )
        if not config.divisions:
            text = tr("Seasons have no divisions now: one table for everyone.")
        else:
            season = await self.service.current(guild_id)
            tables = await self.service.division_tables(guild_id, season)
            sizes = ", ".join(str(len(t.order)) for t in tables)
            text = tr(
                "{count} divisions: at each season's end the top {promote} of a division go "
                "up and the bottom {relegate} go down. This season's players are shared by "
                "rating ({sizes}); see one with `/gin-season show division:1`.",
                count=config.divisions,
                promote=config.promote,
                relegate=config.relegate,
                sizes=sizes or "0",
            )
        # TRANSLATORS: the title of the answer to setting up divisions.
        await send(interaction, embeds=[embed(Panel(tr("Divisions"), text))])

    async def listing(self, interaction: discord.Interaction[Any]) -> None:
        found = await self.service.seasons(str(interaction.guild_id), SEASONS_OFFERED)
        # TRANSLATORS: the title of the list of a server's seasons.
        panel = Panel(
            tr("Seasons"), seasons_list(found), tr("`/gin-season show season:` shows one.")
        )
        await send(interaction, embeds=[embed(panel)])

    # --- the posts --------------------------------------------------------------------------------

    async def post_due(self, claimant: str) -> None:
        """Every standings post due in the servers this process acts for, each made once."""
        for guild_id in await self.service.posting_guilds():
            if not self.rounds.acts_for(guild_id):
                continue
            for post in await self.service.due_posts(guild_id, claimant):
                message = await self._post(post)
                if message is not None:
                    await self.service.post_made(post, claimant, str(message))

    async def _post(self, post: DuePost) -> int | None:
        """A standings post, once: a claim taken again after its process died looks first
        for the post it may have made before its id was saved."""
        with speaking(await self.rounds.language(post.guild_id)):
            embeds = await self._post_embeds(post)
        since = post.season.ends if post.kind == "final" else datetime.fromisoformat(post.slot)
        digest = hashlib.sha256(f"{post.guild_id}:{post.kind}:{post.slot}".encode()).hexdigest()
        try:
            return await self.rounds.messenger.post_once(
                int(post.channel_id),
                f"p{digest[:24]}",
                {"embeds": [e.to_dict() for e in embeds]},
                recovering=True,
                since=since,
                same=_same_post,
            )
        except (discord.HTTPException, Dropped) as error:
            log.warning(
                "could not post the %s standings of %s (%s)", post.kind, post.guild_id, error
            )
            return None

    async def _post_embeds(self, post: DuePost) -> list[discord.Embed]:
        season = post.season
        guild_id = post.guild_id
        tables = await self.service.division_tables(guild_id, season)
        final = post.kind == "final"
        heading = (
            tr("Season {season} is over: its final table.", season=season.label)
            if final
            else tr("This week's standings of season {season}.", season=season.label)
        )
        embeds = []
        if tables:
            for table in tables[:9]:
                rows = list(table.rows[:POSTED_ROWS])
                panel = season_panel(
                    season, rows, 0, 1, "wins", division=table.division, current=not final
                )
                embeds.append(embed(panel))
        else:
            rows, _ = await self.service.leaderboard(guild_id, season, POSTED_ROWS)
            embeds.append(embed(season_panel(season, rows, 0, 1, "wins", current=not final)))
        lines = [heading]
        if final and post.movements:
            lines.append(movements_text(post.movements))
        embeds.insert(0, embed(Panel(f"🏅 {season_title(season)}", "\n".join(lines))))
        return embeds


def _same_post(shown: Payload, wanted: Payload) -> bool:
    """The same standings post: its title and its first line (which post of the season it
    is: this week's standings, or the final table)."""

    def heading(embed: Payload) -> tuple[object, str]:
        return embed.get("title"), str(embed.get("description") or "").partition("\n")[0]

    return heading(shown) == heading(wanted)


_WEEKDAYS = (
    N_("Monday"),
    N_("Tuesday"),
    N_("Wednesday"),
    N_("Thursday"),
    N_("Friday"),
    N_("Saturday"),
    N_("Sunday"),
)


def _length(schedule: SeasonSchedule) -> str:
    if schedule.cadence is Cadence.MONTHLY:
        return tr("a calendar month")
    if schedule.cadence is Cadence.WEEKLY:
        return tr("a week, from Monday")
    return tr("{days} days", days=schedule.length_days)


class Poster(DeadlineRunner):
    """One task that makes the standings posts as they fall due."""

    def __init__(self, seasons: Seasons) -> None:
        super().__init__(seasons.rounds)
        self.seasons = seasons

    async def _run(self) -> None:
        wake = self.seasons.posts_changed
        while True:
            wake.clear()
            wait = IDLE_WAIT
            try:
                await self.seasons.post_due(self.claimant)
                for guild_id in await self.seasons.service.posting_guilds():
                    due = await self.seasons.service.next_post_at(guild_id)
                    if due is not None:
                        left = (due - self.seasons.service.clock()).total_seconds()
                        wait = min(wait, max(1.0, left))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the standings posts failed; trying again in a minute")
                wait = 60.0
            await woken(wake, wait)

"""The pages behind /gin leaderboard, history, replay and stats.

Kept apart from the command definitions so the cog only says which page to show and how to
reply; the reading of the store and the paging live here. A page is named by the same
(kind, arg, page) triple its Previous / Next buttons carry, so a button press rebuilds it
from the store alone.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord

from bot.emojis import CardEmojis
from bot.gin.coach import reviewable
from bot.gin.match import HandRecord
from bot.render.common import Panel
from bot.render.hand import DESCRIPTION_LIMIT
from bot.render.records import history_panel, leaderboard_panel, replay_panel, stats_panel
from bot.render.tournament_records import tournament_record, tournaments_panel
from bot.tables import TableError, TableService
from bot.tables.records import Records, TableRow
from bot.tournaments import TournamentService
from cogs.gin.people import name_of
from cogs.gin.views import add_reviews, embed, pages_view

PAGE_SIZE = 10
REPLAY_HANDS = 4  # hands per replay page, to stay well inside an embed's size
TOURNAMENTS_SHOWN = 5  # a player's latest tournaments under their history
ALL_TOURNAMENTS = 10_000  # read for a player's tournament record

Page = tuple[list[discord.Embed], discord.ui.View | None]


class RecordPages:
    """Builds record pages from the store; needs the client only to name players by id."""

    def __init__(
        self,
        service: TableService,
        client: discord.Client,
        tournaments: TournamentService | None = None,
    ) -> None:
        self.service = service
        self.client = client
        self.tournaments = tournaments

    @property
    def store(self) -> Records:
        return self.service.records

    @property
    def faces(self) -> CardEmojis:
        """The card emojis the bot has (text for any it lacks)."""
        faces = getattr(self.client, "card_emojis", None)
        return faces if isinstance(faces, CardEmojis) else CardEmojis()

    async def page(
        self, kind: str, arg: str, page: int, interaction: discord.Interaction[Any]
    ) -> Page:
        """Page `page` of a leaderboard ("lb", arg: the sort or "bot"), a player's history
        ("hist", arg: their id) or a match replay ("replay", arg: the match number), with its
        page buttons."""
        guild_id = str(interaction.guild_id)
        what, _, mode = arg.partition("~")  # "rating~teams": a mode's own page
        mode = mode or "classic"
        more: list[discord.Embed] = []
        if kind == "lb":
            panel, pages = await self._leaderboard(guild_id, what, page, mode)
        elif kind == "hist":
            panel, pages = await self._history(guild_id, what, page, interaction, mode)
            if self.tournaments is not None and mode == "classic":  # tournaments are two-player
                entries, total = await self.tournaments.player_tournaments(
                    guild_id, what, TOURNAMENTS_SHOWN
                )
                name = await self.display_name(interaction, what)
                more.append(embed(tournaments_panel(name, entries, total)))
        else:
            panel, page, pages, shown = await self._replay(guild_id, what, page)
            view = add_reviews(pages_view(kind, arg, page, pages), int(what), shown)
            return [embed(panel)], view
        return [embed(panel), *more], pages_view(kind, arg, page, pages)

    async def stats(
        self, interaction: discord.Interaction[Any], who: discord.abc.User, mode: str = "classic"
    ) -> list[discord.Embed]:
        """A player's statistics in this server: one page, no buttons."""
        stats = await self.store.player_stats(str(interaction.guild_id), str(who.id), mode)
        panel = stats_panel(name_of(who), stats, mode)
        if self.tournaments is not None and mode == "classic":  # tournaments are two-player
            entries, total = await self.tournaments.player_tournaments(
                str(interaction.guild_id), str(who.id), ALL_TOURNAMENTS
            )
            if total:
                panel = replace(panel, body=f"{panel.body}\n{tournament_record(entries, total)}")
        return [embed(panel)]

    async def _leaderboard(
        self, guild_id: str, sort: str, page: int, mode: str
    ) -> tuple[Panel, int]:
        server = await self.service.server_settings(guild_id)
        offset = page * PAGE_SIZE
        if sort == "bot":
            rows, total = await self.store.bot_records(guild_id, PAGE_SIZE, offset, mode)
        else:
            rows, total = await self.store.leaderboard(
                guild_id,
                PAGE_SIZE,
                offset,
                sort=sort,  # type: ignore[arg-type]
                provisional_below=server.provisional_matches,
                mode=mode,
            )
        pages = page_count(total)
        panel = leaderboard_panel(rows, page, pages, sort, vs_bot=sort == "bot", mode=mode)
        return panel, pages

    async def _history(
        self,
        guild_id: str,
        user_id: str,
        page: int,
        interaction: discord.Interaction[Any],
        mode: str,
    ) -> tuple[Panel, int]:
        offset = page * PAGE_SIZE
        rows, total = await self.store.history(guild_id, user_id, PAGE_SIZE, offset, mode)
        pages = page_count(total)
        name = await self.display_name(interaction, user_id)
        return history_panel(name, rows, page, pages, mode), pages

    async def _replay(
        self, guild_id: str, match: str, page: int
    ) -> tuple[Panel, int, int, list[tuple[int, int]]]:
        """The panel, the page shown (never past the last), how many pages there are, and
        the hands on it the coach can review (number, board)."""
        row = await self.store.match(int(match))
        if row is None or row.guild_id != guild_id:
            raise TableError(
                "There is no match #{match} in this server. `/gin history` lists match numbers.",
                match=match,
            )
        hands = await self.store.hands(row.id)
        pages = max(1, -(-len(hands) // REPLAY_HANDS))
        page = min(page, pages - 1)
        chunk = hands[page * REPLAY_HANDS : (page + 1) * REPLAY_HANDS]
        names = match_names(row)
        panel = replay_panel(row, names, chunk, page, pages, self.faces.card)
        if len(panel.body) > DESCRIPTION_LIMIT:  # emojis are long: text fits where they don't
            panel = replay_panel(row, names, chunk, page, pages)
        records = [HandRecord.from_dict(hand.result) for hand in chunk]
        reviews = [(r.number, r.board) for r in records if reviewable(r)]
        return panel, page, pages, reviews

    async def display_name(self, interaction: discord.Interaction[Any], user_id: str) -> str:
        """The name to head a player's history with: the caller, a member of this server, a
        user the client knows, or failing those a mention (which Discord renders itself)."""
        if user_id == str(interaction.user.id):
            return name_of(interaction.user)
        guild = interaction.guild
        member = guild.get_member(int(user_id)) if guild is not None else None
        if member is not None:
            return name_of(member)
        user = self.client.get_user(int(user_id))
        return name_of(user) if user is not None else f"<@{user_id}>"


def page_count(total: int) -> int:
    """Pages of PAGE_SIZE rows needed for `total` rows; at least one, so empty lists still
    get a page saying so."""
    return max(1, -(-total // PAGE_SIZE))


def match_names(row: TableRow) -> tuple[str, ...]:
    """The players' names in seat order as the match state holds them, else as saved with the
    challenge (a match that never started has no state), else mentions: a replay needs no
    lookups."""
    players = (row.state or {}).get("players") or []
    if players:
        return tuple(str(p["name"]) for p in players)
    names = row.display.get("names", {})
    first = names.get("0", f"<@{row.challenger_id}>")
    second = names.get("1", f"<@{row.opponent_id}>")
    return str(first), str(second)

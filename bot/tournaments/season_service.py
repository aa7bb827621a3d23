"""Seasons of a server: its schedule, the season tables (from finished matches), divisions
rolled on at each season's start, and the standings posts, each made once.

Ratings are not seasonal: they carry across seasons (the season table sorted by rating shows
the current one). A season table ranks the matches finished within the season.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Literal

from bot.i18n import N_
from bot.store.rows import CLASSIC, LeaderRow, LeaderSort
from bot.store.tournament_base import TournamentStore
from bot.store.tournament_rows import ScheduleRow, SeasonSettingsRow
from bot.tournaments import divisions
from bot.tournaments.errors import TournamentError
from bot.tournaments.seasons import (
    EPOCH,
    Cadence,
    ScheduleChange,
    Season,
    SeasonCalendar,
    SeasonSchedule,
    WeeklyPost,
    change_at,
    stamp,
)

DIVISIONS = (0, 10)
MOVING = (0, 25)
# How long a process that claimed a post has to make it before another may.
POST_HOLD = timedelta(minutes=5)
SEASONS_BY_NAME = 1000  # seasons back a season's name is looked for
# Rows read for a whole season or division table.
WHOLE_TABLE = 10_000
# Far enough ahead to mean "until now and later" in a time range.
FOREVER = datetime(9999, 1, 1, tzinfo=UTC)


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class SeasonConfig:
    """A server's season settings: its calendar, where and when standings are posted (no
    channel: no posts) and since when, its divisions (0: none)."""

    guild_id: str
    calendar: SeasonCalendar
    post_channel_id: str | None = None
    post: WeeklyPost = field(default_factory=WeeklyPost)
    posts_since: datetime | None = None
    divisions: int = 0
    promote: int = 0
    relegate: int = 0


@dataclass(frozen=True, slots=True)
class DivisionTable:
    """A division's season table: its members who played (``rows``, ranked as the
    leaderboard ranks) and those who did not (``idle``, by user id, placed after them)."""

    division: int
    rows: tuple[LeaderRow, ...]
    idle: tuple[str, ...]

    @property
    def order(self) -> list[str]:
        return [r.user_id for r in self.rows] + list(self.idle)


@dataclass(frozen=True, slots=True)
class DuePost:
    """A standings post this process claimed: the weekly standings of the season under way,
    or the final table of the season that just ended. Post it in ``channel_id``, then call
    ``SeasonService.post_made``. ``movements``: who went up and down at the season's end."""

    guild_id: str
    kind: Literal["weekly", "final"]
    slot: str
    season: Season
    channel_id: str
    movements: tuple[divisions.Movement, ...] = ()


class SeasonService:
    def __init__(self, store: TournamentStore, clock: Callable[[], datetime] = _utc_now) -> None:
        self.store = store
        self.clock = clock

    # --- settings ---------------------------------------------------------------------------

    async def config(self, guild_id: str) -> SeasonConfig:
        calendar = SeasonCalendar.of(
            [_change(row) for row in await self.store.season_schedules(guild_id)]
        )
        row = await self.store.get_season_settings(guild_id) or SeasonSettingsRow(guild_id)
        return SeasonConfig(
            guild_id=guild_id,
            calendar=calendar,
            post_channel_id=row.post_channel_id,
            post=WeeklyPost(row.post_weekday, row.post_hour),
            posts_since=_when(row.posts_since),
            divisions=row.divisions,
            promote=row.promote,
            relegate=row.relegate,
        )

    async def set_schedule(self, guild_id: str, schedule: SeasonSchedule) -> Season:
        """A new schedule from now on (the season under way ends now); the season it starts."""
        now = self.clock()
        change = change_at(schedule, now)
        await self.store.add_season_schedule(
            ScheduleRow(
                guild_id,
                stamp(change.effective_from),
                schedule.cadence.value,
                schedule.length_days,
                None if schedule.anchor is None else schedule.anchor.isoformat(),
            )
        )
        return (await self.config(guild_id)).calendar.season_of(now)

    async def set_posts(
        self, guild_id: str, channel_id: str | None, *, weekday: int = 0, hour: int = 0
    ) -> SeasonConfig:
        """Post the standings in ``channel_id`` (None: stop posting) each week on ``weekday``
        (0 is Monday) at ``hour`` UTC, and each season's final table when it ends. Posting
        starts with the next weekly slot, not with weeks gone by."""
        post = WeeklyPost(weekday, hour)
        now = stamp(self.clock())
        row = await self.store.get_season_settings(guild_id) or SeasonSettingsRow(guild_id)
        since = row.posts_since if row.post_channel_id is not None else now
        await self.store.set_season_settings(
            SeasonSettingsRow(
                guild_id,
                channel_id,
                post.weekday,
                post.hour,
                None if channel_id is None else since or now,
                row.divisions,
                row.promote,
                row.relegate,
            ),
            now,
        )
        return await self.config(guild_id)

    async def set_divisions(
        self, guild_id: str, count: int, *, promote: int = 2, relegate: int = 2
    ) -> SeasonConfig:
        """Divisions (``count``, 0 for none) with ``promote`` players going up and ``relegate``
        going down at each season's end. Turned on, the season under way is shared into
        divisions by rating."""
        _bounded(
            count,
            DIVISIONS,
            N_("There are from {low} to {high} divisions (you asked for {value})."),
        )
        _bounded(
            promote,
            MOVING,
            N_("From {low} to {high} players go up each season (you asked for {value})."),
        )
        _bounded(
            relegate,
            MOVING,
            N_("From {low} to {high} players go down each season (you asked for {value})."),
        )
        now = stamp(self.clock())
        row = await self.store.get_season_settings(guild_id) or SeasonSettingsRow(guild_id)
        await self.store.set_season_settings(
            SeasonSettingsRow(
                guild_id,
                row.post_channel_id,
                row.post_weekday,
                row.post_hour,
                row.posts_since,
                count,
                promote,
                relegate,
            ),
            now,
        )
        if count:
            await self.roll_divisions(guild_id)
        return await self.config(guild_id)

    # --- seasons ----------------------------------------------------------------------------

    async def current(self, guild_id: str) -> Season:
        return (await self.config(guild_id)).calendar.season_of(self.clock())

    async def seasons(self, guild_id: str, count: int = 12) -> list[Season]:
        """The season under way and those before it, newest first, back to the server's
        first finished match."""
        config = await self.config(guild_id)
        first = await self.store.first_result_at(guild_id)
        since = None if first is None else datetime.fromisoformat(first)
        found = config.calendar.recent(self.clock(), count, since)
        return found or [config.calendar.season_of(self.clock())]

    async def find(self, guild_id: str, key: str) -> Season | None:
        """A season by its key (as ``Season.key`` gives it, the autocomplete's value) or by
        its name as shown (``2026-12``, ``2026-W10``: a person types what they read); None
        for no such season."""
        key = key.strip()
        try:
            moment = datetime.fromisoformat(key)
        except ValueError:
            moment = None
        if moment is not None:
            season = (await self.config(guild_id)).calendar.season_of(moment)
            if season.key == key:
                return season
        named = key.upper()
        return next(
            (s for s in await self.seasons(guild_id, SEASONS_BY_NAME) if s.label.upper() == named),
            None,
        )

    async def leaderboard(
        self,
        guild_id: str,
        season: Season,
        limit: int,
        offset: int = 0,
        *,
        sort: LeaderSort = "wins",
        provisional_below: int = 0,
        mode: str = CLASSIC,
        division: int | None = None,
    ) -> tuple[list[LeaderRow], int]:
        """One page of the season's table (of one division of it)."""
        return await self.store.season_leaderboard(
            guild_id,
            stamp(season.starts),
            stamp(season.ends),
            limit,
            offset,
            sort=sort,
            provisional_below=provisional_below,
            mode=mode,
            division=None if division is None else (season.key, division),
        )

    async def division_tables(self, guild_id: str, season: Season) -> list[DivisionTable]:
        """Each division's table of the season, top division first (none without
        divisions)."""
        members = await self.store.division_members(guild_id, season.key)
        if not members:
            return []
        count = max(members.values()) + 1
        tables = []
        for number in range(count):
            rows, _ = await self.leaderboard(guild_id, season, WHOLE_TABLE, division=number)
            played = {r.user_id for r in rows}
            idle = sorted(u for u, d in members.items() if d == number and u not in played)
            tables.append(DivisionTable(number, tuple(rows), tuple(idle)))
        return tables

    async def roll_divisions(self, guild_id: str) -> bool:
        """Give the season under way its divisions if it has none yet: from the last season
        that had them, by promotion and relegation (newcomers who played in it join the
        bottom division); the first time, by rating. True for the call that wrote them."""
        config = await self.config(guild_id)
        if not config.divisions:
            return False
        now = self.clock()
        current = config.calendar.season_of(now)
        if await self.store.division_members(guild_id, current.key):
            return False
        last = await self.store.last_division_season(guild_id, current.key)
        if last is None:
            ranked, _ = await self.store.season_leaderboard(
                guild_id, stamp(EPOCH), stamp(FOREVER), WHOLE_TABLE, 0, sort="rating"
            )
            shares = divisions.initial([r.user_id for r in ranked], config.divisions)
            members = {u: d for d, users in enumerate(shares) for u in users}
        else:
            ended = config.calendar.season_of(datetime.fromisoformat(last))
            tables = await self.division_tables(guild_id, ended)
            orders = [t.order for t in tables]
            # A change in the number of divisions: the extra ones fold into the bottom one.
            while len(orders) > config.divisions:
                extra = orders.pop()
                orders[-1] = orders[-1] + extra
            while len(orders) < config.divisions:
                orders.append([])
            everyone, _ = await self.leaderboard(guild_id, ended, WHOLE_TABLE)
            moves = divisions.next_season(
                orders, config.promote, config.relegate, [r.user_id for r in everyone]
            )
            members = divisions.members(moves)
        if not members:
            return False
        return await self.store.set_division_members(guild_id, current.key, members)

    async def movements(self, guild_id: str, season: Season) -> list[divisions.Movement]:
        """Who went up, down or stayed between the last season with divisions before
        ``season`` and ``season`` itself."""
        now = await self.store.division_members(guild_id, season.key)
        last = await self.store.last_division_season(guild_id, season.key)
        was = {} if last is None else await self.store.division_members(guild_id, last)
        return [divisions.Movement(u, was.get(u), d) for u, d in sorted(now.items())]

    # --- posts ------------------------------------------------------------------------------

    async def posting_guilds(self) -> list[str]:
        return [row.guild_id for row in await self.store.posting_guilds()]

    async def next_post_at(self, guild_id: str) -> datetime | None:
        """When a post of this server may next be due: the next weekly slot or the end of
        the season under way, whichever is first; None when it posts nothing."""
        config = await self.config(guild_id)
        if config.post_channel_id is None:
            return None
        now = self.clock()
        return min(config.post.next_due(now), config.calendar.season_of(now).ends)

    async def due_posts(
        self, guild_id: str, claimant: str, hold: timedelta = POST_HOLD
    ) -> list[DuePost]:
        """The posts due now that this process (``claimant``) claimed: the final table of
        the season that ended (once, if it ended since posting was turned on) and this
        week's standings (the latest slot, if it falls in the season under way: a bot that
        was down posts once, not once per week missed). Divisions are rolled on first.
        Each is made by one process."""
        config = await self.config(guild_id)
        channel, since = config.post_channel_id, config.posts_since
        if channel is None or since is None:
            return []
        now = self.clock()
        await self.roll_divisions(guild_id)
        current = config.calendar.season_of(now)
        due: list[DuePost] = []
        ended = config.calendar.previous(current)
        if (
            ended is not None
            and ended.ends > since
            and await self._claim(guild_id, "final", ended.key, claimant, now, hold)
        ):
            moves = tuple(await self.movements(guild_id, current)) if config.divisions else ()
            due.append(DuePost(guild_id, "final", ended.key, ended, channel, moves))
        slot = config.post.due(now, since)
        # A weekly slot of a season that has ended since is not posted: its final table is.
        if (
            slot is not None
            and current.contains(slot)
            and await self._claim(guild_id, "weekly", stamp(slot), claimant, now, hold)
        ):
            due.append(DuePost(guild_id, "weekly", stamp(slot), current, channel))
        return due

    async def post_made(self, post: DuePost, claimant: str, message_id: str) -> bool:
        """Record a claimed post as made (False: the claim lapsed and another took it)."""
        return await self.store.season_post_made(
            post.guild_id, post.kind, post.slot, claimant, message_id, stamp(self.clock())
        )

    async def _claim(
        self,
        guild_id: str,
        kind: Literal["weekly", "final"],
        slot: str,
        claimant: str,
        now: datetime,
        hold: timedelta,
    ) -> bool:
        made = await self.store.get_season_post(guild_id, kind, slot)
        if made is not None and made.posted_at is not None:
            return False
        return await self.store.claim_season_post(
            guild_id, kind, slot, claimant, stamp(now), stamp(now + hold)
        )


def _change(row: ScheduleRow) -> ScheduleChange:
    anchor = None if row.anchor is None else date.fromisoformat(row.anchor)
    schedule = SeasonSchedule(Cadence(row.cadence), row.length_days, anchor)
    return ScheduleChange(datetime.fromisoformat(row.effective_from), schedule)


def _when(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _bounded(value: object, bounds: tuple[int, int], template: str) -> None:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise TournamentError(template, low=low, high=high, value=value)

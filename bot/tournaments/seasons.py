"""Seasons of a server's leaderboard, and when the weekly standings post is due.

A schedule cuts time into seasons: calendar months (the default), weeks from Monday, or a
fixed number of days counted from an anchor date, all on UTC boundaries. A server may change
its schedule: the change takes effect from that moment, so the season then under way ends
there and the new schedule's season that contains the moment begins there (both are shorter
than usual). Past seasons keep their limits, since a calendar is all of a server's changes.

A season's key is its start (ISO-8601 UTC, written as the rest of the bot writes times), so
keys never collide and order as the seasons do; its label is a short name for people
("2025-03", "2025-W10", or the start date of a season of days).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from enum import StrEnum

from bot.tournaments.errors import TournamentError

# The earliest moment: the default schedule is in effect from here.
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
SEASON_DAYS = (1, 366)


class Cadence(StrEnum):
    MONTHLY = "monthly"
    WEEKLY = "weekly"
    DAYS = "days"


@dataclass(frozen=True, slots=True)
class SeasonSchedule:
    """How long a season lasts: ``length_days`` and ``anchor`` (the first day of a season)
    only for ``DAYS``."""

    cadence: Cadence = Cadence.MONTHLY
    length_days: int | None = None
    anchor: date | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "cadence", Cadence(self.cadence))
        except ValueError:
            raise TournamentError(
                "A season is monthly, weekly or a number of days, not {value}.",
                value=self.cadence,
            ) from None
        if self.cadence is not Cadence.DAYS:
            if self.length_days is not None or self.anchor is not None:
                raise TournamentError("Only a season of days takes a length and a start date.")
            return
        low, high = SEASON_DAYS
        days = self.length_days
        if days is None or isinstance(days, bool) or not low <= days <= high:
            raise TournamentError(
                "A season lasts from {low} to {high} days (you asked for {value}).",
                low=low,
                high=high,
                value=days,
            )
        if self.anchor is None:
            object.__setattr__(self, "anchor", EPOCH.date())


@dataclass(frozen=True, slots=True)
class Season:
    """``[starts, ends)``, UTC."""

    key: str
    label: str
    starts: datetime
    ends: datetime
    cadence: Cadence

    def contains(self, moment: datetime) -> bool:
        return self.starts <= moment < self.ends


def utc(moment: datetime) -> datetime:
    """An aware UTC time; a naive one is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def stamp(moment: datetime) -> str:
    """How the bot writes a time (``datetime.isoformat`` of UTC, as the table service does),
    so the store compares seasons' limits and results' times as text."""
    return utc(moment).isoformat()


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(), tzinfo=UTC)


def natural_season(schedule: SeasonSchedule, moment: datetime) -> Season:
    """The schedule's season containing ``moment``, as if the schedule had always held."""
    moment = utc(moment)
    if schedule.cadence is Cadence.MONTHLY:
        starts = _midnight(moment.date().replace(day=1))
        year, month = divmod(starts.month, 12)
        ends = starts.replace(year=starts.year + year, month=month + 1)
        label = f"{starts:%Y-%m}"
    elif schedule.cadence is Cadence.WEEKLY:
        starts = _midnight(moment.date() - timedelta(days=moment.weekday()))
        ends = starts + timedelta(days=7)
        iso = starts.isocalendar()
        label = f"{iso.year}-W{iso.week:02d}"
    else:
        assert schedule.anchor is not None and schedule.length_days is not None
        length = timedelta(days=schedule.length_days)
        anchor = _midnight(schedule.anchor)
        starts = anchor + ((moment - anchor) // length) * length
        ends = starts + length
        label = f"{starts:%Y-%m-%d}"
    return Season(stamp(starts), label, starts, ends, schedule.cadence)


@dataclass(frozen=True, slots=True)
class ScheduleChange:
    """A schedule in effect from ``effective_from`` (a whole second, UTC) until the next
    change."""

    effective_from: datetime
    schedule: SeasonSchedule


def change_at(schedule: SeasonSchedule, moment: datetime) -> ScheduleChange:
    """The change that puts ``schedule`` in effect from ``moment``, to the second (so the
    limits it gives seasons are written like every natural one)."""
    return ScheduleChange(utc(moment).replace(microsecond=0), schedule)


@dataclass(frozen=True, slots=True)
class SeasonCalendar:
    """A server's seasons: its schedule changes in order, the monthly default before the
    first of them."""

    changes: tuple[ScheduleChange, ...] = field(default=())

    @classmethod
    def of(cls, changes: Sequence[ScheduleChange]) -> SeasonCalendar:
        return cls(tuple(sorted(changes, key=lambda c: c.effective_from)))

    def _entries(self) -> tuple[ScheduleChange, ...]:
        if self.changes and self.changes[0].effective_from <= EPOCH:
            return self.changes
        return (ScheduleChange(EPOCH, SeasonSchedule()), *self.changes)

    def season_of(self, moment: datetime) -> Season:
        """The season ``moment`` falls in, cut short where the schedule changed."""
        moment = max(utc(moment), EPOCH)
        entries = self._entries()
        starts = [c.effective_from for c in entries]
        index = bisect.bisect_right(starts, moment) - 1
        change = entries[index]
        natural = natural_season(change.schedule, moment)
        begins = max(natural.starts, change.effective_from)
        ends = natural.ends
        if index + 1 < len(entries):
            ends = min(ends, entries[index + 1].effective_from)
        return Season(stamp(begins), natural.label, begins, ends, natural.cadence)

    def previous(self, season: Season) -> Season | None:
        """The season just before ``season``; None before the first."""
        if season.starts <= EPOCH:
            return None
        return self.season_of(season.starts - timedelta(microseconds=1))

    def recent(self, moment: datetime, count: int, since: datetime | None = None) -> list[Season]:
        """Up to ``count`` seasons, the one containing ``moment`` first, going back; none
        that ended at or before ``since`` (say, the first result the server has)."""
        found: list[Season] = []
        season: Season | None = self.season_of(moment)
        while season is not None and len(found) < count:
            if since is not None and season.ends <= utc(since):
                break
            found.append(season)
            season = self.previous(season)
        return found


@dataclass(frozen=True, slots=True)
class WeeklyPost:
    """When the weekly standings post is due: each week on ``weekday`` (0 is Monday) at
    ``hour`` UTC."""

    weekday: int = 0
    hour: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.weekday, bool) or not 0 <= self.weekday <= 6:
            raise TournamentError(
                "The weekday runs from 0 (Monday) to 6 (Sunday), not {value}.",
                value=self.weekday,
            )
        if isinstance(self.hour, bool) or not 0 <= self.hour <= 23:
            raise TournamentError("The hour runs from 0 to 23 (UTC), not {value}.", value=self.hour)

    def last_due(self, moment: datetime) -> datetime:
        """The latest posting time at or before ``moment``."""
        moment = utc(moment)
        monday = _midnight(moment.date() - timedelta(days=moment.weekday()))
        slot = monday + timedelta(days=self.weekday, hours=self.hour)
        return slot if slot <= moment else slot - timedelta(days=7)

    def next_due(self, moment: datetime) -> datetime:
        """The first posting time after ``moment``."""
        return self.last_due(moment) + timedelta(days=7)

    def due(self, moment: datetime, since: datetime) -> datetime | None:
        """The posting time to post for now, if one has come since posting was turned on
        (``since``): the latest only, so a bot that was down posts once, not once per week
        missed. The store's claim on it (by its ``stamp``) makes it once in all."""
        slot = self.last_due(moment)
        return slot if slot >= utc(since) else None

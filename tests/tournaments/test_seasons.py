"""Seasons on UTC boundaries (months, weeks, days from an anchor), schedule changes that cut
a season short, and the weekly post: due once a week, never for weeks before it was on."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments.errors import TournamentError
from bot.tournaments.seasons import (
    Cadence,
    ScheduleChange,
    SeasonCalendar,
    SeasonSchedule,
    WeeklyPost,
    change_at,
    natural_season,
    stamp,
)


def t(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


MOMENTS = st.datetimes(
    min_value=datetime(2001, 1, 1), max_value=datetime(2090, 1, 1), timezones=st.just(UTC)
)


def test_monthly_seasons_by_default_on_utc_month_boundaries() -> None:
    calendar = SeasonCalendar()
    march = calendar.season_of(t("2025-03-31T23:59:59.999999"))
    assert (march.label, march.starts, march.ends) == (
        "2025-03",
        t("2025-03-01T00:00:00"),
        t("2025-04-01T00:00:00"),
    )
    assert march.key == "2025-03-01T00:00:00+00:00" == stamp(march.starts)
    assert calendar.season_of(t("2025-04-01T00:00:00")).label == "2025-04"
    december = calendar.season_of(t("2024-12-15T12:00:00"))
    assert (december.label, december.ends) == ("2024-12", t("2025-01-01T00:00:00"))
    # Another time zone's evening of 31 March is already April in UTC.
    evening = datetime(2025, 3, 31, 21, 0, tzinfo=UTC) + timedelta(hours=4)
    assert calendar.season_of(evening).label == "2025-04"


def test_weekly_seasons_start_on_monday() -> None:
    weekly = SeasonSchedule(Cadence.WEEKLY)
    season = natural_season(weekly, t("2025-03-09T23:00:00"))  # a Sunday
    assert (season.label, season.starts, season.ends) == (
        "2025-W10",
        t("2025-03-03T00:00:00"),
        t("2025-03-10T00:00:00"),
    )
    assert natural_season(weekly, t("2024-12-30T00:00:00")).label == "2025-W01"


def test_seasons_of_days_count_from_their_anchor() -> None:
    fortnight = SeasonSchedule(Cadence.DAYS, 14, date(2025, 1, 6))
    season = natural_season(fortnight, t("2025-02-03T10:00:00"))
    assert (season.starts, season.ends, season.label) == (
        t("2025-02-03T00:00:00"),
        t("2025-02-17T00:00:00"),
        "2025-02-03",
    )
    before = natural_season(fortnight, t("2025-01-05T23:00:00"))
    assert before.starts == t("2024-12-23T00:00:00")


def test_bad_schedules_are_refused() -> None:
    with pytest.raises(TournamentError, match="from 1 to 366 days"):
        SeasonSchedule(Cadence.DAYS, 0)
    with pytest.raises(TournamentError, match="from 1 to 366 days"):
        SeasonSchedule(Cadence.DAYS)
    with pytest.raises(TournamentError, match="monthly, weekly"):
        SeasonSchedule("yearly")  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="Only a season of days"):
        SeasonSchedule(Cadence.MONTHLY, 30)
    assert SeasonSchedule(Cadence.DAYS, 10).anchor == date(2000, 1, 1)


def test_a_schedule_change_cuts_the_season_under_way_short() -> None:
    change = change_at(SeasonSchedule(Cadence.WEEKLY), t("2025-03-12T15:30:00.25"))
    assert change.effective_from == t("2025-03-12T15:30:00")
    calendar = SeasonCalendar.of([change])
    march = calendar.season_of(t("2025-03-05T00:00:00"))
    assert (march.label, march.starts, march.ends) == (
        "2025-03",
        t("2025-03-01T00:00:00"),
        t("2025-03-12T15:30:00"),
    )
    week = calendar.season_of(t("2025-03-13T00:00:00"))
    assert (week.label, week.starts, week.ends) == (
        "2025-W11",
        t("2025-03-12T15:30:00"),
        t("2025-03-17T00:00:00"),
    )
    assert week.key == "2025-03-12T15:30:00+00:00"
    assert calendar.previous(week) == march
    assert calendar.season_of(t("2025-03-20T00:00:00")).label == "2025-W12"
    assert [s.label for s in calendar.recent(t("2025-03-20T00:00:00"), 4)] == [
        "2025-W12",
        "2025-W11",
        "2025-03",
        "2025-02",
    ]
    assert [s.label for s in calendar.recent(t("2025-03-20T00:00:00"), 9, t("2025-03-02"))] == [
        "2025-W12",
        "2025-W11",
        "2025-03",
    ]


@given(MOMENTS, st.lists(st.tuples(MOMENTS, st.sampled_from(list(Cadence))), max_size=4))
def test_seasons_tile_time(moment: datetime, changes: list[tuple[datetime, Cadence]]) -> None:
    schedules = {
        Cadence.MONTHLY: SeasonSchedule(),
        Cadence.WEEKLY: SeasonSchedule(Cadence.WEEKLY),
        Cadence.DAYS: SeasonSchedule(Cadence.DAYS, 10, date(2020, 2, 29)),
    }
    calendar = SeasonCalendar.of([change_at(schedules[c], when) for when, c in changes])
    season = calendar.season_of(moment)
    assert season.contains(moment)
    before = calendar.previous(season)
    assert before is not None and before.ends == season.starts
    after = calendar.season_of(season.ends)
    assert after.starts == season.ends and after.key > season.key


def test_the_calendar_keeps_its_changes_in_order() -> None:
    late = ScheduleChange(t("2025-06-01T00:00:00"), SeasonSchedule(Cadence.WEEKLY))
    early = ScheduleChange(t("2025-01-01T00:00:00"), SeasonSchedule(Cadence.DAYS, 7))
    calendar = SeasonCalendar.of([late, early])
    assert calendar.season_of(t("2025-03-01T00:00:00")).cadence is Cadence.DAYS
    assert calendar.season_of(t("2025-07-01T00:00:00")).cadence is Cadence.WEEKLY
    assert calendar.season_of(t("2024-07-01T00:00:00")).cadence is Cadence.MONTHLY


@given(MOMENTS, st.integers(0, 6), st.integers(0, 23))
def test_the_weekly_post_is_due_once_a_week(moment: datetime, weekday: int, hour: int) -> None:
    post = WeeklyPost(weekday, hour)
    last, upcoming = post.last_due(moment), post.next_due(moment)
    assert last <= moment < upcoming == last + timedelta(days=7)
    assert (last.weekday(), last.hour, last.minute, last.second) == (weekday, hour, 0, 0)
    # Every moment of the week until the next slot asks for that same one post.
    assert post.last_due(upcoming - timedelta(microseconds=1)) == last
    assert post.last_due(upcoming) == upcoming


def test_the_weekly_post_waits_for_its_first_slot() -> None:
    post = WeeklyPost(0, 9)  # Mondays at 09:00 UTC
    on = t("2025-03-05T12:00:00")  # turned on on a Wednesday
    assert post.due(t("2025-03-08T00:00:00"), since=on) is None
    assert post.due(t("2025-03-10T09:00:00"), since=on) == t("2025-03-10T09:00:00")
    # Down for three weeks: one post, the latest.
    assert post.due(t("2025-04-01T00:00:00"), since=on) == t("2025-03-31T09:00:00")
    with pytest.raises(TournamentError):
        WeeklyPost(7, 0)
    with pytest.raises(TournamentError):
        WeeklyPost(0, 24)

"""Seasons of a server through the service: matches land in the season they finished in,
schedules change from the moment they are set, the weekly post and the season's final table
are made once, and divisions move the right players."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.tournaments import Cadence, SeasonSchedule, SeasonService, TournamentError
from bot.tournaments.divisions import Movement
from tests.store.helpers import AnyStore, play
from tests.tournaments.conftest import Clock


def t(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


async def test_matches_across_a_season_boundary_land_in_the_right_season(
    store: AnyStore, clock: Clock
) -> None:
    seasons = SeasonService(store, clock)  # the clock: 10 March 2025, 12:00 UTC
    await play(store, "ann", "ben", "ann", finished_at="2025-02-28T23:59:59.999999+00:00")
    await play(store, "ann", "ben", "ben", finished_at="2025-03-01T00:00:00+00:00")
    await play(store, "cat", "ben", "cat", finished_at="2025-03-09T20:00:00+00:00")
    march = await seasons.current("g1")
    assert (march.label, march.key) == ("2025-03", "2025-03-01T00:00:00+00:00")
    rows, total = await seasons.leaderboard("g1", march, 10)
    assert total == 3 and [(r.user_id, r.played, r.won) for r in rows] == [
        ("cat", 1, 1), ("ben", 2, 1), ("ann", 1, 0),
    ]  # fmt: skip
    listed = await seasons.seasons("g1")
    assert [s.label for s in listed] == ["2025-03", "2025-02"]  # back to the first match
    february = listed[1]
    rows, _ = await seasons.leaderboard("g1", february, 10)
    assert [(r.user_id, r.won) for r in rows] == [("ann", 1), ("ben", 0)]
    assert await seasons.find("g1", february.key) == february
    assert await seasons.find("g1", "2025-02-02T00:00:00+00:00") is None
    assert await seasons.find("g1", "not a time") is None
    # By its name as shown, typed by hand.
    assert await seasons.find("g1", "2025-02") == february
    assert await seasons.find("g1", " 2025-03 ") == march
    assert await seasons.find("g1", "2025-04") is None  # not begun
    assert await seasons.find("g1", "2024-12") is None  # before the first match


async def test_a_season_is_found_by_the_name_its_schedule_gives_it(
    store: AnyStore, clock: Clock
) -> None:
    seasons = SeasonService(store, clock)  # the clock: 10 March 2025, 12:00 UTC
    await play(store, "ann", "ben", "ann", finished_at="2025-03-01T00:00:00+00:00")
    week = await seasons.set_schedule("g1", SeasonSchedule(Cadence.WEEKLY))
    clock.advance(days=7)
    assert await seasons.find("g1", "2025-W11") == week  # cut short at the change
    assert await seasons.find("g1", "2025-w12") == await seasons.current("g1")
    assert (await seasons.find("g1", "2025-03")) == (await seasons.config("g1")).calendar.previous(
        week
    )
    clock.advance(days=30)
    fortnight = await seasons.set_schedule(
        "g1", SeasonSchedule(Cadence.DAYS, 14, t("2025-01-06").date())
    )
    assert await seasons.find("g1", fortnight.label) == fortnight


async def test_a_new_schedule_starts_now(store: AnyStore, clock: Clock) -> None:
    seasons = SeasonService(store, clock)
    week = await seasons.set_schedule("g1", SeasonSchedule(Cadence.WEEKLY))
    assert (week.label, week.starts, week.ends) == (
        "2025-W11",
        t("2025-03-10T12:00:00"),
        t("2025-03-17T00:00:00"),
    )
    march = (await seasons.config("g1")).calendar.previous(week)
    assert march is not None and (march.label, march.ends) == ("2025-03", week.starts)
    clock.advance(days=30)
    fortnight = await seasons.set_schedule(
        "g1", SeasonSchedule(Cadence.DAYS, 14, t("2025-01-06").date())
    )
    assert fortnight.cadence is Cadence.DAYS and fortnight.starts == clock()
    assert (await seasons.current("g1")) == fortnight


async def test_the_weekly_post_appears_once(store: AnyStore, clock: Clock) -> None:
    seasons = SeasonService(store, clock)
    clock.now = t("2025-03-12T10:00:00")  # a Wednesday
    await seasons.set_posts("g1", "standings", weekday=0, hour=9)
    assert await seasons.posting_guilds() == ["g1"]
    assert await seasons.due_posts("g1", "one") == []  # no slot since posting began
    assert await seasons.next_post_at("g1") == t("2025-03-17T09:00:00")
    clock.now = t("2025-03-17T09:00:00")
    (post,) = await seasons.due_posts("g1", "one")
    assert (post.kind, post.slot, post.channel_id, post.season.label) == (
        "weekly",
        "2025-03-17T09:00:00+00:00",
        "standings",
        "2025-03",
    )
    assert await seasons.due_posts("g1", "two") == []  # another process: already claimed
    assert await seasons.post_made(post, "one", "m-1")
    clock.advance(hours=3)
    assert await seasons.due_posts("g1", "one") == []  # made: not again this week
    # Down from Sunday to Tuesday: Monday's slot was in March, which has ended since, so
    # March's final table is posted (once) rather than that week's standings.
    clock.now = t("2025-04-01T00:30:00")
    due = await seasons.due_posts("g1", "one")
    assert [(p.kind, p.slot, p.season.label) for p in due] == [
        ("final", "2025-03-01T00:00:00+00:00", "2025-03")
    ]
    assert await seasons.due_posts("g1", "two") == []
    # "one" died before posting it: once its claim lapses another process posts it.
    clock.advance(minutes=10)
    (again,) = await seasons.due_posts("g1", "two")
    assert again.kind == "final" and await seasons.post_made(again, "two", "m-2")
    assert not await seasons.post_made(due[0], "one", "m-3")
    clock.now = t("2025-04-07T09:00:01")
    assert [(p.kind, p.season.label) for p in await seasons.due_posts("g1", "two")] == [
        ("weekly", "2025-04")
    ]
    # Turned off: nothing is due; turned on again, the weeks gone by are not posted.
    await seasons.set_posts("g1", None)
    assert await seasons.posting_guilds() == []
    assert await seasons.due_posts("g1", "one") == []
    assert await seasons.next_post_at("g1") is None
    with pytest.raises(TournamentError, match="weekday"):
        await seasons.set_posts("g1", "standings", weekday=9)


async def test_divisions_move_the_right_players(store: AnyStore, clock: Clock) -> None:
    seasons = SeasonService(store, clock)
    # February: a, c and e won; nobody is rated, so the first divisions go by wins.
    for winner, loser in (("a", "b"), ("c", "d"), ("e", "f")):
        await play(store, winner, loser, winner, finished_at="2025-02-10T10:00:00+00:00")
    config = await seasons.set_divisions("g1", 2, promote=1, relegate=1)
    assert (config.divisions, config.promote, config.relegate) == (2, 1, 1)
    march = await seasons.current("g1")
    assert await store.division_members("g1", march.key) == {
        "a": 0, "c": 0, "e": 0, "b": 1, "d": 1, "f": 1,
    }  # fmt: skip
    games = (("c", "a"), ("c", "e"), ("a", "e"), ("b", "d"), ("b", "f"), ("d", "f"), ("g", "h"))
    for winner, loser in games:
        await play(store, winner, loser, winner, finished_at="2025-03-20T10:00:00+00:00")
    tables = await seasons.division_tables("g1", march)
    assert [t.order for t in tables] == [["c", "a", "e"], ["b", "d", "f"]]
    assert not await seasons.roll_divisions("g1")  # March has its divisions already
    clock.now = t("2025-04-02T00:00:00")
    assert await seasons.roll_divisions("g1")
    assert not await seasons.roll_divisions("g1")  # once
    april = await seasons.current("g1")
    moves = {m.user_id: m for m in await seasons.movements("g1", april)}
    assert moves["b"] == Movement("b", 1, 0) and moves["b"].promoted
    assert moves["e"] == Movement("e", 0, 1) and moves["e"].relegated
    assert (moves["g"], moves["h"]) == (Movement("g", None, 1), Movement("h", None, 1))
    assert {u for u, m in moves.items() if m.was == m.now} == {"a", "c", "d", "f"}
    # The season's final table carries the movements.
    await seasons.set_posts("g1", "standings")
    clock.now = t("2025-05-01T00:00:00")
    await play(store, "a", "b", "a", finished_at="2025-04-10T10:00:00+00:00")
    due = await seasons.due_posts("g1", "one")
    final = next(p for p in due if p.kind == "final")
    assert final.season.label == "2025-04"
    assert {m.user_id for m in final.movements} == {"a", "b", "c", "d", "e", "f", "g", "h"}
    with pytest.raises(TournamentError, match="from 0 to 10 divisions"):
        await seasons.set_divisions("g1", 11)
    with pytest.raises(TournamentError, match="go up"):
        await seasons.set_divisions("g1", 2, promote=-1)

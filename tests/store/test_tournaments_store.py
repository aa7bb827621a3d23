"""Tournaments and seasons in the store, on SQLite and PostgreSQL: one open tournament per
channel, every change under the tournament's lock and all or nothing, results and posts made
once however many processes try, and the season's leaderboard from finished matches."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.store.tournament_base import NoSuchTournament, TournamentBusy
from bot.store.tournament_rows import PairingRow, ScheduleRow, SeasonSettingsRow
from tests.store.helpers import INTEGRITY, AnyStore, Database, new_match, play

T0 = "2025-03-01T10:00:00+00:00"
T1 = "2025-03-01T11:00:00+00:00"
T2 = "2025-03-01T12:00:00+00:00"


def pairing(tid: int, round_number: int, board: int, a: str, b: str | None) -> PairingRow:
    if b is None:
        return PairingRow(tid, round_number, board, a, None, None, "decided", a, "bye")
    return PairingRow(tid, round_number, board, a, b, None, "waiting")


async def opened(store: AnyStore, channel: str = "c1", **extra: str) -> int:
    return await store.create_tournament(
        "g1", channel, "org", "swiss", {"rounds": 3}, T0, signup_closes_at=extra.get("closes")
    )


@asynccontextmanager
async def two_processes(
    backend: str, database: Database
) -> AsyncIterator[tuple[AnyStore, AnyStore]]:
    """Two stores on one database as two bot processes have them (SQLite serves one process,
    so there the two are one store, its writers still racing)."""
    if backend == "sqlite":
        async with database.store() as only:
            yield only, only
        return
    async with database.store() as one, database.store() as two:
        yield one, two


async def test_one_open_tournament_per_channel(store: AnyStore) -> None:
    tid = await opened(store)
    with pytest.raises(TournamentBusy) as refused:
        await opened(store)
    assert refused.value.tournament_id == tid
    other = await opened(store, "c2")
    assert other != tid
    row = await store.tournament_in_channel("c1")
    assert row is not None and (row.id, row.state, row.settings, row.round) == (
        tid,
        "signup",
        {"rounds": 3},
        0,
    )
    async with store.lock_tournament(tid) as locked:
        await locked.set_state("cancelled", T1)
    assert await store.tournament_in_channel("c1") is None
    again = await opened(store)
    assert [t.id for t in await store.open_tournaments()] == [other, again]
    record = await store.get_tournament(tid)
    assert record is not None and record.tournament.finished_at == T1
    with pytest.raises(NoSuchTournament):
        async with store.lock_tournament(999):
            pass
    assert await store.get_tournament(999) is None


async def test_entrants_join_once_and_may_come_back_only_during_sign_up(store: AnyStore) -> None:
    tid = await opened(store)
    async with store.lock_tournament(tid) as locked:
        assert await locked.join("ann", T0)
        assert await locked.join("ben", T0)
        assert not await locked.join("ann", T1)  # already in
        assert await locked.set_status("ben", "left", "joined", T1)
        assert not await locked.set_status("ben", "left", "joined", T1)
        assert await locked.join("ben", T2)  # back
        assert await locked.join("cat", T2)
        assert await locked.set_status("cat", "dropped", "joined", T2)
        assert not await locked.join("cat", T2)  # dropped stays dropped
        await locked.set_seeds({"ann": 1, "ben": 2, "cat": 3})
        record = await locked.read()
    by = {e.user_id: e for e in record.entrants}
    assert (by["ben"].status, by["ben"].joined_at, by["ben"].left_at) == ("joined", T2, None)
    assert (by["cat"].status, by["cat"].left_at, by["cat"].seed) == ("dropped", T2, 3)


async def test_rounds_pairings_and_results(store: AnyStore) -> None:
    tid = await opened(store)
    table = await new_match(store, "ann", "ben")
    async with store.lock_tournament(tid) as locked:
        await locked.set_state("running", T1)
        await locked.set_round(1, T1)
        await locked.add_round(1, "seed-1", T2, T1)
        await locked.add_pairings(
            [pairing(tid, 1, 0, "ann", "ben"), pairing(tid, 1, 1, "cat", None)]
        )
        await locked.set_deadline(T2, T1)
        assert await locked.set_table(1, 0, table)
        assert not await locked.set_table(1, 0, table)  # only a waiting pairing takes a match
    found = await store.pairing_of_table(table)
    assert found is not None and (found.round, found.board, found.state) == (1, 0, "playing")
    async with store.lock_tournament(tid) as locked:
        decided = await locked.decide(1, 0, "ben", "match", (80, 240), {"deals": []}, T2)
        again = await locked.decide(1, 0, "ann", "time", (0, 0), {}, T2)
        assert (decided, again) == (True, False)
        assert await locked.finish_round(1, T2)
        assert not await locked.finish_round(1, T2)
    record = await store.get_tournament(tid)
    assert record is not None
    assert record.tournament.state == "running" and record.tournament.started_at == T1
    assert [(r.number, r.seed, r.deadline, r.state) for r in record.rounds] == [
        (1, "seed-1", T2, "finished")
    ]
    first, bye = record.pairings
    assert (first.winner_id, first.decided_by, first.score_a, first.score_b) == (
        "ben",
        "match",
        80,
        240,
    )
    assert first.detail == {"deals": []} and first.table_id == table
    assert (bye.is_bye, bye.players, bye.winner_id, bye.decided_by) == (
        True,
        ("cat",),
        "cat",
        "bye",
    )


async def test_a_failing_block_changes_nothing(store: AnyStore) -> None:
    tid = await opened(store)
    with pytest.raises(RuntimeError):
        async with store.lock_tournament(tid) as locked:
            await locked.join("ann", T0)
            await locked.set_state("running", T1)
            raise RuntimeError("the pairing broke")
    # A pairing of a round that was never added breaks a constraint: undone with the rest.
    with pytest.raises(INTEGRITY):
        async with store.lock_tournament(tid) as locked:
            await locked.join("ben", T0)
            await locked.add_pairings([pairing(tid, 4, 0, "ann", "ben")])
    record = await store.get_tournament(tid)
    assert record is not None
    assert (record.tournament.state, record.entrants, record.pairings) == ("signup", (), ())


async def test_a_result_is_recorded_once_whichever_process_tries(
    backend: str, database: Database
) -> None:
    async with two_processes(backend, database) as (one, two):
        tid = await opened(one)
        async with one.lock_tournament(tid) as locked:
            await locked.add_round(1, None, None, T0)
            await locked.add_pairings([pairing(tid, 1, b, f"a{b}", f"b{b}") for b in range(6)])

        async def decide(store: AnyStore, board: int, winner: str) -> bool:
            async with store.lock_tournament(tid) as locked:
                record = await locked.read()
                if record.pairings[board].state == "decided":
                    return False
                await asyncio.sleep(0)  # let the other writer try meanwhile
                return await locked.decide(1, board, winner, "match", (1, 0), {}, T1)

        outcomes = await asyncio.gather(
            *(decide(s, b, w) for b in range(6) for s, w in ((one, f"a{b}"), (two, f"b{b}")))
        )
        assert [a != b for a, b in zip(outcomes[::2], outcomes[1::2], strict=True)] == [True] * 6
        record = await one.get_tournament(tid)
        assert record is not None and all(p.state == "decided" for p in record.pairings)


@pytest.mark.postgres
async def test_a_tournament_writer_waits_for_the_row(postgres_url_fixture: str) -> None:
    from bot.store import PostgresStore

    async with (
        PostgresStore(postgres_url_fixture) as one,
        PostgresStore(postgres_url_fixture) as two,
    ):
        tid = await opened(one)
        other = await opened(one, "c2")
        async with one.lock_tournament(tid) as locked:
            waiting = asyncio.create_task(_join(two, tid, "ben"))
            await asyncio.wait_for(_join(two, other, "ben"), timeout=5)
            await asyncio.sleep(0.3)
            assert not waiting.done(), "the second writer did not wait for the row"
            await locked.join("ann", T0)
        assert await asyncio.wait_for(waiting, timeout=5)
        record = await one.get_tournament(tid)
        assert record is not None and [e.user_id for e in record.entrants] == ["ann", "ben"]


async def _join(store: AnyStore, tid: int, user: str) -> bool:
    async with store.lock_tournament(tid) as locked:
        return await locked.join(user, T1)


async def test_deadlines_are_due_and_claimed_once(store: AnyStore) -> None:
    tid = await opened(store, closes=T1)
    later = await opened(store, "c2", closes=T2)
    assert await store.next_tournament_deadline() == T1
    assert await store.due_tournament_deadlines(T0) == []
    assert await store.due_tournament_deadlines(T1) == [(tid, T1)]
    assert await store.claim_tournament_deadline(tid, T1, "p1", T1, T2)
    assert not await store.claim_tournament_deadline(tid, T1, "p2", T1, T2)
    assert await store.due_tournament_deadlines(T1) == []  # claimed
    # A claim lapses; a new deadline drops it.
    assert await store.claim_tournament_deadline(tid, T1, "p2", T2, "2025-03-01T13:00:00+00:00")
    async with store.lock_tournament(tid) as locked:
        await locked.set_deadline(None, T2)
    assert await store.due_tournament_deadlines(T2) == [(later, T2)]
    async with store.lock_tournament(later) as locked:
        await locked.set_state("finished", T2)
    assert await store.next_tournament_deadline() is None
    assert not await store.claim_tournament_deadline(later, T2, "p1", T2, T2)


async def test_a_players_tournaments_and_a_servers(store: AnyStore) -> None:
    first = await opened(store)
    async with store.lock_tournament(first) as locked:
        for user in ("ann", "ben", "cat"):
            await locked.join(user, T0)
        await locked.set_status("cat", "left", "joined", T0)
        await locked.set_state("finished", T1)
        await locked.set_places({"ann": 2, "ben": 1})
    second = await store.create_tournament("g1", "c2", "org", "knockout", {}, T1)
    async with store.lock_tournament(second) as locked:
        await locked.join("ann", T1)
    await store.create_tournament("g2", "c3", "org", "swiss", {}, T2)
    entries, total = await store.player_tournaments("g1", "ann", 10, 0)
    assert total == 2
    assert [(e.tournament_id, e.format, e.state, e.place, e.entrants) for e in entries] == [
        (second, "knockout", "signup", None, 1),
        (first, "swiss", "finished", 2, 2),
    ]
    assert await store.player_tournaments("g1", "cat", 10, 0) == ([], 0)
    rows, count = await store.guild_tournaments("g1", 1, 0)
    assert count == 2 and [r.id for r in rows] == [second]
    with pytest.raises(ValueError):
        await store.guild_tournaments("g1", -1, 0)


async def test_season_schedules_and_settings(store: AnyStore) -> None:
    assert await store.season_schedules("g1") == []
    assert await store.get_season_settings("g1") is None
    weekly = ScheduleRow("g1", T1, "weekly")
    days = ScheduleRow("g1", T0, "days", 14, "2025-01-06")
    await store.add_season_schedule(weekly)
    await store.add_season_schedule(days)
    await store.add_season_schedule(ScheduleRow("g2", T0, "monthly"))
    assert await store.season_schedules("g1") == [days, weekly]
    settings = SeasonSettingsRow("g1", "chan", 2, 18, T0, divisions=2, promote=1, relegate=1)
    await store.set_season_settings(settings, T0)
    await store.set_season_settings(SeasonSettingsRow("g2"), T0)
    assert await store.get_season_settings("g1") == settings
    assert await store.posting_guilds() == [settings]
    await store.set_season_settings(SeasonSettingsRow("g1", divisions=2), T1)
    assert await store.posting_guilds() == []


async def test_the_season_leaderboard_counts_the_matches_finished_in_it(store: AnyStore) -> None:
    """Times written by the bot (``+00:00``) and by these helpers (``Z``) compare alike."""
    march, april = "2025-03-01T00:00:00+00:00", "2025-04-01T00:00:00+00:00"
    await play(store, "ann", "ben", "ann", finished_at="2025-02-28T23:59:59.999999+00:00")
    await play(store, "ann", "ben", "ben", finished_at="2025-03-01T00:00:00Z")
    await play(store, "ann", "cat", "ann", finished_at="2025-03-15T08:00:00.5+00:00")
    await play(store, "ben", "cat", "cat", finished_at="2025-03-31T23:59:59Z")
    await play(store, "ann", "ben", "ann", finished_at="2025-04-01T00:00:00+00:00")
    rows, total = await store.season_leaderboard("g1", march, april, 10, 0)
    assert total == 3
    assert [(r.user_id, r.played, r.won) for r in rows] == [
        ("ann", 2, 1), ("ben", 2, 1), ("cat", 2, 1),
    ]  # fmt: skip
    everything, _ = await store.leaderboard("g1", 10, 0)
    assert sum(r.played for r in everything) == 10
    assert await store.first_result_at("g1") == "2025-02-28T23:59:59.999999+00:00"
    assert await store.first_result_at("g2") is None
    # One division of the season: its members only.
    assert await store.set_division_members("g1", march, {"ann": 0, "ben": 1, "cat": 1})
    assert not await store.set_division_members("g1", march, {"ann": 1})
    lower, size = await store.season_leaderboard("g1", march, april, 10, 0, division=(march, 1))
    assert size == 2 and [r.user_id for r in lower] == ["ben", "cat"]
    points, _ = await store.season_leaderboard("g1", march, april, 10, 0, sort="points")
    assert len(points) == 3
    with pytest.raises(ValueError, match="sort"):
        await store.season_leaderboard("g1", march, april, 10, 0, sort="luck")  # type: ignore[arg-type]


async def test_divisions_are_kept_per_season(store: AnyStore) -> None:
    march, april = "2025-03-01T00:00:00+00:00", "2025-04-01T00:00:00+00:00"
    assert await store.last_division_season("g1", april) is None
    assert await store.set_division_members("g1", march, {"ann": 0, "ben": 1})
    assert await store.last_division_season("g1", april) == march
    assert await store.last_division_season("g1", march) is None
    assert await store.division_members("g1", march) == {"ann": 0, "ben": 1}
    assert await store.division_members("g1", april) == {}


async def test_a_post_is_claimed_once_and_made_once(backend: str, database: Database) -> None:
    slot = "2025-03-03T00:00:00+00:00"
    async with two_processes(backend, database) as (one, two):
        claims = await asyncio.gather(
            *(
                s.claim_season_post("g1", "weekly", slot, f"p{n}", T0, T1)
                for n, s in enumerate((one, two, one, two))
            )
        )
        assert sorted(claims) == [False, False, False, True]
        winner = f"p{claims.index(True)}"
        # Not made before the claim lapses: another process may take it then.
        assert not await one.claim_season_post("g1", "weekly", slot, "late", T0, T2)
        assert await two.claim_season_post("g1", "weekly", slot, "late", T1, T2)
        assert not await one.season_post_made("g1", "weekly", slot, winner, "m1", T1)
        assert await one.season_post_made("g1", "weekly", slot, "late", "m2", T1)
        assert not await one.season_post_made("g1", "weekly", slot, "late", "m3", T1)
        assert not await two.claim_season_post("g1", "weekly", slot, "later", T2, T2)
        post = await one.get_season_post("g1", "weekly", slot)
        assert post is not None and (post.claimant, post.posted_at, post.message_id) == (
            "late",
            T1,
            "m2",
        )
        # Another kind, slot or server is another post.
        assert await one.claim_season_post("g1", "final", slot, "p1", T0, T1)
        assert await one.claim_season_post("g2", "weekly", slot, "p1", T0, T1)
        assert await one.get_season_post("g1", "weekly", "other") is None


@pytest.mark.postgres
async def test_a_copy_into_postgresql_carries_the_tournaments_and_seasons(
    tmp_path: Path, postgres_url_fixture: str
) -> None:
    from bot.store import PostgresStore, SqliteStore
    from bot.store.copy import copy_database

    path = tmp_path / "gin.sqlite3"
    async with SqliteStore(path) as old:
        table = await new_match(old, "ann", "ben")
        tid = await opened(old)
        async with old.lock_tournament(tid) as locked:
            await locked.join("ann", T0)
            await locked.join("ben", T0)
            await locked.set_state("running", T1)
            await locked.add_round(1, "s", T2, T1)
            await locked.add_pairings([pairing(tid, 1, 0, "ann", "ben")])
            assert await locked.set_table(1, 0, table)
        await old.add_season_schedule(ScheduleRow("g1", T0, "weekly"))
        await old.set_season_settings(SeasonSettingsRow("g1", "chan"), T0)
        await old.set_division_members("g1", T0, {"ann": 0})
        await old.claim_season_post("g1", "weekly", T0, "p", T0, T1)
    report = await copy_database(path, postgres_url_fixture)
    assert report.ok, report.lines()
    assert report.counts["tournament_pairings"] == (1, 1)
    assert report.counts["season_posts"] == (1, 1)
    async with PostgresStore(postgres_url_fixture) as new:
        record = await new.get_tournament(tid)
        assert record is not None and record.pairings[0].table_id == table
        # New tournaments carry on after the copied ids.
        assert await new.create_tournament("g1", "c9", "org", "swiss", {}, T2) == tid + 1

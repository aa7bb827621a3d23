"""Migration 0003 (modes) on a fresh database, and on a database written by the two-player
store, which must give the same answers after the upgrade.

The fixtures in tests/store/data were made with the code of commit 9030620, the last before
0003 (schema version 2), run from a git worktree of it by a script that is not kept:
its ``TableService`` over its ``SqliteStore``, with a clock stepping seven seconds per
reading and both sides playing the normal bot's moves from a seeded ``random.Random``. In
guild 500: three matches to 50 points between players 1001, 1002 and 1003, rated; one
against the bot (9000); one resigned and one forfeited on the turn clock, both rated; one
cancelled by a moderator; a declined challenge, an open challenge and a match in play. In
guild 600: one more finished match. The database was then checkpointed into one file
(journal_mode DELETE) and vacuumed.

``store_v2_answers.json`` holds what that store answered, as ``dataclasses.asdict`` through
JSON: the leaderboard of each guild in every sort (provisional_below 0 and 2) and
bot_records; history pages of two rows (offsets 0, 2, 4) and player_stats of every player;
the ratings; get_table, hands and results of every match; the ids of open_tables; counts.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import pytest

from bot.store import LeaderSort, MatchEnd, RatingRow, SeatResult, SqliteStore
from bot.store.copy import copy_database
from bot.store.migrate import default_directory, discover
from tests.store.helpers import AnyStore, Database

DATA = Path(__file__).parent / "data"
BOT = "9000"


def recorded() -> dict[str, Any]:
    return cast(dict[str, Any], json.loads((DATA / "store_v2_answers.json").read_text()))


def fields(row: object) -> dict[str, Any]:
    """A row as the fixture holds it: its fields through JSON."""
    return cast(dict[str, Any], json.loads(json.dumps(dataclasses.asdict(row))))  # type: ignore[call-overload]


# Fields of the standings and stats renamed since, to say what they count.
RENAMED = {
    "points": "hand_points",
    "undercuts": "undercuts_made",
    "avg_points_per_hand": "avg_hand_points",
}


def same(row: object, old: dict[str, Any], renamed: bool = False, **added: Any) -> None:
    """Every field the old row had is unchanged (under its new name, if ``renamed``), and the
    fields it lacked are ``added``."""
    now = fields(row)
    if renamed:
        old = {RENAMED.get(k, k): v for k, v in old.items()}
    assert {k: now.get(k) for k in old} == old
    assert {k: v for k, v in now.items() if k not in old} == added


def final_scores(old: dict[str, Any], guild: str, user: str, vs_bot: bool | None) -> int:
    """A player's final scores as the old store's results recorded them, added up over the
    finished matches of a guild (only those against the bot, or only those without, unless
    ``vs_bot`` is None)."""
    return sum(
        r["final_score"]
        for key, rows in old["results"].items()
        for r in rows
        if r["user_id"] == user
        and r["guild_id"] == guild
        and vs_bot in (None, old["tables"][key]["vs_bot"])
    )


def undercuts_suffered(old: dict[str, Any], guild: str, user: str) -> int:
    """The old store's undercut hands in which the player was the knocker."""
    return sum(
        1
        for key, rows in old["results"].items()
        for r in rows
        if r["user_id"] == user and r["guild_id"] == guild
        for h in old["hands"][key]
        if h["outcome"] == "undercut" and h["knocker_seat"] == r["seat"]
    )


@pytest.fixture
async def upgraded(database: Database, tmp_path: Path) -> AsyncIterator[AnyStore]:
    """The v2 database brought to the current schema by opening it; for PostgreSQL, then
    copied there by ``bot.store.copy``, which must keep every answer."""
    db = tmp_path / "bot.sqlite3"
    shutil.copyfile(DATA / "store_v2.sqlite3", db)
    if database.backend == "postgres":
        report = await copy_database(db, str(database.location))
        assert report.ok, report.lines()
        async with database.store() as store:
            yield store
        return
    async with SqliteStore(db) as store:
        yield store


@pytest.mark.sqlite_only
async def test_fresh_database_has_the_new_schema(sqlite_store: SqliteStore) -> None:
    assert [m.version for m in discover(default_directory())][:3] == [1, 2, 3]
    info = {
        table: {r["name"]: r for r in await sqlite_store._all(f"PRAGMA table_info({table})")}
        for table in ("matches", "seats", "results", "hands", "ratings")
    }
    assert (info["matches"]["mode"]["notnull"], info["matches"]["mode"]["dflt_value"]) == (
        1,
        "'classic'",
    )
    assert info["results"]["opponent_id"]["notnull"] == 0
    assert {k: info["results"][k]["notnull"] for k in ("place", "team", "is_bot")} == {
        "place": 1,
        "team": 0,
        "is_bot": 1,
    }
    primary = {
        table: [name for name, r in sorted(cols.items(), key=lambda c: c[1]["pk"]) if r["pk"]]
        for table, cols in info.items()
    }
    assert primary["seats"] == ["match_id", "seat"]
    assert primary["hands"] == ["match_id", "number", "board"]
    assert primary["ratings"] == ["guild_id", "user_id", "mode"]
    assert primary["results"] == ["match_id", "user_id"]
    indexes = {
        r[0] for r in await sqlite_store._all("SELECT name FROM sqlite_master WHERE type = 'index'")
    }
    assert {"results_guild_user_finished", "matches_open_deadline", "matches_open_channel"} <= (
        indexes
    )


async def test_a_v2_database_gives_the_same_answers(upgraded: AnyStore) -> None:
    old = recorded()
    store = upgraded
    versions = await store._all("SELECT version FROM schema_migrations ORDER BY version")
    assert [r[0] for r in versions][:3] == [1, 2, 3]
    if isinstance(store, SqliteStore):
        assert await store._all("PRAGMA foreign_key_check") == []

    for key, page in old["leaderboard"].items():
        guild, sort, below = key.split("/")
        rows, total = await store.leaderboard(
            guild, 10, 0, sort=cast(LeaderSort, sort), provisional_below=int(below)
        )
        assert total == page["total"], key
        assert len(rows) == len(page["rows"]), key
        for row, was in zip(rows, page["rows"], strict=True):
            same(row, was, True, final_scores=final_scores(old, guild, was["user_id"], False))
    for guild, page in old["bot_records"].items():
        rows, total = await store.bot_records(guild, 10, 0)
        assert (total, len(rows)) == (page["total"], len(page["rows"]))
        for row, was in zip(rows, page["rows"], strict=True):
            same(row, was, True, final_scores=final_scores(old, guild, was["user_id"], True))

    for key, page in old["history"].items():
        guild, user, offset = key.split("/")
        rows, total = await store.history(guild, user, 2, int(offset))
        assert (total, len(rows)) == (page["total"], len(page["rows"])), key
        for row, was in zip(rows, page["rows"], strict=True):
            same(row, was, mode="classic", place=1 if was["won"] else 2, players=2)

    for key, was in old["stats"].items():
        guild, user = key.split("/")
        stats = await store.player_stats(guild, user)
        if was is None:
            assert stats is None, key
            continue
        total = final_scores(old, guild, user, None)
        same(
            stats,
            was,
            True,
            final_scores=total,
            avg_final_score=total / was["played"],
            undercuts_suffered=undercuts_suffered(old, guild, user),
        )

    for guild, ratings in old["ratings"].items():
        now = await store.get_ratings(guild, [BOT, "1001", "1002", "1003"])
        assert sorted(now) == sorted(ratings)
        for user, was in ratings.items():
            same(now[user], was, mode="classic")

    for key, was in old["tables"].items():
        table = await store.get_table(int(key))
        assert table is not None
        seats = []
        if was["state"] is not None:  # started: the two players, the bot's seat marked
            seats = [
                {"seat": 0, "user_id": was["challenger_id"], "team": None, "is_bot": False},
                {"seat": 1, "user_id": was["opponent_id"], "team": None, "is_bot": was["vs_bot"]},
            ]
        same(table, was, mode="classic", seats=seats)
        hands = await store.hands(int(key))
        assert len(hands) == len(old["hands"][key])
        for hand, was_hand in zip(hands, old["hands"][key], strict=True):
            same(hand, was_hand, board=0)
        results = await store.results(int(key))
        assert len(results) == len(old["results"][key])
        for result, was_result in zip(results, old["results"][key], strict=True):
            is_bot = was["vs_bot"] and was_result["seat"] == 1
            same(result, was_result, place=1 if was_result["won"] else 2, team=None, is_bot=is_bot)

    assert [t.id for t in await store.open_tables()] == old["open_tables"]
    counts = await store.counts()
    started = sum(1 for t in old["tables"].values() if t["state"] is not None)
    assert counts == {**old["counts"], "seats": 2 * started}


async def test_the_upgraded_database_plays_on(upgraded: AnyStore) -> None:
    """The match in play finishes with the seats the migration gave it, and counts."""
    store = upgraded
    old = recorded()
    (challenge, playing) = await store.open_tables()
    assert (challenge.status, challenge.seats) == ("challenge", ())
    ben, cat = playing.challenger_id, playing.opponent_id
    assert [s.user_id for s in playing.seats] == [ben, cat]
    before = await store.get_ratings(playing.guild_id, [ben, cat])
    end = MatchEnd(
        status="finished",
        reason="resign",
        winner_id=cat,
        results=(SeatResult(ben, 0, 0, 0), SeatResult(cat, 1, 10, 10)),
    )
    rating = RatingRow(playing.guild_id, cat, 30.0, 5.0, before[cat].matches + 1)
    await store.end_match(playing.id, None, end, "2025-03-02T00:00:00+00:00", ratings=(rating,))
    assert [(r.user_id, r.place, r.opponent_id) for r in await store.results(playing.id)] == [
        (ben, 2, cat),
        (cat, 1, ben),
    ]
    rows, total = await store.leaderboard(playing.guild_id, 10, 0)
    was = {r["user_id"]: r for r in old["leaderboard"][f"{playing.guild_id}/wins/0"]["rows"]}
    now = {r.user_id: r for r in rows}
    assert total == old["leaderboard"][f"{playing.guild_id}/wins/0"]["total"]
    assert (now[cat].played, now[cat].won) == (was[cat]["played"] + 1, was[cat]["won"] + 1)
    assert (now[ben].played, now[ben].won) == (was[ben]["played"] + 1, was[ben]["won"])
    assert (await store.get_ratings(playing.guild_id, [cat]))[cat] == rating


async def test_the_stored_final_scores_are_the_match_results(upgraded: AnyStore) -> None:
    """Results have kept each side's final score, bonuses included, since the first schema:
    exactly the final scores of the finished match's own result (what its match-over message
    showed), which the standings and stats add up with nothing to back-fill."""
    old = recorded()
    store = upgraded
    finals: dict[tuple[str, str], int] = {}  # (guild, user): final scores without the bot
    for key, table in old["tables"].items():
        if table["status"] != "finished":
            continue
        stored = await store.get_table(int(key))
        assert stored is not None and stored.state is not None
        result = stored.state["result"]
        for row in await store.results(int(key)):
            assert row.final_score == result["final"][row.seat], (key, row.seat)
            assert row.points == result["points"][row.seat], (key, row.seat)
            if not table["vs_bot"]:
                who = (row.guild_id, row.user_id)
                finals[who] = finals.get(who, 0) + row.final_score
    bonused = [
        r for rows in old["results"].values() for r in rows if r["final_score"] > r["points"]
    ]
    assert bonused  # the fixture's results do tell final scores from hand points
    rows, _ = await store.leaderboard("500", 10, 0, sort="points")
    assert [(r.user_id, r.final_scores) for r in rows] == sorted(
        ((user, total) for (guild, user), total in finals.items() if guild == "500"),
        key=lambda pair: -pair[1],
    )
    # Cat's knock was undercut once in each guild; Ann made both undercuts.
    for guild in ("500", "600"):
        cat = await store.player_stats(guild, "1003")
        ann = await store.player_stats(guild, "1001")
        assert cat is not None and ann is not None
        assert (cat.undercuts_made, cat.undercuts_suffered) == (0, 1)
        assert (ann.undercuts_made, ann.undercuts_suffered) == (1, 0)

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
from bot.store.migrate import default_directory, discover

DATA = Path(__file__).parent / "data"
BOT = "9000"


def recorded() -> dict[str, Any]:
    return cast(dict[str, Any], json.loads((DATA / "store_v2_answers.json").read_text()))


def fields(row: object) -> dict[str, Any]:
    """A row as the fixture holds it: its fields through JSON."""
    return cast(dict[str, Any], json.loads(json.dumps(dataclasses.asdict(row))))  # type: ignore[call-overload]


def same(row: object, old: dict[str, Any], **added: Any) -> None:
    """Every field the old row had is unchanged, and the fields it lacked are ``added``."""
    now = fields(row)
    assert {k: now.get(k) for k in old} == old
    assert {k: v for k, v in now.items() if k not in old} == added


@pytest.fixture
async def upgraded(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    db = tmp_path / "bot.sqlite3"
    shutil.copyfile(DATA / "store_v2.sqlite3", db)
    async with SqliteStore(db) as store:
        yield store


async def test_fresh_database_has_the_new_schema(store: SqliteStore) -> None:
    assert [m.version for m in discover(default_directory())][:3] == [1, 2, 3]
    info = {
        table: {r["name"]: r for r in await store._all(f"PRAGMA table_info({table})")}
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
        r[0] for r in await store._all("SELECT name FROM sqlite_master WHERE type = 'index'")
    }
    assert {"results_guild_user_finished", "matches_open_deadline", "matches_open_channel"} <= (
        indexes
    )


async def test_a_v2_database_gives_the_same_answers(upgraded: SqliteStore) -> None:
    old = recorded()
    store = upgraded
    versions = await store._all("SELECT version FROM schema_migrations ORDER BY version")
    assert [r[0] for r in versions][:3] == [1, 2, 3]
    assert await store._all("PRAGMA foreign_key_check") == []

    for key, page in old["leaderboard"].items():
        guild, sort, below = key.split("/")
        rows, total = await store.leaderboard(
            guild, 10, 0, sort=cast(LeaderSort, sort), provisional_below=int(below)
        )
        assert total == page["total"], key
        assert len(rows) == len(page["rows"]), key
        for row, was in zip(rows, page["rows"], strict=True):
            same(row, was)
    for guild, page in old["bot_records"].items():
        rows, total = await store.bot_records(guild, 10, 0)
        assert (total, len(rows)) == (page["total"], len(page["rows"]))
        for row, was in zip(rows, page["rows"], strict=True):
            same(row, was)

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
        else:
            same(stats, was)

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


async def test_the_upgraded_database_plays_on(upgraded: SqliteStore) -> None:
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

"""``python -m bot.store.copy``: a SQLite database copied into PostgreSQL answers alike."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.store import MatchEnd, PostgresStore, RatingRow, ReviewKey, SqliteStore
from bot.store.copy import CopyRefused, copy_database, main
from tests.store.helpers import (
    at,
    board,
    finish,
    move,
    new_lobby,
    new_match,
    placed,
    play,
    play_hands,
    seated,
)

pytestmark = pytest.mark.postgres
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def source(tmp_path: Path) -> Path:
    """A SQLite database with a bit of everything: classic matches (one rated, one against
    the bot), a teams match with two boards a hand, a three-player match, an open challenge
    with a deadline, a match in play, guild settings."""
    path = tmp_path / "old" / "gin.sqlite3"
    async with SqliteStore(path) as store:
        for user in ("ann", "ben", "cat", "dan"):
            await store.upsert_player(user, user.title(), at(0))
        rated = (RatingRow("g1", "ann", 27.5, 7.25, 1), RatingRow("g1", "ben", 22.125, 7.5, 1))
        await play(store, "ann", "ben", "ann", hands=(("gin", 0), ("undercut", 1)), ratings=rated)
        await play(store, "cat", "gin-bot", "gin-bot", vs_bot=True)
        teams = seated("ann", "ben", "cat", "dan", teams=(0, 1, 0, 1))
        mid = await new_lobby(store, "teams", teams)
        boards = [
            board(mid, 1, (0, 1, 2, 3), "knock", 0, knocker_seat=0),
            board(mid, 1, (0, 1, 2, 3), "gin", 3, board_number=1, knocker_seat=3),
        ]
        await play_hands(store, mid, boards, placed(teams, (1, 2, 1, 2), points=(9, 5, 9, 5)))
        three = seated("ann", "bot:1", "cat", bots=(1,))
        mid = await new_lobby(store, "three", three)
        dealt = [board(mid, 1, (1, 2), "knock", 1, knocker_seat=1)]
        await play_hands(store, mid, dealt, placed(three, (2, 1, 3)))
        waiting = await new_match(store, "dan", "ann", start=False)
        await store.set_deadline(waiting, at(500), at(1))
        playing = await new_match(store, "ben", "cat")
        await store.record_move(move(playing, 1))
        await store.set_display(playing, {"table_message": "1300000000000000001"}, at(2))
        resigned = await new_match(store, "cat", "dan")
        await store.end_match(resigned, None, finish("cat", "dan", "dan", reason="resign"), at(3))
        cancelled = await new_match(store, "dan", "ben")
        await store.end_match(cancelled, None, MatchEnd.cancelled("admin"), at(4))
        await store.set_guild_settings("g1", {"turn_seconds": 90, "rules": {"gin": 25}}, at(5))
        await store.claim_review(ReviewKey(resigned, 1, 0, 0), at(6), at(66))
        await store.settle_review(ReviewKey(resigned, 1, 0, 0), sent=True)
    return path


async def test_the_copy_answers_as_the_original(source: Path, postgres_url_fixture: str) -> None:
    before = source.read_bytes()
    report = await copy_database(source, postgres_url_fixture)
    assert report.ok, report.lines()
    assert report.counts["matches"] == (8, 8) and report.counts["moves"][1] > 0
    assert report.counts["reviews"] == (1, 1)
    assert (report.matches, report.settings, report.ratings) == (8, 1, 2)
    assert source.read_bytes() == before  # copied from a snapshot: the source is untouched
    text = "\n".join(report.lines())
    assert "the same on both sides" in text and "password" not in text

    async with SqliteStore(source) as old, PostgresStore(postgres_url_fixture) as new:
        for guild, mode in (("g1", "classic"), ("g1", "teams"), ("g1", "three")):
            for sort in ("wins", "points", "rating"):
                assert await old.leaderboard(guild, 10, 0, sort=sort, mode=mode) == (
                    await new.leaderboard(guild, 10, 0, sort=sort, mode=mode)
                )
            assert await old.bot_records(guild, 10, 0, mode) == await new.bot_records(
                guild, 10, 0, mode
            )
            for user in ("ann", "ben", "cat", "dan"):
                assert await old.player_stats(guild, user, mode) == await new.player_stats(
                    guild, user, mode
                )
                assert await old.history(guild, user, 10, 0, mode) == await new.history(
                    guild, user, 10, 0, mode
                )
        assert await old.due_deadlines(at(999)) == await new.due_deadlines(at(999))
        # A review sent before the copy is not sent again after it.
        (sent,) = [
            ReviewKey(*r) for r in await new._all("SELECT match_id, hand, board, seat FROM reviews")
        ]
        assert await new.claim_review(sent, at(7), at(67)) == "sent"
        # The copy plays on: new matches get new ids, the match in play takes its next move.
        (_, playing) = await new.open_tables()
        await new.record_move(move(playing.id, 2))
        fresh = await new_match(new, "ann", "dan")
        assert fresh == 9


async def test_a_target_with_rows_is_refused_unless_replaced(
    source: Path, postgres_url_fixture: str
) -> None:
    await copy_database(source, postgres_url_fixture)
    async with PostgresStore(postgres_url_fixture) as new:
        await new.upsert_player("zed", "Zed", at(9))
    with pytest.raises(CopyRefused, match=r"already holds rows .*5 players.*--replace"):
        await copy_database(source, postgres_url_fixture)
    report = await copy_database(source, postgres_url_fixture, replace=True)
    assert report.ok and report.counts["players"] == (4, 4)


async def test_nothing_is_copied_from_nowhere_or_to_a_file(
    tmp_path: Path, postgres_url_fixture: str
) -> None:
    with pytest.raises(CopyRefused, match="no SQLite database"):
        await copy_database(tmp_path / "missing.sqlite3", postgres_url_fixture)
    assert not (tmp_path / "missing.sqlite3").exists()
    with pytest.raises(CopyRefused, match="postgresql:// URL"):
        await copy_database(tmp_path / "missing.sqlite3", str(tmp_path / "other.sqlite3"))


async def test_the_command_prints_its_report_and_refuses_a_second_copy(
    source: Path, postgres_url_fixture: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--from", str(source), "--to", postgres_url_fixture]
    # main() runs its own event loop, so it gets a thread of its own here.
    with ThreadPoolExecutor(1) as thread:
        assert await asyncio.wrap_future(thread.submit(main, argv)) == 0
        out = capsys.readouterr().out
        assert "matches" in out and "the same on both sides" in out
        assert await asyncio.wrap_future(thread.submit(main, argv)) == 2
        assert "Nothing copied" in capsys.readouterr().err
        assert await asyncio.wrap_future(thread.submit(main, [*argv, "--replace"])) == 0


def test_python_m_bot_store_copy_runs(tmp_path: Path) -> None:
    """The module runs as a command; its usage is there for the asking."""
    done = subprocess.run(
        [sys.executable, "-m", "bot.store.copy", "--help"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "--replace" in done.stdout

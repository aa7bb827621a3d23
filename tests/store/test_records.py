"""Leaderboard sorts and provisional marks, records against the bot, match history and the
figures of player stats."""

from __future__ import annotations

import pytest

from bot.store import HistoryRow, LeaderSort, RatingRow
from bot.store.codec import streaks
from tests.store.helpers import AnyStore, at, finish, move, new_match, play

BOT = "gin-bot"


def rated(user: str, mu: float, sigma: float, matches: int) -> RatingRow:
    return RatingRow("g1", user, mu, sigma, matches)


@pytest.fixture
async def league(store: AnyStore) -> AnyStore:
    """Five human players, some rated; and a few matches against the bot.

    played/won/hand points/final scores (a challenger's final score is 25 more than their
    points): ann 5/3/320/420, ben 4/2/220/245, dan 5/2/230/280, cat 1/1/300/325, eve 1/0/10/10.
    Ratings (mu - 3 sigma): cat 31, ben 25, ann 24; dan and eve unrated.
    """
    for user in ("ann", "ben", "cat", "dan", "fay"):
        await store.upsert_player(user, user.title(), at(0))
    await store.upsert_player(BOT, "Gin Bot", at(0))
    await play(store, "ann", "ben", "ann", points=(100, 10))
    await play(store, "ann", "ben", "ann", points=(100, 10))
    await play(store, "ann", "ben", "ben", points=(10, 100))
    await play(store, "ann", "dan", "ann", points=(100, 10))
    await play(store, "ben", "dan", "ben", points=(100, 10), ratings=(rated("ben", 28, 1, 4),))
    await play(store, "dan", "ann", "dan", points=(100, 10), ratings=(rated("ann", 30, 2, 5),))
    await play(store, "cat", "dan", "cat", points=(300, 10), ratings=(rated("cat", 40, 3, 1),))
    await play(store, "dan", "eve", "dan", points=(100, 10))
    # Against the bot: never on the leaderboard, whatever the score.
    await play(store, "ann", BOT, "ann", vs_bot=True, points=(500, 0))
    await play(store, "ann", BOT, BOT, vs_bot=True, points=(0, 100))
    await play(store, "fay", BOT, "fay", vs_bot=True, points=(100, 0))
    await play(store, "gus", BOT, BOT, vs_bot=True, points=(0, 100))
    return store


async def order(
    store: AnyStore, sort: LeaderSort = "wins", provisional_below: int = 0
) -> list[str]:
    rows, _ = await store.leaderboard("g1", 50, 0, sort=sort, provisional_below=provisional_below)
    return [r.user_id for r in rows]


async def test_leaderboard_sorts(league: AnyStore) -> None:
    rows, _ = await league.leaderboard("g1", 50, 0)  # the default order is by wins
    assert [r.user_id for r in rows] == ["ann", "ben", "dan", "cat", "eve"]
    assert await order(league, sort="wins") == ["ann", "ben", "dan", "cat", "eve"]
    assert await order(league, sort="points") == ["ann", "cat", "dan", "ben", "eve"]
    # Rated players by rating, then the unrated by wins.
    assert await order(league, sort="rating") == ["cat", "ben", "ann", "dan", "eve"]
    # With 3 matches needed, cat's one lucky match puts him after the established players.
    assert await order(league, sort="rating", provisional_below=3) == [
        "ben",
        "ann",
        "dan",
        "cat",
        "eve",
    ]
    with pytest.raises(ValueError, match="sort"):
        await league.leaderboard("g1", 10, 0, sort="luck")  # type: ignore[arg-type]


async def test_leaderboard_rows_carry_ratings_and_marks(league: AnyStore) -> None:
    rows, total = await league.leaderboard("g1", 50, 0, sort="rating", provisional_below=3)
    assert total == 5
    by_user = {r.user_id: r for r in rows}
    ann = by_user["ann"]
    # bot games left out
    assert (ann.played, ann.won, ann.lost, ann.hand_points, ann.final_scores) == (5, 3, 2, 320, 420)
    assert (ann.mu, ann.sigma, ann.rating, ann.provisional) == (30.0, 2.0, 24.0, False)
    assert (by_user["cat"].rating, by_user["cat"].provisional) == (31.0, True)
    dan = by_user["dan"]
    assert (dan.mu, dan.sigma, dan.rating, dan.provisional) == (None, None, None, False)
    assert by_user["eve"].provisional and by_user["eve"].name is None
    # With no threshold, nobody is provisional.
    rows, _ = await league.leaderboard("g1", 50, 0, sort="rating")
    assert not any(r.provisional for r in rows)


async def test_leaderboard_pages_in_every_sort(league: AnyStore) -> None:
    sorts: tuple[LeaderSort, ...] = ("wins", "points", "rating")
    for sort in sorts:
        whole = await order(league, sort=sort, provisional_below=3)
        pages = [
            await league.leaderboard("g1", 2, offset, sort=sort, provisional_below=3)
            for offset in (0, 2, 4, 6)
        ]
        assert [r.user_id for rows, _ in pages for r in rows] == whole
        assert {total for _, total in pages} == {5}


async def test_records_against_the_bot(league: AnyStore) -> None:
    rows, total = await league.bot_records("g1", 10, 0)
    assert total == 3
    assert [(r.user_id, r.name, r.played, r.won, r.lost, r.final_scores) for r in rows] == [
        ("fay", "Fay", 1, 1, 0, 125),
        ("ann", "Ann", 2, 1, 1, 550),
        ("gus", None, 1, 0, 1, 25),
    ]
    assert all(r.rating is None and not r.provisional for r in rows)
    page, _ = await league.bot_records("g1", 1, 1)
    assert [r.user_id for r in page] == ["ann"]
    assert await league.bot_records("g2", 10, 0) == ([], 0)
    assert BOT not in await order(league)
    assert await league.get_ratings("g1", [BOT, "fay", "gus"]) == {}


async def test_bot_matches_count_in_stats_and_history(league: AnyStore) -> None:
    ann = await league.player_stats("g1", "ann")
    assert ann is not None and (ann.played, ann.won, ann.hand_points) == (7, 4, 820)
    assert (ann.final_scores, ann.avg_final_score) == (970, 970 / 7)
    fay = await league.player_stats("g1", "fay")
    assert fay is not None and (fay.played, fay.won, fay.rating) == (1, 1, None)
    rows, total = await league.history("g1", "ann", 2, 0)
    assert total == 7
    assert [(r.opponent_id, r.opponent_name, r.won, r.vs_bot) for r in rows] == [
        (BOT, "Gin Bot", False, True),
        (BOT, "Gin Bot", True, True),
    ]


async def test_history_pages_newest_first(store: AnyStore) -> None:
    await store.upsert_player("bob", "Bob", at(0))
    # Finish times out of id order: history follows the time, not the id.
    first = await play(store, "alice", "bob", "alice", points=(120, 40), finished_at=at(50))
    second = await play(store, "bob", "alice", "bob", points=(110, 0), finished_at=at(40))
    third = await play(store, "alice", "carol", "carol", points=(5, 100), finished_at=at(60))
    await play(store, "alice", "bob", "bob", guild="g2")  # another guild
    await new_match(store, "alice", "bob")  # still playing

    rows, total = await store.history("g1", "alice", 10, 0)
    assert total == 3
    assert rows == [
        HistoryRow(third, "carol", None, False, 5, 30, 100, "target", at(60), False, place=2),
        HistoryRow(first, "bob", "Bob", True, 120, 145, 40, "target", at(50), False, place=1),
        HistoryRow(second, "bob", "Bob", False, 0, 0, 135, "target", at(40), False, place=2),
    ]
    page, total = await store.history("g1", "alice", 2, 2)
    assert (page, total) == (rows[2:], 3)
    assert await store.history("g1", "alice", 2, 3) == ([], 3)
    assert await store.history("g1", "nobody", 10, 0) == ([], 0)
    with pytest.raises(ValueError):
        await store.history("g1", "alice", 10, -1)


async def test_stats_figures(store: AnyStore) -> None:
    # zed sits in seat 0, then 1, then 0 against the bot; matches finish in that order.
    await play(
        store,
        "zed",
        "yan",
        "zed",
        hands=(("knock", 0), ("undercut", 1), ("void", None), ("gin", 0)),
        points=(120, 30),
        finished_at=at(100),
    )
    await play(
        store,
        "yan",
        "zed",
        "zed",
        hands=(("big_gin", 1), ("knock", 0), ("undercut", 1)),
        points=(40, 110),
        finished_at=at(200),
        ratings=(rated("zed", 27.5, 2.5, 2),),
    )
    await play(
        store,
        "zed",
        BOT,
        BOT,
        vs_bot=True,
        hands=(("knock", 1),),
        points=(0, 100),
        finished_at=at(300),
    )
    live = await new_match(store, "zed", "yan")  # hands of an unfinished match do not count
    await store.record_move(move(live, 1))

    zed = await store.player_stats("g1", "zed")
    assert zed is not None
    assert (zed.played, zed.won, zed.lost, zed.hand_points) == (3, 2, 1, 230)
    assert (zed.final_scores, zed.avg_final_score) == (145 + 110 + 25, 280 / 3)
    assert (zed.hands_played, zed.hands_won) == (8, 4)
    # Knocked in: the first knock, the undercut knock, the gin, the big gin.
    assert (zed.knocks, zed.knock_wins) == (4, 1)
    # Undercut once as defender (the first match), undercut once as knocker (the second).
    assert (zed.gins, zed.big_gins, zed.undercuts_made, zed.undercuts_suffered) == (1, 1, 1, 1)
    assert zed.avg_hand_points == 230 / 8
    assert (zed.knock_rate, zed.gin_rate, zed.undercut_rate) == (0.5, 1 / 8, 1 / 8)
    assert (zed.current_streak, zed.best_streak) == (0, 2)  # the bot won the last one
    assert (zed.mu, zed.sigma, zed.rating, zed.rating_matches) == (27.5, 2.5, 20.0, 2)

    yan = await store.player_stats("g1", "yan")
    assert yan is not None
    assert (yan.hands_played, yan.hands_won, yan.knocks, yan.knock_wins) == (7, 2, 2, 1)
    assert (yan.undercuts_made, yan.undercuts_suffered) == (1, 1)
    assert (yan.current_streak, yan.best_streak) == (0, 0)
    assert (yan.mu, yan.rating, yan.rating_matches) == (None, None, 0)


async def test_streaks_follow_finish_order(store: AnyStore) -> None:
    wins = "WWLWWWLWW"
    for n, outcome in enumerate(wins):
        winner = "ann" if outcome == "W" else "bob"
        # Finish times run backwards against the ids, so only the time can order them.
        await play(store, "ann", "bob", winner, finished_at=at(1000 - n))
    ann = await store.player_stats("g1", "ann")
    bob = await store.player_stats("g1", "bob")
    assert ann is not None and bob is not None
    # Newest is the first played here (latest time): W, then W, L, W, W, W, L, W, W going back.
    assert (ann.current_streak, ann.best_streak) == (2, 3)
    assert (bob.current_streak, bob.best_streak) == (0, 1)


def test_streak_counting() -> None:
    assert streaks([]) == (0, 0)
    assert streaks([0, 1, 1, 1]) == (0, 3)
    assert streaks([1, 1, 0, 1, 1, 1, 0]) == (2, 3)
    assert streaks([1, 1, 1]) == (3, 3)


async def test_stats_before_any_hand_was_finished(store: AnyStore) -> None:
    mid = await new_match(store, "ann", "bob")
    await store.end_match(mid, None, finish("ann", "bob", "bob", reason="resign"), at(3))
    ann = await store.player_stats("g1", "ann")
    assert ann is not None and (ann.played, ann.hands_played, ann.hand_points) == (1, 0, 100)
    assert (ann.avg_hand_points, ann.knock_rate, ann.gin_rate, ann.undercut_rate) == (
        0.0,
        0.0,
        0.0,
        0.0,
    )
    assert (ann.current_streak, ann.best_streak) == (0, 0)

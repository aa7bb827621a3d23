"""Leaderboard and player stats, computed from recorded results and hands."""

from __future__ import annotations

import pytest

from bot.store import LeaderRow
from tests.store.helpers import (
    AnyStore,
    at,
    board,
    hand,
    move,
    new_lobby,
    new_match,
    placed,
    play,
    play_hands,
    seated,
)

# (challenger, opponent, winner, (challenger points, opponent points))
GUILD_MATCHES = [
    ("ann", "gus", "ann", (100, 10)),
    ("ann", "gus", "ann", (100, 10)),
    ("ben", "gus", "ben", (100, 10)),
    ("ben", "gus", "ben", (100, 10)),
    ("ben", "hal", "hal", (10, 100)),
    ("cat", "gus", "cat", (100, 10)),
    ("eve", "gus", "eve", (150, 10)),
    ("fay", "gus", "fay", (100, 10)),
    ("fay", "gus", "gus", (10, 100)),
]


@pytest.fixture
async def ranked(store: AnyStore) -> AnyStore:
    for user in ("ann", "ben", "cat", "eve", "fay", "gus"):  # hal never upserted
        await store.upsert_player(user, user.title(), at(0))
    for challenger, opponent, winner, points in GUILD_MATCHES:
        await play(store, challenger, opponent, winner, points=points)
    await play(store, "ann", "gus", "gus", guild="g2")  # another guild: ignored
    await new_match(store, "gus", "ann")  # still playing: ignored
    return store


async def test_leaderboard_order_and_ties(ranked: AnyStore) -> None:
    rows, total = await ranked.leaderboard("g1", 50, 0)
    assert total == 7
    # won first (ben before eve), then win rate (ann before ben despite lower scores;
    # fay before gus likewise), then final scores (eve before cat), then user id (cat before
    # hal). A challenger's final score is 25 more than their hand points.
    assert [r.user_id for r in rows] == ["ann", "ben", "eve", "cat", "hal", "fay", "gus"]
    assert rows[0] == LeaderRow(
        "ann", "Ann", played=2, won=2, lost=0, win_rate=1.0, hand_points=200, final_scores=250
    )
    assert rows[1] == LeaderRow("ben", "Ben", 3, 2, 1, 2 / 3, 210, 285)
    assert rows[4] == LeaderRow("hal", None, 1, 1, 0, 1.0, 100, 100)
    assert rows[6] == LeaderRow("gus", "Gus", 8, 1, 7, 0.125, 170, 170)


async def test_leaderboard_pages(ranked: AnyStore) -> None:
    pages = [await ranked.leaderboard("g1", 3, offset) for offset in (0, 3, 6, 9)]
    assert [[r.user_id for r in rows] for rows, _ in pages] == [
        ["ann", "ben", "eve"],
        ["cat", "hal", "fay"],
        ["gus"],
        [],
    ]
    assert {total for _, total in pages} == {7}
    assert await ranked.leaderboard("nowhere", 10, 0) == ([], 0)
    with pytest.raises(ValueError):
        await ranked.leaderboard("g1", -1, 0)


async def test_other_guild_is_separate(ranked: AnyStore) -> None:
    rows, total = await ranked.leaderboard("g2", 10, 0)
    assert total == 2
    assert [(r.user_id, r.won, r.played) for r in rows] == [("gus", 1, 1), ("ann", 0, 1)]


async def test_player_stats(store: AnyStore) -> None:
    await store.upsert_player("alice", "Alice", at(0))
    # alice is seat 0 here
    await play(
        store,
        "alice",
        "bob",
        "alice",
        hands=(("gin", 0), ("undercut", 1), ("knock", 0), ("void", None), ("big_gin", 0)),
        points=(120, 30),
    )
    # and seat 1 here
    await play(
        store,
        "bob",
        "alice",
        "bob",
        hands=(("knock", 1), ("gin", 0), ("undercut", 0)),
        points=(105, 25),
    )
    # hands of a match still in play, and of another guild, do not count
    live = await new_match(store, "alice", "bob")
    await store.record_move(move(live, 1, finished_hand=hand(live, 1, "gin", 0)))
    await play(store, "alice", "bob", "alice", guild="g2", hands=(("gin", 0),))

    alice = await store.player_stats("g1", "alice")
    assert alice is not None
    assert (alice.name, alice.played, alice.won, alice.lost, alice.win_rate) == (
        "Alice",
        2,
        1,
        1,
        0.5,
    )
    assert (alice.hands_won, alice.gins, alice.big_gins, alice.knock_wins) == (4, 1, 1, 2)
    # Bob undercut Alice's knock once in each match; Alice never undercut him.
    assert (alice.undercuts_made, alice.undercuts_suffered) == (0, 2)
    assert (alice.hand_points, alice.final_scores) == (145, 145 + 25)

    bob = await store.player_stats("g1", "bob")
    assert bob is not None
    assert (bob.name, bob.played, bob.won, bob.lost, bob.hand_points) == (None, 2, 1, 1, 135)
    assert (bob.hands_won, bob.gins, bob.big_gins, bob.knock_wins) == (3, 1, 0, 0)
    assert (bob.undercuts_made, bob.undercuts_suffered, bob.final_scores) == (2, 0, 135 + 25)

    assert await store.player_stats("g1", "carol") is None
    assert await store.player_stats("g3", "alice") is None


async def test_undercuts_made_and_suffered_are_counted_apart(store: AnyStore) -> None:
    # Alice knocks and is undercut three times, once from seat 1; she undercuts Bob once.
    await play(
        store,
        "alice",
        "bob",
        "bob",
        hands=(("undercut", 1), ("undercut", 1), ("undercut", 0), ("knock", 1)),
        points=(25, 110),
    )
    await play(store, "bob", "alice", "bob", hands=(("undercut", 0), ("gin", 0)), points=(100, 0))
    alice = await store.player_stats("g1", "alice")
    bob = await store.player_stats("g1", "bob")
    assert alice is not None and bob is not None
    assert (alice.undercuts_made, alice.undercuts_suffered) == (1, 3)
    assert (bob.undercuts_made, bob.undercuts_suffered) == (3, 1)
    assert alice.undercut_rate == 1 / 6  # the rate is of undercuts made
    # A knock counts whatever came of it: Alice's three undercut knocks are knocks.
    assert (alice.knocks, alice.knock_wins, bob.knocks, bob.knock_wins) == (3, 0, 3, 1)


async def test_undercuts_of_the_modes_follow_their_seats(store: AnyStore) -> None:
    three = await new_lobby(store, "three", seated("ann", "ben", "cat"))
    hands = [
        board(three, 1, (1, 2), "undercut", 2, knocker_seat=1),  # ann sits out
        board(three, 2, (2, 0), "undercut", 0, knocker_seat=2),
        board(three, 3, (0, 1), "undercut", 0, knocker_seat=1),
    ]
    await play_hands(store, three, hands, placed(seated("ann", "ben", "cat"), (1, 3, 2)))
    found = {u: await store.player_stats("g1", u, mode="three") for u in ("ann", "ben", "cat")}
    assert {u: (s.undercuts_made, s.undercuts_suffered) for u, s in found.items() if s} == {
        "ann": (2, 0),
        "ben": (0, 2),
        "cat": (1, 1),
    }

    four = seated("ann", "ben", "cat", "dan", teams=(0, 1, 0, 1))
    teams = await new_lobby(store, "teams", four)
    boards = [
        board(teams, 1, (0, 1), "undercut", 1, knocker_seat=0),
        board(teams, 1, (2, 3), "undercut", 3, knocker_seat=2, board_number=1),
        board(teams, 2, (0, 3), "undercut", 0, knocker_seat=3),
    ]
    await play_hands(store, teams, boards, placed(four, (2, 1, 2, 1)))
    found = {u: await store.player_stats("g1", u, mode="teams") for u in ("ann", "ben", "dan")}
    assert {u: (s.undercuts_made, s.undercuts_suffered) for u, s in found.items() if s} == {
        "ann": (1, 1),
        "ben": (1, 0),
        "dan": (1, 1),
    }

"""Ratings are written with the result that caused them, or not at all."""

from __future__ import annotations

import pytest

from bot.store import MatchEnd, RatingRow, StaleMove
from tests.store.helpers import INTEGRITY, AnyStore, at, finish, hand, move, new_match, play

ANN = RatingRow("g1", "alice", 27.5, 7.9, 1)
BOB = RatingRow("g1", "bob", 22.5, 7.9, 1)


async def test_ratings_land_with_the_finishing_move(store: AnyStore) -> None:
    assert await store.get_ratings("g1", ["alice", "bob"]) == {}
    mid = await new_match(store)
    await store.record_move(move(mid, 1, ratings=(ANN, BOB)))  # not finishing: ignored
    assert (await store.counts())["ratings"] == 0
    end = finish("alice", "bob", "alice")
    await store.record_move(move(mid, 2, finished=end, ratings=(ANN, BOB)))
    assert await store.get_ratings("g1", ["alice", "bob", "carol", "alice"]) == {
        "alice": ANN,
        "bob": BOB,
    }
    assert await store.get_ratings("g2", ["alice"]) == {}
    assert await store.get_ratings("g1", []) == {}
    stamps = await store._all("SELECT DISTINCT updated_at FROM ratings")
    assert [r[0] for r in stamps] == [at(2)]


async def test_a_later_match_replaces_the_rating(store: AnyStore) -> None:
    await play(store, "alice", "bob", "alice", ratings=(ANN, BOB))
    newer = RatingRow("g1", "bob", 24.0, 7.0, 2)
    await play(store, "alice", "bob", "bob", ratings=(newer,))  # one player is enough
    assert await store.get_ratings("g1", ["alice", "bob"]) == {"alice": ANN, "bob": newer}


async def test_end_match_saves_ratings_but_a_cancel_does_not(store: AnyStore) -> None:
    resigned = await new_match(store)
    end = finish("alice", "bob", "bob", reason="resign")
    await store.end_match(resigned, None, end, at(5), ratings=(ANN, BOB))
    assert set(await store.get_ratings("g1", ["alice", "bob"])) == {"alice", "bob"}
    cancelled = await new_match(store, "carol", "dave")
    carol = RatingRow("g1", "carol", 30.0, 5.0, 1)
    await store.end_match(cancelled, None, MatchEnd.cancelled("admin"), at(6), ratings=(carol,))
    assert await store.get_ratings("g1", ["carol"]) == {}


@pytest.mark.parametrize(
    ("ratings", "error"),
    [
        ((ANN, RatingRow("g1", "mallory", 25.0, 8.0, 1)), ValueError),  # not a player
        ((ANN, ANN), ValueError),  # twice
        ((RatingRow("g2", "alice", 25.0, 8.0, 1),), ValueError),  # another guild
        ((RatingRow("g1", "alice", 25.0, 0.0, 1),), INTEGRITY),  # sigma must be > 0
    ],
)
async def test_bad_ratings_undo_the_whole_finishing_move(
    store: AnyStore, ratings: tuple[RatingRow, ...], error: type[Exception]
) -> None:
    mid = await new_match(store)
    before = (await store.counts(), await store.get_table(mid))
    end = finish("alice", "bob", "alice")
    with pytest.raises(error):
        await store.record_move(
            move(mid, 1, finished_hand=hand(mid, 1, "gin", 0), finished=end, ratings=ratings)
        )
    assert (await store.counts(), await store.get_table(mid)) == before
    await store.record_move(move(mid, 1, finished=end, ratings=(ANN, BOB)))  # still playable
    assert (await store.counts())["ratings"] == 2


async def test_a_failing_move_takes_its_ratings_with_it(store: AnyStore) -> None:
    mid = await new_match(store)
    end = finish("alice", "bob", "alice")
    bad_hand = hand(mid, 1, "void", 1)  # a void hand with a winner breaks a CHECK
    with pytest.raises(INTEGRITY):
        await store.record_move(move(mid, 1, finished_hand=bad_hand, finished=end, ratings=(ANN,)))
    with pytest.raises(StaleMove):
        await store.record_move(move(mid, 7, finished=end, ratings=(ANN,)))  # wrong seq
    assert (await store.counts())["ratings"] == 0
    assert await store.results(mid) == []


async def test_matches_against_the_bot_are_never_rated(store: AnyStore) -> None:
    mid = await new_match(store, "alice", "gin-bot", vs_bot=True)
    table = await store.get_table(mid)
    assert table is not None and table.vs_bot
    end = finish("alice", "gin-bot", "alice")
    with pytest.raises(ValueError, match="bot"):
        await store.record_move(move(mid, 1, finished=end, ratings=(ANN,)))
    assert await store.results(mid) == []
    await store.record_move(move(mid, 1, finished=end))
    assert [r.won for r in await store.results(mid)] == [True, False]

"""A table's life: challenge, start, moves, end; and the guards on each step."""

from __future__ import annotations

import pytest

from bot.store import ChannelBusy, MatchEnd, SeatResult, StaleMove
from tests.store.helpers import (
    INTEGRITY,
    AnyStore,
    Database,
    at,
    finish,
    hand,
    move,
    new_match,
    state,
)


async def test_round_trip(store: AnyStore) -> None:
    mid = await store.create_challenge("g1", "c1", "alice", "bob", {"target": 150}, at(1))
    await store.set_display(mid, {"message_id": "42"}, at(2))
    table = await store.get_table(mid)
    assert table is not None
    assert (table.status, table.settings, table.state, table.display) == (
        "challenge",
        {"target": 150},
        None,
        {"message_id": "42"},
    )
    assert (table.guild_id, table.channel_id, table.challenger_id, table.opponent_id) == (
        "g1",
        "c1",
        "alice",
        "bob",
    )
    assert (table.created_at, table.updated_at) == (at(1), at(2))

    await store.start_match(mid, state(0), at(3))
    await store.record_move(move(mid, 1))
    first = hand(mid, 1, "gin", 0, knocker_seat=0, points=40)
    await store.record_move(move(mid, 2, finished_hand=first))
    await store.record_move(move(mid, 3, hand_number=2))
    await store.record_move(
        move(
            mid,
            4,
            hand_number=2,
            finished_hand=hand(mid, 2, "knock", 0, knocker_seat=0, points=70),
            finished=finish("alice", "bob", "alice", points=(110, 0)),
        )
    )

    table = await store.get_table(mid)
    assert table is not None
    assert (table.status, table.move_count, table.state) == ("finished", 4, state(4))
    assert (table.winner_id, table.end_reason, table.finished_at) == ("alice", "target", at(4))
    assert [m.seq for m in await store.moves(mid)] == [1, 2, 3, 4]
    assert (await store.moves(mid))[1].action == {"kind": "discard", "card": "7h", "seq": 2}
    assert await store.hands(mid) == [first, hand(mid, 2, "knock", 0, knocker_seat=0, points=70)]
    results = await store.results(mid)
    assert [
        (r.user_id, r.seat, r.opponent_id, r.won, r.points, r.final_score) for r in results
    ] == [
        ("alice", 0, "bob", True, 110, 135),
        ("bob", 1, "alice", False, 0, 0),
    ]
    assert {(r.guild_id, r.reason, r.finished_at) for r in results} == {("g1", "target", at(4))}
    assert await store.open_tables() == []


async def test_one_open_table_per_channel(store: AnyStore) -> None:
    first = await store.create_challenge("g1", "c1", "alice", "bob", {}, at(1))
    with pytest.raises(ChannelBusy) as busy:
        await store.create_challenge("g1", "c1", "carol", "dave", {}, at(2))
    assert (busy.value.channel_id, busy.value.match_id) == ("c1", first)
    other = await store.create_challenge("g1", "c2", "carol", "dave", {}, at(2))  # fine

    await store.start_match(first, state(0), at(3))
    with pytest.raises(ChannelBusy):
        await store.create_challenge("g1", "c1", "carol", "dave", {}, at(4))
    await store.record_move(move(first, 1, finished=finish("alice", "bob", "bob")))
    second = await store.create_challenge("g1", "c1", "carol", "dave", {}, at(5))
    await store.close_challenge(second, "declined", at(6))
    third = await store.create_challenge("g1", "c1", "alice", "dave", {}, at(7))
    assert [(t.id, t.channel_id) for t in await store.open_tables()] == [
        (other, "c2"),
        (third, "c1"),
    ]


async def test_challenging_yourself_is_refused(store: AnyStore) -> None:
    with pytest.raises(ValueError):
        await store.create_challenge("g1", "c1", "alice", "alice", {}, at(1))


async def test_status_guards(store: AnyStore) -> None:
    mid = await new_match(store, start=False)
    with pytest.raises(StaleMove):
        await store.record_move(move(mid, 1))  # not started yet
    await store.start_match(mid, state(0), at(1))
    with pytest.raises(StaleMove):
        await store.start_match(mid, state(0), at(2))  # accepted twice
    with pytest.raises(StaleMove):
        await store.close_challenge(mid, "expired", at(2))  # already playing
    with pytest.raises(StaleMove):
        await store.set_display(9999, {}, at(2))
    with pytest.raises(ValueError):
        await store.close_challenge(mid, "finished", at(2))  # type: ignore[arg-type]


async def test_closed_challenge_keeps_its_status(store: AnyStore) -> None:
    mid = await new_match(store, start=False)
    await store.close_challenge(mid, "expired", at(5))
    table = await store.get_table(mid)
    assert table is not None
    assert (table.status, table.finished_at, table.winner_id) == ("expired", at(5), None)
    with pytest.raises(StaleMove):
        await store.start_match(mid, state(0), at(6))


async def test_duplicate_seq_is_stale_and_writes_nothing(store: AnyStore) -> None:
    mid = await new_match(store)
    await store.record_move(move(mid, 1))
    before = (await store.counts(), await store.get_table(mid))
    for seq in (1, 3, 0):  # a double click, a skipped move, nonsense
        with pytest.raises(StaleMove):
            await store.record_move(move(mid, seq, finished_hand=hand(mid, 1, "gin", 0)))
    assert (await store.counts(), await store.get_table(mid)) == before
    await store.record_move(move(mid, 2))  # the real next move still goes through


async def test_a_bad_hand_rolls_back_the_whole_move(store: AnyStore) -> None:
    mid = await new_match(store)
    await store.record_move(move(mid, 1))
    before = (await store.counts(), await store.get_table(mid))
    bad = hand(mid, 1, "void", 1)  # a void hand cannot have a winner (CHECK constraint)
    with pytest.raises(INTEGRITY):
        await store.record_move(move(mid, 2, finished_hand=bad))
    assert (await store.counts(), await store.get_table(mid)) == before
    await store.record_move(move(mid, 2, finished_hand=hand(mid, 1, "void", None)))
    assert (await store.counts())["hands"] == 1


async def test_bad_results_roll_back_the_finishing_move(store: AnyStore) -> None:
    mid = await new_match(store)
    before = (await store.counts(), await store.get_table(mid))
    stranger = MatchEnd(
        status="finished",
        reason="target",
        winner_id="alice",
        results=(SeatResult("alice", 0, 100, 125), SeatResult("mallory", 1, 0, 0)),
    )
    with pytest.raises(ValueError, match="players of the match"):
        await store.record_move(
            move(mid, 1, finished_hand=hand(mid, 1, "gin", 0), finished=stranger)
        )
    assert (await store.counts(), await store.get_table(mid)) == before


async def test_a_hand_of_another_match_is_refused(store: AnyStore) -> None:
    mid = await new_match(store)
    with pytest.raises(ValueError):
        await store.record_move(move(mid, 1, finished_hand=hand(mid + 1, 1, "gin", 0)))


def test_match_end_shapes_are_checked() -> None:
    with pytest.raises(ValueError):
        MatchEnd(status="cancelled", reason="admin", winner_id="alice")
    with pytest.raises(ValueError):
        MatchEnd(status="finished", reason="boredom", winner_id="alice")
    with pytest.raises(ValueError):
        MatchEnd(
            status="finished",
            reason="target",
            winner_id="carol",
            results=finish("a", "b", "a").results,
        )
    with pytest.raises(ValueError):
        MatchEnd(
            status="finished",
            reason="target",
            winner_id="a",
            results=(SeatResult("a", 0, 1, 1), SeatResult("b", 0, 1, 1)),
        )


async def test_resign_without_a_move(store: AnyStore) -> None:
    mid = await new_match(store)
    await store.record_move(move(mid, 1))
    await store.end_match(
        mid, None, finish("alice", "bob", "bob", reason="resign", points=(0, 0)), at(9)
    )
    table = await store.get_table(mid)
    assert table is not None
    assert (table.status, table.winner_id, table.end_reason, table.state) == (
        "finished",
        "bob",
        "resign",
        state(1),
    )
    assert [(r.user_id, r.won, r.reason) for r in await store.results(mid)] == [
        ("alice", False, "resign"),
        ("bob", True, "resign"),
    ]
    with pytest.raises(StaleMove):
        await store.end_match(mid, None, MatchEnd.cancelled("admin"), at(10))


async def test_cancel_records_no_results(store: AnyStore) -> None:
    mid = await new_match(store)
    await store.end_match(mid, {"final": True}, MatchEnd.cancelled("admin"), at(9))
    table = await store.get_table(mid)
    assert table is not None
    assert (table.status, table.winner_id, table.end_reason, table.state) == (
        "cancelled",
        None,
        "admin",
        {"final": True},
    )
    assert await store.results(mid) == []
    with pytest.raises(ValueError):
        await store.record_move(move(mid, 1, finished=MatchEnd.cancelled("admin")))


async def test_open_tables_survive_a_restart(database: Database) -> None:
    async with database.store() as store:
        playing = await new_match(store, channel="c1")
        await store.record_move(move(playing, 1))
        await store.record_move(move(playing, 2, finished_hand=hand(playing, 1, "knock", 1)))
        await store.set_display(playing, {"board": "7", "hands": {"alice": "8"}}, at(3))
        waiting = await new_match(store, "carol", "dave", channel="c2", start=False)
        done = await new_match(store, channel="c3")
        await store.end_match(done, None, MatchEnd.cancelled("admin"), at(4))
        before = await store.open_tables()
    async with database.store() as store:
        after = await store.open_tables()
        assert after == before
        assert [(t.id, t.status, t.move_count) for t in after] == [
            (playing, "playing", 2),
            (waiting, "challenge", 0),
        ]
        assert after[0].state == state(2)
        assert after[0].display == {"board": "7", "hands": {"alice": "8"}}
        await store.record_move(move(playing, 3, hand_number=2))  # play carries on

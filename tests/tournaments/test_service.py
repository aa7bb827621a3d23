"""The tournament service end to end on the store: sign-up, rounds paired and played (their
matches opened as the Discord layer will), results, withdrawals, time limits, restarts and
two processes at once; and every refusal changing nothing."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from bot.gin.match import Match
from bot.store import HandRow, MatchEnd, MoveRecord, SeatResult
from bot.tournaments import (
    Format,
    TableToEnd,
    TournamentError,
    TournamentService,
    TournamentSettings,
    Update,
)
from tests.store.helpers import AnyStore, Database
from tests.tournaments.conftest import Clock
from tests.tournaments.helpers import finish_table, start_all, start_table


async def opened(
    service: TournamentService, players: list[str], channel: str = "lobby", **settings: object
) -> int:
    tournament = await service.open("g1", channel, "org", TournamentSettings(**settings))  # type: ignore[arg-type]
    for user in players:
        await service.join(tournament.id, user, user.upper())
    return tournament.id


def number(user: str) -> int:
    return int(user[1:])


async def play_round(
    store: AnyStore,
    service: TournamentService,
    clock: Clock,
    update: Update,
    upsets: set[str] = frozenset(),  # type: ignore[assignment]
) -> Update:
    """Start the round's matches and finish them one by one: the better seed (the lower
    number) wins unless the other is in ``upsets``. The last result's update."""
    tables = await start_all(store, service, update)
    assert tables, "a round without matches"
    last: Update | None = None
    for (a, b), table in tables.items():
        winner = min(a, b, key=number)
        loser = b if winner == a else a
        if loser in upsets:
            winner = loser
        clock.advance(minutes=3)
        await finish_table(store, table, winner, clock())
        last = await service.match_finished(table)
        assert last is not None and last.changed
        assert [p.winner_id for p in last.decided] == [winner]
    assert last is not None
    return last


async def test_a_swiss_of_eight_played_to_the_end(store: AnyStore, clock: Clock) -> None:
    service = TournamentService(store, clock)
    players = [f"p{n}" for n in range(1, 9)]
    tid = await opened(service, players)
    update = await service.start(tid, "org")
    assert update.started and update.round_started == 1 and update.tournament.rounds_total == 3
    assert [m.players for m in update.matches_to_start] == [
        ("p1", "p5"), ("p2", "p6"), ("p3", "p7"), ("p4", "p8"),
    ]  # fmt: skip
    assert all(m.seed is None for m in update.matches_to_start)  # ordinary shuffles
    assert {e.user_id: e.seed for e in update.tournament.entrants} == {
        p: number(p) for p in players
    }
    met: set[frozenset[str]] = set()
    for round_number in (1, 2, 3):
        for match in update.matches_to_start:
            pair = frozenset(match.players)
            assert pair not in met
            met.add(pair)
        update = await play_round(store, service, clock, update)
        assert update.round_finished == round_number
    assert update.finished and update.round_started is None
    standings = await service.standings(tid)
    assert standings.final and standings.round == 3
    # The better seed always won: p1 3 points; p2, p3, p4 2 each, by Buchholz 6, 5 and 3;
    # p5, p6, p7 1 each, by Buchholz 6, 4 and 3; p8 none.
    assert [line.user_id for line in standings.lines] == players
    assert [line.points for line in standings.lines] == [3, 2, 2, 2, 1, 1, 1, 0]
    assert [line.buchholz for line in standings.lines[1:7]] == [6, 5, 3, 6, 4, 3]
    final = await service.get(tid)
    assert final.state == "finished" and {e.user_id: e.place for e in final.entrants} == {
        p: number(p) for p in players
    }
    entries, total = await service.player_tournaments("g1", "p3")
    assert total == 1 and (entries[0].place, entries[0].entrants) == (3, 8)
    listed, count = await service.server_tournaments("g1")
    assert count == 1 and listed == [final]
    assert await service.next_deadline() is None


async def test_a_knockout_of_six_gives_the_top_seeds_byes(store: AnyStore, clock: Clock) -> None:
    service = TournamentService(store, clock)
    tid = await opened(service, [f"k{n}" for n in range(1, 7)], format=Format.KNOCKOUT)
    update = await service.start(tid, "org")
    assert update.tournament.rounds_total == 3
    first = update.tournament.pairings_of(1)
    assert [(p.board, p.player_a, p.player_b, p.decided_by) for p in first] == [
        (0, "k1", None, "bye"),
        (1, "k4", "k5", None),
        (2, "k2", None, "bye"),
        (3, "k3", "k6", None),
    ]
    assert [m.players for m in update.matches_to_start] == [("k4", "k5"), ("k3", "k6")]
    update = await play_round(store, service, clock, update, upsets=frozenset({"k5"}))
    assert [m.players for m in update.matches_to_start] == [("k1", "k5"), ("k2", "k3")]
    update = await play_round(store, service, clock, update, upsets=frozenset({"k3"}))
    assert [m.players for m in update.matches_to_start] == [("k1", "k3")]
    update = await play_round(store, service, clock, update, upsets=frozenset({"k3"}))
    assert update.finished
    lines = (await service.standings(tid)).lines
    assert [(line.user_id, line.place) for line in lines] == [
        ("k3", 1), ("k1", 2), ("k2", 3), ("k5", 3), ("k4", 5), ("k6", 5),
    ]  # fmt: skip
    assert [(line.wins, line.byes, line.out_in) for line in lines[:2]] == [(3, 0, None), (1, 1, 3)]


async def test_a_duplicate_round_deals_every_table_the_same_cards(
    store: AnyStore, clock: Clock
) -> None:
    service = TournamentService(store, clock)
    tid = await opened(service, ["d1", "d2", "d3", "d4"], duplicate=True)
    update = await service.start(tid, "org")
    seeds = {m.seed for m in update.matches_to_start}
    assert len(seeds) == 1 and None not in seeds
    tables = await start_all(store, service, update)
    first_deals = []
    for table in tables.values():
        row = await store.get_table(table)
        assert row is not None and row.state is not None
        hand = Match.from_dict(row.state).hand
        first_deals.append((hand.dealer, hand.hands, hand.stock, hand.discard_pile))
    assert first_deals[0] == first_deals[1]
    (seed,) = seeds
    dealer = first_deals[0][0]
    # Same deal at both tables: seat 0 makes +20 at one, -10 at the other.
    ((a1, _), t1), ((a2, _), t2) = tables.items()
    row = await store.get_table(t1)
    assert row is not None and row.state is not None
    hand_seed = Match.from_dict(row.state).hand.seed
    await finish_table(store, t1, a1, clock(), hands=[_hand(t1, hand_seed, dealer, 0, 20)])
    await service.match_finished(t1)
    loser2 = next(p for p in tables if p[0] == a2)[1]
    update = await _finish_and_hear(
        store, service, t2, loser2, clock, [_hand(t2, hand_seed, dealer, 1, 10)]
    )
    assert update.round_started == 2
    assert update.matches_to_start[0].seed not in (None, seed)
    field = {line.user_id: line.field for line in (await service.standings(tid)).lines}
    # Seat 0 averaged +5 on that deal: the first table's seat 0 made 15 more, the other's 15
    # less; seat 1 (average -5) the mirror image.
    assert {u: f.score for u, f in field.items() if f is not None} == {
        a1: 15, tables_inverse(tables)[t1]: -15, a2: -15, loser2: 15,
    }  # fmt: skip


def tables_inverse(tables: dict[tuple[str, str], int]) -> dict[int, str]:
    """Seat 1's player of each table."""
    return {table: players[1] for players, table in tables.items()}


def _hand(table: int, seed: str, dealer: int, winner: int, points: int) -> HandRow:
    return HandRow(table, 1, dealer, seed, "knock", winner, winner, points, {"seats": [0, 1]})


async def _finish_and_hear(
    store: AnyStore,
    service: TournamentService,
    table: int,
    winner: str,
    clock: Clock,
    hands: list[HandRow],
) -> Update:
    await finish_table(store, table, winner, clock(), hands=hands)
    update = await service.match_finished(table)
    assert update is not None
    return update


async def test_a_player_who_leaves_is_never_paired_again(store: AnyStore, clock: Clock) -> None:
    service = TournamentService(store, clock)
    tid = await opened(service, ["w1", "w2", "w3", "w4", "w5"])
    update = await service.start(tid, "org")
    assert [m.players for m in update.matches_to_start] == [("w1", "w3"), ("w2", "w4")]
    tables = await start_all(store, service, update)
    left = await service.leave(tid, "w4")
    assert [(p.winner_id, p.decided_by) for p in left.decided] == [("w2", "walkover")]
    assert left.tables_to_end == (TableToEnd(tables[("w2", "w4")], "w2", "w4", "walkover"),)
    # The table ended by the Discord layer (w4 resigns): nothing more to record.
    await finish_table(store, tables[("w2", "w4")], "w2", clock())
    again = await service.match_finished(tables[("w2", "w4")])
    assert again is not None and not again.changed
    with pytest.raises(TournamentError, match="not playing"):
        await service.leave(tid, "w4")
    await finish_table(store, tables[("w1", "w3")], "w1", clock())
    update = await service.match_finished(tables[("w1", "w3")])
    assert update is not None and update.round_started == 2
    paired = {u for m in update.matches_to_start for u in m.players}
    assert paired == {"w1", "w2", "w3", "w5"}  # four left: no bye, and no w4
    standings = {line.user_id: line for line in (await service.standings(tid)).lines}
    assert standings["w4"].dropped and standings["w4"].points == 0


async def test_leaving_and_joining_again_during_sign_up(store: AnyStore, clock: Clock) -> None:
    service = TournamentService(store, clock)
    tid = await opened(service, ["a", "b"])
    left = await service.leave(tid, "a")
    assert not left.changed and [e.user_id for e in left.tournament.joined] == ["b"]
    with pytest.raises(TournamentError, match="not in this tournament"):
        await service.leave(tid, "a")
    clock.advance(seconds=1)
    again = await service.join(tid, "a")
    assert [e.user_id for e in again.joined] == ["b", "a"]


async def test_a_round_that_times_out(store: AnyStore, clock: Clock) -> None:
    service = TournamentService(store, clock)
    tid = await opened(service, ["t1", "t2", "t3", "t4", "t5", "t6"], round_minutes=30)
    update = await service.start(tid, "org")
    deadline = update.matches_to_start[0].deadline
    assert deadline == clock() + timedelta(minutes=30)
    assert await service.next_deadline() == deadline
    first, second, _never_started = update.matches_to_start
    finished = await start_table(store, service, first)
    behind = await start_table(store, service, second)  # third: never started
    await finish_table(store, finished, "t1", clock())  # the result not heard yet
    # t5 leads t2 by 31 to 12 when the time runs out.
    row = await store.get_table(behind)
    assert row is not None and row.state is not None
    await store.record_move(
        MoveRecord(behind, 1, 1, 0, {"kind": "pass"}, {**row.state, "scores": [12, 31]}, "x")
    )
    clock.advance(minutes=29)
    assert await service.claim_due("one") == []
    assert await service.fire_deadline(tid) is None
    clock.advance(minutes=1)
    assert await service.claim_due("one") == [tid]
    assert await service.claim_due("two") == []  # one process acts on it
    timed = await service.fire_deadline(tid)
    assert timed is not None and timed.round_finished == 1 and timed.round_started == 2
    decided = {p.board: (p.winner_id, p.decided_by, p.score_a, p.score_b) for p in timed.decided}
    assert decided == {
        0: ("t1", "match", 180, 40),
        1: ("t5", "time", 12, 31),
        2: ("t3", "time", 0, 0),
    }
    assert timed.tables_to_end == (TableToEnd(behind, "t5", "t2", "time"),)
    assert await service.fire_deadline(tid) is None  # the new round's time is its own
    late = await service.match_finished(finished)
    assert late is not None and not late.changed


async def test_a_restart_in_the_middle_of_a_round(database: Database, clock: Clock) -> None:
    async with database.store() as before:
        service = TournamentService(before, clock)
        tid = await opened(service, ["r1", "r2", "r3", "r4"])
        update = await service.start(tid, "org")
        one, other = update.matches_to_start
        table = await start_table(before, service, one)
        await finish_table(before, table, "r1", clock())  # and the process dies unheard
    async with database.store() as after:
        service = TournamentService(after, clock)
        (running,) = await service.open_tournaments()
        resumed = await service.resume(running.id)
        assert [(p.board, p.winner_id) for p in resumed.decided] == [(0, "r1")]
        assert [m.board for m in resumed.matches_to_start] == [other.board]
        second = await start_table(after, service, resumed.matches_to_start[0])
        assert (await service.resume(tid)).matches_to_start == ()
        await finish_table(after, second, "r2", clock())
        update = await service.match_finished(second)
        assert update is not None and update.round_finished == 1 and update.round_started == 2


async def test_refusals_change_nothing(store: AnyStore, clock: Clock) -> None:
    service = TournamentService(store, clock)
    refusals = {
        "must be swiss or knockout": {"format": "chess"},
        "from 1 to 7 rounds": {"rounds": 9, "max_players": 8},
        "from 2 to 128 players": {"max_players": 500},
        "from 5 to 10080 minutes": {"round_minutes": 1},
        "leave the rounds out": {"format": Format.KNOCKOUT, "rounds": 3},
        "room for at least 3": {"max_players": 2},
        "from 1 to 10080 minutes": {"signup_minutes": 0},
    }
    for message, settings in refusals.items():
        with pytest.raises(TournamentError, match=message):
            await service.open("g1", "c1", "org", TournamentSettings(**settings))  # type: ignore[arg-type]
    assert await service.in_channel("c1") is None
    tid = await opened(service, ["a"], channel="c1", max_players=3)
    with pytest.raises(TournamentError, match="already has a tournament"):
        await service.open("g1", "c1", "org2")
    snapshot = await service.get(tid)
    with pytest.raises(TournamentError, match="already joined"):
        await service.join(tid, "a")
    with pytest.raises(TournamentError, match="at least 3 players to start; 1 have joined"):
        await service.start(tid, "org")
    await service.join(tid, "b")
    await service.join(tid, "c")
    snapshot = await service.get(tid)
    with pytest.raises(TournamentError, match="full: 3 players"):
        await service.join(tid, "d")
    with pytest.raises(TournamentError, match="Only the organiser, <@org>"):
        await service.start(tid, "a")
    assert await service.get(tid) == snapshot
    started = await service.start(tid, "a", may_manage=True)  # someone who manages the server
    assert started.started
    snapshot = await service.get(tid)
    with pytest.raises(TournamentError, match="already started"):
        await service.start(tid, "org")
    with pytest.raises(TournamentError, match="sign-up is closed"):
        await service.join(tid, "d")
    with pytest.raises(TournamentError, match="Only the organiser"):
        await service.cancel(tid, "b")
    with pytest.raises(TournamentError, match="no such tournament"):
        await service.join(999, "a")
    assert await service.get(tid) == snapshot
    cancelled = await service.cancel(tid, "org")
    assert cancelled.cancelled and cancelled.tournament.state == "cancelled"
    with pytest.raises(TournamentError, match="is over"):
        await service.join(tid, "d")


async def test_sign_up_closing_starts_it_or_calls_it_off(store: AnyStore, clock: Clock) -> None:
    service = TournamentService(store, clock)
    full = await opened(service, ["a", "b", "c"], channel="c1", signup_minutes=30)
    empty = await opened(service, ["z"], channel="c2", signup_minutes=30)
    assert await service.fire_deadline(full) is None
    clock.advance(minutes=30)
    with pytest.raises(TournamentError, match="Sign-up for this tournament has closed"):
        await service.join(full, "late")
    assert sorted(await service.claim_due("p")) == sorted([full, empty])
    started = await service.fire_deadline(full)
    assert started is not None and started.started and len(started.matches_to_start) == 1
    off = await service.fire_deadline(empty)
    assert off is not None and off.cancelled and off.tournament.state == "cancelled"
    assert await service.fire_deadline(empty) is None


async def test_a_finalist_who_withdraws_hands_the_title_over(store: AnyStore, clock: Clock) -> None:
    service = TournamentService(store, clock)
    tid = await opened(service, ["k1", "k2", "k3", "k4"], format=Format.KNOCKOUT)
    update = await service.start(tid, "org")
    update = await play_round(store, service, clock, update)
    assert [m.players for m in update.matches_to_start] == [("k1", "k2")]
    final = await start_table(store, service, update.matches_to_start[0])
    left = await service.leave(tid, "k1")
    assert left.finished and left.tables_to_end == (TableToEnd(final, "k2", "k1", "walkover"),)
    places = {line.user_id: line.place for line in (await service.standings(tid)).lines}
    assert places == {"k2": 1, "k1": 2, "k3": 3, "k4": 3}


async def test_two_processes_record_a_result_once(
    backend: str, database: Database, clock: Clock
) -> None:
    async with database.store() as one, database.store() as two:
        if backend == "sqlite":  # one process per SQLite file: its tasks race instead
            two = one
        first, second = TournamentService(one, clock), TournamentService(two, clock)
        tid = await opened(first, ["a", "b", "c", "d"])
        update = await first.start(tid, "org")
        tables = await start_all(one, first, update)
        assert not await second.match_started(tid, 1, 0, next(iter(tables.values())))
        for (seat0, _), table in tables.items():
            await finish_table(one, table, seat0, clock())
        heard = await asyncio.gather(
            *(s.match_finished(t) for t in tables.values() for s in (first, second))
        )
        assert sum(1 for u in heard if u is not None and u.changed) == len(tables)
        assert sum(1 for u in heard if u is not None and u.round_started == 2) == 1
        # And a deadline fired by both at once changes the tournament once.
        clock.advance(hours=2)
        fired = await asyncio.gather(first.fire_deadline(tid), second.fire_deadline(tid))
        assert sum(1 for u in fired if u is not None and u.changed) == 1


async def test_what_the_discord_layer_keeps_is_kept_with_the_tournament(
    store: AnyStore, clock: Clock
) -> None:
    service = TournamentService(store, clock)
    tid = await opened(service, ["p1", "p2", "p3"])

    def first(kept: dict[str, Any]) -> None:
        kept["signup"] = 101
        kept["thread:1:0"] = 303

    kept = await service.keep(tid, first)
    assert kept.screens == {"signup": 101, "thread:1:0": 303}
    update = await service.start(tid, "org")
    assert update.tournament.screens == kept.screens  # the start keeps it
    assert update.tournament.rounds_total == 2

    def second(kept: dict[str, Any]) -> None:
        del kept["signup"]
        kept["standings"] = 202

    kept = await service.keep(tid, second)
    assert kept.screens == {"thread:1:0": 303, "standings": 202}
    again = await TournamentService(store, clock).get(tid)  # another process, a restart
    assert again.screens == kept.screens and again.settings == kept.settings


async def test_the_players_names_are_kept_in_their_entrant_rows(
    store: AnyStore, clock: Clock
) -> None:
    service = TournamentService(store, clock)
    tid = await opened(service, ["p1", "p2"])
    await service.join(tid, "p3")  # no name given: shown by mention
    tournament = await service.get(tid)
    assert [e.name for e in tournament.entrants] == ["P1", "P2", None]
    assert tournament.names == {"p1": "P1", "p2": "P2", "p3": "<@p3>"}
    await service.leave(tid, "p2")
    await service.join(tid, "p2")  # back without a name: the one kept stays
    assert (await service.get(tid)).names["p2"] == "P2"


async def test_names_kept_by_an_older_version_beside_the_ids_are_read(
    store: AnyStore, clock: Clock
) -> None:
    """A tournament stored before the names had their column: its entrants have no name,
    which it kept as ``name:<user id>`` with the message ids."""
    service = TournamentService(store, clock)
    tid = await opened(service, [])
    for user in ("p1", "p2"):
        await service.join(tid, user)  # as the older version did: the name kept apart

    def old(kept: dict[str, Any]) -> None:
        kept.update({"signup": 7, "name:p1": "Ann", "name:p2": "Bob"})

    await service.keep(tid, old)
    tournament = await TournamentService(store, clock).get(tid)
    assert tournament.names == {"p1": "Ann", "p2": "Bob"}
    assert tournament.screens == {"signup": 7, "name:p1": "Ann", "name:p2": "Bob"}


async def test_deadlines_are_claimed_only_for_the_servers_a_process_acts_for(
    store: AnyStore, clock: Clock
) -> None:
    service = TournamentService(store, clock)
    tid = await opened(service, ["p1", "p2", "p3"], signup_minutes=5)
    clock.advance(minutes=6)
    assert await service.claim_due("shard-1", lambda guild: guild != "g1") == []
    assert await service.claim_due("shard-0", lambda guild: guild == "g1") == [tid]


async def test_a_result_by_resignation_is_kept_with_its_pairing(
    store: AnyStore, clock: Clock
) -> None:
    service = TournamentService(store, clock)
    tid = await opened(service, ["p1", "p2", "p3", "p4"])
    update = await service.start(tid, "org")
    tables = await start_all(store, service, update)
    (a, b), table = next(iter(tables.items()))
    row = await store.get_table(table)
    assert row is not None
    end = MatchEnd(
        status="finished",
        reason="resign",
        winner_id=a,
        results=(SeatResult(a, 0, 12, 12), SeatResult(b, 1, 30, 30)),
    )
    await store.end_match(table, None, end, clock().isoformat())
    decided = await service.match_finished(table)
    assert decided is not None and decided.decided[0].detail == {"reason": "resign"}
    assert (decided.decided[0].score_a, decided.decided[0].score_b) == (12, 30)

"""Matches of more than two players: seats, places, teams, bot seats, boards, and every
figure kept apart per mode."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.store import (
    HistoryRow,
    MatchEnd,
    RatingRow,
    SeatResult,
    SeatRow,
    StaleMove,
)
from tests.store.helpers import (
    INTEGRITY,
    AnyStore,
    Database,
    at,
    board,
    finish,
    hand,
    move,
    new_lobby,
    new_match,
    placed,
    play,
    play_hands,
    seated,
    state,
)

THREE = seated("ann", "ben", "cat")
TEAMS = seated("ann", "ben", "cat", "dan", teams=(0, 1, 0, 1))
SIX = seated("ann", "ben", "cat", "dan", "eve", "fay")


def rated(user: str, mu: float, mode: str = "classic") -> RatingRow:
    return RatingRow("g1", user, mu, 5.0, 1, mode)


# -- seats ---------------------------------------------------------------------------------


@pytest.mark.parametrize("vs_bot", [False, True])
async def test_a_two_player_match_is_seated_at_start(store: AnyStore, vs_bot: bool) -> None:
    opponent = "gin-bot" if vs_bot else "bob"
    mid = await new_match(store, "alice", opponent, vs_bot=vs_bot, start=False)
    table = await store.get_table(mid)
    assert table is not None and (table.mode, table.seats) == ("classic", ())
    await store.start_match(mid, state(0), at(1))
    table = await store.get_table(mid)
    assert table is not None
    assert table.seats == (SeatRow(0, "alice"), SeatRow(1, opponent, is_bot=vs_bot))
    assert [t.seats for t in await store.open_tables()] == [table.seats]


async def test_a_two_player_match_may_name_its_own_seats(store: AnyStore) -> None:
    mid = await new_match(store, "alice", "gin-bot", vs_bot=True, start=False)
    seats = (SeatRow(1, "gin-bot", is_bot=True), SeatRow(0, "alice"))  # any order
    await store.start_match(mid, state(0), at(1), seats=seats)
    table = await store.get_table(mid)
    assert table is not None and table.seats == (seats[1], seats[0])


async def test_a_lobby_starts_with_its_seats(store: AnyStore) -> None:
    seats = seated("ann", "bot:1", "cat", "bot:3", teams=(0, 1, 0, 1), bots=(1, 3))
    mid = await new_lobby(store, "teams", seats)
    table = await store.get_table(mid)
    assert table is not None
    assert (table.mode, table.challenger_id, table.opponent_id) == ("teams", "ann", "")
    assert table.seats == seats
    assert table.seats[1] == SeatRow(1, "bot:1", 1, True)
    (listed,) = await store.open_tables()
    assert listed == table


@pytest.mark.parametrize(
    "seats",
    [
        (),  # a lobby has nobody to seat by default
        seated("ann"),  # one is not a match
        (SeatRow(0, "ann"), SeatRow(2, "ben")),  # a gap
        (SeatRow(0, "ann"), SeatRow(0, "ben")),  # one seat twice
        seated("ann", "ben", "ann"),  # one player twice
        seated("ann", ""),  # nobody
    ],
)
async def test_bad_seats_leave_the_lobby_waiting(
    store: AnyStore, seats: tuple[SeatRow, ...]
) -> None:
    mid = await store.create_challenge("g1", "c1", "ann", "", {}, at(0), mode="three")
    with pytest.raises(ValueError):
        await store.start_match(mid, state(0), at(1), seats=seats)
    table = await store.get_table(mid)
    assert table is not None and (table.status, table.state, table.seats) == (
        "challenge",
        None,
        (),
    )
    await store.start_match(mid, state(0), at(2), seats=THREE)  # still startable


@pytest.mark.parametrize(
    "seats",
    [
        seated("bob", "alice"),  # swapped
        seated("alice", "carol"),  # someone else
        seated("alice", "bob", "carol"),  # one more
        seated("alice", "bob", bots=(1,)),  # bob is no bot
    ],
)
async def test_a_challenge_seats_exactly_its_two_players(
    store: AnyStore, seats: tuple[SeatRow, ...]
) -> None:
    mid = await new_match(store, start=False)
    with pytest.raises(ValueError, match="challenger"):
        await store.start_match(mid, state(0), at(1), seats=seats)
    assert (await store.counts())["seats"] == 0


async def test_lobbies_refuse_a_bot_opponent_and_an_empty_mode(store: AnyStore) -> None:
    with pytest.raises(ValueError, match="bot"):
        await store.create_challenge("g1", "c1", "ann", "", {}, at(0), vs_bot=True)
    with pytest.raises(ValueError, match="mode"):
        await store.create_challenge("g1", "c1", "ann", "", {}, at(0), mode="")
    mid = await new_lobby(store, "three", THREE, channel="c1")
    with pytest.raises(StaleMove):
        await store.start_match(mid, state(0), at(1), seats=THREE)  # started already


async def test_seats_survive_a_restart(database: Database) -> None:
    async with database.store() as store:
        mid = await new_lobby(store, "elimination", SIX)
    async with database.store() as store:
        (table,) = await store.open_tables()
        assert (table.id, table.mode, table.seats) == (mid, "elimination", SIX)


# -- results -------------------------------------------------------------------------------


async def test_three_players_get_their_places(store: AnyStore) -> None:
    mid = await new_lobby(store, "three", THREE)
    end = placed(THREE, (2, 1, 3), points=(40, 110, 5))
    await store.record_move(move(mid, 1, finished=end))
    rows = await store.results(mid)
    assert [(r.user_id, r.seat, r.place, r.won, r.points, r.opponent_id) for r in rows] == [
        ("ann", 0, 2, False, 40, None),
        ("ben", 1, 1, True, 110, None),
        ("cat", 2, 3, False, 5, None),
    ]
    assert {(r.team, r.is_bot, r.reason) for r in rows} == {(None, False, "target")}
    table = await store.get_table(mid)
    assert table is not None and (table.status, table.winner_id) == ("finished", "ben")


async def test_partners_share_first_place(store: AnyStore) -> None:
    mid = await new_lobby(store, "teams", TEAMS)
    # Teams come from the seats; a result may repeat its team.
    end = MatchEnd(
        status="finished",
        reason="target",
        winner_id="ben",
        results=(
            SeatResult("ann", 0, 20, 90, place=2),
            SeatResult("ben", 1, 160, 250, place=1, team=1),
            SeatResult("cat", 2, 20, 90, place=2),
            SeatResult("dan", 3, 160, 250, place=1),
        ),
    )
    await store.end_match(mid, None, end, at(5))
    rows = await store.results(mid)
    assert [(r.user_id, r.team, r.place, r.won) for r in rows] == [
        ("ann", 0, 2, False),
        ("ben", 1, 1, True),
        ("cat", 0, 2, False),
        ("dan", 1, 1, True),
    ]
    board_, _ = await store.leaderboard("g1", 10, 0, mode="teams")
    assert [(r.user_id, r.won, r.lost) for r in board_] == [
        ("ben", 1, 0),
        ("dan", 1, 0),
        ("ann", 0, 1),
        ("cat", 0, 1),
    ]


async def test_elimination_places_six_players(store: AnyStore) -> None:
    mid = await new_lobby(store, "elimination", SIX)
    # Out in the order cat, fay, ann, dan, ben: eve is the last one left.
    end = placed(SIX, (3, 5, 1, 4, 6, 2), reason="last_left")
    await store.record_move(move(mid, 1, finished=end))
    rows = await store.results(mid)
    assert [(r.user_id, r.place) for r in rows] == [
        ("ann", 3),
        ("ben", 5),
        ("cat", 1),
        ("dan", 4),
        ("eve", 6),
        ("fay", 2),
    ]
    assert [r.user_id for r in rows if r.won] == ["cat"]
    assert {r.reason for r in rows} == {"last_left"}
    history, total = await store.history("g1", "eve", 10, 0, mode="elimination")
    assert total == 1
    assert history == [
        HistoryRow(
            match_id=mid,
            opponent_id=None,
            opponent_name=None,
            won=False,
            points=0,
            final_score=0,
            opponent_final_score=None,
            reason="last_left",
            finished_at=at(1),
            vs_bot=False,
            mode="elimination",
            place=6,
            players=6,
        )
    ]


async def test_places_in_a_two_player_match_may_be_given(store: AnyStore) -> None:
    mid = await new_lobby(store, "elimination", seated("ann", "ben"))
    await store.record_move(move(mid, 1, finished=placed(seated("ann", "ben"), (2, 1))))
    rows = await store.results(mid)
    assert [(r.user_id, r.place, r.opponent_id) for r in rows] == [
        ("ann", 2, "ben"),
        ("ben", 1, "ann"),
    ]


@pytest.mark.parametrize(
    ("results", "message"),
    [
        (placed(THREE[:2], (1, 2)).results, "players of the match"),  # cat left out
        (
            (
                SeatResult("ann", 2, 0, 0, place=1),
                SeatResult("ben", 1, 0, 0, place=2),
                SeatResult("cat", 0, 0, 0, place=3),
            ),
            "each in their seat",
        ),
        (tuple(SeatResult(s.user_id, s.seat, 0, 0) for s in THREE), "place"),  # no places
        (
            (
                SeatResult("ann", 0, 0, 0, place=1, is_bot=True),
                *placed(THREE, (1, 2, 3)).results[1:],
            ),
            "not a bot",
        ),
    ],
)
async def test_results_must_fit_the_seats(
    store: AnyStore, results: tuple[SeatResult, ...], message: str
) -> None:
    mid = await new_lobby(store, "three", THREE)
    before = (await store.counts(), await store.get_table(mid))
    end = MatchEnd(status="finished", reason="target", winner_id="ann", results=results)
    with pytest.raises(ValueError, match=message):
        await store.record_move(move(mid, 1, finished_hand=hand(mid, 1, "gin", 0), finished=end))
    assert (await store.counts(), await store.get_table(mid)) == before
    await store.record_move(move(mid, 1, finished=placed(THREE, (1, 2, 3))))  # still playable


async def test_a_team_must_be_the_seats_team(store: AnyStore) -> None:
    mid = await new_lobby(store, "teams", TEAMS)
    results = placed(TEAMS, (1, 2, 1, 2)).results
    wrong = (SeatResult("ann", 0, 0, 0, place=1, team=1), *results[1:])
    end = MatchEnd(status="finished", reason="target", winner_id="ann", results=wrong)
    with pytest.raises(ValueError, match="team"):
        await store.end_match(mid, None, end, at(5))
    assert await store.results(mid) == []


def test_places_are_checked_with_the_match_end() -> None:
    three = placed(THREE, (1, 2, 3)).results
    with pytest.raises(ValueError, match="first place"):
        MatchEnd(status="finished", reason="target", winner_id="ben", results=three)
    with pytest.raises(ValueError, match="every result"):
        MatchEnd(
            status="finished",
            reason="target",
            winner_id="ann",
            results=(*three[:2], SeatResult("cat", 2, 0, 0)),
        )
    with pytest.raises(ValueError, match="places run"):
        MatchEnd(
            status="finished",
            reason="target",
            winner_id="ann",
            results=(*three[:2], SeatResult("cat", 2, 0, 0, place=4)),
        )
    with pytest.raises(ValueError, match="ends by"):
        MatchEnd(status="finished", reason="luck", winner_id="ann", results=three)  # type: ignore[arg-type]


# -- bot seats and standings ---------------------------------------------------------------


@pytest.fixture
async def mixed(store: AnyStore) -> AnyStore:
    """Three-player matches, one with a bot seat; classic matches, one against the bot.

    three, human: ann 1st, ben 2nd, cat 3rd. three, with bot:1 in seat 1: bot:1 1st,
    ann 2nd, cat 3rd. classic: ann beats ben; ann beats the bot. Final scores are the hand
    points with the box bonuses, and the game bonus for first place.
    """
    human = await new_lobby(store, "three", THREE)
    end = placed(THREE, (1, 2, 3), points=(9, 6, 3), finals=(134, 31, 3))
    await store.record_move(move(human, 1, finished=end))
    with_bot = seated("ann", "bot:1", "cat", bots=(1,))
    mid = await new_lobby(store, "three", with_bot)
    end = placed(with_bot, (2, 1, 3), points=(5, 50, 1), finals=(30, 175, 1))
    await store.record_move(move(mid, 1, finished=end))
    await play(store, "ann", "ben", "ann")
    await play(store, "ann", "gin-bot", "ann", vs_bot=True)
    return store


async def test_bot_rows_are_never_standings(mixed: AnyStore) -> None:
    rows, total = await mixed.leaderboard("g1", 10, 0, mode="three")
    assert total == 3
    assert [(r.user_id, r.played, r.won, r.hand_points, r.final_scores) for r in rows] == [
        ("ann", 1, 1, 9, 134),
        ("ben", 1, 0, 6, 31),
        ("cat", 1, 0, 3, 3),
    ]
    rows, total = await mixed.bot_records("g1", 10, 0, mode="three")
    assert total == 2
    assert [(r.user_id, r.played, r.won, r.hand_points, r.final_scores) for r in rows] == [
        ("ann", 1, 0, 5, 30),
        ("cat", 1, 0, 1, 1),
    ]
    # Classic stays as it was: the match against the bot is only in bot_records.
    rows, _ = await mixed.leaderboard("g1", 10, 0)
    assert [(r.user_id, r.played, r.won) for r in rows] == [("ann", 1, 1), ("ben", 1, 0)]
    rows, _ = await mixed.bot_records("g1", 10, 0)
    assert [(r.user_id, r.played, r.won) for r in rows] == [("ann", 1, 1)]
    for mode in ("classic", "three"):
        for sort in ("wins", "points", "rating"):
            rows, _ = await mixed.leaderboard("g1", 10, 0, sort=sort, mode=mode)  # type: ignore[arg-type]
            assert not {"bot:1", "gin-bot"} & {r.user_id for r in rows}
    bot_row = [r for r in await mixed.results(2) if r.user_id == "bot:1"]
    assert [(r.is_bot, r.place, r.won) for r in bot_row] == [(True, 1, True)]


async def test_history_and_stats_keep_to_their_mode(mixed: AnyStore) -> None:
    classic, total = await mixed.history("g1", "ann", 10, 0)
    assert total == 2 and [(r.mode, r.players, r.opponent_id) for r in classic] == [
        ("classic", 2, "gin-bot"),
        ("classic", 2, "ben"),
    ]
    three, total = await mixed.history("g1", "ann", 10, 0, mode="three")
    assert total == 2
    assert [(r.match_id, r.place, r.won, r.players, r.opponent_id) for r in three] == [
        (2, 2, False, 3, None),
        (1, 1, True, 3, None),
    ]
    assert await mixed.history("g1", "ann", 10, 0, mode="teams") == ([], 0)
    ann = await mixed.player_stats("g1", "ann", mode="three")
    assert ann is not None and (ann.played, ann.won, ann.current_streak) == (2, 1, 0)
    assert (ann.hand_points, ann.final_scores, ann.avg_final_score) == (14, 164, 82.0)
    ann = await mixed.player_stats("g1", "ann")
    assert ann is not None and (ann.played, ann.won, ann.current_streak) == (2, 2, 2)
    assert await mixed.player_stats("g1", "ben", mode="teams") is None


# -- ratings -------------------------------------------------------------------------------


async def test_ratings_are_kept_per_mode(store: AnyStore) -> None:
    await play(store, "ann", "ben", "ann", ratings=(rated("ann", 30.0), rated("ben", 20.0)))
    mid = await new_lobby(store, "three", THREE)
    three = (rated("ann", 22.0, "three"), rated("ben", 27.0, "three"), rated("cat", 24.0, "three"))
    await store.record_move(move(mid, 1, finished=placed(THREE, (3, 1, 2)), ratings=three))

    assert await store.get_ratings("g1", ["ann", "ben", "cat"]) == {
        "ann": rated("ann", 30.0),
        "ben": rated("ben", 20.0),
    }
    assert await store.get_ratings("g1", ["ann", "ben", "cat"], "three") == {
        r.user_id: r for r in three
    }
    assert await store.get_ratings("g1", ["ann"], "teams") == {}
    rows, _ = await store.leaderboard("g1", 10, 0, sort="rating")
    assert [(r.user_id, r.mu) for r in rows] == [("ann", 30.0), ("ben", 20.0)]
    rows, _ = await store.leaderboard("g1", 10, 0, sort="rating", mode="three")
    assert [(r.user_id, r.mu) for r in rows] == [("ben", 27.0), ("cat", 24.0), ("ann", 22.0)]
    stats = await store.player_stats("g1", "ann", mode="three")
    assert stats is not None and (stats.mu, stats.rating_matches) == (22.0, 1)
    # A later classic rating replaces only the classic one.
    await play(store, "ann", "ben", "ben", ratings=(rated("ann", 28.0),))
    assert (await store.get_ratings("g1", ["ann"]))["ann"].mu == 28.0
    assert (await store.get_ratings("g1", ["ann"], "three"))["ann"].mu == 22.0


@pytest.mark.parametrize(
    ("ratings", "message"),
    [
        ((rated("ann", 25.0),), "mode"),  # a classic rating for a three-player match
        ((rated("bot:1", 25.0, "three"),), "human players"),  # a bot seat
        ((rated("dan", 25.0, "three"),), "human players"),  # not at the table
    ],
)
async def test_ratings_must_fit_the_match(
    store: AnyStore, ratings: tuple[RatingRow, ...], message: str
) -> None:
    seats = seated("ann", "bot:1", "cat", bots=(1,))
    mid = await new_lobby(store, "three", seats)
    end = placed(seats, (1, 2, 3))
    with pytest.raises(ValueError, match=message):
        await store.record_move(move(mid, 1, finished=end, ratings=ratings))
    assert (await store.counts())["results"] == 0
    # The humans of a match with a bot seat may be rated.
    humans = (rated("ann", 26.0, "three"), rated("cat", 24.0, "three"))
    await store.record_move(move(mid, 1, finished=end, ratings=humans))
    assert set(await store.get_ratings("g1", ["ann", "cat", "bot:1"], "three")) == {"ann", "cat"}


# -- hands ---------------------------------------------------------------------------------


async def test_teams_hands_have_two_boards(store: AnyStore) -> None:
    mid = await new_lobby(store, "teams", TEAMS)
    boards = [
        board(mid, 1, (0, 1), "knock", 0, knocker_seat=0, board_number=1),
        board(mid, 1, (2, 3), "gin", 3, knocker_seat=3),
        board(mid, 2, (0, 3), "void", None, board_number=1),
        board(mid, 2, (2, 1), "undercut", 2, knocker_seat=1),
    ]
    for seq, row in enumerate(boards, start=1):
        await store.record_move(move(mid, seq, hand_number=row.number, finished_hand=row))
    stored = await store.hands(mid)
    assert [(h.number, h.board) for h in stored] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert stored == sorted(boards, key=lambda h: (h.number, h.board))
    with pytest.raises(INTEGRITY):
        await store.record_move(move(mid, 5, hand_number=2, finished_hand=boards[3]))  # again
    assert len(await store.hands(mid)) == 4


async def test_a_hand_needs_seat_numbers(store: AnyStore) -> None:
    mid = await new_lobby(store, "three", THREE)
    for seats in (["0", 1], [0, -1], "01", [True, 1], [0, 63]):
        bad = replace(board(mid, 1, (0, 1), "gin", 0), result={"seats": seats})
        with pytest.raises(ValueError, match="seat numbers"):
            await store.record_move(move(mid, 1, finished_hand=bad))
    assert await store.hands(mid) == []


async def test_hands_played_counts_only_hands_dealt_in(store: AnyStore) -> None:
    # Three players: the dealer sits each hand out (seats 0, 1, 2 deal in turn).
    three = await new_lobby(store, "three", THREE)
    hands = [
        board(three, 1, (1, 2), "knock", 1, knocker_seat=1),
        board(three, 2, (2, 0), "gin", 0, knocker_seat=0),
        board(three, 3, (0, 1), "undercut", 1, knocker_seat=0),
        board(three, 4, (1, 2), "void", None),
    ]
    await play_hands(store, three, hands, placed(THREE, (2, 1, 3), points=(25, 60, 10)))
    ann = await store.player_stats("g1", "ann", mode="three")
    assert ann is not None
    assert (ann.hands_played, ann.hands_won, ann.knocks, ann.gins) == (2, 1, 2, 1)
    assert ann.avg_hand_points == 25 / 2
    cat = await store.player_stats("g1", "cat", mode="three")
    assert cat is not None and (cat.hands_played, cat.hands_won) == (3, 0)

    # Elimination: ben goes out in round 1 and is not dealt again.
    players = seated("ann", "ben", "cat", "dan")
    elim = await new_lobby(store, "elimination", players)
    rounds = [
        board(elim, 1, (0, 1, 2, 3), "gin", 1, knocker_seat=1),
        board(elim, 2, (0, 2, 3), "gin", 3, knocker_seat=3),
        board(elim, 3, (0, 2), "gin", 0, knocker_seat=0),
    ]
    await play_hands(store, elim, rounds, placed(players, (3, 1, 4, 2), reason="last_left"))
    by_user = {
        u: await store.player_stats("g1", u, mode="elimination") for u in ("ann", "ben", "dan")
    }
    assert {u: (s.hands_played, s.hands_won) for u, s in by_user.items() if s} == {
        "ann": (3, 1),
        "ben": (1, 1),
        "dan": (2, 1),
    }

    # Teams: each player plays one of the two boards of every hand.
    teams = await new_lobby(store, "teams", TEAMS)
    boards = [
        board(teams, 1, (0, 1), "knock", 0, knocker_seat=0),
        board(teams, 1, (2, 3), "knock", 3, knocker_seat=3, board_number=1),
        board(teams, 2, (0, 3), "gin", 3, knocker_seat=3),
        board(teams, 2, (2, 1), "knock", 2, knocker_seat=2, board_number=1),
    ]
    await play_hands(store, teams, boards, placed(TEAMS, (2, 1, 2, 1)))
    dan = await store.player_stats("g1", "dan", mode="teams")
    assert dan is not None and (dan.hands_played, dan.hands_won, dan.gins) == (2, 2, 1)
    # Classic figures are untouched by all of this.
    assert await store.player_stats("g1", "ann") is None


async def test_classic_hands_without_seats_count_for_both(store: AnyStore) -> None:
    mid = await new_match(store, "ann", "ben")
    rows = [hand(mid, 1, "knock", 0, knocker_seat=0), hand(mid, 2, "gin", 1, knocker_seat=1)]
    await play_hands(store, mid, rows, finish("ann", "ben", "ann"))
    for user in ("ann", "ben"):
        stats = await store.player_stats("g1", user)
        assert stats is not None and (stats.hands_played, stats.hands_won) == (2, 1)

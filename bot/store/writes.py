"""Write transactions as plain sqlite3 code, run whole on the connection's worker thread;
and the checks and rows of each write, which the PostgreSQL store shares.

Nothing here touches the event loop: ``SqliteStore`` hands these functions to
``run_in_worker`` with the lock held, so each transaction costs one round trip.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bot.store import codec
from bot.store import queries as q
from bot.store.codec import Row
from bot.store.errors import StaleMove
from bot.store.rows import (
    JsonObject,
    MatchEnd,
    MoveRecord,
    RatingRow,
    SeatResult,
    SeatRow,
    StartClocks,
)

Params = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class EncodedMove:
    """A move with its JSON already encoded, by its caller, so bad JSON fails there."""

    move: MoveRecord
    advance: dict[str, Any]
    row: Params
    hand: Params | None


def encode(move: MoveRecord) -> EncodedMove:
    """Check and encode a move; ``ValueError``/``TypeError`` for one that cannot be written."""
    hand = move.finished_hand
    if hand is not None and hand.match_id != move.match_id:
        raise ValueError("the finished hand belongs to another match")
    end = move.finished
    if end is not None and end.status != "finished":
        raise ValueError("a move can only finish a match; cancel with end_match")
    display = None if move.display is None else codec.dump(move.display)
    advance = {
        "state": codec.dump(move.state),
        "seq": move.seq,
        "now": move.now,
        "display": display,
        "timers": None if move.timers is None else codec.dump(move.timers),
        "change_deadline": 1 if move.change_deadline else 0,
        "deadline": move.deadline,
        "id": move.match_id,
        "before": move.seq - 1,
    }
    row = (move.match_id, move.seq, move.hand_number, move.seat, codec.dump(move.action), move.now)
    return EncodedMove(move, advance, row, None if hand is None else codec.hand_params(hand))


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """A write transaction: committed at the end, rolled back on any exception."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        db.rollback()  # also after a failed COMMIT, which can leave the transaction open
        raise


def write_moves(db: sqlite3.Connection, moves: list[EncodedMove]) -> list[BaseException | None]:
    """Moves in arrival order in one transaction; each one's outcome, None if written.

    Every move sits behind its own savepoint, so a refused or failing move undoes itself
    alone and the others still commit. Raises only if the transaction itself fails, and
    then nothing was written.
    """
    with transaction(db):
        return [write_saved(db, move) for move in moves]


def start_match(
    db: sqlite3.Connection,
    match_id: int,
    state: str,
    now: str,
    seats: Sequence[SeatRow],
    clocks: StartClocks | None = None,
) -> None:
    """``SqliteStore.start_match`` in one transaction: the first state, the seats, and the
    clocks if given."""
    with transaction(db):
        match = db.execute(q.START_MATCH, (state, now, match_id)).fetchone()
        chosen = seats_to_start(match_id, match, seats)
        db.executemany(q.INSERT_SEAT, [codec.seat_params(match_id, s) for s in chosen])
        for sql, params in clocks_writes(match_id, clocks, now):
            db.execute(sql, params)


def clocks_writes(
    match_id: int, clocks: StartClocks | None, now: str
) -> list[tuple[str, tuple[str | int | None, ...]]]:
    """The statements that give a starting match its clocks (none without them)."""
    if clocks is None:
        return []
    return [
        (q.SET_DISPLAY, (codec.dump(clocks.display), now, match_id)),
        (q.SET_DEADLINE, (clocks.deadline, now, match_id)),
    ]


def seats_to_start(
    match_id: int, match: Row | None, seats: Sequence[SeatRow]
) -> tuple[SeatRow, ...]:
    """The seats a challenge starts with, given the row ``START_MATCH`` returned (None if
    it refused); raises as ``Store.start_match`` documents."""
    if match is None:
        raise StaleMove(match_id, "not an open challenge")
    chosen = checked_seats(match, seats) if seats else default_seats(match)
    if chosen is None:
        raise ValueError("a lobby starts with its seats")
    return chosen


def challenge_params(
    guild_id: str,
    channel_id: str,
    challenger_id: str,
    opponent_id: str,
    settings: JsonObject,
    now: str,
    vs_bot: bool,
    mode: str,
) -> Params:
    """``CREATE_CHALLENGE``'s parameters, once the challenge is known to make sense."""
    if challenger_id == opponent_id:
        raise ValueError("a player cannot challenge themselves")
    if vs_bot and not opponent_id:
        raise ValueError("a match against the bot has the bot as its opponent")
    if not mode:
        raise ValueError("a match needs a mode")
    return (
        guild_id,
        channel_id,
        challenger_id,
        opponent_id,
        codec.dump(settings),
        now,
        now,
        1 if vs_bot else 0,
        mode,
    )


def check_next(move: MoveRecord, status: str | None, move_count: int | None) -> None:
    """``StaleMove`` unless ``move`` is the next move of a match in play, as read under the
    match's row lock (``status`` None: no such match)."""
    if status is None or move_count is None:
        raise StaleMove(move.match_id, "no such match")
    if status != "playing":
        raise StaleMove(move.match_id, f"the match is {status}, not playing")
    if move.seq != move_count + 1:
        raise StaleMove(
            move.match_id, f"move {move.seq} is not the next move ({move_count} recorded)"
        )


def default_seats(match: Row) -> tuple[SeatRow, ...] | None:
    """The seats of a two-player match: challenger first, then the opponent (the bot in a
    match against it); None for a lobby, which has no opponent to seat."""
    if not match["opponent_id"]:
        return None
    return (
        SeatRow(0, match["challenger_id"]),
        SeatRow(1, match["opponent_id"], is_bot=bool(match["vs_bot"])),
    )


def checked_seats(match: Row, seats: Sequence[SeatRow]) -> tuple[SeatRow, ...]:
    """Seats numbered 0 to n-1, two or more, one user each; a match with a named opponent
    seats exactly its two players as the default would."""
    chosen = tuple(sorted(seats, key=lambda s: s.seat))
    if len(chosen) < 2 or [s.seat for s in chosen] != list(range(len(chosen))):
        raise ValueError("a match seats two or more players, in seats numbered from 0")
    users = [s.user_id for s in chosen]
    if not all(users) or len(set(users)) != len(users):
        raise ValueError("every seat needs its own player")
    default = default_seats(match)
    if default is not None and [(s.seat, s.user_id, s.is_bot) for s in chosen] != [
        (s.seat, s.user_id, s.is_bot) for s in default
    ]:
        raise ValueError("a two-player match seats its challenger, then its opponent")
    return chosen


def end_match(
    db: sqlite3.Connection,
    match_id: int,
    state: str | None,
    end: MatchEnd,
    now: str,
    ratings: tuple[RatingRow, ...],
) -> None:
    """``SqliteStore.end_match`` in one round trip."""
    with transaction(db):
        finish(db, match_id, state, end, now, ratings)


def write_saved(db: sqlite3.Connection, encoded: EncodedMove) -> BaseException | None:
    """A move's own error is its outcome; the batch only fails if the transaction does."""
    db.execute("SAVEPOINT move")
    try:
        _write(db, encoded)
    except Exception as error:
        # After an error that ends the whole transaction (disk full, I/O) the savepoint is
        # gone too: this raises, and the batch fails rather than report moves as written.
        db.execute("ROLLBACK TO move")
        db.execute("RELEASE move")
        return error
    db.execute("RELEASE move")
    return None


def _write(db: sqlite3.Connection, encoded: EncodedMove) -> None:
    """One move; the guard in its UPDATE refuses it unless it is the match's next move."""
    move = encoded.move
    if db.execute(q.ADVANCE_MATCH, encoded.advance).fetchone() is None:
        raise StaleMove(move.match_id, f"move {move.seq} is not the next move")
    db.execute(q.INSERT_MOVE, encoded.row)
    if encoded.hand is not None:
        db.execute(q.INSERT_HAND, encoded.hand)
    if move.finished is not None:
        finish(db, move.match_id, None, move.finished, move.now, move.ratings)


def finish(
    db: sqlite3.Connection,
    match_id: int,
    state: str | None,
    end: MatchEnd,
    now: str,
    ratings: tuple[RatingRow, ...] = (),
) -> None:
    """Close a match in play, write its results and ratings; runs inside the caller's
    transaction, so a ``ValueError`` here undoes the whole move."""
    params = (end.status, state, end.winner_id, end.reason, now, now, match_id)
    match = db.execute(q.END_MATCH, params).fetchone()
    if match is None:
        raise StaleMove(match_id, "not a match in play")
    if end.status != "finished":
        return
    seat_rows = db.execute(q.SEATS, (match_id,)).fetchall()
    rated, results = finished_rows(match_id, match, seat_rows, end, now, ratings)
    db.executemany(q.UPSERT_RATING, rated)
    db.executemany(q.INSERT_RESULT, results)


def finished_rows(
    match_id: int,
    match: Row,
    seat_rows: Sequence[Row],
    end: MatchEnd,
    now: str,
    ratings: tuple[RatingRow, ...],
) -> tuple[list[Params], list[Params]]:
    """The ``UPSERT_RATING`` and ``INSERT_RESULT`` parameters of a finished match, from the
    row ``END_MATCH`` returned and its seat rows; ``ValueError`` for results or ratings that
    do not fit the match."""
    seats = match_seats(match, seat_rows)
    rated: list[Params] = []
    if ratings:
        check_ratings(ratings, match, seats)
        rated = [codec.rating_params(r, now) for r in ratings]
    results = [result_params(match_id, match, seats, end, r, now) for r in placed(end, seats)]
    return rated, results


def match_seats(match: Row, rows: Sequence[Row]) -> dict[int, SeatRow]:
    """The match's seats by number; a match started without seat rows has the two of a
    two-player match."""
    seats = tuple(codec.seat_row(r) for r in rows) or default_seats(match) or ()
    return {s.seat: s for s in seats}


def placed(end: MatchEnd, seats: dict[int, SeatRow]) -> list[tuple[SeatResult, int]]:
    """Each result with its place, after checking it names the match's seats exactly."""
    named = {(r.seat, r.user_id) for r in end.results}
    if named != {(s.seat, s.user_id) for s in seats.values()}:
        raise ValueError("results must name exactly the players of the match, each in their seat")
    if any(r.place is None for r in end.results):
        if len(seats) != 2:
            raise ValueError("a match of more than two players needs a place for every result")
        return [(r, 1 if r.user_id == end.winner_id else 2) for r in end.results]
    return [(r, r.place) for r in end.results if r.place is not None]


def result_params(
    match_id: int,
    match: Row,
    seats: dict[int, SeatRow],
    end: MatchEnd,
    placed: tuple[SeatResult, int],
    now: str,
) -> tuple[object, ...]:
    """One results row; team and bot flag come from the seat, which the result may repeat
    but not contradict."""
    result, place = placed
    seat = seats[result.seat]
    if result.team is not None and seat.team is not None and result.team != seat.team:
        raise ValueError(f"seat {seat.seat} plays for team {seat.team}, not {result.team}")
    if result.is_bot and not seat.is_bot:
        raise ValueError(f"seat {seat.seat} is not a bot's")
    team = seat.team if result.team is None else result.team
    opponent = None
    if len(seats) == 2:
        opponent = seats[1 - result.seat].user_id
    return (
        match_id,
        match["guild_id"],
        result.user_id,
        result.seat,
        opponent,
        1 if place == 1 else 0,
        result.points,
        result.final_score,
        end.reason,
        now,
        place,
        team,
        1 if seat.is_bot else 0,
    )


def check_ratings(ratings: tuple[RatingRow, ...], match: Row, seats: dict[int, SeatRow]) -> None:
    """Ratings only ever follow a match with people in it, for its own human players, in its
    own guild and mode; never a match against the bot's own account."""
    if match["vs_bot"]:
        raise ValueError("a match against the bot is not rated")
    players = {s.user_id for s in seats.values() if not s.is_bot}
    users = [r.user_id for r in ratings]
    if len(set(users)) != len(users) or not set(users) <= players:
        raise ValueError("ratings must name human players of the match, once each")
    if any(r.guild_id != match["guild_id"] for r in ratings):
        raise ValueError("ratings must belong to the match's guild")
    if any(r.mode != match["mode"] for r in ratings):
        raise ValueError(f"ratings must be of the match's mode, {match['mode']!r}")

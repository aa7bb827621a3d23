"""Write transactions as plain sqlite3 code, run whole on the connection's worker thread.

Nothing here touches the event loop: ``SqliteStore`` hands these functions to
``run_in_worker`` with the lock held, so each transaction costs one round trip.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bot.store import codec
from bot.store import queries as q
from bot.store.errors import StaleMove
from bot.store.rows import MatchEnd, MoveRecord, RatingRow

Params = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class EncodedMove:
    """A move with its JSON already encoded, by its caller, so bad JSON fails there."""

    move: MoveRecord
    advance: Params
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
    advance = (
        codec.dump(move.state),
        move.seq,
        move.now,
        display,
        1 if move.change_deadline else 0,
        move.deadline,
        move.match_id,
        move.seq - 1,
    )
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
        return [_write_saved(db, move) for move in moves]


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


def _write_saved(db: sqlite3.Connection, encoded: EncodedMove) -> BaseException | None:
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
    players = {match["challenger_id"]: match["opponent_id"]}
    players[match["opponent_id"]] = match["challenger_id"]
    if end.results and {r.user_id for r in end.results} != set(players):
        raise ValueError("results must name exactly the two players of the match")
    if end.status == "finished" and ratings:
        _check_ratings(ratings, match["guild_id"], set(players), bool(match["vs_bot"]))
        db.executemany(q.UPSERT_RATING, [codec.rating_params(r, now) for r in ratings])
    db.executemany(
        q.INSERT_RESULT,
        [
            (
                match_id,
                match["guild_id"],
                result.user_id,
                result.seat,
                players[result.user_id],
                1 if result.user_id == end.winner_id else 0,
                result.points,
                result.final_score,
                end.reason,
                now,
            )
            for result in end.results
        ],
    )


def _check_ratings(
    ratings: tuple[RatingRow, ...], guild_id: str, players: set[str], vs_bot: bool
) -> None:
    """Ratings only ever follow a human match, for its own players in its own guild."""
    if vs_bot:
        raise ValueError("a match against the bot is not rated")
    users = [r.user_id for r in ratings]
    if len(set(users)) != len(users) or not set(users) <= players:
        raise ValueError("ratings must name players of the match, once each")
    if any(r.guild_id != guild_id for r in ratings):
        raise ValueError("ratings must belong to the match's guild")

"""Small builders so store tests read as game events rather than row literals."""

from __future__ import annotations

import itertools
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import asyncpg

from bot.store import (
    HandOutcome,
    HandRow,
    MatchEnd,
    MoveRecord,
    PostgresStore,
    RatingRow,
    SeatResult,
    SeatRow,
    SqliteStore,
)
from bot.store.rows import JsonObject, ResultReason

# Either backend; both also have ``_all(sql, params)`` for a test's own look at the tables.
AnyStore = SqliteStore | PostgresStore
# What each backend raises for a row that breaks a constraint.
INTEGRITY = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


@dataclass(frozen=True, slots=True)
class Database:
    """Where a test's stores live: a SQLite file (not created yet) or a fresh PostgreSQL
    schema. ``store()`` is a new, unopened store on it, as a restarted bot would open."""

    backend: str
    location: str | Path

    def store(self, **options: Any) -> AnyStore:
        if self.backend == "postgres":
            return PostgresStore(str(self.location), **options)
        return SqliteStore(self.location, **options)


_channels = itertools.count(1)


def at(n: int) -> str:
    """A distinct, ordered ISO-8601 UTC time for step ``n``."""
    return f"2025-01-01T{n // 3600:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z"


def state(seq: int, **extra: object) -> JsonObject:
    return {"seq": seq, "hand": {"stock": ["Ah", "2c"], "discard": ["Ks"]}, **extra}


def hand(
    match_id: int,
    number: int,
    outcome: HandOutcome,
    winner_seat: int | None,
    *,
    knocker_seat: int | None = None,
    points: int = 10,
) -> HandRow:
    return HandRow(
        match_id=match_id,
        number=number,
        dealer_seat=number % 2,
        seed=f"seed-{match_id}-{number}",
        outcome=outcome,
        knocker_seat=knocker_seat,
        winner_seat=winner_seat,
        points=0 if winner_seat is None else points,
        result={"outcome": outcome, "points": points},
    )


def move(
    match_id: int,
    seq: int,
    *,
    hand_number: int = 1,
    finished_hand: HandRow | None = None,
    finished: MatchEnd | None = None,
    ratings: tuple[RatingRow, ...] = (),
) -> MoveRecord:
    return MoveRecord(
        match_id=match_id,
        seq=seq,
        hand_number=hand_number,
        seat=seq % 2,
        action={"kind": "discard", "card": "7h", "seq": seq},
        state=state(seq),
        now=at(seq),
        finished_hand=finished_hand,
        finished=finished,
        ratings=ratings,
    )


def finish(
    challenger: str,
    opponent: str,
    winner: str,
    *,
    points: tuple[int, int] = (100, 20),
    reason: ResultReason = "target",
) -> MatchEnd:
    """Challenger sits in seat 0, opponent in seat 1 (the engine's player order). The final
    scores are the hand points, the challenger's with 25 more (a box bonus, say)."""
    return MatchEnd(
        status="finished",
        reason=reason,
        winner_id=winner,
        results=(
            SeatResult(challenger, 0, points[0], points[0] + 25),
            SeatResult(opponent, 1, points[1], points[1]),
        ),
    )


async def new_match(
    store: AnyStore,
    challenger: str = "alice",
    opponent: str = "bob",
    *,
    guild: str = "g1",
    channel: str | None = None,
    start: bool = True,
    vs_bot: bool = False,
    now: str | None = None,
) -> int:
    channel = channel or f"chan-{next(_channels)}"
    match_id = await store.create_challenge(
        guild, channel, challenger, opponent, {"target": 100}, now or at(0), vs_bot=vs_bot
    )
    if start:
        await store.start_match(match_id, state(0), at(0))
    return match_id


async def play(
    store: AnyStore,
    challenger: str,
    opponent: str,
    winner: str,
    *,
    guild: str = "g1",
    hands: tuple[tuple[HandOutcome, int | None], ...] = (),
    points: tuple[int, int] = (100, 20),
    vs_bot: bool = False,
    ratings: tuple[RatingRow, ...] = (),
    finished_at: str | None = None,
) -> int:
    """A whole match: one move per hand, each finishing that hand, the last one the match.

    ``finished_at`` overrides the time of the last move, to order matches in history.
    """
    match_id = await new_match(store, challenger, opponent, guild=guild, vs_bot=vs_bot)
    plays = list(hands) or [("knock", 0 if winner == challenger else 1)]
    for number, (outcome, seat) in enumerate(plays, start=1):
        last = number == len(plays)
        knocker = _knocker(outcome, seat)
        record = move(
            match_id,
            number,
            hand_number=number,
            finished_hand=hand(match_id, number, outcome, seat, knocker_seat=knocker),
            finished=finish(challenger, opponent, winner, points=points) if last else None,
            ratings=ratings if last else (),
        )
        if last and finished_at is not None:
            record = replace(record, now=finished_at)
        await store.record_move(record)
    return match_id


def _knocker(outcome: HandOutcome, winner_seat: int | None) -> int | None:
    """Who knocked, as the engine records it: the winner (a gin or big gin counts), except in
    an undercut where the knocker lost; nobody in a void hand."""
    if outcome in ("knock", "gin", "big_gin"):
        return winner_seat
    if outcome == "undercut" and winner_seat is not None:
        return 1 - winner_seat
    return None


def seated(
    *users: str, teams: tuple[int, ...] = (), bots: tuple[int, ...] = ()
) -> tuple[SeatRow, ...]:
    """Seats in the order given; ``teams`` one team number per seat; ``bots`` the bot seats."""
    return tuple(
        SeatRow(seat, user, teams[seat] if teams else None, seat in bots)
        for seat, user in enumerate(users)
    )


async def new_lobby(
    store: AnyStore,
    mode: str,
    seats: tuple[SeatRow, ...],
    *,
    guild: str = "g1",
    channel: str | None = None,
) -> int:
    """A lobby of ``mode`` opened by the first seat's player and started with ``seats``."""
    channel = channel or f"chan-{next(_channels)}"
    match_id = await store.create_challenge(
        guild, channel, seats[0].user_id, "", {"mode": mode}, at(0), mode=mode
    )
    await store.start_match(match_id, state(0), at(0), seats=seats)
    return match_id


def placed(
    seats: tuple[SeatRow, ...],
    places: tuple[int, ...],
    *,
    reason: ResultReason = "target",
    points: tuple[int, ...] = (),
    finals: tuple[int, ...] = (),
) -> MatchEnd:
    """A finished match with each seat's place; the first seat in first place wins. Hand
    ``points`` and ``finals`` (final scores) per seat, 0 when not given."""
    winner = next(s.user_id for s, p in zip(seats, places, strict=True) if p == 1)
    return MatchEnd(
        status="finished",
        reason=reason,
        winner_id=winner,
        results=tuple(
            SeatResult(
                s.user_id,
                s.seat,
                points[s.seat] if points else 0,
                finals[s.seat] if finals else 0,
                place=p,
            )
            for s, p in zip(seats, places, strict=True)
        ),
    )


def board(
    match_id: int,
    number: int,
    dealt: tuple[int, ...],
    outcome: HandOutcome,
    winner_seat: int | None,
    *,
    board_number: int = 0,
    knocker_seat: int | None = None,
    points: int = 10,
) -> HandRow:
    """One board of a hand, its record naming the seats dealt in as the engine's does."""
    return HandRow(
        match_id=match_id,
        number=number,
        dealer_seat=dealt[0],
        seed=f"seed-{match_id}-{number}-{board_number}",
        outcome=outcome,
        knocker_seat=knocker_seat,
        winner_seat=winner_seat,
        points=0 if winner_seat is None else points,
        result={"number": number, "seats": list(dealt), "board": board_number},
        board=board_number,
    )


async def play_hands(store: AnyStore, match_id: int, hands: list[HandRow], end: MatchEnd) -> None:
    """One move per hand row, the last one finishing the match with ``end``."""
    for seq, row in enumerate(hands, start=1):
        last = seq == len(hands)
        await store.record_move(
            move(
                match_id,
                seq,
                hand_number=row.number,
                finished_hand=row,
                finished=end if last else None,
            )
        )

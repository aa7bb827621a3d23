"""JSON columns and row decoding, kept apart from SQL so another backend can reuse them."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, cast

import orjson

from bot.store.rows import (
    HandOutcome,
    HandRow,
    HistoryRow,
    JsonObject,
    LeaderRow,
    MatchStatus,
    MoveRow,
    PlayerStats,
    RatingRow,
    ResultReason,
    ResultRow,
    SeatRow,
    TableRow,
)


class Row(Protocol):
    """A result row by column name: ``sqlite3.Row`` and asyncpg's ``Record`` both are."""

    def __getitem__(self, key: str, /) -> Any: ...


# The highest seat a hand's ``dealt`` bit mask can hold (SQLite integers are 64-bit signed).
MAX_SEAT = 62


def state_check(text: str) -> int:
    """A checksum of a state's JSON text (``dump``), so a process that made a move itself
    can tell its copy of the table is the one another process stored."""
    return zlib.crc32(text.encode())


def dump(value: JsonObject) -> str:
    """Compact, valid JSON (never NaN: orjson writes non-finite numbers as null), the same
    text the standard library writes with ``separators=(",", ":")`` for our data, at a
    fraction of the cost: every move writes its table's state."""
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object, got {type(value).__name__}")
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def load(text: str) -> JsonObject:
    value = orjson.loads(text)
    if not isinstance(value, dict):
        raise ValueError("stored JSON is not an object")
    return value


def table_row(row: Row, seats: Sequence[SeatRow] = ()) -> TableRow:
    """A match row and its seats (the caller's, in seat order)."""
    state = row["state"]
    return TableRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        status=cast(MatchStatus, row["status"]),
        challenger_id=row["challenger_id"],
        opponent_id=row["opponent_id"],
        settings=load(row["settings"]),
        state=None if state is None else load(state),
        move_count=row["move_count"],
        display=load(row["display"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        winner_id=row["winner_id"],
        end_reason=row["end_reason"],
        deadline=row["deadline"],
        vs_bot=bool(row["vs_bot"]),
        mode=row["mode"],
        seats=tuple(seats),
    )


def seat_row(row: Row) -> SeatRow:
    return SeatRow(
        seat=row["seat"],
        user_id=row["user_id"],
        team=row["team"],
        is_bot=bool(row["is_bot"]),
    )


def seat_params(match_id: int, seat: SeatRow) -> tuple[object, ...]:
    return (match_id, seat.seat, seat.user_id, seat.team, 1 if seat.is_bot else 0)


def move_row(row: Row) -> MoveRow:
    return MoveRow(
        match_id=row["match_id"],
        seq=row["seq"],
        hand_number=row["hand_number"],
        seat=row["seat"],
        action=load(row["action"]),
        created_at=row["created_at"],
    )


def hand_row(row: Row) -> HandRow:
    return HandRow(
        match_id=row["match_id"],
        number=row["number"],
        dealer_seat=row["dealer_seat"],
        seed=row["seed"],
        outcome=cast(HandOutcome, row["outcome"]),
        knocker_seat=row["knocker_seat"],
        winner_seat=row["winner_seat"],
        points=row["points"],
        result=load(row["result"]),
        board=row["board"],
    )


def result_row(row: Row) -> ResultRow:
    return ResultRow(
        match_id=row["match_id"],
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        seat=row["seat"],
        opponent_id=row["opponent_id"],
        won=bool(row["won"]),
        points=row["points"],
        final_score=row["final_score"],
        reason=cast(ResultReason, row["reason"]),
        finished_at=row["finished_at"],
        place=row["place"],
        team=row["team"],
        is_bot=bool(row["is_bot"]),
    )


def leader_row(row: Row) -> LeaderRow:
    return LeaderRow(
        user_id=row["user_id"],
        name=row["name"],
        played=row["played"],
        won=row["won"],
        lost=row["played"] - row["won"],
        win_rate=win_rate(row["won"], row["played"]),
        hand_points=row["hand_points"],
        final_scores=row["final_scores"],
        mu=row["mu"],
        sigma=row["sigma"],
        rating=row["rating"],
        provisional=bool(row["provisional"]),
    )


def history_row(row: Row) -> HistoryRow:
    return HistoryRow(
        match_id=row["match_id"],
        opponent_id=row["opponent_id"],
        opponent_name=row["opponent_name"],
        won=bool(row["won"]),
        points=row["points"],
        final_score=row["final_score"],
        opponent_final_score=row["opponent_final_score"],
        reason=cast(ResultReason, row["reason"]),
        finished_at=row["finished_at"],
        vs_bot=bool(row["vs_bot"]),
        mode=row["mode"],
        place=row["place"],
        players=row["players"],
    )


def rating_row(row: Row) -> RatingRow:
    return RatingRow(
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
        matches=row["matches"],
        mode=row["mode"],
    )


def rating_params(rating: RatingRow, now: str) -> tuple[object, ...]:
    return (
        rating.guild_id,
        rating.user_id,
        rating.mode,
        rating.mu,
        rating.sigma,
        rating.matches,
        now,
    )


def streaks(won_newest_first: Iterable[object]) -> tuple[int, int]:
    """(current, best) runs of wins; the current one counts back from the newest match."""
    current = best = run = 0
    counting_current = True
    for won in won_newest_first:
        if won:
            run += 1
            best = max(best, run)
        else:
            if counting_current:
                current, counting_current = run, False
            run = 0
    if counting_current:
        current = run
    return current, best


def hand_params(hand: HandRow) -> tuple[object, ...]:
    return (
        hand.match_id,
        hand.number,
        hand.board,
        hand.dealer_seat,
        hand.seed,
        hand.outcome,
        hand.knocker_seat,
        hand.winner_seat,
        hand.points,
        dump(hand.result),
        dealt_mask(hand.result),
    )


def dealt_mask(result: JsonObject) -> int | None:
    """The seats a hand was dealt to, as bits (seat n is bit n), from the engine's record;
    None for a record that names no seats, which the stats read as every seat.

    Kept as a column so the stats need not parse every hand's JSON to count hands played.
    """
    seats = result.get("seats")
    if seats is None:
        return None
    if not isinstance(seats, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= MAX_SEAT for s in seats
    ):
        raise ValueError(f"a hand's seats must be seat numbers from 0 to {MAX_SEAT}")
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


def ratio(part: int, whole: int) -> float:
    """A share that is 0.0 rather than an error before anything has been played."""
    return part / whole if whole else 0.0


def win_rate(won: int, played: int) -> float:
    return ratio(won, played)


def player_stats(user_id: str, r: Row, won_newest_first: Iterable[object]) -> PlayerStats:
    """A player's stats from the ``PLAYER_STATS`` row and the ``WON_SEQUENCE`` column."""
    current, best = streaks(won_newest_first)
    hands = r["hands_played"]
    return PlayerStats(
        user_id=user_id,
        name=r["name"],
        played=r["played"],
        won=r["won"],
        lost=r["played"] - r["won"],
        win_rate=win_rate(r["won"], r["played"]),
        hands_played=hands,
        hands_won=r["hands_won"],
        knocks=r["knocks"],
        knock_wins=r["knock_wins"],
        gins=r["gins"],
        big_gins=r["big_gins"],
        undercuts_made=r["undercuts_made"],
        undercuts_suffered=r["undercuts_suffered"],
        final_scores=r["final_scores"],
        avg_final_score=ratio(r["final_scores"], r["played"]),
        hand_points=r["hand_points"],
        avg_hand_points=ratio(r["hand_points"], hands),
        knock_rate=ratio(r["knocks"], hands),
        gin_rate=ratio(r["gins"], hands),
        undercut_rate=ratio(r["undercuts_made"], hands),
        current_streak=current,
        best_streak=best,
        mu=r["mu"],
        sigma=r["sigma"],
        rating=r["rating"],
        rating_matches=r["rating_matches"],
    )

"""JSON columns and row decoding, kept apart from SQL so another backend can reuse them."""

from __future__ import annotations

import json
import sqlite3
from typing import cast

from bot.store.rows import (
    HandOutcome,
    HandRow,
    JsonObject,
    MatchStatus,
    MoveRow,
    ResultReason,
    ResultRow,
    TableRow,
)


def dump(value: JsonObject) -> str:
    """Compact, strict JSON (no NaN), so the text stays valid for other databases too."""
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object, got {type(value).__name__}")
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def load(text: str) -> JsonObject:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("stored JSON is not an object")
    return value


def table_row(row: sqlite3.Row) -> TableRow:
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
    )


def move_row(row: sqlite3.Row) -> MoveRow:
    return MoveRow(
        match_id=row["match_id"],
        seq=row["seq"],
        hand_number=row["hand_number"],
        seat=row["seat"],
        action=load(row["action"]),
        created_at=row["created_at"],
    )


def hand_row(row: sqlite3.Row) -> HandRow:
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
    )


def result_row(row: sqlite3.Row) -> ResultRow:
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
    )


def hand_params(hand: HandRow) -> tuple[object, ...]:
    return (
        hand.match_id,
        hand.number,
        hand.dealer_seat,
        hand.seed,
        hand.outcome,
        hand.knocker_seat,
        hand.winner_seat,
        hand.points,
        dump(hand.result),
    )


def win_rate(won: int, played: int) -> float:
    return won / played if played else 0.0

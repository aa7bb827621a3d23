"""Plain rows passed in and out of a store, so callers never see SQL or driver types."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

JsonObject = dict[str, Any]
MatchStatus = Literal["challenge", "playing", "finished", "declined", "expired", "cancelled"]
ClosedChallenge = Literal["declined", "expired", "cancelled"]
HandOutcome = Literal["knock", "undercut", "gin", "big_gin", "void"]
ResultReason = Literal["target", "resign", "forfeit"]

OPEN_STATUSES: tuple[MatchStatus, ...] = ("challenge", "playing")
RESULT_REASONS: tuple[ResultReason, ...] = ("target", "resign", "forfeit")


@dataclass(frozen=True, slots=True)
class TableRow:
    """One match as stored, JSON columns already parsed; enough to rebuild a table."""

    id: int
    guild_id: str
    channel_id: str
    status: MatchStatus
    challenger_id: str
    opponent_id: str
    settings: JsonObject
    state: JsonObject | None
    move_count: int
    display: JsonObject
    created_at: str
    updated_at: str
    finished_at: str | None
    winner_id: str | None
    end_reason: str | None


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One accepted move, for replays and audits."""

    match_id: int
    seq: int
    hand_number: int
    seat: int
    action: JsonObject
    created_at: str


@dataclass(frozen=True, slots=True)
class HandRow:
    """A finished hand; ``winner_seat`` is None for a void hand."""

    match_id: int
    number: int
    dealer_seat: int
    seed: str
    outcome: HandOutcome
    knocker_seat: int | None
    winner_seat: int | None
    points: int
    result: JsonObject


@dataclass(frozen=True, slots=True)
class SeatResult:
    """What the caller reports for one seat when a match finishes.

    The store fills in the rest of the result row (guild, opponent, won, reason, time)
    from the match and the ``MatchEnd``, so they cannot disagree. The seat here is the
    one hands refer to, which is how hands are attributed to users in the stats.
    """

    user_id: str
    seat: int
    points: int
    final_score: int


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One player's recorded result, as stored; the source of leaderboard and stats."""

    match_id: int
    guild_id: str
    user_id: str
    seat: int
    opponent_id: str
    won: bool
    points: int
    final_score: int
    reason: ResultReason
    finished_at: str


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """How a match ends: ``finished`` with a winner and results, or ``cancelled`` with none.

    Use ``MatchEnd.cancelled(reason)`` for a table that stops without a result
    (for example an admin ending it); ``reason`` is then free text kept in end_reason.
    """

    status: Literal["finished", "cancelled"]
    reason: str
    winner_id: str | None = None
    results: tuple[SeatResult, ...] = ()

    def __post_init__(self) -> None:
        if self.status == "cancelled":
            if self.winner_id is not None or self.results:
                raise ValueError("a cancelled match has no winner and no results")
            return
        if self.status != "finished":
            raise ValueError(f"unknown end status {self.status!r}")
        if self.reason not in RESULT_REASONS:
            raise ValueError(f"a finished match ends by one of {RESULT_REASONS}")
        users = [r.user_id for r in self.results]
        if len(users) < 2 or len(set(users)) != len(users):
            raise ValueError("a finished match needs one result per player")
        if len({r.seat for r in self.results}) != len(users):
            raise ValueError("each result needs its own seat")
        if self.winner_id not in users:
            raise ValueError("the winner must be one of the players")

    @classmethod
    def cancelled(cls, reason: str) -> MatchEnd:
        return cls(status="cancelled", reason=reason)


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """Everything one accepted move changes, written in a single transaction."""

    match_id: int
    seq: int
    hand_number: int
    seat: int
    action: JsonObject
    state: JsonObject
    now: str
    finished_hand: HandRow | None = None
    finished: MatchEnd | None = None


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One leaderboard line; ``name`` is None if the player was never upserted."""

    user_id: str
    name: str | None
    played: int
    won: int
    lost: int
    win_rate: float
    points: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record in one guild, from finished matches only."""

    user_id: str
    name: str | None
    played: int
    won: int
    lost: int
    win_rate: float
    hands_won: int
    gins: int
    big_gins: int
    undercuts: int
    knocks: int
    points: int

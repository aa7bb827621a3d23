"""Plain rows passed in and out of a store, so callers never see SQL or driver types."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

JsonObject = dict[str, Any]
MatchStatus = Literal["challenge", "playing", "finished", "declined", "expired", "cancelled"]
ClosedChallenge = Literal["declined", "expired", "cancelled"]
HandOutcome = Literal["knock", "undercut", "gin", "big_gin", "void"]
# "last_left": an elimination match ends when one player is left (that player is last).
ResultReason = Literal["target", "resign", "forfeit", "last_left"]
LeaderSort = Literal["rating", "wins", "points"]

ReviewState = Literal["working", "sent"]

OPEN_STATUSES: tuple[MatchStatus, ...] = ("challenge", "playing")
RESULT_REASONS: tuple[ResultReason, ...] = ("target", "resign", "forfeit", "last_left")
# The mode of every match stored before modes existed, and the default of every call.
CLASSIC = "classic"


@dataclass(frozen=True, slots=True)
class ReviewKey:
    """One player's review of one hand (its board, in a duplicate tournament)."""

    match_id: int
    hand: int
    board: int
    seat: int

    def params(self) -> tuple[int, int, int, int]:
        return (self.match_id, self.hand, self.board, self.seat)

    def claim_params(self, now: str, lapses: str) -> dict[str, int | str]:
        """The named parameters of ``CLAIM_REVIEW``: the key, when, and when a claim lapses."""
        return {
            "match": self.match_id,
            "hand": self.hand,
            "board": self.board,
            "seat": self.seat,
            "now": now,
            "lapses": lapses,
        }


def review_state(stored: object) -> ReviewState:
    """What a refused claim found (``REVIEW_STATE``'s value, None without a row): the review
    sent, or being made."""
    return "sent" if stored == "sent" else "working"


@dataclass(frozen=True, slots=True)
class SeatRow:
    """Who sits in one seat of a started match.

    Bots of multi-player matches have pseudo user ids (such as "bot:3"), unique within their
    match, and never appear on a leaderboard. ``team`` is None except in teams matches.
    """

    seat: int
    user_id: str
    team: int | None = None
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class TableRow:
    """One match as stored, JSON columns already parsed; enough to rebuild a table."""

    id: int
    guild_id: str
    channel_id: str
    status: MatchStatus
    # The opener; seat 0 of a two-player match.
    challenger_id: str
    # The second player of a two-player match; "" for a lobby of another mode.
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
    # The next timer event of an open table; cleared when the table closes or finishes.
    deadline: str | None = None
    # A match against the bot's own account, which is then always the opponent.
    vs_bot: bool = False
    mode: str = CLASSIC
    # By seat, from the moment the match starts; empty for a challenge or lobby.
    seats: tuple[SeatRow, ...] = ()


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
    """A finished hand (one board of it: teams play boards 0 and 1 of each number);
    ``winner_seat`` is None for a void hand. ``result`` holds the engine's record of the hand,
    whose "seats" list (the seats dealt in) decides who played it in the stats."""

    match_id: int
    number: int
    dealer_seat: int
    seed: str
    outcome: HandOutcome
    knocker_seat: int | None
    winner_seat: int | None
    points: int
    result: JsonObject
    board: int = 0


@dataclass(frozen=True, slots=True)
class SeatResult:
    """What the caller reports for one seat when a match finishes.

    ``points`` are the hand points the seat's side won (the running total of the table);
    ``final_score`` is the side's final score, those points plus the game, box and shutout
    bonuses, exactly as the match-over message gives it (a resigned or forfeited match has
    no bonuses; elimination, which has no points, counts the players placed below).

    The store fills in the rest of the result row (guild, opponent, won, reason, time)
    from the match and the ``MatchEnd``, so they cannot disagree. The seat here is the
    one hands refer to, which is how hands are attributed to users in the stats.

    ``place`` (1 is best; partners share theirs) may stay None only in a two-seat match,
    where the winner is 1 and the other 2. ``team`` and ``is_bot`` left at their defaults
    are taken from the match's seats; given, they must agree with them.
    """

    user_id: str
    seat: int
    points: int
    final_score: int
    place: int | None = None
    team: int | None = None
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seat's recorded result, as stored; the source of leaderboard and stats.

    ``won`` is ``place == 1``; ``opponent_id`` is set only in a two-seat match; ``is_bot``
    marks a bot's own row, which no standings count.
    """

    match_id: int
    guild_id: str
    user_id: str
    seat: int
    opponent_id: str | None
    won: bool
    points: int
    final_score: int
    reason: ResultReason
    finished_at: str
    place: int
    team: int | None = None
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """How a match ends: ``finished`` with a winner and results, or ``cancelled`` with none.

    ``winner_id`` is a player in first place. Places are given for every result or for none
    (a two-seat match then places the winner first).

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
        places = [r.place for r in self.results if r.place is not None]
        if not places:
            return
        if len(places) != len(users):
            raise ValueError("give a place for every result or for none")
        if any(not 1 <= place <= len(users) for place in places):
            raise ValueError(f"places run from 1 to {len(users)}")
        if any(r.user_id == self.winner_id and r.place != 1 for r in self.results):
            raise ValueError("the winner must be in first place")

    @classmethod
    def cancelled(cls, reason: str) -> MatchEnd:
        return cls(status="cancelled", reason=reason)


@dataclass(frozen=True, slots=True)
class StartClocks:
    """The turn clocks a match starts with, written with its first state so that another
    process reading the started table never sees it without them: ``display`` replaces the
    table's display JSON, ``deadline`` (None: none) replaces the challenge's expiry."""

    display: JsonObject
    deadline: str | None


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's skill rating in one guild and mode; ``matches`` counts the rated matches
    behind it. Modes are rated apart: winning at three players says little about teams."""

    guild_id: str
    user_id: str
    mu: float
    sigma: float
    matches: int
    mode: str = CLASSIC


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """Everything one accepted move changes, written in a single transaction.

    ``display`` and the deadline ride along so a move costs one write instead of three:
    ``display`` (when not None) replaces the table's display JSON; ``timers`` (when not
    None) replaces only the turn clocks in it (its ``timers`` key; the old single ``timer``
    goes), the rest kept as stored, so a process writing clocks never overwrites the
    message ids another process keeps there; ``change_deadline`` set makes ``deadline`` the
    table's new deadline, None clearing it. Left at their defaults all stay as stored. A
    move that finishes the match clears the deadline whatever these say, as ``end_match``
    does.
    """

    match_id: int
    seq: int
    hand_number: int
    seat: int
    action: JsonObject
    state: JsonObject
    now: str
    finished_hand: HandRow | None = None
    finished: MatchEnd | None = None
    # New ratings of the players, saved with the result; ignored unless the match finishes.
    ratings: tuple[RatingRow, ...] = ()
    display: JsonObject | None = None
    deadline: str | None = None
    change_deadline: bool = False
    timers: JsonObject | None = None
    # Not stored: the message the answer to the mover edits (their DM hand), told to the
    # other processes with the move, so the table's owner leaves that message as it is; and
    # the language the mover reads, so the owner writes to them in it.
    shown_message: int | None = None
    mover_language: str | None = None

    def __post_init__(self) -> None:
        if self.deadline is not None and not self.change_deadline:
            # Refused rather than ignored: the caller clearly meant to set it.
            raise ValueError("a deadline needs change_deadline=True to be written")
        if self.display is not None and self.timers is not None:
            raise ValueError("a move writes the whole display or its clocks, not both")


@dataclass(frozen=True, slots=True)
class HeardMove:
    """A plain move (one that ends no hand) as another process recorded it, enough for a
    process holding the table as it stood just before to make the same move itself rather
    than read the table again: the action, the clocks and deadline written with it, and a
    checksum of the state the move left (``codec.state_check``), which the copy made here
    must match before it is trusted; the mover's message its answer edited, if any, and the
    language the mover reads."""

    action: JsonObject
    timers: JsonObject | None
    change_deadline: bool
    deadline: str | None
    state_check: int
    shown_message: int | None = None
    mover_language: str | None = None


@dataclass(frozen=True, slots=True)
class TableChange:
    """What a process hears of a table changed by another process sharing the database:
    its move count and status after the change, the seat that moved (-1: none, or not
    known) and, for a plain move, the move itself. Id 0: news may have been missed, so any
    table may have changed."""

    table_id: int
    count: int
    status: str
    seat: int = -1
    move: HeardMove | None = None


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One leaderboard line; ``name`` is None if the player was never upserted.

    Two totals over the same matches: ``final_scores`` adds up the match's final scores
    (bonuses included, as the match-over message and the history show them; the figure the
    "points" sort ranks by), ``hand_points`` only the points won in hands.

    ``rating`` is the conservative display rating mu - 3·sigma, so a player with few matches
    (wide sigma) does not jump ahead of a proven one; the rating fields are None when the
    player has no rating. ``provisional`` flags players with fewer matches than the caller's
    threshold.
    """

    user_id: str
    name: str | None
    played: int
    won: int
    lost: int
    win_rate: float
    hand_points: int
    final_scores: int
    mu: float | None = None
    sigma: float | None = None
    rating: float | None = None
    provisional: bool = False


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One finished match seen from one player, for a match history page.

    The opponent fields describe the other player of a two-seat match and are None in
    matches of more seats (``players`` says how many); ``place`` is the player's own.
    """

    match_id: int
    opponent_id: str | None
    opponent_name: str | None
    won: bool
    points: int
    final_score: int
    opponent_final_score: int | None
    reason: ResultReason
    finished_at: str
    vs_bot: bool
    mode: str = CLASSIC
    place: int = 0
    players: int = 2


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record in one guild and mode, from finished matches only (against the bot
    too).

    Hand counts cover the hands (boards, in teams) of those matches the player was dealt
    into, void ones included: a three-player dealer sits a hand out, a player out of an
    elimination match is not dealt again. ``knocks`` counts hands the player ended by
    knocking, whatever the outcome (the engine records a gin as a knock by the winner too);
    ``knock_wins`` only the ones won as a plain knock. ``undercuts_made`` counts the
    undercuts the player scored as defender, ``undercuts_suffered`` the knocks of theirs
    that were undercut. Rates are per hand played (``undercut_rate``: undercuts made).

    ``final_scores`` adds up the final scores of the matches (bonuses included, as the
    match-over message shows them; in teams the team's, in elimination the players placed
    below), ``avg_final_score`` per match; ``hand_points`` only the points won in hands
    (the side's: a teams player shares the team's), ``avg_hand_points`` per hand played.
    The rating fields are None (``rating_matches`` 0) for a player without a rating.
    """

    user_id: str
    name: str | None
    played: int
    won: int
    lost: int
    win_rate: float
    hands_played: int
    hands_won: int
    knocks: int
    knock_wins: int
    gins: int
    big_gins: int
    undercuts_made: int
    undercuts_suffered: int
    final_scores: int
    avg_final_score: float
    hand_points: int
    avg_hand_points: float
    knock_rate: float
    gin_rate: float
    undercut_rate: float
    current_streak: int
    best_streak: int
    mu: float | None
    sigma: float | None
    rating: float | None
    rating_matches: int

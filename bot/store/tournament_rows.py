"""Plain rows of tournaments and seasons passed in and out of a store."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.store.codec import Row, load
from bot.store.rows import JsonObject

TournamentFormat = Literal["swiss", "knockout"]
TournamentState = Literal["signup", "running", "finished", "cancelled"]
EntrantStatus = Literal["joined", "left", "dropped"]
RoundState = Literal["playing", "finished"]
PairingState = Literal["waiting", "playing", "decided"]
# How a pairing was decided: its match, a bye, a walkover (the opponent withdrew), the
# round's time limit, or nobody (both players withdrew).
DecidedBy = Literal["match", "bye", "walkover", "time", "nobody"]
Cadence = Literal["monthly", "weekly", "days"]
PostKind = Literal["weekly", "final"]

OPEN_TOURNAMENT_STATES: tuple[TournamentState, ...] = ("signup", "running")


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """One tournament as stored; ``round`` is the round under way or last played (0
    before the first), ``deadline`` its next timer event."""

    id: int
    guild_id: str
    channel_id: str
    organiser_id: str
    format: TournamentFormat
    settings: JsonObject
    state: TournamentState
    round: int
    signup_closes_at: str | None
    deadline: str | None
    created_at: str
    started_at: str | None
    finished_at: str | None
    updated_at: str

    @property
    def is_open(self) -> bool:
        return self.state in OPEN_TOURNAMENT_STATES


@dataclass(frozen=True, slots=True)
class EntrantRow:
    tournament_id: int
    user_id: str
    status: EntrantStatus
    seed: int | None
    place: int | None
    joined_at: str
    left_at: str | None
    name: str | None = None  # as they joined (None: not kept)


@dataclass(frozen=True, slots=True)
class RoundRow:
    tournament_id: int
    number: int
    seed: str | None
    deadline: str | None
    state: RoundState
    started_at: str
    finished_at: str | None


@dataclass(frozen=True, slots=True)
class PairingRow:
    """A pairing; ``player_a`` sits in seat 0, ``player_b`` None is a bye. ``score_a`` and
    ``score_b`` are the match's final scores (or the totals at the time limit); ``detail``
    keeps what else the standings read (a duplicate round's deals)."""

    tournament_id: int
    round: int
    board: int
    player_a: str
    player_b: str | None
    table_id: int | None
    state: PairingState
    winner_id: str | None = None
    decided_by: DecidedBy | None = None
    score_a: int | None = None
    score_b: int | None = None
    detail: JsonObject | None = None
    decided_at: str | None = None

    @property
    def is_bye(self) -> bool:
        return self.player_b is None

    @property
    def players(self) -> tuple[str, ...]:
        return (self.player_a,) if self.player_b is None else (self.player_a, self.player_b)


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A tournament with everything in it, read in one go (a tournament is small)."""

    tournament: TournamentRow
    entrants: tuple[EntrantRow, ...]
    rounds: tuple[RoundRow, ...]
    pairings: tuple[PairingRow, ...]


@dataclass(frozen=True, slots=True)
class TournamentEntry:
    """A player's part in one tournament, for their history: ``entrants`` counts everyone
    who did not leave before the start."""

    tournament_id: int
    channel_id: str
    format: TournamentFormat
    state: TournamentState
    status: EntrantStatus
    seed: int | None
    place: int | None
    entrants: int
    created_at: str
    finished_at: str | None


@dataclass(frozen=True, slots=True)
class ScheduleRow:
    """A season schedule in effect from ``effective_from`` (``anchor``: an ISO date)."""

    guild_id: str
    effective_from: str
    cadence: Cadence
    length_days: int | None = None
    anchor: str | None = None


@dataclass(frozen=True, slots=True)
class SeasonSettingsRow:
    """Where a server's standings are posted (None: not at all), on which weekday and hour
    (UTC), from when; and its divisions (0: none) with the players moving each way."""

    guild_id: str
    post_channel_id: str | None = None
    post_weekday: int = 0
    post_hour: int = 0
    posts_since: str | None = None
    divisions: int = 0
    promote: int = 0
    relegate: int = 0


@dataclass(frozen=True, slots=True)
class SeasonPostRow:
    guild_id: str
    kind: PostKind
    slot: str
    claimant: str
    claim_until: str
    posted_at: str | None
    message_id: str | None


def tournament_row(r: Row) -> TournamentRow:
    return TournamentRow(
        id=int(r["id"]),
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        organiser_id=r["organiser_id"],
        format=r["format"],
        settings=load(r["settings"]),
        state=r["state"],
        round=int(r["round"]),
        signup_closes_at=r["signup_closes_at"],
        deadline=r["deadline"],
        created_at=r["created_at"],
        started_at=r["started_at"],
        finished_at=r["finished_at"],
        updated_at=r["updated_at"],
    )


def entrant_row(r: Row) -> EntrantRow:
    return EntrantRow(
        tournament_id=int(r["tournament_id"]),
        user_id=r["user_id"],
        status=r["status"],
        seed=r["seed"],
        place=r["place"],
        joined_at=r["joined_at"],
        left_at=r["left_at"],
        name=r["name"],
    )


def round_row(r: Row) -> RoundRow:
    return RoundRow(
        tournament_id=int(r["tournament_id"]),
        number=int(r["number"]),
        seed=r["seed"],
        deadline=r["deadline"],
        state=r["state"],
        started_at=r["started_at"],
        finished_at=r["finished_at"],
    )


def pairing_row(r: Row) -> PairingRow:
    return PairingRow(
        tournament_id=int(r["tournament_id"]),
        round=int(r["round"]),
        board=int(r["board"]),
        player_a=r["player_a"],
        player_b=r["player_b"],
        table_id=None if r["table_id"] is None else int(r["table_id"]),
        state=r["state"],
        winner_id=r["winner_id"],
        decided_by=r["decided_by"],
        score_a=r["score_a"],
        score_b=r["score_b"],
        detail=load(r["detail"]),
        decided_at=r["decided_at"],
    )


def entry_row(r: Row) -> TournamentEntry:
    return TournamentEntry(
        tournament_id=int(r["id"]),
        channel_id=r["channel_id"],
        format=r["format"],
        state=r["state"],
        status=r["status"],
        seed=r["seed"],
        place=r["place"],
        entrants=int(r["entrants"]),
        created_at=r["created_at"],
        finished_at=r["finished_at"],
    )


def schedule_row(r: Row) -> ScheduleRow:
    return ScheduleRow(
        guild_id=r["guild_id"],
        effective_from=r["effective_from"],
        cadence=r["cadence"],
        length_days=r["length_days"],
        anchor=r["anchor"],
    )


def season_settings_row(r: Row) -> SeasonSettingsRow:
    return SeasonSettingsRow(
        guild_id=r["guild_id"],
        post_channel_id=r["post_channel_id"],
        post_weekday=int(r["post_weekday"]),
        post_hour=int(r["post_hour"]),
        posts_since=r["posts_since"],
        divisions=int(r["divisions"]),
        promote=int(r["promote"]),
        relegate=int(r["relegate"]),
    )


def season_post_row(r: Row) -> SeasonPostRow:
    return SeasonPostRow(
        guild_id=r["guild_id"],
        kind=r["kind"],
        slot=r["slot"],
        claimant=r["claimant"],
        claim_until=r["claim_until"],
        posted_at=r["posted_at"],
        message_id=r["message_id"],
    )

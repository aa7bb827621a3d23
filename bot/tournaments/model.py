"""What the tournament service hands the Discord layer: a tournament as it stands, the
matches to start and the tables to end after a change, and the standings. Plain values: no
Discord, no store types beyond its rows."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from typing import Any, Literal

from bot.gin.settings import Settings
from bot.store.tournament_rows import (
    EntrantRow,
    PairingRow,
    RoundRow,
    TournamentRecord,
    TournamentRow,
)
from bot.tournaments.duplicate import FieldScore, HandScore
from bot.tournaments.settings import Format, TournamentSettings

# The key of the Discord layer's part in a tournament's stored settings.
SCREENS = "screens"
# How an older version kept a player's name there (now in their entrant row).
OLD_NAME = "name:"


def when(text: str | None) -> datetime | None:
    """A stored time read back."""
    return None if text is None else datetime.fromisoformat(text)


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament as stored: its row, its settings read, who entered, its rounds and
    pairings. ``rounds_total`` is known once it started (0 before)."""

    row: TournamentRow
    settings: TournamentSettings
    entrants: tuple[EntrantRow, ...]
    rounds: tuple[RoundRow, ...]
    pairings: tuple[PairingRow, ...]
    rounds_total: int

    @classmethod
    def of(cls, record: TournamentRecord) -> Tournament:
        settings = TournamentSettings.from_dict(record.tournament.settings)
        return cls(
            row=record.tournament,
            settings=settings,
            entrants=_named(record),
            rounds=record.rounds,
            pairings=record.pairings,
            rounds_total=int(record.tournament.settings.get("rounds_total", 0)),
        )

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def format(self) -> Format:
        return self.settings.format

    @property
    def state(self) -> str:
        return self.row.state

    @property
    def round(self) -> int:
        return self.row.round

    @property
    def organiser_id(self) -> str:
        return self.row.organiser_id

    @property
    def signup_closes_at(self) -> datetime | None:
        return when(self.row.signup_closes_at)

    @property
    def joined(self) -> list[EntrantRow]:
        """Everyone in: signed up, or playing on."""
        return [e for e in self.entrants if e.status == "joined"]

    def entrant(self, user_id: str) -> EntrantRow | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def names(self) -> dict[str, str]:
        """The players' names as they joined (their mention for any not kept)."""
        return {e.user_id: e.name or f"<@{e.user_id}>" for e in self.entrants}

    def pairings_of(self, round_number: int) -> list[PairingRow]:
        return [p for p in self.pairings if p.round == round_number]

    def round_row(self, round_number: int) -> RoundRow | None:
        return next((r for r in self.rounds if r.number == round_number), None)

    def pairing(self, round_number: int, board: int) -> PairingRow | None:
        return next(
            (p for p in self.pairings if p.round == round_number and p.board == board), None
        )

    def pairing_of(self, user_id: str, round_number: int) -> PairingRow | None:
        return next((p for p in self.pairings_of(round_number) if user_id in p.players), None)

    @property
    def screens(self) -> dict[str, Any]:
        """What the Discord layer keeps with the tournament: the ids of the messages it
        posted and of the threads its matches are played in (``TournamentService.keep``)."""
        kept = self.row.settings.get(SCREENS)
        return dict(kept) if isinstance(kept, dict) else {}


def _named(record: TournamentRecord) -> tuple[EntrantRow, ...]:
    """The entrants, each with the name they joined under: a tournament stored by an older
    version kept the names beside the message ids (``name:<user id>``)."""
    kept = record.tournament.settings.get(SCREENS)
    if not isinstance(kept, dict) or all(e.name is not None for e in record.entrants):
        return record.entrants
    return tuple(
        e if e.name is not None else replace(e, name=_text(kept.get(f"{OLD_NAME}{e.user_id}")))
        for e in record.entrants
    )


def _text(value: object) -> str | None:
    return str(value) if value else None


@dataclass(frozen=True, slots=True)
class MatchToStart:
    """A pairing's match for the Discord layer to start in a thread of the tournament's
    channel: ``players`` in seat order (seat 0 first), under ``rules``, dealt from ``seed``
    when the round is duplicate (pass it to ``Match.start(..., seed=seed)``; None: the usual
    secure shuffles), to be over by ``deadline``. Once the table exists, tell the service
    with ``match_started``."""

    tournament_id: int
    round: int
    board: int
    players: tuple[str, str]
    rules: Settings
    seed: str | None
    deadline: datetime


@dataclass(frozen=True, slots=True)
class TableToEnd:
    """A table whose pairing the tournament decided without it: by the round's time limit
    (``loser_id`` resigns, or the table is ended), a walkover (the loser withdrew), or the
    tournament was cancelled (no winner)."""

    table_id: int
    winner_id: str | None
    loser_id: str | None
    reason: Literal["time", "walkover", "cancelled"]


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A finished match as the tournament reads it: the winner, each player's final score,
    the seats' players (seat 0 first), its hands (read for duplicate rounds) and how it
    ended (kept with the pairing unless the target was reached)."""

    winner_id: str
    scores: dict[str, int]
    seats: tuple[str, str]
    hands: tuple[HandScore, ...] = ()
    reason: str = "target"  # how it ended: the target reached, a resignation, a forfeit


@dataclass(frozen=True, slots=True)
class Update:
    """What one call changed, for the Discord layer to show: the pairings it decided, the
    round it finished and the one it began (with the matches to start), tables to end, and
    whether the tournament ended (``finished``) or was called off (``cancelled``). Only the
    call that made a change gets it; a repeated call gets an empty one (``changed`` False)."""

    tournament: Tournament
    decided: tuple[PairingRow, ...] = ()
    round_finished: int | None = None
    round_started: int | None = None
    matches_to_start: tuple[MatchToStart, ...] = ()
    tables_to_end: tuple[TableToEnd, ...] = ()
    started: bool = False
    finished: bool = False
    cancelled: bool = False

    @property
    def changed(self) -> bool:
        return bool(
            self.decided
            or self.round_finished
            or self.round_started
            or self.tables_to_end
            or self.started
            or self.finished
            or self.cancelled
        )


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One line of a tournament's standings.

    Swiss: ``rank`` and ``place`` are the same; the tie-breaks are exact fractions. Knockout:
    ``place`` is shared by everyone out in the same round (``out_in``), ``rank`` orders them
    by seed; the tie-breaks are 0. ``field`` is the score against the field in a duplicate
    tournament (None otherwise).
    """

    rank: int
    place: int
    user_id: str
    seed: int
    points: int
    played: int
    wins: int
    byes: int
    buchholz: Fraction = Fraction(0)
    buchholz_cut1: Fraction = Fraction(0)
    sonneborn_berger: Fraction = Fraction(0)
    direct: Fraction = Fraction(0)
    dropped: bool = False
    out_in: int | None = None
    field: FieldScore | None = None


@dataclass(frozen=True, slots=True)
class Standings:
    tournament_id: int
    format: Format
    round: int
    rounds_total: int
    final: bool
    lines: tuple[StandingLine, ...] = field(default=())

"""What the table service keeps about a table: its seats, its match and what it owns around it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from bot.gin import Card, GinError
from bot.gin.hand import Action, Hand
from bot.gin.match import HandRecord, Match, MatchResult, MoveReport, Player
from bot.gin.modes import Mode, find_mode
from bot.gin.settings import Settings
from bot.server_settings import ServerSettings


class TableError(GinError):
    """Something a user asked of a table that cannot be done now; shown to them privately."""


class StaleButton(TableError):
    """A button or menu from an earlier moment of the game: its move was made, or the game
    moved on."""


class Status(StrEnum):
    CHALLENGE = "challenge"  # waiting to start: a challenge, or a lobby filling its seats
    PLAYING = "playing"
    FINISHED = "finished"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


class TimerKind(StrEnum):
    EXPIRED = "expired"  # a challenge or lobby nobody started
    REMINDER = "reminder"  # half of a turn's time is gone
    FORFEIT = "forfeit"  # a turn's time ran out: the idle player lost (or is out)


# Finished hands an open table keeps in memory: the last ones, for their showdowns (two, for
# the two games of a teams hand). All of them are rows in the store (replays and history read
# them there), so a long match costs a table no more memory than a short one.
KEPT_HANDS = 2

# Button tokens: a seat's decision point, the hand number and the moves on its board.
TOKEN_HAND = 100_000


@dataclass(slots=True)
class Seat:
    """One seat of a table: who sits there, the side they picked (teams), and the level the
    bot plays at when the seat is the bot's."""

    player: Player
    team: int | None = None
    bot_level: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.player.id,
            "name": self.player.name,
            "team": self.team,
            "bot": self.bot_level,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(Player(str(data["id"]), str(data["name"])), data.get("team"), data.get("bot"))


@dataclass(slots=True)
class Table:
    """A table in one channel: a challenge or lobby waiting to start, or a match in play.

    Seats are in the match's seat order once it starts (teams reorders them so partners sit
    across). A two-player challenge seats the challenger and the invited opponent at once.
    """

    id: int
    guild_id: str
    channel_id: str
    status: Status
    seats: list[Seat]
    server: ServerSettings
    mode_name: str = "classic"
    size: int = 2  # seats to fill before the match starts by itself
    host: str = ""  # the user id who opened the table (a lobby's host may change)
    match: Match | None = None
    move_count: int = 0
    display: dict[str, Any] = field(default_factory=dict)
    deadline: datetime | None = None
    vs_bot: bool = False  # a seat is the bot's: the match is not rated
    created_at: datetime | None = None
    # The match as last committed, finished hands left out (they are rows of their own), as
    # compact JSON text: only a move that fails to commit reads it back, to undo itself.
    # (Text, not orjson's bytes: those keep their whole write buffer, several times larger.)
    committed: str | None = field(default=None, repr=False, compare=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)

    # --- who sits here -------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        return find_mode(self.mode_name)

    @property
    def is_lobby(self) -> bool:
        """A table of a mode other than the two-player game that has not started."""
        return self.status is Status.CHALLENGE and self.mode_name != "classic"

    @property
    def players(self) -> tuple[Player, ...]:
        """Seat order: the match's once it has started."""
        if self.match is not None:
            return self.match.players
        return tuple(seat.player for seat in self.seats)

    @property
    def challenger(self) -> Player:
        return self.seats[0].player

    @property
    def opponent(self) -> Player:
        return self.seats[1].player

    def seat_of(self, user_id: str) -> int | None:
        for seat, player in enumerate(self.players):
            if player.id == user_id:
                return seat
        return None

    def bot_level_of(self, seat: int) -> str | None:
        return self.seats[seat].bot_level if seat < len(self.seats) else None

    @property
    def bot_seats(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if seat.is_bot]

    @property
    def human_seats(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if not seat.is_bot]

    @property
    def bot_seat(self) -> int | None:
        """The bot's seat in a two-player match against it (None otherwise)."""
        bots = self.bot_seats
        return bots[0] if self.mode_name == "classic" and bots else None

    @property
    def bot_level(self) -> str:
        bots = self.bot_seats
        return self.seats[bots[0]].bot_level or "normal" if bots else "normal"

    def names(self, seats: list[int] | tuple[int, ...]) -> str:
        return ", ".join(self.players[s].name for s in seats)

    # --- the game --------------------------------------------------------------------------

    @property
    def settings(self) -> Settings:
        """The rules of this table's match, fixed when it was opened."""
        return self.server.rules

    @property
    def is_open(self) -> bool:
        return self.status in (Status.CHALLENGE, Status.PLAYING)

    def board_of(self, seat: int) -> Hand | None:
        return None if self.match is None else self.match.board_of(seat)

    def token(self, seat: int) -> int:
        """The decision point a seat's buttons belong to: its board's hand and move number.
        A move on another board (teams) leaves it as it was, so those buttons stay live."""
        match = self.match
        if match is None:
            return 0
        board = match.board_of(seat)
        moves = 0 if board is None else len(board.actions)
        return match.hand_number * TOKEN_HAND + moves

    def bots_to_act(self) -> list[int]:
        """The bot's seats whose turn it is now."""
        match = self.match
        if not self.is_open or match is None or match.is_over:
            return []
        bots = set(self.bot_seats)
        return [seat for seat in match.to_act() if seat in bots]

    def bot_to_act(self) -> bool:
        return bool(self.bots_to_act())


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """What one accepted move did, for the messages that follow it."""

    table: Table
    seat: int
    action: Action
    drawn: Card | None
    report: MoveReport
    move_count: int
    board: int = 0

    @property
    def finished_hand(self) -> HandRecord | None:
        return self.report.finished_hand

    @property
    def result(self) -> MatchResult | None:
        return self.report.result


@dataclass(frozen=True, slots=True)
class TimerEvent:
    """A timer that fired, for the messages that tell the players."""

    kind: TimerKind
    table: Table
    seat: int | None
    ends_at: datetime | None = None
    result: MatchResult | None = None  # a forfeit that ended the match

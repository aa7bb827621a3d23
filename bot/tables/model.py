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


class IdleLock(asyncio.Lock):
    """An ``asyncio.Lock`` that lets go of its queue of waiters once nobody waits: asyncio
    keeps the queue (some 600 bytes) for the lock's whole life after its first wait, and
    each open table keeps a few locks."""

    def release(self) -> None:
        super().release()
        if not self._waiters:
            self._waiters = None  # made again by the next wait, as asyncio does at first


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


# The keys of a table's saved JSON that are the service's: the turn clocks (``timer`` is the
# single clock of an older version), and the seats with their names, the table's size and
# host and the bot's level, so that a restart rebuilds any table, and whether a practice
# table shows the coach's hints. Every other key belongs to the screens (the ids of the
# messages the table shows) and is kept as they left it.
COACH = "coach"
TOURNAMENT = "tournament"
SERVICE_KEYS = frozenset(
    {"timers", "timer", "seats", "names", "size", "host", "bot_level", COACH, TOURNAMENT}
)


@dataclass(slots=True)
class TableMeta:
    """The service's own part of a table's saved JSON beside the seats: the turn clocks, and
    whether the player's hand shows the coach's suggested move (a practice match started
    with hints on; saved as ``"coach": true``), and the tournament whose match it plays
    (its number; None: a friendly)."""

    timers: dict[str, dict[str, Any]] | None = None  # None: no clock saved yet
    timer: dict[str, Any] | None = None  # a single clock saved by an older version
    coach: bool = False
    tournament: int | None = None

    def set_timers(self, timers: dict[str, dict[str, Any]]) -> None:
        self.timers = dict(timers)
        self.timer = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.timers is not None:
            data["timers"] = self.timers
        if self.timer is not None:
            data["timer"] = self.timer
        if self.coach:
            data[COACH] = True
        if self.tournament is not None:
            data[TOURNAMENT] = self.tournament
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableMeta:
        timers = data.get("timers")
        tournament = data.get(TOURNAMENT)
        return cls(
            None if timers is None else dict(timers),
            data.get("timer"),
            bool(data.get(COACH)),
            None if tournament is None else int(tournament),
        )


def screens_part(data: dict[str, Any]) -> dict[str, Any]:
    """The screens' part of a table's saved JSON: every key that is not the service's."""
    return {key: value for key, value in data.items() if key not in SERVICE_KEYS}


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
    meta: TableMeta = field(default_factory=TableMeta)  # the service's saved keys
    # The screens' saved keys (message ids), read and written by ``cogs.gin.screens``.
    screen_ids: dict[str, Any] = field(default_factory=dict)
    deadline: datetime | None = None
    vs_bot: bool = False  # a seat is the bot's: the match is not rated
    created_at: datetime | None = None
    # The match as last committed, finished hands left out (they are rows of their own), as
    # compact JSON text: only a move that fails to commit reads it back, to undo itself.
    # (Text, not orjson's bytes: those keep their whole write buffer, several times larger.)
    committed: str | None = field(default=None, repr=False, compare=False)
    lock: asyncio.Lock = field(default_factory=IdleLock, repr=False, compare=False)

    # --- what is saved beside the match ------------------------------------------------

    @property
    def coached(self) -> bool:
        """Whether the player's hand shows the coach's move instead of the plain hint (a
        practice match started with hints on), wherever the hand is shown."""
        return self.vs_bot and self.meta.coach

    @property
    def display(self) -> dict[str, Any]:
        """The table's saved JSON, as the store keeps it: the screens' message ids, the turn
        clocks, and the seats (enough to rebuild the table after a restart)."""
        data = dict(self.screen_ids)
        data.update(self.meta.to_dict())
        data["seats"] = [seat.to_dict() for seat in self.seats]
        data["names"] = {str(i): seat.player.name for i, seat in enumerate(self.seats)}
        data["size"] = self.size
        data["host"] = self.host
        if self.bot_seat is not None:  # the two-player game against the bot
            data["bot_level"] = self.bot_level
        return data

    def load_display(self, data: dict[str, Any]) -> None:
        """Take the clocks and the screens' ids from a saved JSON (the seats are read
        apart: ``TableService`` rebuilds them with the match)."""
        self.meta = TableMeta.from_dict(data)
        self.screen_ids = screens_part(data)

    # --- who sits here -------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        return find_mode(self.mode_name)

    @property
    def is_lobby(self) -> bool:
        """A table of a mode that opens a lobby and has not started."""
        return self.status is Status.CHALLENGE and self.mode.opens_a_lobby

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
        return bots[0] if self.mode.two_player_game and bots else None

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
class HeardOutcome:
    """A move another process recorded, made here on our copy: what it did, and the
    message the answer to its mover edited (None: none of theirs)."""

    outcome: MoveOutcome
    shown_message: int | None
    language: str | None = None  # the mover reads (None: not told)


@dataclass(frozen=True, slots=True)
class TimerEvent:
    """A timer that fired, for the messages that tell the players."""

    kind: TimerKind
    table: Table
    seat: int | None
    ends_at: datetime | None = None
    result: MatchResult | None = None  # a forfeit that ended the match

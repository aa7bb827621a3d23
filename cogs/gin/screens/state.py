"""What the screens keep about each table and seat, in memory (``TableScreens``,
``SeatScreen``) and in the table's saved JSON (``ScreenIds``: the ids of the messages it
shows, so a restarted bot goes on editing them)."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypedDict

import discord

from bot.gin.ai.advice import Advice
from bot.tables.model import IdleLock
from cogs.gin.screens.ledger import Key, Payload


@dataclass(frozen=True)
class PrivateHand:
    """A player's private hand message, rendered once per state of the table and reused by
    the mover's answer, the sync after it and any later sync that finds nothing changed."""

    key: Key
    embeds: list[discord.Embed]
    view: discord.ui.View | None
    payload: Payload
    shown: bytes


@dataclass
class PrivateReply:
    """A private (ephemeral) reply in the channel showing a player's hand: the latest one,
    which carries their hand while they play from the channel, or while their DMs are
    closed, edited through the token of the latest interaction that showed it, for as long
    as Discord lets it be (``message_id``: its id, when known)."""

    interaction: discord.Interaction[Any]
    since: float
    message_id: int | None = None
    original: bool = True  # the interaction's own message ("@original"), not a follow-up

    def same_message(self, other: PrivateReply) -> bool:
        if self.message_id is not None and other.message_id is not None:
            return self.message_id == other.message_id
        return self.interaction is other.interaction


@dataclass
class Retry:
    """A table whose last sync left something undone: how often, and the next try."""

    attempts: int = 0
    handle: asyncio.TimerHandle | None = field(default=None, repr=False)


@dataclass
class SeatScreen:
    """One seat's screens, in memory."""

    # The last thing that happened, said in the language in force when the player's hand
    # is rendered.
    note: Callable[[], str] | None = None
    rendered: PrivateHand | None = None  # the hand rendered for a move, until the next sync
    reply: PrivateReply | None = None  # their latest private reply showing their hand
    replying: bool = False  # the answer to their move from the channel is on its way
    channel_ping: int | None = None  # their "your turn" mention in the channel
    # A turn of theirs shown without a notification, since they were watching: (its turn
    # key, when); they are alerted if they have not taken it up ``looking_seconds`` later.
    silent: tuple[str, float] | None = None
    # A new hand's DM that failed: (hand, failed tries, when the first failed).
    dm_failures: tuple[int, int, float] | None = None
    acted: float = -math.inf  # when they last moved (monotonic)
    # The coach's suggestion for a turn of theirs, at a table with hints: (its token, the
    # expert's move with its facts, None when it has none), and the token it is being
    # worked out for.
    advice: tuple[int, Advice | None] | None = None
    advising: int | None = None


@dataclass
class TableScreens:
    """One table's screens, in memory: the locks of its two lanes, what is pending, and
    each seat's ``SeatScreen``. Forgotten as a whole once a closed table is shown."""

    players_lock: asyncio.Lock = field(default_factory=IdleLock)  # the players' lane
    channel_lock: asyncio.Lock = field(default_factory=IdleLock)  # the channel's lane
    public_lock: asyncio.Lock = field(default_factory=IdleLock)  # one public edit at once
    players_dirty: bool = False  # the players' messages may show an old state
    channel_dirty: bool = False  # the channel's may
    # Loaded at start-up: a message it posts may have been posted before a crash that came
    # before its id was saved, so the channel is checked before posting.
    recovering: bool = False
    retry: Retry | None = None
    # The one timer that syncs the table when the next of its seats' silent turns falls due
    # (when, and the timer): a timer per turn would keep each move's for ``looking_seconds``.
    silent_due: tuple[float, asyncio.TimerHandle] | None = field(default=None, repr=False)
    pinged: dict[int, str] = field(default_factory=dict)  # board -> turn last announced
    public_edited: float | None = None  # when its public message was last edited
    public_pending: bool = False  # its public message shows an old state
    public_job: asyncio.Task[None] | None = None  # the task editing it
    seats: dict[int, SeatScreen] = field(default_factory=dict)

    def seat(self, seat: int) -> SeatScreen:
        found = self.seats.get(seat)
        if found is None:
            found = self.seats[seat] = SeatScreen()
        return found

    @property
    def busy(self) -> bool:
        """Whether a lane is running, waits to run, or a retry is planned."""
        return (
            self.players_lock.locked()
            or self.channel_lock.locked()
            or self.players_dirty
            or self.channel_dirty
            or self.retry is not None
        )


class DmHand(TypedDict, total=False):
    """A player's DM hand message of one hand, as saved."""

    channel: int
    message: int
    hand: int
    showdown: bool  # it shows the hand's showdown now, in place of its buttons


class ScreenIds:
    """The screens' part of a table's saved JSON, read and written by name (the keys stay
    what saved tables carry): which message shows what."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def _int(self, key: str) -> int | None:
        value = self.data.get(key)
        return None if value is None else int(value)

    def _set(self, key: str, value: Any) -> None:
        if value is None:
            self.data.pop(key, None)
        else:
            self.data[key] = value

    # The channel's messages.
    @property
    def challenge(self) -> int | None:
        """The challenge or lobby message: the table's first in the channel."""
        return self._int("challenge")

    @challenge.setter
    def challenge(self, value: int | None) -> None:
        self._set("challenge", value)

    @property
    def public(self) -> int | None:
        """The public table message of the hand ``public_hand``."""
        return self._int("public")

    @public.setter
    def public(self, value: int | None) -> None:
        self._set("public", value)

    @property
    def public_hand(self) -> int | None:
        return self._int("public_hand")

    @public_hand.setter
    def public_hand(self, value: int | None) -> None:
        self._set("public_hand", value)

    @property
    def showdown_shown(self) -> int | None:
        """The public message that became its hand's showdown (its table edits stop)."""
        return self._int("showdown_shown")

    @showdown_shown.setter
    def showdown_shown(self, value: int | None) -> None:
        self._set("showdown_shown", value)

    @property
    def shown_hands(self) -> int:
        """Hands whose showdowns are all in the channel."""
        return int(self.data.get("shown_hands", 0))

    @shown_hands.setter
    def shown_hands(self, value: int) -> None:
        self.data["shown_hands"] = value

    @property
    def shown_boards(self) -> list[int]:
        """Boards of the next hand whose showdowns are in the channel already (teams)."""
        return list(self.data.get("shown_boards", []))

    @shown_boards.setter
    def shown_boards(self, value: list[int]) -> None:
        self._set("shown_boards", value or None)

    @property
    def final_posted(self) -> bool:
        return bool(self.data.get("final_posted"))

    @final_posted.setter
    def final_posted(self, value: bool) -> None:
        self.data["final_posted"] = value

    def result_sent(self, seat: int) -> bool:
        return seat in self.data.get("result_dms", [])

    def send_result(self, seat: int) -> None:
        self.data.setdefault("result_dms", []).append(seat)

    def channel_anchor(self) -> int:
        """The newest message id of the table's channel that it knows of."""
        return max(self.public or 0, self.challenge or 0)

    # The players' DM hands.
    def hand(self, seat: int) -> DmHand | None:
        entry: DmHand | None = self.data.get("hands", {}).get(str(seat))
        return entry or None

    def hands(self) -> Iterator[tuple[int, DmHand]]:
        for seat, entry in self.data.get("hands", {}).items():
            yield int(seat), entry

    def set_hand(self, seat: int, channel: int, message: int, hand: int) -> None:
        entry: DmHand = {"channel": channel, "message": message, "hand": hand}
        self.data.setdefault("hands", {})[str(seat)] = entry

    def drop_hand(self, seat: int) -> None:
        self.data.get("hands", {}).pop(str(seat), None)

    def dm_closed(self, seat: int) -> int | None:
        """The hand during which the player's DMs were found closed (None: open)."""
        value = self.data.get("dm_closed", {}).get(str(seat))
        return None if value is None else int(value)

    def close_dms(self, seat: int, hand: int) -> None:
        self.data.setdefault("dm_closed", {})[str(seat)] = hand

    def open_dms(self, seat: int) -> None:
        self.data.get("dm_closed", {}).pop(str(seat), None)

    def announce_closed(self, seat: int) -> bool:
        """Note that the channel was told of the seat's closed DMs; False if it was before."""
        announced = self.data.setdefault("dm_announced", [])
        if seat in announced:
            return False
        announced.append(seat)
        return True

    def dm_channel(self, user_id: str) -> int | None:
        value = self.data.get("dm_channels", {}).get(user_id)
        return None if value is None else int(value)

    def set_dm_channel(self, user_id: str, channel: int) -> None:
        self.data.setdefault("dm_channels", {})[user_id] = channel

    def messages(self) -> list[int]:
        """Every message id kept here (to forget what the ledger knows of them)."""
        found = [self.challenge or 0, self.public or 0]
        found += [int(entry.get("message", 0)) for _, entry in self.hands()]
        return [m for m in found if m]


class Registry:
    """Each table's ``TableScreens``, made when first needed and dropped when forgotten."""

    def __init__(self) -> None:
        self._tables: dict[int, TableScreens] = {}

    def __call__(self, table_id: int) -> TableScreens:
        found = self._tables.get(table_id)
        if found is None:
            found = self._tables[table_id] = TableScreens()
        return found

    def get(self, table_id: int) -> TableScreens | None:
        return self._tables.get(table_id)

    def drop(self, table_id: int) -> TableScreens | None:
        return self._tables.pop(table_id, None)

    def all(self) -> list[TableScreens]:
        return list(self._tables.values())

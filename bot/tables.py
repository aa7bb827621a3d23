"""The table service: one table per channel, a lock per table, move -> store -> what to show.

Discord-free: cogs turn Discord interactions into calls here and turn the answers into
messages. Every accepted move is committed to the store before the caller hears about it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

import orjson

from bot.gin import Card, GinError
from bot.gin.ai import bot_move
from bot.gin.hand import Action, ActionKind
from bot.gin.match import EndReason, HandRecord, Match, MatchResult, MoveReport, Player
from bot.gin.settings import Settings
from bot.ratings import updated_ratings
from bot.server_settings import ServerSettings
from bot.store import (
    ChannelBusy,
    HandRow,
    MatchEnd,
    MoveRecord,
    RatingRow,
    SeatResult,
    StaleMove,
    Store,
)

log = logging.getLogger(__name__)


class TableError(GinError):
    """Something a user asked of a table that cannot be done now; shown to them privately."""


class Status(StrEnum):
    CHALLENGE = "challenge"
    PLAYING = "playing"
    FINISHED = "finished"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


class TimerKind(StrEnum):
    EXPIRED = "expired"  # a challenge nobody answered
    REMINDER = "reminder"  # half of a turn's time is gone
    FORFEIT = "forfeit"  # a turn's time ran out: the idle player lost the match


# Finished hands an open table keeps in memory: the last one, for its showdown. All of them
# are rows in the store (replays and history read them there), so a long match costs a table
# no more memory than a short one.
KEPT_HANDS = 1


@dataclass(slots=True)
class Table:
    """A table in one channel: a pending challenge or a match in play."""

    id: int
    guild_id: str
    channel_id: str
    status: Status
    challenger: Player
    opponent: Player
    server: ServerSettings
    match: Match | None = None
    move_count: int = 0
    display: dict[str, Any] = field(default_factory=dict)
    deadline: datetime | None = None
    vs_bot: bool = False
    created_at: datetime | None = None
    # The match as last committed, finished hands left out (they are rows of their own), as
    # compact JSON text: only a move that fails to commit reads it back, to undo itself.
    # (Text, not orjson's bytes: those keep their whole write buffer, several times larger.)
    committed: str | None = field(default=None, repr=False, compare=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)

    @property
    def settings(self) -> Settings:
        """The rules of this table's match, fixed when it was challenged."""
        return self.server.rules

    @property
    def bot_seat(self) -> int | None:
        """The seat the bot plays in a match against the bot (always the opponent's)."""
        return 1 if self.vs_bot else None

    @property
    def bot_level(self) -> str:
        return str(self.display.get("bot_level", "normal"))

    def bot_to_act(self) -> bool:
        match = self.match
        return (
            self.bot_seat is not None
            and self.is_open
            and match is not None
            and not match.is_over
            and match.hand.turn == self.bot_seat
        )

    @property
    def players(self) -> tuple[Player, Player]:
        """Seat order: the challenger is seat 0, the opponent seat 1."""
        return (self.challenger, self.opponent)

    def seat_of(self, user_id: str) -> int | None:
        for seat, player in enumerate(self.players):
            if player.id == user_id:
                return seat
        return None

    @property
    def is_open(self) -> bool:
        return self.status in (Status.CHALLENGE, Status.PLAYING)


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """What one accepted move did, for the messages that follow it."""

    table: Table
    seat: int
    action: Action
    drawn: Card | None
    report: MoveReport
    move_count: int

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


def _utc_now() -> datetime:
    return datetime.now(UTC)


class TableService:
    """Owns the open tables (by channel and by id) and every change made to them."""

    def __init__(self, store: Store, clock: Callable[[], datetime] = _utc_now) -> None:
        self.store = store
        self.clock = clock
        self._by_channel: dict[str, Table] = {}
        self._by_id: dict[int, Table] = {}
        self._channel_locks: dict[str, asyncio.Lock] = {}
        self.deadline_changed: asyncio.Event | None = None  # set whenever a deadline moves
        self._servers: dict[str, ServerSettings] = {}
        self._ratings_lock = asyncio.Lock()

    def _now(self) -> str:
        return self.clock().isoformat()

    # --- loading and lookup -------------------------------------------------------------------

    async def load(self) -> list[Table]:
        """Bring back every open table after a restart."""
        tables = []
        for row in await self.store.open_tables():
            state = row.state
            match = None
            if state is not None:
                history = state.get("history")
                if history is None:  # finished hands are stored one row each
                    history = [hand.result for hand in await self.store.hands(row.id)]
                match = Match.from_dict({**state, "history": history[-KEPT_HANDS:]})
            table = Table(
                id=row.id,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                status=Status(row.status),
                challenger=Player(row.challenger_id, _name(state, 0, row.challenger_id)),
                opponent=Player(row.opponent_id, _name(state, 1, row.opponent_id)),
                server=ServerSettings.from_dict(row.settings),
                match=match,
                move_count=row.move_count,
                display=dict(row.display),
                deadline=None if row.deadline is None else datetime.fromisoformat(row.deadline),
                vs_bot=row.vs_bot,
                created_at=datetime.fromisoformat(row.created_at),
                committed=None if state is None else orjson.dumps(state).decode(),
            )
            if table.match is None:
                names = table.display.get("names", {})
                table.challenger = Player(row.challenger_id, names.get("0", row.challenger_id))
                table.opponent = Player(row.opponent_id, names.get("1", row.opponent_id))
            self._register(table)
            tables.append(table)
        return tables

    def _register(self, table: Table) -> None:
        self._by_channel[table.channel_id] = table
        self._by_id[table.id] = table

    def _unregister(self, table: Table) -> None:
        if self._by_channel.get(table.channel_id) is table:
            del self._by_channel[table.channel_id]
        self._by_id.pop(table.id, None)

    def in_channel(self, channel_id: str) -> Table | None:
        return self._by_channel.get(channel_id)

    def by_id(self, table_id: int) -> Table | None:
        return self._by_id.get(table_id)

    def tables(self) -> list[Table]:
        return list(self._by_id.values())

    def tables_of(self, user_id: str) -> list[Table]:
        return [t for t in self._by_id.values() if t.seat_of(user_id) is not None]

    def require_table(self, channel_id: str) -> Table:
        table = self.in_channel(channel_id)
        if table is None:
            raise TableError("There is no game in this channel. Start one with `/gin challenge`.")
        return table

    # --- server settings ----------------------------------------------------------------------

    async def server_settings(self, guild_id: str) -> ServerSettings:
        cached = self._servers.get(guild_id)
        if cached is None:
            cached = ServerSettings.from_dict(await self.store.get_guild_settings(guild_id))
            self._servers[guild_id] = cached
        return cached

    async def change_server_settings(self, guild_id: str, **changes: Any) -> ServerSettings:
        """Apply and store changes; matches already started keep the settings they began with."""
        changed = (await self.server_settings(guild_id)).with_changes(**changes)
        await self.store.set_guild_settings(guild_id, changed.to_dict(), self._now())
        self._servers[guild_id] = changed
        return changed

    # --- challenges ---------------------------------------------------------------------------

    async def challenge(
        self,
        guild_id: str,
        channel_id: str,
        challenger: Player,
        opponent: Player,
        server: ServerSettings,
        *,
        opponent_is_bot: bool = False,
        bot_level: str | None = None,
    ) -> Table:
        """Open a table; against the bot itself (``bot_level`` set) play starts at once."""
        if opponent.id == challenger.id:
            raise TableError("You can't challenge yourself. Pick another member of this server.")
        if opponent_is_bot and bot_level is None:
            raise TableError(
                "Other bots can't play Gin Rummy. Challenge a person, or play me with "
                "`/gin practice`."
            )
        vs_bot = bot_level is not None
        lock = self._channel_locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            existing = self.in_channel(channel_id)
            if existing is not None:
                raise TableError(_busy_reason(existing))
            created = self.clock()
            now = created.isoformat()
            await self.store.upsert_player(challenger.id, challenger.name, now)
            await self.store.upsert_player(opponent.id, opponent.name, now)
            try:
                table_id = await self.store.create_challenge(
                    guild_id,
                    channel_id,
                    challenger.id,
                    opponent.id,
                    server.to_dict(),
                    now,
                    vs_bot=vs_bot,
                )
            except ChannelBusy:
                raise TableError("This channel already has a game. Try another channel.") from None
            table = Table(
                id=table_id,
                guild_id=guild_id,
                channel_id=channel_id,
                status=Status.CHALLENGE,
                challenger=challenger,
                opponent=opponent,
                server=server,
                display={"names": {"0": challenger.name, "1": opponent.name}},
                vs_bot=vs_bot,
                created_at=created,
            )
            if vs_bot:
                table.display["bot_level"] = bot_level
            await self.store.set_display(table.id, table.display, now)
            self._register(table)
            if vs_bot:
                await self._start(table)
            else:
                await self._set_deadline(
                    table, self.clock() + timedelta(seconds=server.challenge_seconds)
                )
            return table

    async def accept(self, table: Table, user_id: str, name: str | None = None) -> Table:
        async with table.lock:
            self._check_challenge_answer(table, user_id, "accept")
            if name:
                table.opponent = Player(table.opponent.id, name)
            await self._start(table)
            return table

    async def _start(self, table: Table) -> None:
        match = Match.start(table.players, table.settings)
        state = match.to_dict(history=False)
        await self.store.start_match(table.id, state, self._now())
        table.match = match
        table.committed = orjson.dumps(state).decode()
        table.status = Status.PLAYING
        await self._arm_turn_timer(table)

    async def decline(self, table: Table, user_id: str) -> Table:
        async with table.lock:
            self._check_challenge_answer(table, user_id, "decline", challenger_may=True)
            await self.store.close_challenge(table.id, "declined", self._now())
            self._close(table, Status.DECLINED)
            return table

    def _check_challenge_answer(
        self, table: Table, user_id: str, verb: str, *, challenger_may: bool = False
    ) -> None:
        a, b = table.challenger.name, table.opponent.name
        if table.status is Status.PLAYING and table.id in self._by_id:
            if table.seat_of(user_id) is not None:
                raise TableError(
                    "Your game here is already on: there is no challenge to answer. "
                    "To leave it, use `/gin resign`."
                )
            raise TableError(
                f"There is no challenge to answer here: {a} and {b} are playing. Start your "
                "own game in another channel with `/gin challenge`."
            )
        if table.status is not Status.CHALLENGE or table.id not in self._by_id:
            raise TableError(
                "That challenge is no longer open. Start a new one with `/gin challenge`."
            )
        if user_id == table.opponent.id:
            return
        if challenger_may and user_id == table.challenger.id:
            return
        if user_id == table.challenger.id:
            raise TableError(
                f"You can't {verb} your own challenge; wait for {b} to answer it. "
                "To withdraw it, use `/gin decline`."
            )
        raise TableError(
            f"Only {b} can {verb} this challenge. Want to play? Start your own game in "
            "another channel with `/gin challenge`."
        )

    # --- moves --------------------------------------------------------------------------------

    async def play(
        self,
        table: Table,
        user_id: str,
        kind: ActionKind,
        card: Card | None = None,
        *,
        expected_move: int | None = None,
    ) -> MoveOutcome:
        """Check, apply and commit one move. ``expected_move`` guards against stale buttons and
        double clicks: the move is refused if another move landed first."""
        async with table.lock:
            seat = self._seated(table, user_id)
            match = self._match(table)
            if expected_move is not None and expected_move != table.move_count:
                raise TableError(
                    "That button is out of date: that move was already made, or the game has "
                    "moved on. Use your latest hand message, or `/gin hand`."
                )
            hand_number = match.hand_number
            action = Action(kind, seat, card)
            before = _snapshot(table, match)
            report = match.apply(action)  # raises IllegalMove and changes nothing
            drawn = None
            if kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
                drawn = match.hand.last_drawn
            try:
                await self._commit(table, hand_number, action, report)
            except BaseException:
                table.match = _restore(*before)  # the move never happened
                raise
            return MoveOutcome(table, seat, action, drawn, report, table.move_count)

    async def _commit(
        self, table: Table, hand_number: int, action: Action, report: MoveReport
    ) -> None:
        match = self._match(table)
        now = self._now()
        finished = None
        if report.result is not None:
            finished = self._match_end(table, report.result)
        hand_row = None
        if report.finished_hand is not None:
            hand_row = _hand_row(table.id, report.finished_hand)
        state = match.to_dict(history=False)  # a finished hand goes in its own row
        timer = None if report.result is not None else self._turn_timer(table)
        display = None
        if timer is not None and timer[0] is not None:
            display = {**table.display, "timer": timer[0]}
        record = MoveRecord(
            match_id=table.id,
            seq=table.move_count + 1,
            hand_number=hand_number,
            seat=action.seat,
            action=action.to_dict(),
            state=state,
            now=now,
            finished_hand=hand_row,
            finished=finished,
            display=display,
            deadline=None if timer is None or timer[1] is None else timer[1].isoformat(),
            change_deadline=timer is not None,
        )
        try:
            if report.result is None:
                await self.store.record_move(record)
            else:
                async with self._ratings_lock:
                    ratings = await self._new_ratings(table, report.result)
                    await self.store.record_move(replace(record, ratings=ratings))
        except StaleMove:
            raise TableError("That move was already made.") from None
        # Committed, with the turn clock in the same write: from here on the move stands.
        table.committed = orjson.dumps(state).decode()
        table.move_count += 1
        del match.history[:-KEPT_HANDS]
        if report.result is not None:
            self._close(table, Status.FINISHED)
        elif timer is not None:
            self._apply_turn_timer(table, timer)

    async def bot_turn(self, table: Table, rng: random.Random) -> MoveOutcome | None:
        """The bot makes its move if it is to act, deciding from its own view of the game only."""
        if not table.bot_to_act():
            return None
        match = self._match(table)
        seat = table.bot_seat
        assert seat is not None
        try:
            action = bot_move(match, seat, table.bot_level, rng)
        except Exception:  # a strategy fault must never stall a table: play something legal
            log.exception("the bot's %s strategy failed at table %s", table.bot_level, table.id)
            action = match.hand.legal_actions(seat)[0]
        try:
            return await self.play(
                table,
                table.players[seat].id,
                action.kind,
                action.card,
                expected_move=table.move_count,
            )
        except TableError:
            return None  # the human moved or resigned meanwhile; nothing to do

    async def resign(self, table: Table, user_id: str) -> MatchResult:
        async with table.lock:
            seat = self._seated(table, user_id)
            return await self._concede(table, seat, EndReason.RESIGN)

    async def _concede(self, table: Table, seat: int, reason: EndReason) -> MatchResult:
        """End the match now in the other player's favour (resign or forfeit); lock held."""
        match = self._match(table)
        snapshot = _snapshot(table, match)
        result = match.resign(seat, reason)
        assert result is not None  # a two-player match ends when a player concedes
        try:
            async with self._ratings_lock:
                ratings = await self._new_ratings(table, result)
                await self.store.end_match(
                    table.id,
                    match.to_dict(history=False),
                    self._match_end(table, result),
                    self._now(),
                    ratings=ratings,
                )
        except BaseException:
            table.match = _restore(*snapshot)
            raise
        self._close(table, Status.FINISHED)
        return result

    async def _new_ratings(self, table: Table, result: MatchResult) -> tuple[RatingRow, ...]:
        """Both players' ratings after this result (none for a match against the bot).

        Called with the ratings lock held, so two matches of one player that end at the same
        moment update that player's rating one after the other.
        """
        if table.vs_bot:
            return ()
        winner = table.players[result.winner].id
        loser = table.players[1 - result.winner].id
        current = await self.store.get_ratings(table.guild_id, [winner, loser])
        return updated_ratings(
            table.guild_id, current.get(winner), current.get(loser), winner, loser
        )

    async def end(self, table: Table) -> Table:
        """Close a table with no result (a moderator's decision)."""
        async with table.lock:
            if not table.is_open or table.id not in self._by_id:
                raise TableError("This table is already closed.")
            now = self._now()
            if table.status is Status.CHALLENGE:
                await self.store.close_challenge(table.id, "cancelled", now)
            else:
                await self.store.end_match(
                    table.id, None, MatchEnd.cancelled("ended by a moderator"), now
                )
            self._close(table, Status.CANCELLED)
            return table

    def _close(self, table: Table, status: Status) -> None:
        table.status = status
        table.deadline = None
        self._unregister(table)

    def _seated(self, table: Table, user_id: str) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError(
                f"You're not playing at this table ({table.challenger.name} vs "
                f"{table.opponent.name}). Watch with `/gin table`, or start your own game in "
                "another channel with `/gin challenge`."
            )
        if table.status is Status.CHALLENGE:
            if seat == 0:
                raise TableError(
                    f"The game hasn't started: {table.opponent.name} hasn't accepted your "
                    "challenge yet. To withdraw it, use `/gin decline`."
                )
            raise TableError(
                f"The game hasn't started: first accept {table.challenger.name}'s challenge "
                "with the Accept button or `/gin accept` (or turn it down with `/gin decline`)."
            )
        if not table.is_open or table.id not in self._by_id:
            raise TableError("This game is over. Start a new one with `/gin challenge`.")
        return seat

    @staticmethod
    def _match(table: Table) -> Match:
        if table.match is None:
            raise TableError("The game hasn't started yet.")
        return table.match

    @staticmethod
    def _match_end(table: Table, result: MatchResult) -> MatchEnd:
        seats = tuple(
            SeatResult(
                user_id=player.id,
                seat=seat,
                points=result.points[seat],
                final_score=result.final[seat],
            )
            for seat, player in enumerate(table.players)
        )
        return MatchEnd(
            status="finished",
            reason=result.reason.value,
            winner_id=table.players[result.winner].id,
            results=seats,
        )

    # --- timers -----------------------------------------------------------------------------
    # An open challenge has one deadline (it expires). A turn has two: halfway the player is
    # reminded, at the end they forfeit the match. The deadline is stored with the table so
    # a restart resumes it; one that passed while the bot was down fires at start-up.

    def next_deadline(self) -> datetime | None:
        deadlines = [t.deadline for t in self._by_id.values() if t.deadline is not None]
        return min(deadlines) if deadlines else None

    def due(self, now: datetime) -> list[Table]:
        return sorted(
            (t for t in self._by_id.values() if t.deadline is not None and t.deadline <= now),
            key=lambda t: t.deadline or now,
        )

    async def _set_deadline(self, table: Table, deadline: datetime | None) -> None:
        table.deadline = deadline
        await self.store.set_deadline(
            table.id, None if deadline is None else deadline.isoformat(), self._now()
        )
        if self.deadline_changed is not None:
            self.deadline_changed.set()

    def _turn_timer(self, table: Table) -> tuple[dict[str, Any] | None, datetime | None] | None:
        """How the turn clock changes after a move: None when it doesn't; otherwise the new
        timer (None for the bot's turns, which have no clock) and the new deadline."""
        match = self._match(table)
        if table.bot_seat is not None and match.hand.turn == table.bot_seat:
            return None if table.deadline is None else (None, None)
        key = _turn_key(match)
        if table.display.get("timer", {}).get("key") == key:
            return None
        started = self.clock()
        timer = {"key": key, "started": started.isoformat(), "reminded": False}
        return timer, started + timedelta(seconds=table.server.turn_seconds / 2)

    def _apply_turn_timer(
        self, table: Table, change: tuple[dict[str, Any] | None, datetime | None]
    ) -> None:
        timer, deadline = change
        if timer is not None:
            table.display["timer"] = timer
        table.deadline = deadline
        if self.deadline_changed is not None:
            self.deadline_changed.set()

    async def _arm_turn_timer(self, table: Table) -> None:
        """Start the clock when the turn passes to another player (or a new hand starts)."""
        change = self._turn_timer(table)
        if change is None:
            return
        self._apply_turn_timer(table, change)
        await self.save_display(table)
        await self._set_deadline(table, table.deadline)

    async def fire_timer(self, table: Table) -> TimerEvent | None:
        """Handle a table whose deadline has come: expire, remind or forfeit."""
        async with table.lock:
            now = self.clock()
            if table.deadline is None or table.deadline > now or table.id not in self._by_id:
                return None
            if table.status is Status.CHALLENGE:
                await self.store.close_challenge(table.id, "expired", self._now())
                self._close(table, Status.EXPIRED)
                return TimerEvent(TimerKind.EXPIRED, table, None)
            match = self._match(table)
            seat = match.hand.turn
            timer = table.display.get("timer", {})
            started = datetime.fromisoformat(timer.get("started", now.isoformat()))
            end = started + timedelta(seconds=table.server.turn_seconds)
            if now < end and not timer.get("reminded"):
                timer["reminded"] = True
                table.display["timer"] = timer
                await self.save_display(table)
                await self._set_deadline(table, end)
                return TimerEvent(TimerKind.REMINDER, table, seat, end)
            await self._concede(table, seat, EndReason.FORFEIT)
            return TimerEvent(TimerKind.FORFEIT, table, seat)

    # --- display bookkeeping ------------------------------------------------------------------

    async def save_display(self, table: Table) -> None:
        """Persist the Discord message ids a table needs to keep editing after a restart."""
        await self.store.set_display(table.id, table.display, self._now())


def _turn_key(match: Match) -> str:
    """Identifies the current turn: the hand, and the move at which this player's turn began."""
    hand = match.hand
    start = len(hand.actions)
    while start > 0 and hand.actions[start - 1].seat == hand.turn:
        start -= 1
    return f"{match.hand_number}:{hand.turn}:{start}"


def _busy_reason(table: Table) -> str:
    if table.status is Status.CHALLENGE:
        return (
            f"This channel already has an open challenge ({table.challenger.name} → "
            f"{table.opponent.name}). Wait for it to be answered, or play in another channel."
        )
    return (
        f"This channel already has a game in progress ({table.challenger.name} vs "
        f"{table.opponent.name}). Play in another channel, or wait for it to finish."
    )


def _snapshot(table: Table, match: Match) -> tuple[str, list[HandRecord]]:
    """What ``_restore`` needs to undo a change: the committed state and the finished hands."""
    state = table.committed or orjson.dumps(match.to_dict(history=False)).decode()
    return state, list(match.history)


def _restore(state: str, history: list[HandRecord]) -> Match:
    """The match as it was before a change that could not be committed."""
    match = Match.from_dict(orjson.loads(state))
    match.history = history
    return match


def _name(state: dict[str, Any] | None, seat: int, fallback: str) -> str:
    if state is None:
        return fallback
    players = state.get("players", [])
    return str(players[seat]["name"]) if seat < len(players) else fallback


def _hand_row(table_id: int, record: HandRecord) -> HandRow:
    result = record.result
    return HandRow(
        match_id=table_id,
        number=record.number,
        dealer_seat=record.dealer,
        seed=record.seed,
        outcome=result.outcome.value,
        knocker_seat=result.knocker,
        winner_seat=result.winner,
        points=result.points,
        result=record.to_dict(),
    )

"""The table service: one table per channel, a lock per table, move -> store -> what to show.

Discord-free: cogs turn Discord interactions into calls here and turn the answers into
messages. Every accepted move is committed to the store before the caller hears about it.
One lock per table serialises everything done to it, both boards of a teams hand included.

With several processes on one database (see ``fleet``), another may have moved since this
process last looked: a move is first recorded only if it is the next move of the stored
table (``_Hopeful``), and failing that made again inside the store's lock on the table's
row (``Store.lock_table``), where the stored move count is compared with ours and the
table reloaded from the row if they differ, before the move is checked, applied and
recorded. A process alone on its database (no other shards' processes) needs no row lock:
its tables in memory are the truth, so each write is the store's own transaction (on SQLite,
moves of many tables share group commits) through ``_Alone``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import orjson

from bot.gin import Card, IllegalMove
from bot.gin.ai import bot_move, seat_view
from bot.gin.hand import Action, ActionKind
from bot.gin.match import EndReason, HandRecord, Match, MatchResult, MoveReport, Player
from bot.gin.modes import find_mode
from bot.gin.settings import Variant
from bot.i18n import N_
from bot.server_settings import ServerSettings
from bot.store import (
    OPEN_STATUSES,
    ChannelBusy,
    HandRow,
    JsonObject,
    MatchEnd,
    MoveRecord,
    RatingRow,
    SeatResult,
    StaleMove,
    Store,
    TableChange,
    TableLock,
    TableRow,
    codec,
)
from bot.tables import clock, lobby
from bot.tables.events import (
    ELSEWHERE,
    ChangedElsewhere,
    DeadlineMoved,
    EventHub,
    MatchStarted,
    MoveMade,
    SeatsChanged,
    TableClosed,
    TableOpened,
)
from bot.tables.fleet import CLAIM_SECONDS, Fleet
from bot.tables.model import (
    KEPT_HANDS,
    HeardOutcome,
    MoveOutcome,
    Seat,
    StaleButton,
    Status,
    Table,
    TableError,
    TableMeta,
    TimerEvent,
    TimerKind,
    screens_part,
)
from bot.tables.ratings import updated_ratings
from bot.tables.records import Records
from bot.tables.thinker import OFF_LOOP_LEVELS, Thinker

log = logging.getLogger(__name__)

T = TypeVar("T")

# The display keys that belong to the game (the turn clocks), not to the messages shown.
CLOCK_KEYS = ("timers", "timer")
# Tries at a move that ends a match, when the ratings it needs change under it.
RATING_TRIES = 3

CHALLENGE_GONE = N_("That challenge is no longer open. Start a new one with `/gin challenge`.")
STALE_BUTTON = N_(
    "That button is out of date: that move was already made, or the game has moved on. "
    "Use your latest hand message, or `/gin hand`."
)


def _utc_now() -> datetime:
    return datetime.now(UTC)


class _RatingsNeeded(Exception):
    """A move ends a rated match: the ratings are read outside the row lock (reading the
    store inside it could wait on that lock), then the move is tried again with them."""

    def __init__(self, result: MatchResult) -> None:
        super().__init__("ratings needed")
        self.result = result
        self.key = _result_key(result)


Given = tuple[tuple[Any, ...], tuple[RatingRow, ...]] | None  # ratings for a result, if read


class TableService:
    """Owns the open tables (by channel and by id) and every change made to them."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] = _utc_now,
        *,
        fleet: Fleet | None = None,
        thinker: Thinker | None = None,
        events: EventHub | None = None,
    ) -> None:
        self.store = store
        # Worker processes for the levels too slow to decide on the loop (None: inline).
        self.thinker = thinker
        self.records = Records(store)  # what the record pages read
        self.clock = clock
        self.fleet = fleet  # None: this process is the only one on its database
        # What happens to the tables, told after each commit (see ``events``).
        self.events = EventHub() if events is None else events
        self._stale: dict[int, list[TableChange]] = {}  # heard changed elsewhere, in order
        self._refreshing: dict[int, asyncio.Task[None]] = {}
        self._claimed: dict[int, datetime] = {}  # table -> until when another process acts
        self._by_channel: dict[str, Table] = {}
        self._by_id: dict[int, Table] = {}
        self._channel_locks: dict[str, asyncio.Lock] = {}
        self._servers: dict[str, ServerSettings] = {}
        self._ratings_lock = asyncio.Lock()

    def _now(self) -> str:
        return self.clock().isoformat()

    # --- loading and lookup -------------------------------------------------------------------

    async def load(self) -> list[Table]:
        """Bring back every open table after a restart (with other processes on the
        database, those this process shows or may get moves for)."""
        tables = []
        for row in await self.store.open_tables():
            table = await self._from_row(row)
            if self.fleet is not None and not self.fleet.keeps(table):
                continue
            self._register(table)
            tables.append(table)
        return tables

    async def _from_row(self, row: TableRow) -> Table:
        match = None
        state = row.state
        if state is not None:
            history = state.get("history")
            if history is None:  # finished hands are stored one row each
                history = [hand.result for hand in await self.store.hands(row.id)]
            match = Match.from_dict({**state, "history": history})
            _keep_last_hand(match)
        display = dict(row.display)
        mode = getattr(row, "mode", "classic")
        table = Table(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            status=Status(row.status),
            seats=_loaded_seats(row, display, match),
            server=ServerSettings.from_dict(row.settings),
            mode_name=mode,
            size=int(display.get("size", 2)),
            host=str(display.get("host", row.challenger_id)),
            match=match,
            move_count=row.move_count,
            meta=TableMeta.from_dict(display),
            screen_ids=screens_part(display),
            deadline=None if row.deadline is None else datetime.fromisoformat(row.deadline),
            vs_bot=row.vs_bot,
            created_at=datetime.fromisoformat(row.created_at),
            committed=None if state is None else orjson.dumps(state).decode(),
        )
        table.vs_bot = table.vs_bot or bool(table.bot_seats)
        return table

    # --- other processes' changes -------------------------------------------------------------

    def shows(self, table: Table) -> bool:
        """Whether this process posts and edits the table's messages (see ``fleet``)."""
        return self.fleet is None or self.fleet.shows(table)

    async def watch(self) -> None:
        """Hear of tables changed by the other processes sharing the database."""
        if self.fleet is not None:
            await self.store.watch(self._heard)

    def _heard(self, change: TableChange) -> None:
        """Another process changed a table: catch up with it soon, one table at a time."""
        if change.table_id == 0:  # news may have been missed: every table may have changed
            for table_id in list(self._by_id):
                self._heard(TableChange(table_id, -1, ""))
            return
        changed = change.table_id
        if changed not in self._by_id and not (self.fleet and self.fleet.receives_dms):
            return  # not ours to keep; read again if ever needed (``find``)
        self._stale.setdefault(changed, []).append(change)
        if changed not in self._refreshing:
            task = asyncio.ensure_future(self._catch_up_soon(changed))
            self._refreshing[changed] = task

    async def _catch_up_soon(self, table_id: int) -> None:
        try:
            while table_id in self._stale:
                changes = self._stale.pop(table_id)
                try:
                    table, made = await self._catch_up_with(table_id, changes)
                except Exception:
                    log.exception("could not reload table %s changed elsewhere", table_id)
                    continue
                if table is not None:
                    seat = changes[-1].seat
                    moved = None if seat < 0 else seat
                    heard = ChangedElsewhere(
                        table=table, origin=ELSEWHERE, seat=moved, made=tuple(made)
                    )
                    self.events.publish(heard)
        finally:
            self._refreshing.pop(table_id, None)

    async def _catch_up_with(
        self, table_id: int, changes: list[TableChange]
    ) -> tuple[Table | None, list[HeardOutcome]]:
        """Make the moves heard of here when they are plain moves that follow our copy and
        leave the state the other process stored (what they did, for the messages);
        otherwise read the table again."""
        table = self._by_id.get(table_id)
        made: list[HeardOutcome] = []
        if table is not None:
            async with table.lock:
                for change in changes:
                    if change.count > 0 and change.count <= table.move_count:
                        continue  # made here already (read with a later change)
                    outcome = self._make_heard(table, change)
                    if outcome is None:
                        break
                    made.append(outcome)
                else:
                    return table, made
        return await self.refresh(table_id), made

    def _make_heard(self, table: Table, change: TableChange) -> HeardOutcome | None:
        """Another process's plain move, made on our copy of the table (under its lock):
        None, and the copy as it was, unless the move follows our copy and the state it
        leaves matches the one stored."""
        heard, match = change.move, table.match
        if heard is None or match is None or table.status is not Status.PLAYING:
            return None
        if change.count != table.move_count + 1:
            return None
        before = _snapshot(table, match)
        try:
            action = Action.from_dict(heard.action)
            board_index = match.board_index(action.seat)
            board = match.board_of(action.seat)
            report = match.apply(action)
            text = codec.dump(match.to_dict(history=False))
        except Exception:  # a move our copy refuses: it is not the copy the other one had
            table.match = _restore(*before)
            return None
        if report.finished_hand is not None or codec.state_check(text) != heard.state_check:
            table.match = _restore(*before)
            return None
        drawn = None
        if board is not None and action.kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
            drawn = board.last_drawn
        table.committed = text
        table.move_count = change.count
        _keep_last_hand(match)
        if heard.timers is not None:
            table.meta.set_timers(heard.timers)
        if heard.change_deadline:
            deadline = heard.deadline
            table.deadline = None if deadline is None else datetime.fromisoformat(deadline)
            self._claimed.pop(table.id, None)
            self.events.publish(DeadlineMoved(table=table, origin=ELSEWHERE))
        outcome = MoveOutcome(
            table, action.seat, action, drawn, report, table.move_count, board_index or 0
        )
        return HeardOutcome(outcome, heard.shown_message, heard.mover_language)

    async def find(self, table_id: int) -> Table | None:
        """The open table with this id: the one in memory or, with other processes on the
        database, one opened elsewhere, read from the store."""
        table = self._by_id.get(table_id)
        if table is not None or self.fleet is None:
            return table
        return await self.refresh(table_id)

    async def refresh(self, table_id: int) -> Table | None:
        """Reload a table from the store (another process changed it); None if it is not
        open and was not in memory either."""
        table = self._by_id.get(table_id)
        if table is None:
            row = await self.store.get_table(table_id)
            if row is None or row.status not in OPEN_STATUSES:
                return None
            table = self._by_id.get(table_id)
            if table is None:  # nobody loaded it meanwhile
                table = await self._from_row(row)
                self._register(table)
                return table
        async with table.lock:
            row = await self.store.get_table(table_id)
            if row is None:
                return None
            history = None
            if row.state is not None and (
                table.match is None or row.state.get("hand_number") != table.match.hand_number
            ):
                history = [hand.result for hand in await self.store.hands(table_id)]
            self._catch_up(table, row, history)
        if self.fleet is not None and not self.fleet.keeps(table):
            self._unregister(table)
        return table

    def _catch_up(
        self, table: Table, row: TableRow, history: list[dict[str, Any]] | None = None
    ) -> None:
        """Make the table in memory what the store has (another process changed it): its
        state, moves, seats and clocks; the messages' ids stay ours if we show it."""
        kept = [] if table.match is None else list(table.match.history)
        if row.state is not None:
            match = Match.from_dict({**row.state, "history": history or []})
            if history is None:
                match.history = kept
            _keep_last_hand(match)
            table.match = match
            table.committed = orjson.dumps(row.state).decode()
        table.move_count = row.move_count
        # The service's keys are the stored ones; the message ids too, unless this process
        # shows the table (then its own are the newest).
        table.meta = TableMeta.from_dict(row.display)
        if not (self.shows(table) and table.screen_ids):
            table.screen_ids = screens_part(row.display)
        table.seats = _loaded_seats(row, row.display, table.match)
        table.host = str(row.display.get("host", row.challenger_id))
        table.deadline = None if row.deadline is None else datetime.fromisoformat(row.deadline)
        self._claimed.pop(table.id, None)
        status = Status(row.status)
        if row.status in OPEN_STATUSES:
            table.status = status
            self._register(table)
        elif table.status is not status or table.id in self._by_id:
            self._close(table, status, origin=ELSEWHERE)
        self.events.publish(DeadlineMoved(table=table, origin=ELSEWHERE))

    def _lock(self, table: Table) -> contextlib.AbstractAsyncContextManager[TableLock]:
        """The table's row lock while other processes share the database; alone on it, the
        store's own transactions (see the module's docstring)."""
        if self.fleet is None:
            return _alone(self.store, table.id)
        return self.store.lock_table(table.id)

    def _catch_up_locked(self, table: Table, locked: TableLock) -> None:
        """Under the row lock: reload the table if the store has moved past our copy."""
        if self.fleet is None or isinstance(locked, _Alone):
            return  # alone on the database (nobody else moves its tables), or no row read
        row = locked.table
        if row.move_count != table.move_count or row.status != table.status.value:
            log.info(
                "table %s changed elsewhere (move %s, we had %s): reloaded",
                table.id,
                row.move_count,
                table.move_count,
            )
            self._catch_up(table, row)

    async def _with_ratings(self, table: Table, attempt: Callable[[Given], Awaitable[T]]) -> T:
        """Run ``attempt`` (under the table's lock); if it ends a rated match, read the
        ratings and run it again with them, until the result they are for stands."""
        try:
            return await attempt(None)
        except _RatingsNeeded as first:
            needed = first
        async with self._ratings_lock:
            for _ in range(RATING_TRIES):
                ratings = await self._new_ratings(table, needed.result)
                try:
                    return await attempt((needed.key, ratings))
                except _RatingsNeeded as again:
                    needed = again
        raise TableError("Too much is happening at this table at once: try again.")

    def _ratings_for(
        self, table: Table, result: MatchResult, given: Given
    ) -> tuple[RatingRow, ...]:
        """The ratings read for this result, or ``_RatingsNeeded`` to go and read them."""
        if table.vs_bot or table.bot_seats:
            return ()
        if given is not None and given[0] == _result_key(result):
            return given[1]
        raise _RatingsNeeded(result)

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
            raise TableError(
                "There is no game in this channel. Start one with `/gin challenge`, "
                "`/gin open` or `/gin practice`."
            )
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

    # --- opening tables ----------------------------------------------------------------------

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
        origin: str = "",
    ) -> Table:
        """Open a two-player table; against the bot itself (``bot_level`` set) play starts
        at once. ``origin``: the front end that asked (see ``events``)."""
        if opponent.id == challenger.id:
            raise TableError("You can't challenge yourself. Pick another member of this server.")
        if opponent_is_bot and bot_level is None:
            raise TableError(
                "Other bots can't play Gin Rummy. Challenge a person, or play me with "
                "`/gin practice`."
            )
        seats = [Seat(challenger), Seat(opponent, bot_level=bot_level)]
        table = await self._open(
            guild_id, channel_id, seats, server, "classic", 2, opponent.id, origin=origin
        )
        if bot_level is not None:
            async with table.lock:
                await self._start(table, origin=origin)
        return table

    async def open_match(
        self,
        guild_id: str,
        channel_id: str,
        players: tuple[Player, Player],
        server: ServerSettings,
        *,
        seed: str | None = None,
        origin: str = "",
    ) -> Table:
        """Open a two-player table whose match starts at once, nobody to accept it, the
        seats in the order given (a tournament's pairing, seat 0 first), dealt from ``seed``
        when one is given (a duplicate round: every table of the round cuts the same cards
        and shuffles each hand the same)."""
        seats = [Seat(players[0]), Seat(players[1])]
        table = await self._open(
            guild_id,
            channel_id,
            seats,
            server,
            "classic",
            2,
            players[1].id,
            expires=False,
            origin=origin,
        )
        async with table.lock:
            await self._start(table, seed, origin=origin)
        return table

    async def open_lobby(
        self,
        guild_id: str,
        channel_id: str,
        host: Player,
        mode: str,
        server: ServerSettings,
        *,
        size: int | None = None,
        bots: list[Player] | None = None,
        bot_level: str = "normal",
        team: int | None = None,
        origin: str = "",
    ) -> Table:
        """Open a lobby for a mode of more than two players, the host seated first; seats
        given to the bot are filled at once. A lobby that is full starts by itself."""
        chosen = find_mode(mode)
        size = lobby.table_size(chosen, size)
        if server.rules.variant is not Variant.CLASSIC:
            # The server's variant is for two-player matches: more players play the classic
            # hands (with the classic target, unless the server chose one).
            server = server.with_changes(variant=Variant.CLASSIC)
        bot_players = bots or []
        if len(bot_players) >= size:
            raise TableError(
                "A table of {size} with {bots} bots leaves you no seat: ask for at most "
                "{most} bots.",
                size=size,
                bots=len(bot_players),
                most=size - 1,
            )
        seats = [Seat(host, team=team), *(Seat(p, bot_level=bot_level) for p in bot_players)]
        lobby.check_teams(chosen, seats)
        table = await self._open(
            guild_id, channel_id, seats, server, chosen.name, size, "", origin=origin
        )
        if len(table.seats) == table.size:
            async with table.lock:
                await self._start(table, origin=origin)
        return table

    async def _open(
        self,
        guild_id: str,
        channel_id: str,
        seats: list[Seat],
        server: ServerSettings,
        mode: str,
        size: int,
        opponent_id: str,
        *,
        expires: bool = True,
        origin: str = "",
    ) -> Table:
        lock = self._channel_locks.setdefault(channel_id, asyncio.Lock())
        # The two-player game is recorded on the challenge itself (the bot as a player, its
        # vs_bot flag, the store's default mode), and a practice has no answer to wait for.
        two_player = find_mode(mode).two_player_game
        async with lock:
            existing = self.in_channel(channel_id)
            if existing is not None:
                raise _busy(existing)
            created = self.clock()
            now = created.isoformat()
            for seat in seats:
                if not seat.is_bot or two_player:
                    await self.store.upsert_player(seat.player.id, seat.player.name, now)
            vs_bot = any(seat.is_bot for seat in seats)
            host = seats[0].player
            try:
                table_id = await self.store.create_challenge(
                    guild_id,
                    channel_id,
                    host.id,
                    opponent_id,
                    server.to_dict(),
                    now,
                    vs_bot=vs_bot and two_player,
                    **({} if two_player else {"mode": mode}),
                )
            except ChannelBusy:
                raise TableError("This channel already has a game. Try another channel.") from None
            table = Table(
                id=table_id,
                guild_id=guild_id,
                channel_id=channel_id,
                status=Status.CHALLENGE,
                seats=seats,
                server=server,
                mode_name=mode,
                size=size,
                host=host.id,
                vs_bot=vs_bot,
                created_at=created,
            )
            await self.save_display(table)
            self._register(table)
            if expires and not (vs_bot and two_player):
                await self._set_deadline(
                    table, created + timedelta(seconds=server.challenge_seconds)
                )
        self.events.publish(TableOpened(table=table, origin=origin))
        return table

    # --- a challenge's answer -------------------------------------------------------------------

    async def accept(
        self, table: Table, user_id: str, name: str | None = None, *, origin: str = ""
    ) -> Table:
        async with table.lock:
            self._check_challenge_answer(table, user_id, "accept")
            async with self._still_open(table):
                if name:
                    seat = replace(table.seats[1], player=Player(table.opponent.id, name))
                    table.seats[1] = seat
                await self._start(table, origin=origin)
            return table

    async def decline(self, table: Table, user_id: str, *, origin: str = "") -> Table:
        async with table.lock:
            self._check_challenge_answer(table, user_id, "decline", challenger_may=True)
            async with self._still_open(table):
                await self.store.close_challenge(table.id, "declined", self._now())
            self._close(table, Status.DECLINED, origin=origin)
            return table

    def _check_challenge_answer(
        self, table: Table, user_id: str, verb: str, *, challenger_may: bool = False
    ) -> None:
        if table.is_lobby:
            raise TableError(
                "This table is a lobby, not a challenge: take a seat with the Join button or "
                "`/gin join`, or leave with `/gin leave`."
            )
        b = table.opponent.name
        if table.status is Status.PLAYING and table.id in self._by_id:
            if table.seat_of(user_id) is not None:
                raise TableError(
                    "Your game here is already on: there is no challenge to answer. "
                    "To leave it, use `/gin resign`."
                )
            raise TableError(
                "There is no challenge to answer here: {a} and {b} are playing. Start your "
                "own game in another channel with `/gin challenge`.",
                a=table.challenger.name,
                b=b,
            )
        if table.status is not Status.CHALLENGE or table.id not in self._by_id:
            raise TableError(CHALLENGE_GONE)
        if user_id == table.opponent.id:
            return
        if challenger_may and user_id == table.challenger.id:
            return
        if user_id == table.challenger.id:
            # Only accepting comes here: the challenger may always decline (withdraw).
            raise TableError(
                "You can't accept your own challenge; wait for {name} to answer it. "
                "To withdraw it, use `/gin decline`.",
                name=b,
            )
        if verb == "accept":
            raise TableError(
                "Only {name} can accept this challenge. Want to play? Start your own game in "
                "another channel with `/gin challenge`.",
                name=b,
            )
        raise TableError(
            "Only {name} can decline this challenge. Want to play? Start your own game in "
            "another channel with `/gin challenge`.",
            name=b,
        )

    # --- lobbies ---------------------------------------------------------------------------------

    async def join(
        self, table: Table, player: Player, team: int | None = None, *, origin: str = ""
    ) -> bool:
        """Take a seat in a lobby; True when that filled the table and started the match."""
        async with table.lock:
            lobby.check_join(table, player, team, open_here=table.id in self._by_id)
            async with self._still_open(table):
                table.seats.append(Seat(player, team=team))
                await self.store.upsert_player(player.id, player.name, self._now())
                if len(table.seats) == table.size:
                    await self._start(table, origin=origin)
                    return True
                await self.save_display(table)
            self.events.publish(SeatsChanged(table=table, origin=origin))
            return False

    async def leave(self, table: Table, user_id: str, *, origin: str = "") -> bool:
        """Give up a seat in a lobby (the next person seated becomes host); True when nobody
        is left and the table closed."""
        async with table.lock:
            index = lobby.check_leave(table, user_id, open_here=table.id in self._by_id)
            async with self._still_open(table):
                del table.seats[index]
                humans = [seat for seat in table.seats if not seat.is_bot]
                if not humans:
                    await self.store.close_challenge(table.id, "cancelled", self._now())
                    self._close(table, Status.CANCELLED, origin=origin)
                    return True
                if table.host == user_id:
                    table.host = humans[0].player.id
                await self.save_display(table)
            self.events.publish(SeatsChanged(table=table, origin=origin))
            return False

    async def start_lobby(self, table: Table, user_id: str, *, origin: str = "") -> Table:
        """The host starts a lobby that has enough players (elimination: two or more)."""
        async with table.lock:
            lobby.check_start(table, user_id, open_here=table.id in self._by_id)
            async with self._still_open(table):
                await self._start(table, origin=origin)
            return table

    @contextlib.asynccontextmanager
    async def _still_open(self, table: Table) -> AsyncIterator[None]:
        """Around a change to a challenge or lobby (its lock held): the store writes it only
        while the table is still open as such. Refused (another process let it expire,
        say), the seats are put back, the table is read again, and the player is told."""
        seats, host, display = list(table.seats), table.host, table.display
        try:
            yield
        except StaleMove:
            table.seats, table.host = seats, host
            table.load_display(display)
            row = await self.store.get_table(table.id)
            if row is None or row.status not in OPEN_STATUSES:
                self._close(table, Status(row.status) if row is not None else Status.CANCELLED)
            else:
                self._catch_up(table, row)
            raise TableError(CHALLENGE_GONE) from None

    async def _start(self, table: Table, seed: str | None = None, *, origin: str = "") -> None:
        """Deal the first hand and commit it; the seats take the match's order. Lock held."""
        teams = [seat.team for seat in table.seats] if table.mode.team_play else None
        match = Match.start(
            [seat.player for seat in table.seats],
            table.settings,
            seed,
            mode=table.mode_name,
            teams=teams,
        )
        by_id = {seat.player.id: seat for seat in table.seats}
        seated = [by_id[player.id] for player in match.players]
        state = match.to_dict(history=False)
        await self.store.start_match(table.id, state, self._now(), **_seat_rows(table, seated))
        table.seats = seated
        table.match = match
        table.committed = orjson.dumps(state).decode()
        table.status = Status.PLAYING
        await self._arm_turn_timers(table)
        self.events.publish(MatchStarted(table=table, origin=origin))

    # --- moves --------------------------------------------------------------------------------

    async def play(
        self,
        table: Table,
        user_id: str,
        kind: ActionKind,
        card: Card | None = None,
        *,
        expected_move: int | None = None,
        shown_message: int | None = None,
        language: str | None = None,
        origin: str = "",
    ) -> MoveOutcome:
        """Check, apply and commit one move. ``expected_move`` (the seat's ``Table.token``)
        guards against stale buttons and double clicks: the move is refused if the seat's
        board moved on first, here or in another process. ``shown_message``: the message
        the answer to this move will edit, and ``language`` the one the mover reads, told
        to the other processes with it; ``origin`` the front end that asked (``events``)."""
        move = _Move(user_id, kind, card, expected_move, shown_message, language, origin)
        async with table.lock:
            return await self._with_ratings(table, lambda given: self._play(table, move, given))

    async def _play(self, table: Table, move: _Move, given: Given) -> MoveOutcome:
        if self.fleet is not None:
            # Other processes share the database: first as if our copy were the stored one,
            # in the one statement that records a move only if it is the next one; if the
            # table moved elsewhere, or the move is refused (perhaps by a stale copy), once
            # more under the row lock, with the table as stored.
            try:
                hopeful = _hopeful(self.store, table.id)
                return await self._play_in(table, hopeful, move, given)
            except (MovedElsewhere, TableError, IllegalMove):
                pass
        lock = self._lock(table)
        return await self._play_in(table, lock, move, given)

    async def _play_in(
        self,
        table: Table,
        lock: contextlib.AbstractAsyncContextManager[TableLock],
        move: _Move,
        given: Given,
    ) -> MoveOutcome:
        undo: tuple[str, list[HandRecord]] | None = None  # set once the match changed
        kind = move.kind
        try:
            async with lock as locked:
                self._catch_up_locked(table, locked)
                seat = self._seated(table, move.user_id)
                match = self._match(table)
                if move.expected is not None and move.expected != table.token(seat):
                    raise StaleButton(STALE_BUTTON)
                hand_number = match.hand_number
                action = Action(kind, seat, move.card)
                board_index = match.board_index(seat)
                board = match.board_of(seat)
                before = _snapshot(table, match)
                report = match.apply(action)  # raises IllegalMove and changes nothing
                undo = before
                drawn = None
                if board is not None and kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
                    drawn = board.last_drawn
                outcome = MoveOutcome(table, seat, action, drawn, report, 0, board_index or 0)
                done = await self._commit(
                    table, locked, hand_number, outcome, given, move, origin=move.origin
                )
        except BaseException:
            if undo is not None:
                table.match = _restore(*undo)  # the move never happened
            raise
        return done()

    async def _commit(
        self,
        table: Table,
        locked: TableLock,
        hand_number: int,
        made: MoveOutcome,
        given: Given,
        move: _Move | None = None,
        *,
        origin: str = "",
    ) -> Callable[[], MoveOutcome]:
        """Record a move applied to the match under the row lock; what to do to the table in
        memory once the lock's transaction has committed, which tells everyone (``events``)
        and answers the outcome with its move number."""
        action, report = made.action, made.report
        match = self._match(table)
        now = self._now()
        finished = None
        ratings: tuple[RatingRow, ...] = ()
        if report.result is not None:
            finished = self._match_end(table, report.result)
            ratings = self._ratings_for(table, report.result, given)
        hand_row = None
        if report.finished_hand is not None:
            hand_row = _hand_row(table.id, report.finished_hand)
        state = match.to_dict(history=False)  # a finished hand goes in its own row
        timers, deadline = self._turn_timers(table)
        changed = report.result is None and timers != clock.timers_of(table.display, match)
        display = None
        if changed and self.fleet is None:
            display = {k: v for k, v in table.display.items() if k != "timer"}
            display["timers"] = timers
        # With other processes, only the clocks: the message ids stay as stored (the owner's).
        patch = timers if changed and self.fleet is not None else None
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
            timers=patch,
            shown_message=None if move is None else move.shown_message,
            mover_language=None if move is None else move.language,
            deadline=None if deadline is None or not changed else deadline.isoformat(),
            change_deadline=changed,
            ratings=ratings,
        )
        try:
            await locked.record_move(record)
        except StaleMove:
            raise TableError("That move was already made.") from None

        def done() -> MoveOutcome:  # committed, with the turn clocks: the move stands
            table.committed = orjson.dumps(state).decode()
            table.move_count += 1
            _keep_last_hand(match)
            outcome = replace(made, move_count=table.move_count)
            if report.result is not None:
                self._shut(table, Status.FINISHED)
            elif changed:
                table.meta.set_timers(timers)
                table.deadline = deadline
                self._claimed.pop(table.id, None)
            self.events.publish(MoveMade(table=table, origin=origin, outcome=outcome))
            if report.result is not None:
                closed = TableClosed(
                    table=table, origin=origin, status=Status.FINISHED, result=report.result
                )
                self.events.publish(closed)
            elif changed:
                self.events.publish(DeadlineMoved(table=table, origin=origin))
            return outcome

        return done

    async def bot_turn(
        self, table: Table, rng: random.Random, seat: int | None = None, *, origin: str = ""
    ) -> MoveOutcome | None:
        """A bot seat makes its move if it is to act, deciding from its own view only."""
        to_act = table.bots_to_act()
        if seat is None:
            seat = to_act[0] if to_act else None
        if seat is None or seat not in to_act:
            return None
        match = self._match(table)
        level = table.bot_level_of(seat) or "normal"
        token = table.token(seat)  # a move made while the bot thinks makes its decision stale
        try:
            if self.thinker is not None and level in OFF_LOOP_LEVELS:
                action = await self.thinker.decide(seat_view(match, seat), level, rng)
            else:
                action = bot_move(match, seat, level, rng)
        except Exception:  # a strategy fault must never stall a table: play something legal
            log.exception("the bot's %s strategy failed at table %s", level, table.id)
            board = match.board_of(seat)
            legal = [] if board is None else board.legal_actions(seat)
            if not legal:
                return None  # the hand moved on while the bot thought
            action = legal[0]
        try:
            return await self.play(
                table,
                table.players[seat].id,
                action.kind,
                action.card,
                expected_move=token,
                origin=origin,
            )
        except TableError:
            return None  # a person moved or resigned meanwhile; nothing to do

    async def resign(self, table: Table, user_id: str, *, origin: str = "") -> MatchResult | None:
        """Concede: two-player hands end the match for the player's side; in elimination the
        player is out and the others play on (None)."""
        async with table.lock:
            return await self._with_ratings(
                table, lambda given: self._resign(table, user_id, given, origin)
            )

    async def _resign(
        self, table: Table, user_id: str, given: Given, origin: str
    ) -> MatchResult | None:
        async with self._lock(table) as locked:
            self._catch_up_locked(table, locked)
            seat = self._seated(table, user_id)
            match = self._match(table)
            if seat not in match.in_play:
                why = match.mode.not_playing(match, seat)
                raise TableError(why.template, **why.values)
            result, done = await self._concede(table, locked, seat, EndReason.RESIGN, given, origin)
        done()
        return result

    async def _concede(
        self,
        table: Table,
        locked: TableLock,
        seat: int,
        reason: EndReason,
        given: Given,
        origin: str = "",
    ) -> tuple[MatchResult | None, Callable[[], object]]:
        """A seat concedes or runs out of time, under the row lock; the result, and what to
        do to the table in memory once committed."""
        match = self._match(table)
        snapshot = _snapshot(table, match)
        hand_number = match.hand_number
        result = match.resign(seat, reason)
        try:
            if result is None:  # elimination plays on without them: a move like any other
                action = Action(ActionKind.LEAVE, seat)
                report = MoveReport(action, went_out=seat)
                board = match.board_index(seat) or 0
                left = MoveOutcome(table, seat, action, None, report, 0, board)
                done = await self._commit(table, locked, hand_number, left, given, origin=origin)
                return None, done
            ratings = self._ratings_for(table, result, given)
            await locked.end_match(
                match.to_dict(history=False),
                self._match_end(table, result),
                self._now(),
                ratings=ratings,
            )
        except BaseException:
            table.match = _restore(*snapshot)
            raise
        return result, lambda: self._close(table, Status.FINISHED, origin=origin, result=result)

    async def _new_ratings(self, table: Table, result: MatchResult) -> tuple[RatingRow, ...]:
        """Everyone's ratings after this result, from the places (none when a seat was the
        bot's: such a match counts in stats and history, not in ratings).

        Called with the ratings lock held, so two matches of one player that end at the same
        moment update that player's rating one after the other.
        """
        if table.vs_bot or table.bot_seats:
            return ()
        ids = [p.id for p in table.players]
        if table.mode.two_player_game:
            winner, loser = ids[result.winner], ids[1 - result.winner]
            current = await self.store.get_ratings(table.guild_id, [winner, loser])
            return updated_ratings(
                table.guild_id, current.get(winner), current.get(loser), winner, loser
            )
        from bot.tables.ratings import rated

        match = self._match(table)
        seats, ranks = match.mode.rated_sides(match, result)
        sides = [[ids[s] for s in side] for side in seats]
        current = await self.store.get_ratings(table.guild_id, ids, mode=table.mode_name)
        return rated(table.guild_id, table.mode_name, current, sides, ranks)

    async def end(self, table: Table, *, origin: str = "") -> Table:
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
            self._close(table, Status.CANCELLED, origin=origin)
            return table

    def _shut(self, table: Table, status: Status) -> None:
        """The table in memory closed: no longer open here, no deadline."""
        table.status = status
        table.deadline = None
        self._unregister(table)

    def _close(
        self,
        table: Table,
        status: Status,
        *,
        origin: str = "",
        result: MatchResult | None = None,
    ) -> None:
        """Close the table in memory (its end committed) and tell everyone."""
        self._shut(table, status)
        self.events.publish(TableClosed(table=table, origin=origin, status=status, result=result))

    def _seated(self, table: Table, user_id: str) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            names = [p.name for p in table.players]
            if len(names) == 2:
                raise TableError(
                    "You're not playing at this table ({a} vs {b}). Watch with `/gin table`, "
                    "or start your own game in another channel with `/gin challenge`.",
                    a=names[0],
                    b=names[1],
                )
            raise TableError(
                "You're not playing at this table ({players}). Watch with `/gin table`, "
                "or start your own game in another channel with `/gin challenge`.",
                players=", ".join(names),
            )
        if table.is_lobby:
            raise TableError(
                "The game hasn't started: the lobby is still filling. The host starts it "
                "with the Start button or `/gin start`."
            )
        if table.status is Status.CHALLENGE:
            if seat == 0:
                raise TableError(
                    "The game hasn't started: {name} hasn't accepted your challenge yet. "
                    "To withdraw it, use `/gin decline`.",
                    name=table.opponent.name,
                )
            raise TableError(
                "The game hasn't started: first accept {name}'s challenge with the Accept "
                "button or `/gin accept` (or turn it down with `/gin decline`).",
                name=table.challenger.name,
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
        match = table.match
        assert match is not None
        teams = table.mode.team_play
        seats = []
        for seat, player in enumerate(table.players):
            side = match.side_of(seat)
            extra: dict[str, Any] = {}
            if not table.mode.two_player_game:  # kept per seat, not with a challenge
                extra = {
                    "place": result.placings[seat],
                    "team": side if teams else None,
                    "is_bot": table.seats[seat].is_bot,
                }
            seats.append(
                SeatResult(
                    user_id=player.id,
                    seat=seat,
                    points=result.points[side],
                    final_score=result.final[side],
                    **extra,
                )
            )
        return MatchEnd(
            status="finished",
            reason=result.reason.value,
            winner_id=table.players[result.winner].id,
            results=tuple(seats),
        )

    # --- timers -----------------------------------------------------------------------------
    # A challenge or lobby has one deadline (it expires). Each turn has two: halfway the player
    # is reminded, at the end they forfeit. Deadlines are stored with the table so a restart
    # resumes them; one that passed while the bot was down fires at start-up.

    def next_deadline(self) -> datetime | None:
        deadlines = [self._due_at(t) for t in self._by_id.values() if t.deadline is not None]
        return min(deadlines) if deadlines else None

    def due(self, now: datetime) -> list[Table]:
        return sorted(
            (t for t in self._by_id.values() if t.deadline is not None and self._due_at(t) <= now),
            key=lambda t: t.deadline or now,
        )

    def _due_at(self, table: Table) -> datetime:
        """When to look at the table's deadline: at it, or, while another process holds
        its claim, when that claim lapses (its change, heard first, clears the claim)."""
        assert table.deadline is not None
        claimed = self._claimed.get(table.id)
        return table.deadline if claimed is None else max(table.deadline, claimed)

    async def _set_deadline(self, table: Table, deadline: datetime | None) -> None:
        table.deadline = deadline
        await self.store.set_deadline(
            table.id, None if deadline is None else deadline.isoformat(), self._now()
        )
        self.events.publish(DeadlineMoved(table=table))

    def _turn_timers(self, table: Table) -> tuple[clock.Timers, datetime | None]:
        """The turn clocks after a change, and the table's deadline from them."""
        match = self._match(table)
        current = clock.timers_of(table.display, match)
        timers = clock.next_timers(match, current, set(table.bot_seats), self.clock())
        return timers, clock.earliest(timers, table.server.turn_seconds)

    async def _arm_turn_timers(self, table: Table) -> None:
        """Start the clocks when a match starts."""
        timers, deadline = self._turn_timers(table)
        table.meta.set_timers(timers)
        await self.save_display(table, clocks=True)
        await self._set_deadline(table, deadline)

    async def fire_timer(self, table: Table, *, origin: str = "") -> list[TimerEvent]:
        """Handle a table whose deadline has come: expire it, or remind or forfeit the players
        whose clocks ran. With other processes on the database, only after claiming the
        deadline: of the processes that saw it come, one acts."""
        async with table.lock:
            now = self.clock()
            if table.deadline is None or table.deadline > now or table.id not in self._by_id:
                return []
            if self.fleet is not None:
                until = now + timedelta(seconds=CLAIM_SECONDS)
                claimed = await self.store.claim_deadline(
                    table.id,
                    table.deadline.isoformat(),
                    self.fleet.name,
                    now.isoformat(),
                    until.isoformat(),
                )
                if not claimed:  # another process acts on it (or it moved on meanwhile)
                    self._claimed[table.id] = until
                    return []
            if table.status is Status.CHALLENGE:
                try:
                    await self.store.close_challenge(table.id, "expired", self._now())
                except StaleMove:
                    return []  # answered elsewhere in the meantime
                self._close(table, Status.EXPIRED, origin=origin)
                return [TimerEvent(TimerKind.EXPIRED, table, None)]
            return await self._with_ratings(table, lambda given: self._fire(table, given, origin))

    async def _fire(self, table: Table, given: Given, origin: str) -> list[TimerEvent]:
        """The turn clocks that ran, under the row lock: a forfeit, or reminders."""
        async with self._lock(table) as locked:
            self._catch_up_locked(table, locked)
            now = self.clock()
            if table.deadline is None or table.deadline > now or table.id not in self._by_id:
                return []
            match = self._match(table)
            seconds = table.server.turn_seconds
            timers = clock.timers_of(table.display, match)
            due = sorted(
                (key, timer) for key, timer in timers.items() if clock.due_at(timer, seconds) <= now
            )
            for _, timer in due:  # a forfeit first: its move resets every clock
                if timer.get("reminded") or now >= clock.ends_at(timer, seconds):
                    seat = int(timer["seat"])
                    result, done = await self._concede(
                        table, locked, seat, EndReason.FORFEIT, given, origin
                    )
                    break
            else:
                events: list[TimerEvent] = []
                for key, timer in due:
                    timers[key] = {**timer, "reminded": True}
                    end = clock.ends_at(timer, seconds)
                    events.append(TimerEvent(TimerKind.REMINDER, table, int(timer["seat"]), end))
                base = table.display if self.shows(table) else locked.table.display
                display = {k: v for k, v in base.items() if k != "timer"}
                display["timers"] = timers
                deadline = clock.earliest(timers, seconds)
                await locked.set_display(display, self._now())
                await locked.set_deadline(
                    None if deadline is None else deadline.isoformat(), self._now()
                )
                seat = -1
        if seat < 0:
            if self.shows(table):
                table.meta.set_timers(timers)
            else:
                table.load_display(display)
            table.deadline = deadline
            self._claimed.pop(table.id, None)
            self.events.publish(DeadlineMoved(table=table, origin=origin))
            return events
        done()
        return [TimerEvent(TimerKind.FORFEIT, table, seat, result=result)]

    # --- display bookkeeping ------------------------------------------------------------------

    async def save_display(self, table: Table, *, clocks: bool = False) -> None:
        """Persist the Discord message ids a table needs to keep editing after a restart.

        With other processes on the database, the turn clocks are kept as stored (whoever
        moved last wrote them, under the row lock) unless ``clocks`` says these are new."""
        if self.fleet is None or clocks:
            await self.store.set_display(table.id, table.display, self._now())
            return
        async with self._lock(table) as locked:
            display = dict(table.display)
            for key in CLOCK_KEYS:
                if key in locked.table.display:
                    display[key] = locked.table.display[key]
                else:
                    display.pop(key, None)
            await locked.set_display(display, self._now())


class _Alone:
    """``TableLock`` for a process alone on its database: each write is the store's own
    transaction, and the table in memory is the truth (``table`` is never read)."""

    def __init__(self, store: Store, match_id: int) -> None:
        self._store = store
        self._id = match_id

    @property
    def table(self) -> TableRow:
        raise RuntimeError("alone on its database, a table is read from memory")

    async def record_move(self, move: MoveRecord) -> None:
        await self._store.record_move(move)

    async def end_match(
        self,
        state: JsonObject | None,
        end: MatchEnd,
        now: str,
        *,
        ratings: tuple[RatingRow, ...] = (),
    ) -> None:
        await self._store.end_match(self._id, state, end, now, ratings=ratings)

    async def set_display(self, display: JsonObject, now: str) -> None:
        await self._store.set_display(self._id, display, now)

    async def set_deadline(self, deadline: str | None, now: str) -> None:
        await self._store.set_deadline(self._id, deadline, now)


@contextlib.asynccontextmanager
async def _alone(store: Store, match_id: int) -> AsyncIterator[TableLock]:
    yield _Alone(store, match_id)


@dataclass(frozen=True, slots=True)
class _Move:
    """A move asked for: who, what, the button's token and the message its answer edits."""

    user_id: str
    kind: ActionKind
    card: Card | None
    expected: int | None
    shown_message: int | None
    language: str | None
    origin: str


class MovedElsewhere(Exception):
    """The stored table was not our copy of it: another process changed it first."""


class _Hopeful(_Alone):
    """``TableLock`` for a move made on our copy of a table while other processes share the
    database: recorded only if it is the next move of the stored table (the store's guarded
    write), else ``MovedElsewhere`` and nothing written."""

    async def record_move(self, move: MoveRecord) -> None:
        try:
            await self._store.record_move(move)
        except StaleMove:
            raise MovedElsewhere(move.match_id) from None


@contextlib.asynccontextmanager
async def _hopeful(store: Store, match_id: int) -> AsyncIterator[TableLock]:
    yield _Hopeful(store, match_id)


def _result_key(result: MatchResult) -> tuple[Any, ...]:
    """What a match's new ratings depend on: who won, and everyone's place."""
    return (result.winner, tuple(result.placings))


def _busy(table: Table) -> TableError:
    """The refusal of a new table in a channel that has one, saying who is at it."""
    names = [p.name for p in table.players]
    if table.is_lobby:
        if len(names) == 2:
            return TableError(
                "This channel already has a table filling its seats ({a} vs {b}). Take a "
                "seat with `/gin join`, or play in another channel.",
                a=names[0],
                b=names[1],
            )
        return TableError(
            "This channel already has a table filling its seats ({players}). Take a "
            "seat with `/gin join`, or play in another channel.",
            players=", ".join(names),
        )
    if table.status is Status.CHALLENGE:
        return TableError(
            "This channel already has an open challenge ({challenger} → {opponent}). Wait "
            "for it to be answered, or play in another channel.",
            challenger=table.challenger.name,
            opponent=table.opponent.name,
        )
    if len(names) == 2:
        return TableError(
            "This channel already has a game in progress ({a} vs {b}). Play in another "
            "channel, or wait for it to finish.",
            a=names[0],
            b=names[1],
        )
    return TableError(
        "This channel already has a game in progress ({players}). Play in another "
        "channel, or wait for it to finish.",
        players=", ".join(names),
    )


def _seat_rows(table: Table, seated: list[Seat]) -> dict[str, Any]:
    """The store's seat rows for a match of more than two players (two-player matches let the
    store derive them from the challenge)."""
    if table.mode.two_player_game:
        return {}
    from bot.store import SeatRow

    teams = table.mode.team_play
    rows = []
    for index, seat in enumerate(seated):
        team = (index % 2) if teams else None
        rows.append(SeatRow(index, seat.player.id, team, seat.is_bot))
    return {"seats": tuple(rows)}


def _loaded_seats(row: TableRow, display: dict[str, Any], match: Match | None) -> list[Seat]:
    """The seats of a table read back from the store: from the display when it saved them,
    else (tables saved by an older version) from the challenge and the match."""
    saved = display.get("seats")
    if saved:
        seats = [Seat.from_dict(s) for s in saved]
    else:
        names = display.get("names", {})
        level = display.get("bot_level", "normal") if row.vs_bot else None
        seats = [
            Seat(Player(row.challenger_id, names.get("0", row.challenger_id))),
            Seat(Player(row.opponent_id, names.get("1", row.opponent_id)), bot_level=level),
        ]
    if match is not None:  # the match's order and names are the ones that count
        by_id = {seat.player.id: seat for seat in seats}
        seats = [replace(by_id.get(p.id, Seat(p)), player=p) for p in match.players]
    return seats


def _keep_last_hand(match: Match) -> None:
    """An open table keeps in memory only the last finished hand (both its boards, for
    teams): its showdown is what the screens still show."""
    if match.history:
        last = match.history[-1].number
        match.history[:] = [h for h in match.history[-KEPT_HANDS:] if h.number == last]


def _snapshot(table: Table, match: Match) -> tuple[str, list[HandRecord]]:
    """What ``_restore`` needs to undo a change: the committed state and the finished hands."""
    state = table.committed or orjson.dumps(match.to_dict(history=False)).decode()
    return state, list(match.history)


def _restore(state: str, history: list[HandRecord]) -> Match:
    """The match as it was before a change that could not be committed."""
    match = Match.from_dict(orjson.loads(state))
    match.history = history
    return match


def _hand_row(table_id: int, record: HandRecord) -> HandRow:
    result = record.result
    extra: dict[str, Any] = {"board": record.board} if record.board else {}
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
        **extra,
    )

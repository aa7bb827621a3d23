"""The table service: one table per channel, a lock per table, move -> store -> what to show.

Discord-free: front ends turn what people do into calls here and show what follows, which
the service tells everyone through its events (``events``) after each commit. Every accepted
move is committed to the store before the caller hears about it. One lock per table
serialises everything done to it, both boards of a teams hand included.

This is the service's face: finding tables, moves, resigning, ending. Its other jobs have a
module each, reached through it: opening tables, challenges and lobbies (``opening``), the
deadlines and turn clocks (``deadlines``), other processes' changes (``elsewhere``), and,
beneath them, what a committed change writes (``commits``), tables read back (``loading``)
and what they all share (``core``: the store, the open tables, the row locks).
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.gin import Card, IllegalMove
from bot.gin.ai import bot_move, seat_view
from bot.gin.hand import Action, ActionKind
from bot.gin.match import EndReason, HandRecord, MatchResult
from bot.i18n import N_
from bot.server_settings import ServerSettings
from bot.store import MatchEnd, ReviewKey, ReviewState, Store, TableLock
from bot.store.table_locks import MovedElsewhere, hopeful
from bot.tables.commits import Commits, Given
from bot.tables.core import Core
from bot.tables.deadlines import Deadlines
from bot.tables.elsewhere import Elsewhere
from bot.tables.events import EventHub
from bot.tables.fleet import Fleet
from bot.tables.loading import restore, snapshot, table_from_row
from bot.tables.model import MoveOutcome, StaleButton, Status, Table, TableError
from bot.tables.opening import Opening
from bot.tables.records import Records
from bot.tables.thinker import OFF_LOOP_LEVELS, Thinker

log = logging.getLogger(__name__)

STALE_BUTTON = N_(
    "That button is out of date: that move was already made, or the game has moved on. "
    "Use your latest hand message, or `/gin hand`."
)

# How long a review being made is kept from anyone else: a review takes seconds, so a claim
# this old is one whose maker died.
REVIEW_CLAIM_SECONDS = 120


def _utc_now() -> datetime:
    return datetime.now(UTC)


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
        self.core = Core(store, clock, fleet, EventHub() if events is None else events)
        self.store = store
        self.fleet = fleet  # None: this process is the only one on its database
        # What happens to the tables, told after each commit (see ``events``).
        self.events = self.core.events
        # Worker processes for the levels too slow to decide on the loop (None: inline).
        self.thinker = thinker
        self.records = Records(store)  # what the record pages read
        self.commits = Commits(self.core)
        self.deadlines = Deadlines(self.core, self.commits)
        self.opening = Opening(self.core)
        self.elsewhere = Elsewhere(self.core)
        self.presence = self.core.presence  # who has a table open in the Activity
        self._servers: dict[str, ServerSettings] = {}

    @property
    def clock(self) -> Callable[[], datetime]:
        """The service's time (every part of it reads the same clock)."""
        return self.core.clock

    @clock.setter
    def clock(self, clock: Callable[[], datetime]) -> None:
        self.core.clock = clock

    # --- loading and lookup -------------------------------------------------------------------

    async def load(self) -> list[Table]:
        """Bring back every open table after a restart (with other processes on the
        database, those this process shows or may get moves for)."""
        tables = []
        for row in await self.store.open_tables():
            table = await table_from_row(self.store, row)
            if self.fleet is not None and not self.fleet.keeps(table):
                continue
            self.core.registry.register(table)
            tables.append(table)
        return tables

    def shows(self, table: Table) -> bool:
        """Whether this process posts and edits the table's messages (see ``fleet``)."""
        return self.core.shows(table)

    async def watch(self) -> None:
        """Hear of tables changed by the other processes sharing the database."""
        await self.elsewhere.watch()

    async def find(self, table_id: int) -> Table | None:
        """The open table with this id, here or (other processes sharing the database)
        read from the store."""
        return await self.elsewhere.find(table_id)

    def in_channel(self, channel_id: str) -> Table | None:
        return self.core.registry.in_channel(channel_id)

    def by_id(self, table_id: int) -> Table | None:
        return self.core.registry.by_id(table_id)

    def tables(self) -> list[Table]:
        return self.core.registry.tables()

    def tables_of(self, user_id: str) -> list[Table]:
        return self.core.registry.tables_of(user_id)

    def require_table(self, channel_id: str) -> Table:
        table = self.in_channel(channel_id)
        if table is None:
            raise TableError(
                "There is no game in this channel. Start one with `/gin challenge`, "
                "`/gin open` or `/gin practice`."
            )
        return table

    async def save_display(self, table: Table) -> None:
        """Persist the message ids a table's screens need to keep editing after a restart."""
        await self.core.save_display(table)

    # --- reviews ------------------------------------------------------------------------------

    async def claim_review(self, key: ReviewKey) -> ReviewState | None:
        """Claim a hand's review for the caller, who makes and sends it (None), or say it
        is being made ("working") or was sent ("sent"): a player's review of a hand is sent
        once, whichever process is asked, across restarts. A claim whose maker died lapses
        after REVIEW_CLAIM_SECONDS."""
        now = self.core.clock()
        lapses = now + timedelta(seconds=REVIEW_CLAIM_SECONDS)
        return await self.store.claim_review(key, now.isoformat(), lapses.isoformat())

    async def settle_review(self, key: ReviewKey, *, sent: bool) -> None:
        """A claimed review sent (never again), or not sent (a later press makes it)."""
        await self.store.settle_review(key, sent)

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
        await self.store.set_guild_settings(guild_id, changed.to_dict(), self.core.now())
        self._servers[guild_id] = changed
        return changed

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
            return await self.commits.with_ratings(
                table, lambda given: self._play(table, move, given)
            )

    async def _play(self, table: Table, move: _Move, given: Given) -> MoveOutcome:
        if self.fleet is not None:
            # Other processes share the database: first as if our copy were the stored one,
            # in the one statement that records a move only if it is the next one; if the
            # table moved elsewhere, or the move is refused (perhaps by a stale copy), once
            # more under the row lock, with the table as stored.
            try:
                return await self._play_in(table, hopeful(self.store, table.id), move, given)
            except (MovedElsewhere, TableError, IllegalMove):
                pass
        return await self._play_in(table, self.core.lock(table), move, given)

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
                self.core.catch_up_locked(table, locked)
                seat = self._seated(table, move.user_id)
                match = self.core.match(table)
                if move.expected is not None and move.expected != table.token(seat):
                    raise StaleButton(STALE_BUTTON)
                hand_number = match.hand_number
                action = Action(kind, seat, move.card)
                board_index = match.board_index(seat)
                board = match.board_of(seat)
                before = snapshot(table, match)
                report = match.apply(action)  # raises IllegalMove and changes nothing
                undo = before
                drawn = None
                if board is not None and kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
                    drawn = board.last_drawn
                outcome = MoveOutcome(table, seat, action, drawn, report, 0, board_index or 0)
                done = await self.commits.commit(
                    table,
                    locked,
                    hand_number,
                    outcome,
                    given,
                    origin=move.origin,
                    shown_message=move.shown_message,
                    language=move.language,
                )
        except BaseException:
            if undo is not None:
                table.match = restore(*undo)  # the move never happened
            raise
        return done()

    async def bot_turn(
        self, table: Table, rng: random.Random, seat: int | None = None, *, origin: str = ""
    ) -> MoveOutcome | None:
        """A bot seat makes its move if it is to act, deciding from its own view only."""
        to_act = table.bots_to_act()
        if seat is None:
            seat = to_act[0] if to_act else None
        if seat is None or seat not in to_act:
            return None
        match = self.core.match(table)
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
        """Concede: two players and teams end the match for the player's side; with three
        players and in elimination the player is out and the others play on (None), until
        one is left."""
        async with table.lock:
            return await self.commits.with_ratings(
                table, lambda given: self._resign(table, user_id, given, origin)
            )

    async def _resign(
        self, table: Table, user_id: str, given: Given, origin: str
    ) -> MatchResult | None:
        async with self.core.lock(table) as locked:
            self.core.catch_up_locked(table, locked)
            seat = self._seated(table, user_id)
            match = self.core.match(table)
            if seat not in match.in_play:
                why = match.mode.not_playing(match, seat)
                raise TableError(why.template, **why.values)
            result, done = await self.commits.concede(
                table, locked, seat, EndReason.RESIGN, given, origin
            )
        done()
        return result

    async def end(self, table: Table, *, origin: str = "") -> Table:
        """Close a table with no result (a moderator's decision)."""
        async with table.lock:
            if not table.is_open or not self.core.registry.holds(table):
                raise TableError("This table is already closed.")
            now = self.core.now()
            if table.status is Status.CHALLENGE:
                await self.store.close_challenge(table.id, "cancelled", now)
            else:
                await self.store.end_match(
                    table.id, None, MatchEnd.cancelled("ended by a moderator"), now
                )
            self.core.close(table, Status.CANCELLED, origin=origin)
            return table

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
        if not table.is_open or not self.core.registry.holds(table):
            raise TableError("This game is over. Start a new one with `/gin challenge`.")
        return seat


@dataclass(frozen=True, slots=True)
class _Move:
    """A move asked for: who, what, the button's token, the message its answer edits, the
    language the mover reads and the front end that asked."""

    user_id: str
    kind: ActionKind
    card: Card | None
    expected: int | None
    shown_message: int | None
    language: str | None
    origin: str

"""Opening tables: a challenge (or a practice against the bot, which starts at once), a
tournament's match dealt at once, a lobby for more players; a challenge's answer; seats taken
and given up in a lobby; the first deal. One table per channel: openings in one channel queue,
and the second is told whose table is there."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

import orjson

from bot.gin.match import Match, Player
from bot.gin.modes import find_mode
from bot.gin.settings import Variant
from bot.i18n import N_
from bot.server_settings import ServerSettings
from bot.store import OPEN_STATUSES, ChannelBusy, SeatRow, StaleMove, StartClocks
from bot.tables import clock, lobby
from bot.tables.core import Core
from bot.tables.events import DeadlineMoved, MatchStarted, SeatsChanged, TableOpened
from bot.tables.model import Seat, Status, Table, TableError, TableMeta

CHALLENGE_GONE = N_("That challenge is no longer open. Start a new one with `/gin challenge`.")


class Opening:
    """Opens tables and brings them to their first deal."""

    def __init__(self, core: Core) -> None:
        self.core = core

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
        tournament: int | None = None,
        origin: str = "",
    ) -> Table:
        """Open a two-player table whose match starts at once, nobody to accept it, the
        seats in the order given (a tournament's pairing, seat 0 first), dealt from ``seed``
        when one is given (a duplicate round: every table of the round cuts the same cards
        and shuffles each hand the same); ``tournament``: whose match it is."""
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
            meta=TableMeta(tournament=tournament),
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
        meta: TableMeta | None = None,
        origin: str = "",
    ) -> Table:
        # The two-player game is recorded on the challenge itself (the bot as a player, its
        # vs_bot flag, the store's default mode), and a practice has no answer to wait for.
        two_player = find_mode(mode).two_player_game
        async with self.core.registry.opening(channel_id):
            existing = self.core.registry.in_channel(channel_id)
            if existing is not None:
                raise _busy(existing)
            created = self.core.clock()
            now = created.isoformat()
            for seat in seats:
                if not seat.is_bot or two_player:
                    await self.core.store.upsert_player(seat.player.id, seat.player.name, now)
            vs_bot = any(seat.is_bot for seat in seats)
            host = seats[0].player
            try:
                table_id = await self.core.store.create_challenge(
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
                meta=meta or TableMeta(),
            )
            await self.core.save_display(table)
            self.core.registry.register(table)
            if expires and not (vs_bot and two_player):
                await self.core.set_deadline(
                    table, created + timedelta(seconds=server.challenge_seconds)
                )
        self.core.events.publish(TableOpened(table=table, origin=origin))
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
                await self.core.store.close_challenge(table.id, "declined", self.core.now())
            self.core.close(table, Status.DECLINED, origin=origin)
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
        if table.status is Status.PLAYING and self.core.registry.holds(table):
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
        if table.status is not Status.CHALLENGE or not self.core.registry.holds(table):
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
            lobby.check_join(table, player, team, open_here=self.core.registry.holds(table))
            async with self._still_open(table):
                table.seats.append(Seat(player, team=team))
                await self.core.store.upsert_player(player.id, player.name, self.core.now())
                if len(table.seats) == table.size:
                    await self._start(table, origin=origin)
                    return True
                await self.core.save_display(table)
            self.core.events.publish(SeatsChanged(table=table, origin=origin))
            return False

    async def leave(self, table: Table, user_id: str, *, origin: str = "") -> bool:
        """Give up a seat in a lobby (the next person seated becomes host); True when nobody
        is left and the table closed."""
        async with table.lock:
            index = lobby.check_leave(table, user_id, open_here=self.core.registry.holds(table))
            async with self._still_open(table):
                del table.seats[index]
                humans = [seat for seat in table.seats if not seat.is_bot]
                if not humans:
                    await self.core.store.close_challenge(table.id, "cancelled", self.core.now())
                    self.core.close(table, Status.CANCELLED, origin=origin)
                    return True
                if table.host == user_id:
                    table.host = humans[0].player.id
                await self.core.save_display(table)
            self.core.events.publish(SeatsChanged(table=table, origin=origin))
            return False

    async def start_lobby(self, table: Table, user_id: str, *, origin: str = "") -> Table:
        """The host starts a lobby that has enough players (elimination: two or more)."""
        async with table.lock:
            lobby.check_start(table, user_id, open_here=self.core.registry.holds(table))
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
            row = await self.core.store.get_table(table.id)
            if row is None or row.status not in OPEN_STATUSES:
                self.core.close(table, Status(row.status) if row is not None else Status.CANCELLED)
            else:
                self.core.catch_up(table, row)
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
        seats, display = table.seats, table.display
        table.seats = seated  # the clocks are worked out for the seats in the match's order
        timers, deadline = clock.turn_timers(table, match, self.core.clock())
        table.meta.set_timers(timers)
        clocks = StartClocks(table.display, None if deadline is None else deadline.isoformat())
        try:
            await self.core.store.start_match(
                table.id, state, self.core.now(), **_seat_rows(table, seated), clocks=clocks
            )
        except BaseException:
            table.seats = seats
            table.load_display(display)
            raise
        table.match = match
        table.committed = orjson.dumps(state).decode()
        table.status = Status.PLAYING
        table.deadline = deadline
        self.core.claimed.pop(table.id, None)
        self.core.events.publish(DeadlineMoved(table=table, origin=origin))
        self.core.events.publish(MatchStarted(table=table, origin=origin))


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
    teams = table.mode.team_play
    rows = []
    for index, seat in enumerate(seated):
        team = (index % 2) if teams else None
        rows.append(SeatRow(index, seat.player.id, team, seat.is_bot))
    return {"seats": tuple(rows)}

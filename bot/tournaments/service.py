"""The tournament service: opening, sign-up, the round lifecycle and standings, for the
Discord layer to call; every change made under the tournament's lock in the store.

Nothing is kept in memory between calls: each change locks the tournament (its row on
PostgreSQL, the database on SQLite), reads it whole, decides, writes and commits, so
several processes sharing a database, or a process started again, carry on where the
stored tournament is. What the store has to say about matches (their state at a deadline,
their results) is read before the lock is taken, never inside it, and checked again under
it. A change answers with an ``Update``: what to post, the matches to start in threads, the
tables to end. A repeated call (the same match heard twice, a deadline fired by two
processes) changes nothing and answers an empty one.

This is the service's face: reading, sign-up, what the Discord layer keeps, and the matches'
results. A tournament's life under its lock (seeding, rounds, decisions, the end) is
``lifecycle``; its deadlines ``deadlines``; what a stored tournament says (pairs, standings,
matches to start) ``derived``.

The matches themselves belong to the table service: a round hands back ``MatchToStart``
values for the Discord layer to open in threads, which tells the service the table's id
(``match_started``) and, when the match ends, passes it back (``match_finished``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.store.tournament_base import (
    TournamentBusy,
    TournamentStore,
)
from bot.store.tournament_rows import TournamentEntry
from bot.tables.events import EventHub, Status, TableClosed
from bot.tournaments.deadlines import TournamentDeadlines
from bot.tournaments.derived import outcome_detail, standings_of, to_start
from bot.tournaments.errors import TournamentError
from bot.tournaments.events import TournamentUpdated
from bot.tournaments.lifecycle import Changes, Lifecycle, merge
from bot.tournaments.model import (
    SCREENS,
    MatchOutcome,
    MatchToStart,
    Standings,
    TableToEnd,
    Tournament,
    Update,
)
from bot.tournaments.season_service import SeasonService
from bot.tournaments.seasons import stamp
from bot.tournaments.settings import MIN_PLAYERS, TournamentSettings


def _utc_now() -> datetime:
    return datetime.now(UTC)


class TournamentService:
    """Tournaments of every channel, and (``seasons``) the servers' seasons."""

    def __init__(
        self,
        store: TournamentStore,
        clock: Callable[[], datetime] = _utc_now,
        *,
        events: EventHub | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.seasons = SeasonService(store, clock)
        self.life = Lifecycle(store)
        # The deadlines read this service's clock, which tests move.
        self.deadlines = TournamentDeadlines(store, self.life, lambda: self.clock())
        # Where this service tells what it decided by itself (``TournamentUpdated``): the
        # tables' hub when the application shares one, so every front end hears both.
        self.events = EventHub() if events is None else events

    # --- reading --------------------------------------------------------------------------

    async def get(self, tournament_id: int) -> Tournament:
        record = await self.store.get_tournament(tournament_id)
        if record is None:
            raise TournamentError("There is no such tournament.")
        return Tournament.of(record)

    async def in_channel(self, channel_id: str) -> Tournament | None:
        """The channel's open tournament (signing up or running), if any."""
        row = await self.store.tournament_in_channel(channel_id)
        return None if row is None else await self.get(row.id)

    async def open_tournaments(self) -> list[Tournament]:
        return [await self.get(row.id) for row in await self.store.open_tournaments()]

    async def player_tournaments(
        self, guild_id: str, user_id: str, limit: int = 10, offset: int = 0
    ) -> tuple[list[TournamentEntry], int]:
        """A player's tournaments in a server, newest first (for their history and stats)."""
        return await self.store.player_tournaments(guild_id, user_id, limit, offset)

    async def server_tournaments(
        self, guild_id: str, limit: int = 10, offset: int = 0
    ) -> tuple[list[Tournament], int]:
        """A server's tournaments, newest first, and how many it has had."""
        rows, total = await self.store.guild_tournaments(guild_id, limit, offset)
        return [await self.get(row.id) for row in rows], total

    async def standings(self, tournament_id: int) -> Standings:
        return standings_of(await self.get(tournament_id))

    # --- sign-up ----------------------------------------------------------------------------

    async def open(
        self,
        guild_id: str,
        channel_id: str,
        organiser_id: str,
        settings: TournamentSettings | None = None,
    ) -> Tournament:
        """Open a tournament for sign-up in a channel (one open tournament per channel)."""
        chosen = (settings or TournamentSettings()).checked()
        now = self.clock()
        closes = None
        if chosen.signup_minutes is not None:
            closes = stamp(now + timedelta(minutes=chosen.signup_minutes))
        try:
            tournament_id = await self.store.create_tournament(
                guild_id,
                channel_id,
                organiser_id,
                chosen.format.value,
                chosen.to_dict(),
                stamp(now),
                signup_closes_at=closes,
            )
        except TournamentBusy:
            raise TournamentError(
                "This channel already has a tournament. Open yours in another channel, or "
                "wait for this one to end."
            ) from None
        return await self.get(tournament_id)

    async def join(self, tournament_id: int, user_id: str, name: str | None = None) -> Tournament:
        """Sign up (``name``: how the standings show the player)."""
        moment = self.clock()
        now = stamp(moment)
        if name:
            await self.store.upsert_player(user_id, name, now)
        async with self.life.locked(tournament_id) as locked:
            tournament = Tournament.of(await locked.read())
            _taking_signups(tournament)
            closes = tournament.signup_closes_at
            if closes is not None and closes <= moment:
                raise TournamentError("Sign-up for this tournament has closed.")
            entrant = tournament.entrant(user_id)
            if entrant is not None and entrant.status == "joined":
                raise TournamentError("You have already joined this tournament.")
            if len(tournament.joined) >= tournament.settings.max_players:
                raise TournamentError(
                    "This tournament is full: {most} players have joined.",
                    most=tournament.settings.max_players,
                )
            await locked.join(user_id, now, name or None)
            return Tournament.of(await locked.read())

    async def leave(self, tournament_id: int, user_id: str) -> Update:
        """Leave during sign-up, or withdraw once it started: never paired again, and an
        opponent still waiting for (or playing) this round's match wins it by walkover."""
        now = stamp(self.clock())
        async with self.life.locked(tournament_id) as locked:
            tournament = Tournament.of(await locked.read())
            changes = Changes()
            if tournament.state == "signup":
                if not await locked.set_status(user_id, "left", "joined", now):
                    raise TournamentError("You are not in this tournament.")
                return changes.update(Tournament.of(await locked.read()))
            _running(tournament)
            if not await locked.set_status(user_id, "dropped", "joined", now):
                raise TournamentError("You are not playing in this tournament.")
            pairing = tournament.pairing_of(user_id, tournament.round)
            if pairing is not None and pairing.state != "decided" and pairing.player_b:
                opponent = pairing.player_b if user_id == pairing.player_a else pairing.player_a
                await self.life.decide(
                    locked, pairing, opponent, "walkover", (None, None), {}, now, changes
                )
                if pairing.table_id is not None:
                    changes.ends.append(TableToEnd(pairing.table_id, opponent, user_id, "walkover"))
            await self.life.advance(locked, now, changes)
            return changes.update(Tournament.of(await locked.read()))

    async def start(self, tournament_id: int, user_id: str, *, may_manage: bool = False) -> Update:
        """The organiser (or someone who may manage the server: ``may_manage``) starts the
        tournament: seeds by rating, then by who joined first, and pairs round 1."""
        before = await self.get(tournament_id)
        _may_start(before, user_id, may_manage)
        ratings = await self.life.ratings(before)
        now = stamp(self.clock())
        async with self.life.locked(tournament_id) as locked:
            tournament = Tournament.of(await locked.read())
            _may_start(tournament, user_id, may_manage)
            changes = Changes()
            await self.life.start(locked, tournament, ratings, now, changes)
            await self.life.advance(locked, now, changes)
            return changes.update(Tournament.of(await locked.read()))

    async def cancel(self, tournament_id: int, user_id: str, *, may_manage: bool = False) -> Update:
        """Call the tournament off: its tables still playing are to be ended, nobody wins."""
        now = stamp(self.clock())
        async with self.life.locked(tournament_id) as locked:
            tournament = Tournament.of(await locked.read())
            if user_id != tournament.organiser_id and not may_manage:
                raise TournamentError(
                    "Only the organiser, <@{organiser}>, can call this tournament off.",
                    organiser=tournament.organiser_id,
                )
            if tournament.state not in ("signup", "running"):
                raise TournamentError("This tournament is over.")
            changes = Changes(cancelled=True)
            for pairing in tournament.pairings_of(tournament.round):
                if pairing.state == "playing" and pairing.table_id is not None:
                    changes.ends.append(TableToEnd(pairing.table_id, None, None, "cancelled"))
            await locked.set_state("cancelled", now)
            await locked.set_deadline(None, now)
            return changes.update(Tournament.of(await locked.read()))

    async def keep(
        self, tournament_id: int, change: Callable[[dict[str, Any]], object]
    ) -> Tournament:
        """Keep what the Discord layer needs with the tournament (its message and thread
        ids): ``change`` alters what is kept, read under the tournament's lock, and it is
        stored beside the settings, where a restart or another process finds it."""
        async with self.life.locked(tournament_id) as locked:
            record = await locked.read()
            kept = Tournament.of(record).screens
            change(kept)
            settings = {**record.tournament.settings, SCREENS: kept}
            await locked.set_settings(settings, stamp(self.clock()))
            return Tournament.of(await locked.read())

    # --- matches ----------------------------------------------------------------------------

    async def match_started(
        self, tournament_id: int, round_number: int, board: int, table_id: int
    ) -> bool:
        """The table a pairing's match is played in. False if the pairing no longer waits for
        one (decided meanwhile, or given a table already): end that table unplayed."""
        async with self.life.locked(tournament_id) as locked:
            tournament = Tournament.of(await locked.read())
            if tournament.state != "running":
                return False
            return await locked.set_table(round_number, board, table_id)

    async def table_closed(self, event: TableClosed) -> None:
        """A table closed: if it was a tournament's match and finished, its result is
        recorded, and what that decided is told (``TournamentUpdated``)."""
        if event.status is not Status.FINISHED:
            return
        update = await self.match_finished(event.table.id)
        if update is not None:
            self.events.publish(TournamentUpdated(update=update))

    async def match_finished(self, table_id: int) -> Update | None:
        """A match finished (or may have): its result read from the store and recorded for
        its pairing. None for a match of no tournament, or one not finished; an empty
        ``Update`` when its pairing was decided already."""
        pairing = await self.store.pairing_of_table(table_id)
        if pairing is None:
            return None
        outcome = await self.life.outcome(table_id)
        if outcome is None:
            return None
        return await self.record_result(table_id, outcome)

    async def record_result(self, table_id: int, outcome: MatchOutcome) -> Update | None:
        """Record a finished match's result for the pairing played at ``table_id``; the round
        ends when its last pairing is decided, and the next one is paired (or the tournament
        ends). None for a table of no tournament."""
        pairing = await self.store.pairing_of_table(table_id)
        if pairing is None:
            return None
        now = stamp(self.clock())
        async with self.life.locked(pairing.tournament_id) as locked:
            tournament = Tournament.of(await locked.read())
            changes = Changes()
            current = tournament.pairing(pairing.round, pairing.board)
            if (
                tournament.state != "running"
                or current is None
                or current.state == "decided"
                or current.table_id != table_id
            ):
                return changes.update(tournament)
            if outcome.winner_id not in current.players:
                raise ValueError(f"{outcome.winner_id} did not play at table {table_id}")
            scores = (
                outcome.scores.get(current.player_a),
                None if current.player_b is None else outcome.scores.get(current.player_b),
            )
            detail = outcome_detail(tournament, outcome)
            await self.life.decide(
                locked, current, outcome.winner_id, "match", scores, detail, now, changes
            )
            await self.life.advance(locked, now, changes)
            return changes.update(Tournament.of(await locked.read()))

    async def resume(self, tournament_id: int) -> Update:
        """After a restart: results of matches that ended while nobody listened are
        recorded; then every match still to start and every table still to end is handed
        back, as if just decided."""
        tournament = await self.get(tournament_id)
        merged = Changes()
        for pairing in tournament.pairings_of(tournament.round):
            if pairing.state == "playing" and pairing.table_id is not None:
                update = await self.match_finished(pairing.table_id)
                if update is not None:
                    merge(merged, update)
        tournament = await self.get(tournament_id)
        merged.matches = list(to_start(tournament))
        merged.ends = await self.life.left_open(tournament)
        return merged.update(tournament)

    async def matches_to_start(self, tournament_id: int) -> list[MatchToStart]:
        """The current round's matches that have no table yet."""
        return list(to_start(await self.get(tournament_id)))

    # --- deadlines --------------------------------------------------------------------------

    async def next_deadline(self) -> datetime | None:
        """When the scheduler should next call ``claim_due``."""
        return await self.deadlines.next_deadline()

    async def claim_due(
        self, claimant: str, guilds: Callable[[str], bool] | None = None
    ) -> list[int]:
        """The tournaments whose deadline is due and this process (``claimant``) claimed:
        call ``fire_deadline`` for each (``guilds``: the servers this process acts for)."""
        return await self.deadlines.claim_due(claimant, guilds)

    async def fire_deadline(self, tournament_id: int) -> Update | None:
        """Act on a tournament's deadline if it is due; None when nothing was due."""
        return await self.deadlines.fire(tournament_id)


# --- refusals ---------------------------------------------------------------------------------


def _taking_signups(tournament: Tournament) -> None:
    if tournament.state == "running":
        raise TournamentError("This tournament has started: sign-up is closed.")
    if tournament.state != "signup":
        raise TournamentError("This tournament is over.")


def _running(tournament: Tournament) -> None:
    if tournament.state != "running":
        raise TournamentError("This tournament is over.")


def _may_start(tournament: Tournament, user_id: str, may_manage: bool) -> None:
    if user_id != tournament.organiser_id and not may_manage:
        raise TournamentError(
            "Only the organiser, <@{organiser}>, can start this tournament.",
            organiser=tournament.organiser_id,
        )
    if tournament.state == "running":
        raise TournamentError("This tournament has already started.")
    if tournament.state != "signup":
        raise TournamentError("This tournament is over.")
    need = MIN_PLAYERS[tournament.format]
    have = len(tournament.joined)
    if have < need:
        raise TournamentError(
            "A {format} tournament needs at least {need} players to start; {have} have joined.",
            format=tournament.format.value,
            need=need,
            have=have,
        )

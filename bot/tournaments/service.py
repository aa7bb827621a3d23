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

The matches themselves belong to the table service: a round hands back ``MatchToStart``
values for the Discord layer to open in threads, which tells the service the table's id
(``match_started``) and, when the match ends, passes it back (``match_finished``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.store.tournament_base import (
    LockedTournament,
    NoSuchTournament,
    TournamentBusy,
    TournamentStore,
)
from bot.store.tournament_rows import DecidedBy, PairingRow, TournamentEntry
from bot.tables.events import EventHub, Status, TableClosed
from bot.tournaments import duplicate, knockout, swiss
from bot.tournaments.errors import NoPairing, TournamentError
from bot.tournaments.events import TournamentUpdated
from bot.tournaments.model import (
    SCREENS,
    MatchOutcome,
    MatchToStart,
    StandingLine,
    Standings,
    TableToEnd,
    Tournament,
    Update,
    when,
)
from bot.tournaments.records import Entrant, Game, Pair
from bot.tournaments.season_service import SeasonService
from bot.tournaments.seasons import stamp
from bot.tournaments.settings import MIN_PLAYERS, Format, TournamentSettings
from bot.tournaments.timelimit import at_deadline, decide

# How long a process that claimed a deadline has to act on it before another may.
CLAIM_HOLD = timedelta(seconds=60)


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(slots=True)
class _Changes:
    """What a call changed so far, gathered while it holds the lock."""

    decided: list[tuple[int, int]] = field(default_factory=list)
    round_finished: int | None = None
    round_started: int | None = None
    matches: list[MatchToStart] = field(default_factory=list)
    ends: list[TableToEnd] = field(default_factory=list)
    started: bool = False
    finished: bool = False
    cancelled: bool = False

    def update(self, tournament: Tournament) -> Update:
        decided = tuple(p for key in self.decided if (p := tournament.pairing(*key)) is not None)
        return Update(
            tournament=tournament,
            decided=decided,
            round_finished=self.round_finished,
            round_started=self.round_started,
            matches_to_start=tuple(self.matches),
            tables_to_end=tuple(self.ends),
            started=self.started,
            finished=self.finished,
            cancelled=self.cancelled,
        )


@dataclass(frozen=True, slots=True)
class _Verdict:
    """A pairing decided at its round's deadline, worked out before the lock: by its match
    (finished after all) or by the time limit; ``table_id`` the table it was read from."""

    winner_id: str
    scores: tuple[int | None, int | None]
    by_match: bool
    table_id: int | None
    detail: dict[str, object]


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
        async with self._locked(tournament_id) as locked:
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
        async with self._locked(tournament_id) as locked:
            tournament = Tournament.of(await locked.read())
            changes = _Changes()
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
                await self._decide(
                    locked, pairing, opponent, "walkover", (None, None), {}, now, changes
                )
                if pairing.table_id is not None:
                    changes.ends.append(TableToEnd(pairing.table_id, opponent, user_id, "walkover"))
            await self._advance(locked, now, changes)
            return changes.update(Tournament.of(await locked.read()))

    async def start(self, tournament_id: int, user_id: str, *, may_manage: bool = False) -> Update:
        """The organiser (or someone who may manage the server: ``may_manage``) starts the
        tournament: seeds by rating, then by who joined first, and pairs round 1."""
        before = await self.get(tournament_id)
        _may_start(before, user_id, may_manage)
        ratings = await self._ratings(before)
        now = stamp(self.clock())
        async with self._locked(tournament_id) as locked:
            tournament = Tournament.of(await locked.read())
            _may_start(tournament, user_id, may_manage)
            changes = _Changes()
            await self._start(locked, tournament, ratings, now, changes)
            await self._advance(locked, now, changes)
            return changes.update(Tournament.of(await locked.read()))

    async def cancel(self, tournament_id: int, user_id: str, *, may_manage: bool = False) -> Update:
        """Call the tournament off: its tables still playing are to be ended, nobody wins."""
        now = stamp(self.clock())
        async with self._locked(tournament_id) as locked:
            tournament = Tournament.of(await locked.read())
            if user_id != tournament.organiser_id and not may_manage:
                raise TournamentError(
                    "Only the organiser, <@{organiser}>, can call this tournament off.",
                    organiser=tournament.organiser_id,
                )
            if tournament.state not in ("signup", "running"):
                raise TournamentError("This tournament is over.")
            changes = _Changes(cancelled=True)
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
        async with self._locked(tournament_id) as locked:
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
        async with self._locked(tournament_id) as locked:
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
        outcome = await self._outcome(table_id)
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
        async with self._locked(pairing.tournament_id) as locked:
            tournament = Tournament.of(await locked.read())
            changes = _Changes()
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
            detail = _detail(tournament, outcome)
            await self._decide(
                locked, current, outcome.winner_id, "match", scores, detail, now, changes
            )
            await self._advance(locked, now, changes)
            return changes.update(Tournament.of(await locked.read()))

    async def resume(self, tournament_id: int) -> Update:
        """After a restart: results of matches that ended while nobody listened are
        recorded; then every match still to start and every table still to end is handed
        back, as if just decided."""
        tournament = await self.get(tournament_id)
        merged = _Changes()
        for pairing in tournament.pairings_of(tournament.round):
            if pairing.state == "playing" and pairing.table_id is not None:
                update = await self.match_finished(pairing.table_id)
                if update is not None:
                    _merge(merged, update)
        tournament = await self.get(tournament_id)
        merged.matches = list(_to_start(tournament))
        merged.ends = await self._left_open(tournament)
        return merged.update(tournament)

    async def matches_to_start(self, tournament_id: int) -> list[MatchToStart]:
        """The current round's matches that have no table yet."""
        return list(_to_start(await self.get(tournament_id)))

    # --- deadlines --------------------------------------------------------------------------

    async def next_deadline(self) -> datetime | None:
        """When the scheduler should next call ``claim_due``."""
        return when(await self.store.next_tournament_deadline())

    async def claim_due(
        self, claimant: str, guilds: Callable[[str], bool] | None = None
    ) -> list[int]:
        """The tournaments whose deadline is due and this process (``claimant``) claimed:
        call ``fire_deadline`` for each. ``guilds``: the servers this process acts for (with
        several processes, each its own shards'); all when left out."""
        now = self.clock()
        claimed = []
        for tournament_id, deadline in await self.store.due_tournament_deadlines(stamp(now)):
            if guilds is not None and not guilds((await self.get(tournament_id)).row.guild_id):
                continue
            if await self.store.claim_tournament_deadline(
                tournament_id, deadline, claimant, stamp(now), stamp(now + CLAIM_HOLD)
            ):
                claimed.append(tournament_id)
        return claimed

    async def fire_deadline(self, tournament_id: int) -> Update | None:
        """Act on a tournament's deadline if it is due: sign-up closing (start it, or call it
        off with too few players), or the round's time running out (every match still
        going decided as ``bot.tournaments.timelimit`` says, and the round goes on). None
        when nothing was due."""
        now = self.clock()
        tournament = await self.get(tournament_id)
        if tournament.state == "signup":
            return await self._close_signup(tournament, now)
        if tournament.state == "running":
            return await self._time_out(tournament, now)
        return None

    # --- the round lifecycle, under the lock ------------------------------------------------

    async def _close_signup(self, tournament: Tournament, now: datetime) -> Update | None:
        closes = tournament.signup_closes_at
        if closes is None or closes > now:
            return None
        ratings = await self._ratings(tournament)
        written = stamp(now)
        async with self._locked(tournament.id) as locked:
            tournament = Tournament.of(await locked.read())
            if tournament.state != "signup":
                return None
            changes = _Changes()
            if len(tournament.joined) < MIN_PLAYERS[tournament.format]:
                await locked.set_state("cancelled", written)
                await locked.set_deadline(None, written)
                changes.cancelled = True
            else:
                await self._start(locked, tournament, ratings, written, changes)
                await self._advance(locked, written, changes)
            return changes.update(Tournament.of(await locked.read()))

    async def _time_out(self, tournament: Tournament, now: datetime) -> Update | None:
        current = tournament.round_row(tournament.round)
        deadline = None if current is None else when(current.deadline)
        if current is None or deadline is None or deadline > now:
            return None
        number = current.number
        verdicts: dict[int, _Verdict] = {}
        for pairing in tournament.pairings_of(tournament.round):
            if pairing.state != "decided" and pairing.player_b is not None:
                verdicts[pairing.board] = await self._verdict(tournament, pairing)
        written = stamp(now)
        async with self._locked(tournament.id) as locked:
            tournament = Tournament.of(await locked.read())
            if tournament.state != "running" or tournament.round != number:
                return None
            changes = _Changes()
            for pairing in tournament.pairings_of(tournament.round):
                if pairing.state == "decided" or pairing.player_b is None:
                    continue
                verdict = verdicts.get(pairing.board)
                if verdict is None or verdict.table_id != pairing.table_id:
                    # Its match was started after the reading: seat 0 wins, the table ends.
                    verdict = _Verdict(pairing.player_a, (0, 0), False, pairing.table_id, {})
                by: DecidedBy = "match" if verdict.by_match else "time"
                await self._decide(
                    locked,
                    pairing,
                    verdict.winner_id,
                    by,
                    verdict.scores,
                    verdict.detail,
                    written,
                    changes,
                )
                if not verdict.by_match and pairing.table_id is not None:
                    loser = pairing.player_b
                    if verdict.winner_id == pairing.player_b:
                        loser = pairing.player_a
                    changes.ends.append(
                        TableToEnd(pairing.table_id, verdict.winner_id, loser, "time")
                    )
            await self._advance(locked, written, changes)
            return changes.update(Tournament.of(await locked.read()))

    async def _verdict(self, tournament: Tournament, pairing: PairingRow) -> _Verdict:
        """How a pairing still undecided at the deadline is decided, read from its table."""
        assert pairing.player_b is not None
        if pairing.table_id is None:
            return _Verdict(pairing.player_a, (0, 0), False, None, {})
        outcome = await self._outcome(pairing.table_id)
        if outcome is not None:
            scores = (outcome.scores.get(pairing.player_a), outcome.scores.get(pairing.player_b))
            detail = _detail(tournament, outcome)
            return _Verdict(outcome.winner_id, scores, True, pairing.table_id, detail)
        row = await self.store.get_table(pairing.table_id)
        state = None if row is None else row.state
        seats = (pairing.player_a, pairing.player_b)
        if row is not None and len(row.seats) == 2:
            seats = (row.seats[0].user_id, row.seats[1].user_id)
        at = at_deadline(state)
        verdict = decide(at)
        by_user = dict(zip(seats, at.scores, strict=True))
        return _Verdict(
            seats[verdict.winner],
            (by_user.get(pairing.player_a), by_user.get(pairing.player_b)),
            False,
            pairing.table_id,
            {"time": verdict.decided_by.value},
        )

    async def _start(
        self,
        locked: LockedTournament,
        tournament: Tournament,
        ratings: Mapping[str, float],
        now: str,
        changes: _Changes,
    ) -> None:
        joined = tournament.joined
        order = sorted(
            joined,
            key=lambda e: (e.user_id not in ratings, -ratings.get(e.user_id, 0.0), e.joined_at),
        )
        seeds = {e.user_id: seed for seed, e in enumerate(order, start=1)}
        if tournament.format is Format.SWISS:
            total = tournament.settings.rounds_for(len(joined))
        else:
            total = knockout.rounds_for(len(joined))
        await locked.set_seeds(seeds)
        await locked.set_settings({**tournament.row.settings, "rounds_total": total}, now)
        await locked.set_state("running", now)
        changes.started = True
        await self._begin_round(locked, 1, now, changes)

    async def _begin_round(
        self, locked: LockedTournament, number: int, now: str, changes: _Changes
    ) -> None:
        tournament = Tournament.of(await locked.read())
        boards = _pairs(tournament, number)
        if not boards:
            await self._finish(locked, now, changes)
            return
        settings = tournament.settings
        seed = duplicate.new_round_seed() if settings.duplicate else None
        deadline = datetime.fromisoformat(now) + timedelta(minutes=settings.round_minutes)
        await locked.add_round(number, seed, stamp(deadline), now)
        await locked.set_round(number, now)
        rows = []
        for board, pair in sorted(boards.items()):
            if pair.b is None:
                bye: DecidedBy = "walkover"
                if number == 1 or tournament.format is Format.SWISS:
                    bye = "bye"
                decided = PairingRow(tournament.id, number, board, pair.a, None, None, "decided")
                rows.append(replace(decided, winner_id=pair.a, decided_by=bye, decided_at=now))
                continue
            rows.append(PairingRow(tournament.id, number, board, pair.a, pair.b, None, "waiting"))
            changes.matches.append(
                MatchToStart(
                    tournament.id, number, board, (pair.a, pair.b), settings.rules, seed, deadline
                )
            )
        await locked.add_pairings(rows)
        await locked.set_deadline(stamp(deadline), now)
        changes.round_started = number

    async def _advance(self, locked: LockedTournament, now: str, changes: _Changes) -> None:
        """Finish the round once its last pairing is decided, then pair the next (or end the
        tournament); a round of byes alone finishes at once."""
        while True:
            tournament = Tournament.of(await locked.read())
            if tournament.state != "running":
                return
            pairings = tournament.pairings_of(tournament.round)
            if not pairings or any(p.state != "decided" for p in pairings):
                return
            await locked.finish_round(tournament.round, now)
            changes.round_finished = tournament.round
            if tournament.round >= tournament.rounds_total or _knockout_won(tournament):
                await self._finish(locked, now, changes)
                return
            await self._begin_round(locked, tournament.round + 1, now, changes)

    async def _finish(self, locked: LockedTournament, now: str, changes: _Changes) -> None:
        tournament = Tournament.of(await locked.read())
        table = standings_of(tournament, final=True)
        await locked.set_places({line.user_id: line.place for line in table.lines})
        await locked.set_state("finished", now)
        await locked.set_deadline(None, now)
        changes.finished = True

    async def _decide(
        self,
        locked: LockedTournament,
        pairing: PairingRow,
        winner_id: str | None,
        by: DecidedBy,
        scores: tuple[int | None, int | None],
        detail: dict[str, object],
        now: str,
        changes: _Changes,
    ) -> None:
        if await locked.decide(
            pairing.round,
            pairing.board,
            winner_id,
            by,
            scores,
            detail,
            now,
        ):
            changes.decided.append((pairing.round, pairing.board))

    # --- helpers ----------------------------------------------------------------------------

    def _locked(self, tournament_id: int) -> _Lock:
        return _Lock(self.store, tournament_id)

    async def _ratings(self, tournament: Tournament) -> dict[str, float]:
        """The entrants' conservative ratings (mu - 3 sigma) in the two-player game, for
        seeding; read before the lock."""
        users = [e.user_id for e in tournament.joined]
        rated = await self.store.get_ratings(tournament.row.guild_id, users)
        return {user: r.mu - 3 * r.sigma for user, r in rated.items()}

    async def _outcome(self, table_id: int) -> MatchOutcome | None:
        """A finished match's result as the store recorded it; None if not finished."""
        row = await self.store.get_table(table_id)
        if row is None or row.status != "finished":
            return None
        results = await self.store.results(table_id)
        winners = [r.user_id for r in results if r.won]
        if not winners:
            return None
        seats = tuple(s.user_id for s in row.seats) or (row.challenger_id, row.opponent_id)
        hands = tuple(
            duplicate.HandScore(h.seed, h.dealer_seat, h.winner_seat, h.points)
            for h in await self.store.hands(table_id)
        )
        return MatchOutcome(
            winner_id=winners[0],
            scores={r.user_id: r.final_score for r in results},
            seats=(seats[0], seats[1]),
            hands=hands,
            reason=results[0].reason,
        )

    async def _left_open(self, tournament: Tournament) -> list[TableToEnd]:
        """Tables of pairings decided without them that are still open."""
        ends = []
        for pairing in tournament.pairings_of(tournament.round):
            if pairing.state != "decided" or pairing.decided_by == "match":
                continue
            if pairing.table_id is None or pairing.player_b is None:
                continue
            row = await self.store.get_table(pairing.table_id)
            if row is None or row.status not in ("challenge", "playing"):
                continue
            winner = pairing.winner_id
            loser = pairing.player_b if winner == pairing.player_a else pairing.player_a
            if pairing.decided_by == "walkover":
                ends.append(TableToEnd(pairing.table_id, winner, loser, "walkover"))
            else:
                ends.append(TableToEnd(pairing.table_id, winner, loser, "time"))
        return ends


class _Lock:
    """``store.lock_tournament`` with a missing tournament as a refusal a user can read."""

    def __init__(self, store: TournamentStore, tournament_id: int) -> None:
        self._context = store.lock_tournament(tournament_id)

    async def __aenter__(self) -> LockedTournament:
        try:
            return await self._context.__aenter__()
        except NoSuchTournament:
            raise TournamentError("There is no such tournament.") from None

    async def __aexit__(self, *exc: object) -> bool | None:
        return await self._context.__aexit__(*exc)  # type: ignore[arg-type]


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


# --- pairing and standings, from a tournament as stored ----------------------------------------


def _entrants(tournament: Tournament) -> list[Entrant]:
    return [
        Entrant(e.user_id, e.seed, e.status == "dropped")
        for e in tournament.entrants
        if e.seed is not None
    ]


def _games(tournament: Tournament) -> list[Game]:
    return [
        Game(p.round, p.player_a, p.player_b, p.winner_id)
        for p in tournament.pairings
        if p.state == "decided"
    ]


def _pairs(tournament: Tournament, number: int) -> dict[int, Pair]:
    """Round ``number``'s boards; none when the tournament cannot go on."""
    entrants = _entrants(tournament)
    if tournament.format is Format.SWISS:
        try:
            return dict(enumerate(swiss.pair_round(entrants, _games(tournament))))
        except NoPairing:
            return {}
    if number == 1:
        active = sorted((e for e in entrants if not e.dropped), key=lambda e: e.seed)
        if len(active) < 2:
            return {}
        return knockout.first_round([e.user_id for e in active])
    dropped = {e.user_id for e in entrants if e.dropped}
    before = tournament.pairings_of(number - 1)
    winners = {p.board: p.winner_id if p.winner_id not in dropped else None for p in before}
    boards = knockout.bracket_size(len(entrants)) >> (number - 1)
    seeds = {e.user_id: e.seed for e in entrants}
    return knockout.next_round(winners, boards, seeds)


def _knockout_won(tournament: Tournament) -> bool:
    """A knockout with at most one player left standing after this round is over."""
    if tournament.format is not Format.KNOCKOUT:
        return False
    dropped = {e.user_id for e in tournament.entrants if e.status == "dropped"}
    left = {
        p.winner_id
        for p in tournament.pairings_of(tournament.round)
        if p.winner_id is not None and p.winner_id not in dropped
    }
    return len(left) <= 1


def _detail(tournament: Tournament, outcome: MatchOutcome) -> dict[str, object]:
    """What a pairing keeps of its match beside the result: how it ended when the target
    was not reached (a resignation, a forfeit), and in a duplicate round its deals, for the
    score against the field."""
    detail: dict[str, object] = {}
    if outcome.reason != "target":
        detail["reason"] = outcome.reason
    if tournament.settings.duplicate:
        detail["seats"] = list(outcome.seats)
        detail["hands"] = [[h.seed, h.dealer_seat, h.winner_seat, h.points] for h in outcome.hands]
    return detail


def _field(tournament: Tournament) -> dict[str, duplicate.FieldScore] | None:
    if not tournament.settings.duplicate:
        return None
    deals: list[duplicate.SeatDeal] = []
    for pairing in tournament.pairings:
        detail = pairing.detail or {}
        seats, hands = detail.get("seats"), detail.get("hands")
        if not isinstance(seats, list) or not isinstance(hands, list) or len(seats) != 2:
            continue
        scored = [duplicate.HandScore(str(h[0]), int(h[1]), h[2], int(h[3])) for h in hands]
        deals += duplicate.seat_deals(scored, (str(seats[0]), str(seats[1])))
    return duplicate.field_scores(deals)


def standings_of(tournament: Tournament, *, final: bool | None = None) -> Standings:
    """A tournament's standings as stored (empty before it starts)."""
    done = tournament.state == "finished" if final is None else final
    field_scores = _field(tournament)
    entrants = _entrants(tournament)
    lines: list[StandingLine]
    if tournament.format is Format.SWISS:
        lines = [
            StandingLine(
                rank=s.rank,
                place=s.rank,
                user_id=s.user_id,
                seed=s.seed,
                points=s.points,
                played=s.played,
                wins=s.wins,
                byes=s.byes,
                buchholz=s.buchholz,
                buchholz_cut1=s.buchholz_cut1,
                sonneborn_berger=s.sonneborn_berger,
                direct=s.direct,
                dropped=s.dropped,
                field=None if field_scores is None else field_scores.get(s.user_id),
            )
            for s in swiss.standings(entrants, _games(tournament))
        ]
    else:
        lines = _knockout_lines(tournament, entrants, field_scores)
    return Standings(
        tournament.id,
        tournament.format,
        tournament.round,
        tournament.rounds_total,
        done,
        tuple(lines),
    )


def _knockout_lines(
    tournament: Tournament,
    entrants: Sequence[Entrant],
    field_scores: Mapping[str, duplicate.FieldScore] | None,
) -> list[StandingLine]:
    seeds = {e.user_id: e.seed for e in entrants}
    out: dict[str, int] = {}
    last_seen: dict[str, int] = {}
    played: dict[str, int] = dict.fromkeys(seeds, 0)
    wins: dict[str, int] = dict.fromkeys(seeds, 0)
    byes: dict[str, int] = dict.fromkeys(seeds, 0)
    for p in tournament.pairings:
        for user in p.players:
            last_seen[user] = max(last_seen.get(user, 0), p.round)
        if p.state != "decided":
            continue
        if p.player_b is None:
            byes[p.player_a] += 1
            continue
        for user in p.players:
            played[user] += 1
            if user == p.winner_id:
                wins[user] += 1
            else:
                out.setdefault(user, p.round)
    for e in entrants:
        if e.dropped and e.user_id not in out:
            out[e.user_id] = min(last_seen.get(e.user_id, 0) + 1, max(tournament.rounds_total, 1))
    placings = knockout.placings(seeds, max(tournament.rounds_total, 1), out)
    dropped = {e.user_id for e in entrants if e.dropped}
    return [
        StandingLine(
            rank=rank,
            place=p.place,
            user_id=p.user_id,
            seed=p.seed,
            points=wins[p.user_id] + byes[p.user_id],
            played=played[p.user_id],
            wins=wins[p.user_id],
            byes=byes[p.user_id],
            dropped=p.user_id in dropped,
            out_in=p.out_in,
            field=None if field_scores is None else field_scores.get(p.user_id),
        )
        for rank, p in enumerate(placings, start=1)
    ]


def _to_start(tournament: Tournament) -> list[MatchToStart]:
    if tournament.state != "running":
        return []
    current = tournament.round_row(tournament.round)
    if current is None or current.state != "playing" or current.deadline is None:
        return []
    deadline = datetime.fromisoformat(current.deadline)
    return [
        MatchToStart(
            tournament.id,
            p.round,
            p.board,
            (p.player_a, p.player_b),
            tournament.settings.rules,
            current.seed,
            deadline,
        )
        for p in tournament.pairings_of(tournament.round)
        if p.state == "waiting" and p.player_b is not None
    ]


def _merge(into: _Changes, update: Update) -> None:
    into.decided += [(p.round, p.board) for p in update.decided]
    into.round_finished = update.round_finished or into.round_finished
    into.round_started = update.round_started or into.round_started
    into.ends += update.tables_to_end
    into.started = into.started or update.started
    into.finished = into.finished or update.finished
    into.cancelled = into.cancelled or update.cancelled

"""A tournament's deadlines: sign-up closing (start it, or call it off with too few players)
and a round's time running out (every match still going decided as
``bot.tournaments.timelimit`` says, and the round goes on). With several processes on one
database, a due deadline is claimed first: of those that see it come, one acts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.store.tournament_base import TournamentStore
from bot.store.tournament_rows import DecidedBy, PairingRow, TournamentRecord
from bot.tournaments.derived import outcome_detail
from bot.tournaments.errors import TournamentError
from bot.tournaments.lifecycle import Changes, Lifecycle
from bot.tournaments.model import TableToEnd, Tournament, Update, when
from bot.tournaments.seasons import stamp
from bot.tournaments.settings import MIN_PLAYERS
from bot.tournaments.timelimit import at_deadline, decide

# How long a process that claimed a deadline has to act on it before another may.
CLAIM_HOLD = timedelta(seconds=60)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A pairing decided at its round's deadline, worked out before the lock: by its match
    (finished after all) or by the time limit; ``table_id`` the table it was read from."""

    winner_id: str
    scores: tuple[int | None, int | None]
    by_match: bool
    table_id: int | None
    detail: dict[str, object]


class TournamentDeadlines:
    """When the next deadline comes, which are due, and what firing one does."""

    def __init__(
        self, store: TournamentStore, life: Lifecycle, clock: Callable[[], datetime]
    ) -> None:
        self.store = store
        self.life = life
        self.clock = clock

    async def _read(self, tournament_id: int) -> TournamentRecord:
        record = await self.store.get_tournament(tournament_id)
        if record is None:
            raise TournamentError("There is no such tournament.")
        return record

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
            if guilds is not None and not guilds(
                (Tournament.of(await self._read(tournament_id))).row.guild_id
            ):
                continue
            if await self.store.claim_tournament_deadline(
                tournament_id, deadline, claimant, stamp(now), stamp(now + CLAIM_HOLD)
            ):
                claimed.append(tournament_id)
        return claimed

    async def fire(self, tournament_id: int) -> Update | None:
        """Act on a tournament's deadline if it is due: sign-up closing (start it, or call it
        off with too few players), or the round's time running out (every match still
        going decided as ``bot.tournaments.timelimit`` says, and the round goes on). None
        when nothing was due."""
        now = self.clock()
        tournament = Tournament.of(await self._read(tournament_id))
        if tournament.state == "signup":
            return await self._close_signup(tournament, now)
        if tournament.state == "running":
            return await self._time_out(tournament, now)
        return None

    async def _close_signup(self, tournament: Tournament, now: datetime) -> Update | None:
        closes = tournament.signup_closes_at
        if closes is None or closes > now:
            return None
        ratings = await self.life.ratings(tournament)
        written = stamp(now)
        async with self.life.locked(tournament.id) as locked:
            tournament = Tournament.of(await locked.read())
            if tournament.state != "signup":
                return None
            changes = Changes()
            if len(tournament.joined) < MIN_PLAYERS[tournament.format]:
                await locked.set_state("cancelled", written)
                await locked.set_deadline(None, written)
                changes.cancelled = True
            else:
                await self.life.start(locked, tournament, ratings, written, changes)
                await self.life.advance(locked, written, changes)
            return changes.update(Tournament.of(await locked.read()))

    async def _time_out(self, tournament: Tournament, now: datetime) -> Update | None:
        current = tournament.round_row(tournament.round)
        deadline = None if current is None else when(current.deadline)
        if current is None or deadline is None or deadline > now:
            return None
        number = current.number
        verdicts: dict[int, Verdict] = {}
        for pairing in tournament.pairings_of(tournament.round):
            if pairing.state != "decided" and pairing.player_b is not None:
                verdicts[pairing.board] = await self._verdict(tournament, pairing)
        written = stamp(now)
        async with self.life.locked(tournament.id) as locked:
            tournament = Tournament.of(await locked.read())
            if tournament.state != "running" or tournament.round != number:
                return None
            changes = Changes()
            for pairing in tournament.pairings_of(tournament.round):
                if pairing.state == "decided" or pairing.player_b is None:
                    continue
                verdict = verdicts.get(pairing.board)
                if verdict is None or verdict.table_id != pairing.table_id:
                    # Its match was started after the reading: seat 0 wins, the table ends.
                    verdict = Verdict(pairing.player_a, (0, 0), False, pairing.table_id, {})
                by: DecidedBy = "match" if verdict.by_match else "time"
                await self.life.decide(
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
            await self.life.advance(locked, written, changes)
            return changes.update(Tournament.of(await locked.read()))

    async def _verdict(self, tournament: Tournament, pairing: PairingRow) -> Verdict:
        """How a pairing still undecided at the deadline is decided, read from its table."""
        assert pairing.player_b is not None
        if pairing.table_id is None:
            return Verdict(pairing.player_a, (0, 0), False, None, {})
        outcome = await self.life.outcome(pairing.table_id)
        if outcome is not None:
            scores = (outcome.scores.get(pairing.player_a), outcome.scores.get(pairing.player_b))
            detail = outcome_detail(tournament, outcome)
            return Verdict(outcome.winner_id, scores, True, pairing.table_id, detail)
        row = await self.store.get_table(pairing.table_id)
        state = None if row is None else row.state
        seats = (pairing.player_a, pairing.player_b)
        if row is not None and len(row.seats) == 2:
            seats = (row.seats[0].user_id, row.seats[1].user_id)
        at = at_deadline(state)
        verdict = decide(at)
        by_user = dict(zip(seats, at.scores, strict=True))
        return Verdict(
            seats[verdict.winner],
            (by_user.get(pairing.player_a), by_user.get(pairing.player_b)),
            False,
            pairing.table_id,
            {"time": verdict.decided_by.value},
        )

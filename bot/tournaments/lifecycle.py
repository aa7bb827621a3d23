"""A tournament's life under its lock: started and seeded, each round paired and begun, its
pairings decided, the next round (or the end) once the last is; and what the store has to say
about its matches, read before the lock.

Nothing is kept in memory between calls: each change locks the tournament (its row on
PostgreSQL, the database on SQLite), reads it whole, decides, writes and commits, gathering
what it changed (``Changes``) for the caller's ``Update``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from bot.store.tournament_base import LockedTournament, NoSuchTournament, TournamentStore
from bot.store.tournament_rows import DecidedBy, PairingRow
from bot.tournaments import duplicate, knockout
from bot.tournaments.derived import knockout_won, pairs_of, standings_of
from bot.tournaments.errors import TournamentError
from bot.tournaments.model import MatchOutcome, MatchToStart, TableToEnd, Tournament, Update
from bot.tournaments.seasons import stamp
from bot.tournaments.settings import Format


@dataclass(slots=True)
class Changes:
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


def merge(into: Changes, update: Update) -> None:
    into.decided += [(p.round, p.board) for p in update.decided]
    into.round_finished = update.round_finished or into.round_finished
    into.round_started = update.round_started or into.round_started
    into.ends += update.tables_to_end
    into.started = into.started or update.started
    into.finished = into.finished or update.finished
    into.cancelled = into.cancelled or update.cancelled


class Lifecycle:
    """Changes a tournament under its lock, one step of its life at a time."""

    def __init__(self, store: TournamentStore) -> None:
        self.store = store

    def locked(self, tournament_id: int) -> TournamentLock:
        return TournamentLock(self.store, tournament_id)

    async def start(
        self,
        locked: LockedTournament,
        tournament: Tournament,
        ratings: Mapping[str, float],
        now: str,
        changes: Changes,
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
        await self.begin_round(locked, 1, now, changes)

    async def begin_round(
        self, locked: LockedTournament, number: int, now: str, changes: Changes
    ) -> None:
        tournament = Tournament.of(await locked.read())
        boards = pairs_of(tournament, number)
        if not boards:
            await self.finish(locked, now, changes)
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

    async def advance(self, locked: LockedTournament, now: str, changes: Changes) -> None:
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
            if tournament.round >= tournament.rounds_total or knockout_won(tournament):
                await self.finish(locked, now, changes)
                return
            await self.begin_round(locked, tournament.round + 1, now, changes)

    async def finish(self, locked: LockedTournament, now: str, changes: Changes) -> None:
        tournament = Tournament.of(await locked.read())
        table = standings_of(tournament, final=True)
        await locked.set_places({line.user_id: line.place for line in table.lines})
        await locked.set_state("finished", now)
        await locked.set_deadline(None, now)
        changes.finished = True

    async def decide(
        self,
        locked: LockedTournament,
        pairing: PairingRow,
        winner_id: str | None,
        by: DecidedBy,
        scores: tuple[int | None, int | None],
        detail: dict[str, object],
        now: str,
        changes: Changes,
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

    async def ratings(self, tournament: Tournament) -> dict[str, float]:
        """The entrants' conservative ratings (mu - 3 sigma) in the two-player game, for
        seeding; read before the lock."""
        users = [e.user_id for e in tournament.joined]
        rated = await self.store.get_ratings(tournament.row.guild_id, users)
        return {user: r.mu - 3 * r.sigma for user, r in rated.items()}

    async def outcome(self, table_id: int) -> MatchOutcome | None:
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

    async def left_open(self, tournament: Tournament) -> list[TableToEnd]:
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


class TournamentLock:
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

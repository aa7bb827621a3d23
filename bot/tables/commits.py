"""A move made to a match, committed: its row, the finished hand, the match's end and the new
ratings, all in one write under the table's lock; then the table in memory follows and
everyone is told (``events``). A seat that concedes or runs out of time goes the same way."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

import orjson

from bot.gin.match import EndReason, HandRecord, MatchResult
from bot.store import HandRow, MatchEnd, MoveRecord, RatingRow, SeatResult, StaleMove, TableLock
from bot.tables import clock
from bot.tables.core import Core
from bot.tables.events import DeadlineMoved, MoveMade, TableClosed
from bot.tables.loading import keep_last_hand, restore, snapshot
from bot.tables.model import MoveOutcome, Status, Table, TableError
from bot.tables.ratings import rated, updated_ratings

T = TypeVar("T")

# Tries at a move that ends a match, when the ratings it needs change under it.
RATING_TRIES = 3

Given = tuple[tuple[Any, ...], tuple[RatingRow, ...]] | None  # ratings for a result, if read


class RatingsNeeded(Exception):
    """A move ends a rated match: the ratings are read outside the row lock (reading the
    store inside it could wait on that lock), then the move is tried again with them."""

    def __init__(self, result: MatchResult) -> None:
        super().__init__("ratings needed")
        self.result = result
        self.key = _result_key(result)


class Commits:
    """Writes a changed match, with the ratings a result needs."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self._ratings_lock = asyncio.Lock()

    async def with_ratings(self, table: Table, attempt: Callable[[Given], Awaitable[T]]) -> T:
        """Run ``attempt`` (under the table's lock); if it ends a rated match, read the
        ratings and run it again with them, until the result they are for stands."""
        try:
            return await attempt(None)
        except RatingsNeeded as first:
            needed = first
        async with self._ratings_lock:
            for _ in range(RATING_TRIES):
                ratings = await self._new_ratings(table, needed.result)
                try:
                    return await attempt((needed.key, ratings))
                except RatingsNeeded as again:
                    needed = again
        raise TableError("Too much is happening at this table at once: try again.")

    def ratings_for(self, table: Table, result: MatchResult, given: Given) -> tuple[RatingRow, ...]:
        """The ratings read for this result, or ``RatingsNeeded`` to go and read them."""
        if table.vs_bot or table.bot_seats:
            return ()
        if given is not None and given[0] == _result_key(result):
            return given[1]
        raise RatingsNeeded(result)

    async def _new_ratings(self, table: Table, result: MatchResult) -> tuple[RatingRow, ...]:
        """Everyone's ratings after this result, from the places (none when a seat was the
        bot's: such a match counts in stats and history, not in ratings).

        Called with the ratings lock held, so two matches of one player that end at the same
        moment update that player's rating one after the other.
        """
        if table.vs_bot or table.bot_seats:
            return ()
        store = self.core.store
        ids = [p.id for p in table.players]
        if table.mode.two_player_game:
            winner, loser = ids[result.winner], ids[1 - result.winner]
            current = await store.get_ratings(table.guild_id, [winner, loser])
            return updated_ratings(
                table.guild_id, current.get(winner), current.get(loser), winner, loser
            )
        match = self.core.match(table)
        seats, ranks = match.mode.rated_sides(match, result)
        sides = [[ids[s] for s in side] for side in seats]
        current = await store.get_ratings(table.guild_id, ids, mode=table.mode_name)
        return rated(table.guild_id, table.mode_name, current, sides, ranks)

    async def commit(
        self,
        table: Table,
        locked: TableLock,
        hand_number: int,
        made: MoveOutcome,
        given: Given,
        *,
        origin: str = "",
        shown_message: int | None = None,
        language: str | None = None,
    ) -> Callable[[], MoveOutcome]:
        """Record a move applied to the match under the row lock; what to do to the table in
        memory once the lock's transaction has committed, which tells everyone and answers
        the outcome with its move number. ``shown_message`` and ``language``: the message the
        mover's answer edits and the language they read, told to the other processes."""
        core = self.core
        action, report = made.action, made.report
        match = core.match(table)
        now = core.now()
        finished = None
        ratings: tuple[RatingRow, ...] = ()
        if report.result is not None:
            finished = match_end(table, report.result)
            ratings = self.ratings_for(table, report.result, given)
        hand_row = None
        if report.finished_hand is not None:
            hand_row = _hand_row(table.id, report.finished_hand)
        state = match.to_dict(history=False)  # a finished hand goes in its own row
        timers, deadline = clock.turn_timers(table, match, core.clock())
        changed = report.result is None and timers != clock.timers_of(table.display, match)
        display = None
        if changed and core.fleet is None:
            display = {k: v for k, v in table.display.items() if k != "timer"}
            display["timers"] = timers
        # With other processes, only the clocks: the message ids stay as stored (the owner's).
        patch = timers if changed and core.fleet is not None else None
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
            shown_message=shown_message,
            mover_language=language,
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
            keep_last_hand(match)
            outcome = replace(made, move_count=table.move_count)
            if report.result is not None:
                core.shut(table, Status.FINISHED)
            elif changed:
                table.meta.set_timers(timers)
                table.deadline = deadline
                core.claimed.pop(table.id, None)
            core.events.publish(MoveMade(table=table, origin=origin, outcome=outcome))
            if report.result is not None:
                closed = TableClosed(
                    table=table, origin=origin, status=Status.FINISHED, result=report.result
                )
                core.events.publish(closed)
            elif changed:
                core.events.publish(DeadlineMoved(table=table, origin=origin))
            return outcome

        return done

    async def concede(
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
        core = self.core
        match = core.match(table)
        before = snapshot(table, match)
        hand_number, board = match.hand_number, match.board_index(seat) or 0
        try:
            report = match.leave(seat, reason)
            result = report.result
            if result is None:  # the others play on without them: a move like any other
                left = MoveOutcome(table, seat, report.action, None, report, 0, board)
                done = await self.commit(table, locked, hand_number, left, given, origin=origin)
                return None, done
            ratings = self.ratings_for(table, result, given)
            await locked.end_match(
                match.to_dict(history=False),
                match_end(table, result),
                core.now(),
                ratings=ratings,
            )
        except BaseException:
            table.match = restore(*before)
            raise
        return result, lambda: core.close(table, Status.FINISHED, origin=origin, result=result)


def match_end(table: Table, result: MatchResult) -> MatchEnd:
    """The stored end of a finished match: its reason, winner and every seat's scores."""
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


def _result_key(result: MatchResult) -> tuple[Any, ...]:
    """What a match's new ratings depend on: who won, and everyone's place."""
    return (result.winner, tuple(result.placings))


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

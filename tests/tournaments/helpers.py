"""Playing a tournament's matches as the Discord layer will: a table per ``MatchToStart``
(opened in the store with the engine's first state, dealt from the round's seed), finished
with a result when the test says so."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from bot.gin.match import Match, Player
from bot.store import HandRow, MatchEnd, MoveRecord, SeatResult
from bot.tournaments import MatchToStart, TournamentService, Update
from tests.store.helpers import AnyStore

_threads = itertools.count(1)


async def start_table(store: AnyStore, service: TournamentService, match: MatchToStart) -> int:
    """Open the match in a thread of its own and tell the service."""
    now = service.clock().isoformat()
    a, b = match.players
    table = await store.create_challenge(
        "g1", f"thread-{next(_threads)}", a, b, match.rules.to_dict(), now
    )
    engine = Match.start([Player(a, a.upper()), Player(b, b.upper())], match.rules, seed=match.seed)
    await store.start_match(table, engine.to_dict(history=False), now)
    assert await service.match_started(match.tournament_id, match.round, match.board, table)
    return table


async def start_all(
    store: AnyStore, service: TournamentService, update: Update
) -> dict[tuple[str, str], int]:
    """Every match the update hands back, by its players."""
    return {m.players: await start_table(store, service, m) for m in update.matches_to_start}


async def finish_table(
    store: AnyStore,
    table: int,
    winner: str,
    now: datetime,
    *,
    scores: tuple[int, int] = (180, 40),
    hands: Sequence[HandRow] = (),
) -> None:
    """End a started match: its hands first (one move each), then the result (seat 0 and 1
    as they sat; ``scores`` are the winner's and the loser's final scores)."""
    row = await store.get_table(table)
    assert row is not None
    seats = [s.user_id for s in row.seats]
    for seq, hand in enumerate(hands, start=1):
        state = row.state or {}
        move = MoveRecord(table, seq, hand.number, 0, {"kind": "pass"}, state, now.isoformat())
        await store.record_move(replace(move, finished_hand=hand))
    final = {winner: scores[0], next(u for u in seats if u != winner): scores[1]}
    end = MatchEnd(
        status="finished",
        reason="target",
        winner_id=winner,
        results=tuple(SeatResult(u, seat, final[u], final[u]) for seat, u in enumerate(seats)),
    )
    await store.end_match(table, None, end, now.isoformat())

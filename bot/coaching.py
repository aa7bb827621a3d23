"""Where the coach thinks: reviews of finished hands and hints for the seat to act, in the
expert's own worker processes, so thinking never holds the event loop or the interpreter lock
the tables need.

A hint is the expert's move (``bot.gin.ai.advice.advise``: ``decide_expert`` from the seat's
view, with checkable facts), so the coach and the ``expert`` level never disagree. A review of
a table's hand asks the expert each decision with the seed that decision's hint had
(``hint_seed``), so a player who took every hint is never told the expert would have played
otherwise. A review
replays the hand on the loop (cheap) and sends the worker one look at one decision at a time
(``bot.gin.coach.first_look``, then ``second_look`` for a candidate), each a fraction of a
second, so an expert opponent's move at another table never waits behind a whole review.
Reviews are kept by what they review, so asking twice costs one review.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any

from bot.gin import coach as rules
from bot.gin.ai.advice import Advice, advise
from bot.gin.ai.view import PlayerView
from bot.gin.coach import Decision, Mistake, Review, decisions, look_seeds, summarize
from bot.gin.match import HandRecord
from bot.gin.settings import Settings
from bot.tables.model import TOKEN_HAND
from bot.tables.thinker import THINKER, Thinker

CACHE_SIZE = 64


def first_job(decision: Decision, samples: int, seed: str) -> Mistake | None:
    """Runs in a worker: the decision as a candidate mistake, by the expert."""
    return rules.first_look(decision, random.Random(seed), samples)


def second_job(decision: Decision, candidate: Mistake, samples: int, seed: str) -> Mistake | None:
    """Runs in a worker: the candidate judged again, kept only when it stands clear."""
    return rules.second_look(decision, candidate, random.Random(seed), samples)


def hint_job(view: PlayerView, seed: str) -> Advice | None:
    """Runs in a worker: the expert's move from one seat's view, with its facts."""
    return advise(view, random.Random(seed))


class Coach:
    """Reviews and hints, worked out by the expert's workers."""

    def __init__(self, thinker: Thinker = THINKER) -> None:
        self.thinker = thinker
        self.first_samples = rules.FIRST_SAMPLES
        self.second_samples = rules.SECOND_SAMPLES
        self._reviews: OrderedDict[tuple[Any, ...], Review] = OrderedDict()

    def _key(
        self, record: HandRecord, seat: int, scores: tuple[int, ...] | None, table: int | None
    ) -> tuple[Any, ...]:
        samples = (self.first_samples, self.second_samples)
        return (record.seed, record.number, record.board, seat, scores, table, samples)

    async def review(
        self,
        record: HandRecord,
        settings: Settings,
        seat: int,
        scores: tuple[int, ...] | None = None,
        table_id: int | None = None,
    ) -> Review:
        """The review of ``seat``'s play in a finished hand (the same one each time it is
        asked for: the judging's chance is seeded by the hand and the decision; at a table,
        ``table_id``, the expert's move is the one its hint named)."""
        key = self._key(record, seat, scores, table_id)
        cached = self._reviews.get(key)
        if cached is not None:
            return cached
        found = decisions(record, settings, seat, scores)
        seed = review_seed(record, seat)
        named: list[Mistake | None] = []
        for index, decision in enumerate(found):
            once, twice = look_seeds(seed, index)
            if table_id is not None:
                once = hint_seed(table_id, record.number * TOKEN_HAND + decision.moves)
            run = self.thinker.run
            candidate = await run(first_job, decision, self.first_samples, once)
            if candidate is not None:
                named.append(await run(second_job, decision, candidate, self.second_samples, twice))
        review = summarize(record, seat, len(found), named)
        self._reviews[key] = review
        while len(self._reviews) > CACHE_SIZE:
            self._reviews.popitem(last=False)
        return review

    async def hint(self, view: PlayerView, seed: str) -> Advice | None:
        """The move the expert would make now, from the seat's view alone, with its facts."""
        advice: Advice | None = await self.thinker.run(hint_job, view, seed)
        return advice


def hint_seed(table_id: int, token: int) -> str:
    """The seed of the hint for a table's decision point (its move token)."""
    return f"hint/{table_id}/{token}"


def review_seed(record: HandRecord, seat: int) -> str:
    """The seed of a hand's review for one seat (``look_seeds`` makes each decision's)."""
    return f"review/{record.seed}/{record.number}/{record.board}/{seat}"

"""Where the coach thinks: reviews of finished hands and hints for the seat to act, judged by
the expert (``bot.gin.ai.expert.action_values``) in the expert's own worker processes, so
valuing never holds the event loop or the interpreter lock the tables need.

A review replays the hand on the loop (cheap) and sends the worker one decision at a time:
each is a few tens of milliseconds, so an expert opponent's move at another table never
waits behind a whole review. Reviews are kept by what they review, so pressing Review twice
costs one review.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any

from bot.gin.ai.expert import DEFAULT_SAMPLES, action_values
from bot.gin.ai.view import PlayerView
from bot.gin.coach import Review, decisions, hint, judge, summarize
from bot.gin.hand import Action
from bot.gin.match import HandRecord
from bot.gin.settings import Settings
from bot.tables.thinker import THINKER, Thinker

CACHE_SIZE = 64


def values_job(view: PlayerView, samples: int, seed: str) -> dict[Action, float]:
    """Runs in a worker: every legal action's expected points for the seat, by the expert."""
    return action_values(view, random.Random(seed), samples)


def hint_job(view: PlayerView, samples: int, seed: str) -> Action | None:
    """Runs in a worker: the move the expert suggests from one seat's view."""
    return hint(view, lambda v, rng: action_values(v, rng, samples), random.Random(seed))


class Coach:
    """Reviews and hints, worked out by the expert's workers."""

    def __init__(self, thinker: Thinker = THINKER) -> None:
        self.thinker = thinker
        self.review_samples = DEFAULT_SAMPLES
        self.hint_samples = DEFAULT_SAMPLES
        self._reviews: OrderedDict[tuple[Any, ...], Review] = OrderedDict()

    async def review(
        self,
        record: HandRecord,
        settings: Settings,
        seat: int,
        scores: tuple[int, ...] | None = None,
    ) -> Review:
        """The review of ``seat``'s play in a finished hand (the same one each time it is
        asked for: the judging's chance is seeded by the hand and the decision)."""
        key = (record.seed, record.number, record.board, seat, scores, self.review_samples)
        cached = self._reviews.get(key)
        if cached is not None:
            return cached
        found = decisions(record, settings, seat, scores)
        mistakes = []
        for index, decision in enumerate(found):
            seed = f"review/{record.seed}/{record.number}/{record.board}/{seat}/{index}"
            values = await self.thinker.run(values_job, decision.view, self.review_samples, seed)
            mistakes.append(judge(decision, values))
        review = summarize(record, seat, len(found), mistakes)
        self._reviews[key] = review
        while len(self._reviews) > CACHE_SIZE:
            self._reviews.popitem(last=False)
        return review

    async def hint(self, view: PlayerView, seed: str) -> Action | None:
        """The move the expert would make now, from the seat's view alone."""
        suggestion: Action | None = await self.thinker.run(hint_job, view, self.hint_samples, seed)
        return suggestion

"""The coach's runner: a review judged decision by decision by the expert in the workers,
the same as judging it in one go, and kept once made."""

from __future__ import annotations

import random

from bot.coaching import Coach, hint_job
from bot.gin.ai import Level, bot_move, view_for
from bot.gin.ai.expert import action_values
from bot.gin.coach import decisions, judge, summarize
from bot.gin.hand import Hand
from bot.gin.match import HandRecord
from bot.gin.settings import Settings
from bot.tables.thinker import Thinker

SAMPLES = 4


def finished_hand() -> HandRecord:
    hand = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), "coaching")
    rng = random.Random(3)
    while not hand.is_over:
        hand.apply(bot_move(hand, hand.turn, Level.EASY, rng))
    assert hand.result is not None
    return HandRecord(2, hand.seats, hand.dealer, hand.seed, tuple(hand.actions), hand.result)


async def test_a_review_is_the_experts_judgement_of_each_decision() -> None:
    record = finished_hand()
    coach = Coach(Thinker(processes=False))
    coach.review_samples = SAMPLES
    review = await coach.review(record, Settings(), 0, (10, 20))
    found = decisions(record, Settings(), 0, (10, 20))
    judged = [
        judge(d, action_values(d.view, random.Random(f"review/coaching/2/0/0/{i}"), SAMPLES))
        for i, d in enumerate(found)
    ]
    assert review == summarize(record, 0, len(found), judged)
    assert review.decisions == len(found) > 0
    assert all(d.view.scores == (10, 20) for d in found)
    assert await coach.review(record, Settings(), 0, (10, 20)) is review  # kept


async def test_a_hint_is_one_of_the_seats_legal_moves() -> None:
    hand = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), "coaching")
    view = view_for(hand, hand.turn)
    coach = Coach(Thinker(processes=False))
    coach.hint_samples = SAMPLES
    move = await coach.hint(view, "seed")
    assert move in view.legal_actions
    assert move == hint_job(view, SAMPLES, "seed")

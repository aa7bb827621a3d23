"""The coach's runner: a review looked at decision by decision by the expert in the workers,
the same as the engine's review in one go, and kept once made; a hint is the expert's move."""

from __future__ import annotations

import random

from bot.coaching import Coach, hint_job, hint_seed, review_seed
from bot.gin.ai import Level, bot_move, view_for
from bot.gin.ai.advice import advise
from bot.gin.ai.expert import decide_expert
from bot.gin.coach import expert_review
from bot.gin.hand import Hand
from bot.gin.match import HandRecord
from bot.gin.settings import Settings
from bot.tables.model import TOKEN_HAND
from bot.tables.thinker import Thinker

FIRST, SECOND = 8, 16


def finished_hand() -> HandRecord:
    hand = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), "coaching")
    rng = random.Random(3)
    while not hand.is_over:
        hand.apply(bot_move(hand, hand.turn, Level.EASY, rng))
    assert hand.result is not None
    return HandRecord(2, hand.seats, hand.dealer, hand.seed, tuple(hand.actions), hand.result)


async def test_a_review_is_the_experts_two_looks_at_each_decision() -> None:
    record = finished_hand()
    coach = Coach(Thinker(processes=False))
    coach.first_samples, coach.second_samples = FIRST, SECOND
    review = await coach.review(record, Settings(), 0, (10, 20))
    seed = review_seed(record, 0)
    once = expert_review(record, Settings(), 0, seed, scores=(10, 20), first=FIRST, second=SECOND)
    assert review == once and review.decisions > 0
    assert await coach.review(record, Settings(), 0, (10, 20)) is review  # kept


async def test_who_took_every_hint_at_a_table_is_told_nothing_to_improve() -> None:
    """A review at a table asks the expert each decision with its hint's seed: a player who
    took every hint played the expert's moves, so none of them is named."""
    table_id = 5
    hand = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), "hints taken")
    rng = random.Random(4)
    while not hand.is_over:
        view = view_for(hand, hand.turn)
        if hand.turn == 0 and len(view.legal_actions) > 1:
            token = 2 * TOKEN_HAND + len(hand.actions)  # hand 2 of the match
            advice = advise(view, random.Random(hint_seed(table_id, token)))
            assert advice is not None
            hand.apply(advice.action)
        else:
            hand.apply(bot_move(hand, hand.turn, Level.EASY, rng))
    assert hand.result is not None
    record = HandRecord(2, hand.seats, hand.dealer, hand.seed, tuple(hand.actions), hand.result)
    coach = Coach(Thinker(processes=False))
    coach.first_samples, coach.second_samples = FIRST, SECOND
    review = await coach.review(record, Settings(), 0, None, table_id)
    assert review.decisions > 0 and review.mistakes == ()


async def test_a_hint_is_the_experts_move_from_the_seats_view() -> None:
    hand = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), "coaching")
    view = view_for(hand, hand.turn)
    coach = Coach(Thinker(processes=False))
    advice = await coach.hint(view, "seed")
    assert advice is not None and advice.action in view.legal_actions
    assert advice == hint_job(view, "seed") == advise(view, random.Random("seed"))
    assert advice.action == decide_expert(view, random.Random("seed"))

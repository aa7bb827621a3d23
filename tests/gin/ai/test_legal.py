"""Every level plays only legal moves, hand after hand, and no card is lost or made."""

from __future__ import annotations

import random
from collections import Counter

from bot.gin.ai import Level, bot_move
from bot.gin.hand import Outcome
from bot.gin.match import Match, Player
from bot.gin.settings import Settings
from tests.gin.ai.helpers import play_hand

LEVELS = (Level.EASY, Level.NORMAL, Level.HARD)


def test_thousands_of_hands_between_every_pair_of_levels() -> None:
    rng = random.Random(5)
    outcomes: Counter[Outcome] = Counter()
    plan = [((Level.EASY, Level.EASY), 1600)]
    plan += [((a, b), 20) for a in LEVELS for b in LEVELS if Level.HARD in (a, b)]
    plan += [((Level.NORMAL, Level.EASY), 150), ((Level.EASY, Level.NORMAL), 150)]
    plan += [((Level.NORMAL, Level.NORMAL), 50)]
    for levels, count in plan:
        for i in range(count):
            hand = play_hand(f"legal-{levels}-{i}", levels, rng)
            assert hand.result is not None
            outcomes[hand.result.outcome] += 1
    assert sum(outcomes.values()) >= 2000
    for outcome in (Outcome.KNOCK, Outcome.GIN, Outcome.UNDERCUT):
        assert outcomes[outcome] > 0, outcomes


def test_other_settings_and_long_hands() -> None:
    rng = random.Random(9)
    for i, settings in enumerate(
        [
            Settings(knock_limit=0),
            Settings(knock_limit=3, void_stock=0),
            Settings(big_gin=False, undercut_bonus=0),
        ]
    ):
        for level in LEVELS:
            for j in range(4):
                play_hand(f"settings-{i}-{level}-{j}", (level, Level.EASY), rng, settings)


def test_whole_match_through_bot_move() -> None:
    rng = random.Random(1)
    match = Match.start([Player("a", "Ann"), Player("b", "Bot")], Settings(target=50), seed="m")
    moves = 0
    while not match.is_over:
        seat = match.hand.turn
        level = Level.HARD if seat == 1 else Level.NORMAL
        match.apply(bot_move(match, seat, level, rng))
        moves += 1
        assert moves < 5000
    assert match.result is not None

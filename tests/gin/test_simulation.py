"""Thousands of hands and whole matches played by scripted players, end to end."""

from __future__ import annotations

import random
from collections import Counter

from bot.gin.cards import DECK
from bot.gin.hand import Hand, Outcome
from bot.gin.match import EndReason, Match, Player
from bot.gin.settings import NextDealer, Settings
from tests.gin.players import choose

NAMES = ("Alice", "Bob")
STYLES = ("random", "knocker", "hunter")


def play_hand(seed: str, styles: tuple[str, str], settings: Settings, rng: random.Random) -> Hand:
    hand = Hand.deal((0, 1), 1, NAMES, settings, seed)
    while not hand.is_over:
        hand.apply(choose(hand, styles[hand.turn], rng))
        cards = hand.hands[0] + hand.hands[1] + hand.discard_pile + hand.stock
        if hand.is_over and hand.result is not None and hand.result.knock_discard is not None:
            cards.append(hand.result.knock_discard)
        assert sorted(cards) == list(DECK)
    return hand


def test_thousands_of_hands_cover_every_outcome() -> None:
    rng = random.Random(2024)
    outcomes: Counter[Outcome] = Counter()
    for i in range(1500):
        styles = (STYLES[i % 3], STYLES[(i // 3) % 3])
        hand = play_hand(f"sim-{i}", styles, Settings(), rng)
        assert hand.result is not None
        outcomes[hand.result.outcome] += 1
        replayed = Hand.replay(
            hand.seats, hand.dealer, hand.names, hand.settings, hand.seed, hand.actions
        )
        assert replayed == hand
    # Big Gin is rare: gin hunters find it in a longer run of their own.
    i = 0
    while outcomes[Outcome.BIG_GIN] == 0 and i < 3000:
        hand = play_hand(f"big-{i}", ("hunter", "hunter"), Settings(void_stock=0), rng)
        assert hand.result is not None
        outcomes[hand.result.outcome] += 1
        i += 1
    for outcome in Outcome:
        assert outcomes[outcome] > 0, f"no {outcome} in {dict(outcomes)}"


def test_whole_matches_end_with_a_winner() -> None:
    rng = random.Random(7)
    reasons: Counter[bool] = Counter()
    for i in range(60):
        settings = Settings(
            target=rng.choice([50, 100, 150]),
            next_dealer=rng.choice(list(NextDealer)),
            knock_limit=rng.choice([0, 5, 10]),
        )
        styles = (STYLES[i % 3], STYLES[(i + 1) % 3])
        match = Match.start([Player("a", "Alice"), Player("b", "Bob")], settings, seed=f"m{i}")
        moves = 0
        while not match.is_over:
            match.apply(choose(match.hand, styles[match.hand.turn], rng))
            moves += 1
            assert moves < 20000
        result = match.result
        assert result is not None and result.reason is EndReason.TARGET
        assert max(result.points) >= settings.target
        assert result.final[result.winner] == max(result.final)
        assert sum(match.hands_won) == sum(1 for h in match.history if h.result.winner is not None)
        reasons[result.shutout] += 1
        assert Match.from_dict(match.to_dict()) == match

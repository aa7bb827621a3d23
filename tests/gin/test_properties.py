"""Properties that hold for any legal play: conservation, valid arrangements, round trips."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.gin.cards import DECK
from bot.gin.hand import Hand
from bot.gin.match import Match, Player
from bot.gin.melds import arrange, is_meld
from bot.gin.shuffle import shuffled

NAMES = ("Alice", "Bob")


@settings(max_examples=150, deadline=None)
@given(seed=st.text(min_size=1, max_size=12), choices=st.lists(st.integers(0, 10_000), max_size=80))
def test_any_legal_sequence_conserves_cards_and_round_trips(seed: str, choices: list[int]) -> None:
    hand = Hand.deal((0, 1), 1, NAMES, seed=seed)
    for choice in choices:
        if hand.is_over:
            break
        legal = hand.legal_actions()
        hand.apply(legal[choice % len(legal)])
        everything = hand.hands[0] + hand.hands[1] + hand.discard_pile + hand.stock
        if hand.result is not None and hand.result.knock_discard is not None:
            everything.append(hand.result.knock_discard)
        assert sorted(everything) == list(DECK)
    assert Hand.from_dict(json.loads(json.dumps(hand.to_dict()))) == hand
    assert (
        Hand.replay(hand.seats, hand.dealer, hand.names, hand.settings, hand.seed, hand.actions)
        == hand
    )


@settings(max_examples=300, deadline=None)
@given(seed=st.text(max_size=10), size=st.integers(0, 11))
def test_arrangement_is_valid_melds_plus_deadwood(seed: str, size: int) -> None:
    cards = shuffled(DECK, seed or "x")[:size]
    arrangement = arrange(cards)
    placed = [c for meld in arrangement.melds for c in meld] + list(arrangement.deadwood)
    assert sorted(placed) == sorted(cards)
    assert all(is_meld(meld) for meld in arrangement.melds)
    assert arrangement.deadwood_value == sum(c.value for c in arrangement.deadwood)


@settings(max_examples=40, deadline=None)
@given(seed=st.text(min_size=1, max_size=8), choices=st.lists(st.integers(0, 10_000), max_size=120))
def test_match_state_round_trips_through_json(seed: str, choices: list[int]) -> None:
    match = Match.start([Player("1", "Alice"), Player("2", "Bob")], seed=seed)
    for choice in choices:
        if match.is_over:
            break
        legal = match.hand.legal_actions()
        match.apply(legal[choice % len(legal)])
    data = json.loads(json.dumps(match.to_dict()))
    assert Match.from_dict(data) == match

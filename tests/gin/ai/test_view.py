"""The view holds what a player could know at a real table, and the levels see nothing else."""

from __future__ import annotations

import random

import pytest

from bot.gin.ai import Level, decide, view_for
from bot.gin.cards import parse_card
from bot.gin.hand import Action, ActionKind, Hand, Phase
from bot.gin.match import Match, Player
from tests.gin.ai.helpers import play_hand, scramble
from tests.gin.helpers import cards, position

LEVELS = (Level.EASY, Level.NORMAL, Level.HARD)


def test_hidden_cards_and_stock_order_cannot_change_any_decision() -> None:
    rng = random.Random(11)
    checked = 0

    def check(hand: Hand, seat: int) -> None:
        nonlocal checked
        view = view_for(hand, seat)
        for _ in range(2):
            other = scramble(hand, seat, rng)
            opponent = 1 - seat
            assert other.hands[opponent] != hand.hands[opponent] or other.stock != hand.stock
            assert view_for(other, seat) == view
            for level in LEVELS:
                key = rng.random()
                mine = decide(view, level, random.Random(key))
                theirs = decide(view_for(other, seat), level, random.Random(key))
                assert mine == theirs
            checked += 1

    for i in range(6):
        levels = (LEVELS[i % 3], LEVELS[(i + 1) % 3])
        play_hand(f"view-{i}", levels, rng, on_decision=check)
    assert checked > 100


def test_the_view_is_built_from_public_history() -> None:
    # Bob (seat 1) takes the upcard 8♥ and throws K♣; Alice draws from the stock.
    hand = position(
        "A♠ 2♠ 3♠ 5♦ 6♦ 7♦ J♣ Q♣ 9♥ 4♣",
        "8♦ 8♠ 2♥ 3♥ 4♥ K♣ 5♠ 6♣ 10♦ J♦",
        discard_pile="8♥",
        phase=Phase.UPCARD,
        turn=1,
        dealer=0,
    )
    hand.apply(Action(ActionKind.DRAW_DISCARD, 1))
    hand.apply(Action(ActionKind.DISCARD, 1, parse_card("K♣")))
    drawn = hand.stock[-1]
    hand.apply(Action(ActionKind.DRAW_STOCK, 0))
    view = view_for(hand, 0)
    assert view.phase is Phase.DISCARD and view.turn == 0 and len(view.hand) == 11
    assert drawn in view.hand
    assert view.discard_pile == tuple(hand.discard_pile) == (parse_card("K♣"),)
    assert view.opponent_known == {parse_card("8♥")}
    assert view.opponent_declined == set()
    assert view.opponent_discards == (parse_card("K♣"),)
    assert view.stock_size == len(hand.stock) == 52 - 21 - 1
    assert view.taken_from_discard is None
    assert set(view.legal_actions) == set(hand.legal_actions(0))
    # Nothing in the view names Bob's other cards or the stock.
    unseen = set(view.unseen)
    assert set(cards("8♦ 8♠ 2♥ 3♥ 4♥ 5♠ 6♣ 10♦ J♦")) | set(hand.stock) == unseen
    assert parse_card("8♥") not in unseen
    assert len(unseen) == view.opponent_hidden + view.stock_size
    assert all(a.card is None for a in view.history if a.kind is ActionKind.DRAW_STOCK)

    # Alice discards what she drew; Bob leaves it and draws from the stock: he declined it.
    hand.apply(Action(ActionKind.DISCARD, 0, drawn))
    hand.apply(Action(ActionKind.DRAW_STOCK, 1))
    hand.apply(Action(ActionKind.DISCARD, 1, parse_card("8♥")))
    view = view_for(hand, 0)
    assert view.opponent_declined == {drawn}
    assert view.opponent_known == set()  # 8♥ went back to the pile
    assert view.opponent_draws == 2 and view.my_draws == 1
    assert view.my_pickups == set() and view_for(hand, 1).my_pickups == {parse_card("8♥")}
    assert view.upcard == parse_card("8♥")
    assert view_for(hand, 1).taken_from_discard is None


def test_view_of_a_match_carries_the_score() -> None:
    match = Match.start([Player("a", "Alice"), Player("b", "Bob")], seed="score")
    match.scores[:] = [40, 75]
    match.hands_won[:] = [1, 3]
    seat = match.hand.turn
    view = view_for(match, seat)
    assert view.scores == (40, 75) and view.hands_won == (1, 3)
    assert view.hand == tuple(match.hand.cards_of(seat))
    assert view_for(match, 1 - seat).legal_actions == ()
    with pytest.raises(ValueError):
        decide(view_for(match, 1 - seat), Level.EASY, random.Random(1))

"""Normal and hard keep from handing the opponent the card their visible melds need."""

from __future__ import annotations

import random

import pytest

from bot.gin.ai import Level, PlayerView, decide, view_for
from bot.gin.cards import parse_card
from bot.gin.hand import Action, ActionKind, Phase
from tests.gin.helpers import position


def collected_run() -> PlayerView:
    """Bob took 8♥ and then 9♥ from the pile; Alice holds 10♥ and 9♠ and must discard.

    Her deadwood is 10♥ 9♠ 4♦ 2♣ A♣: a plain deadwood count throws 10♥, which completes the
    run Bob has been showing.
    """
    hand = position(
        "2♠ 3♠ 4♠ 6♦ 6♣ 6♠ 10♥ A♣ 4♦ 9♥",
        "8♦ 5♣ Q♠ J♦ 2♥ 3♥ 7♣ K♣ Q♣ 3♦",
        discard_pile="8♥",
        phase=Phase.UPCARD,
        turn=1,
        dealer=0,
    )
    for card in ("2♣", "9♠"):  # Alice's two stock draws, 9♠ first
        hand.stock.remove(parse_card(card))
        hand.stock.append(parse_card(card))
    hand.apply(Action(ActionKind.DRAW_DISCARD, 1))  # Bob takes 8♥
    hand.apply(Action(ActionKind.DISCARD, 1, parse_card("Q♠")))
    hand.apply(Action(ActionKind.DRAW_STOCK, 0))  # Alice draws 9♠
    hand.apply(Action(ActionKind.DISCARD, 0, parse_card("9♥")))
    hand.apply(Action(ActionKind.DRAW_DISCARD, 1))  # Bob takes 9♥ as well
    hand.apply(Action(ActionKind.DISCARD, 1, parse_card("K♣")))
    hand.apply(Action(ActionKind.DRAW_STOCK, 0))  # Alice draws 2♣
    view = view_for(hand, 0)
    assert view.opponent_known == {parse_card("8♥"), parse_card("9♥")}
    return view


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
def test_does_not_discard_the_card_that_completes_a_collected_run(level: Level) -> None:
    view = collected_run()
    for seed in range(5):
        action = decide(view, level, random.Random(seed))
        assert action.kind is ActionKind.DISCARD
        assert action.card != parse_card("10♥")


def test_easy_feeds_it() -> None:
    view = collected_run()
    assert decide(view, Level.EASY, random.Random(0)) == Action(
        ActionKind.DISCARD, 0, parse_card("10♥")
    )


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
def test_does_not_discard_the_third_card_of_a_collected_set(level: Level) -> None:
    # Bob took 7♣ from the pile and kept it; he then took 7♦ too. Alice holds 7♥ and Q♥.
    hand = position(
        "A♠ 2♠ 3♠ 9♦ 10♦ J♦ 7♥ 3♣ 4♥ 7♣",
        "K♠ K♥ 5♦ 5♣ 2♥ 9♣ J♠ 4♣ Q♦ A♦",
        discard_pile="7♦",
        phase=Phase.UPCARD,
        turn=1,
        dealer=0,
    )
    for card in ("Q♥", "8♠"):
        hand.stock.remove(parse_card(card))
        hand.stock.append(parse_card(card))
    hand.apply(Action(ActionKind.DRAW_DISCARD, 1))  # Bob takes 7♦
    hand.apply(Action(ActionKind.DISCARD, 1, parse_card("K♠")))
    hand.apply(Action(ActionKind.DRAW_STOCK, 0))  # Alice draws 8♠
    hand.apply(Action(ActionKind.DISCARD, 0, parse_card("7♣")))
    hand.apply(Action(ActionKind.DRAW_DISCARD, 1))  # Bob takes 7♣
    hand.apply(Action(ActionKind.DISCARD, 1, parse_card("K♥")))
    hand.apply(Action(ActionKind.DRAW_STOCK, 0))  # Alice draws Q♥
    view = view_for(hand, 0)
    assert view.opponent_known == {parse_card("7♦"), parse_card("7♣")}
    # Easy throws the 8♠ or Q♥ (highest deadwood); the point here is the 7♥.
    for seed in range(5):
        action = decide(view, level, random.Random(seed))
        assert action.card != parse_card("7♥")

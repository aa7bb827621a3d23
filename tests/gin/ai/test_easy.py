"""The easy level follows the baseline rules exactly."""

from __future__ import annotations

import random

from bot.gin.ai import Level, decide, view_for
from bot.gin.cards import parse_card
from bot.gin.hand import Action, ActionKind, Hand, Phase
from tests.gin.helpers import position

MELDY = "7♠ 7♥ 2♦ 3♦ 4♦ 9♣ J♣ K♥ 5♠ Q♦"  # deadwood 9 + 10 + 10 + 5 + 10


def easy(hand: Hand, seat: int = 0) -> Action:
    return decide(view_for(hand, seat), Level.EASY, random.Random(3))


def test_takes_the_upcard_only_when_it_melds() -> None:
    for upcard, takes in (("7♦", True), ("5♦", True), ("A♦", True), ("A♣", False), ("8♠", False)):
        hand = position(MELDY, "", discard_pile=upcard, phase=Phase.UPCARD, stock_size=20)
        kind = ActionKind.DRAW_DISCARD if takes else ActionKind.PASS
        assert easy(hand) == Action(kind, 0), upcard


def test_takes_a_later_discard_only_when_it_melds() -> None:
    hand = position(MELDY, "", discard_pile="K♠ 7♣", stock_size=20)
    assert easy(hand) == Action(ActionKind.DRAW_DISCARD, 0)
    # A low card that would cut the deadwood but melds with nothing is left on the pile.
    hand = position(MELDY, "", discard_pile="K♠ A♣", stock_size=20)
    assert easy(hand) == Action(ActionKind.DRAW_STOCK, 0)


def test_discards_the_highest_deadwood_card() -> None:
    # Deadwood 7♠ 7♥ 8♥ 9♣ J♣ K♥ 5♠ Q♦: a ten goes, whichever of them.
    hand = position(MELDY + " 8♥", "", phase=Phase.DISCARD, stock_size=20)
    action = easy(hand)
    assert action.kind is ActionKind.DISCARD
    assert action.card in {parse_card("J♣"), parse_card("K♥"), parse_card("Q♦")}
    hand = position("7♠ 7♥ 7♦ 2♦ 3♦ 4♦ 9♣ 5♠ A♣ 2♣ 6♥", "", phase=Phase.DISCARD, stock_size=20)
    assert easy(hand) == Action(ActionKind.DISCARD, 0, parse_card("9♣"))


def test_ties_of_equal_value_go_at_random_whatever_the_neighbours() -> None:
    # J♣ and K♥ both leave the least deadwood and are both worth 10; J♣ has Q♣ beside it,
    # K♥ has nothing: the baseline does not care, it picks either.
    hand = position("7♠ 7♥ 7♦ 2♦ 3♦ 4♦ J♣ Q♣ K♥ A♠ A♥", "", phase=Phase.DISCARD, stock_size=20)
    view = view_for(hand, 0)
    picked = {decide(view, Level.EASY, random.Random(seed)).card for seed in range(40)}
    assert picked == {parse_card("J♣"), parse_card("Q♣"), parse_card("K♥")}


def test_a_lower_card_is_never_chosen_over_a_higher_tie() -> None:
    # 9♣ and K♥ are both deadwood; throwing either leaves the rest: K♥ leaves less.
    hand = position("7♠ 7♥ 7♦ 2♦ 3♦ 4♦ 9♣ K♥ A♠ A♥ 2♥", "", phase=Phase.DISCARD, stock_size=20)
    view = view_for(hand, 0)
    assert {decide(view, Level.EASY, random.Random(seed)).card for seed in range(20)} == {
        parse_card("K♥")
    }


def test_never_discards_the_card_just_taken() -> None:
    # K♣ is the highest deadwood, but it was just taken from the pile: 9♣ goes instead.
    hand = position(
        "Q♠ Q♥ Q♦ 2♦ 3♦ 4♦ 9♣ K♣ 5♠ 6♥ 8♠",
        "",
        phase=Phase.DISCARD,
        stock_size=20,
        taken_from_discard="K♣",
    )
    assert easy(hand) == Action(ActionKind.DISCARD, 0, parse_card("9♣"))


def test_knocks_as_soon_as_it_can() -> None:
    # After throwing K♣ the deadwood is 4: knock at once.
    hand = position("7♠ 7♥ 7♦ 2♦ 3♦ 4♦ 9♣ 10♣ J♣ 4♠ K♣", "", phase=Phase.DISCARD)
    assert easy(hand) == Action(ActionKind.KNOCK, 0, parse_card("K♣"))
    # After throwing 6♥ the deadwood is 5: knock.
    hand = position("7♠ 7♥ 7♦ 2♦ 3♦ 4♦ 9♣ 10♣ J♣ 5♠ 6♥", "", phase=Phase.DISCARD)
    assert easy(hand) == Action(ActionKind.KNOCK, 0, parse_card("6♥"))
    # Eleven points after the best discard: keep playing.
    hand = position("7♠ 7♥ 7♦ 2♦ 3♦ 4♦ A♣ 2♠ 3♥ 5♠ K♠", "", phase=Phase.DISCARD)
    assert easy(hand) == Action(ActionKind.DISCARD, 0, parse_card("K♠"))


def test_gin_and_big_gin() -> None:
    gin = position("7♠ 7♥ 7♦ 2♦ 3♦ 4♦ 9♣ 10♣ J♣ Q♣ K♠", "", phase=Phase.DISCARD)
    assert easy(gin) == Action(ActionKind.KNOCK, 0, parse_card("K♠"))
    big = position("7♠ 7♥ 7♦ 2♦ 3♦ 4♦ 9♣ 10♣ J♣ Q♣ K♣", "", phase=Phase.DISCARD)
    assert easy(big) == Action(ActionKind.BIG_GIN, 0)

"""Two players who both like the top of the pile cannot pass cards back and forth for ever."""

from __future__ import annotations

import random

import pytest

from bot.gin.ai import Level, decide, view_for
from bot.gin.cards import parse_card
from bot.gin.hand import Action, ActionKind, Phase
from tests.gin.helpers import position


@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL, Level.HARD])
def test_a_card_taken_once_is_not_taken_again(level: Level) -> None:
    hand = position(
        "10♥ J♥ 2♠ 3♠ 4♠ 6♦ 6♣ 6♠ A♣ 4♦",
        "8♦ 5♣ Q♠ J♦ 2♥ 3♥ 7♣ K♣ Q♣ 3♦",
        discard_pile="9♥",
        phase=Phase.UPCARD,
        turn=0,
        dealer=1,
    )
    for card in ("7♦", "K♦", "5♥", "2♦"):  # the stock draws, last one first
        hand.stock.remove(parse_card(card))
        hand.stock.append(parse_card(card))

    def play(seat: int, kind: ActionKind, card: str | None = None) -> None:
        hand.apply(Action(kind, seat, None if card is None else parse_card(card)))

    play(0, ActionKind.DRAW_DISCARD)  # Alice takes 9♥ beside her 10♥ J♥
    play(0, ActionKind.DISCARD, "A♣")
    play(1, ActionKind.DRAW_STOCK)
    play(1, ActionKind.DISCARD, "K♣")
    play(0, ActionKind.DRAW_STOCK)
    play(0, ActionKind.DISCARD, "9♥")
    play(1, ActionKind.DRAW_DISCARD)  # Bob takes 9♥
    play(1, ActionKind.DISCARD, "Q♣")
    play(0, ActionKind.DRAW_STOCK)
    play(0, ActionKind.DISCARD, "K♦")
    play(1, ActionKind.DRAW_STOCK)
    play(1, ActionKind.DISCARD, "9♥")  # and throws it back
    view = view_for(hand, 0)
    assert view.upcard == parse_card("9♥") and parse_card("9♥") in view.my_pickups
    assert decide(view, level, random.Random(1)) == Action(ActionKind.DRAW_STOCK, 0)

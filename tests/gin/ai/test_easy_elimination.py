"""Easy plays the same baseline at a gin-only table of any decks; every round between bots
ends."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.gin.ai import EliminationView, Level, decide, elimination_view_for
from bot.gin.ai.easy import joins_a_best_meld, melds_in_best
from bot.gin.ai.stall import STALL_TURNS, random_discard, stall_level
from bot.gin.cards import DECK, parse_card
from bot.gin.hand import Action, ActionKind, Phase
from tests.gin.ai.helpers import play_table
from tests.gin.ai.test_elimination_view import BOB, CAT, table

MELDY = "7♥ 7♥ 2♦ 3♦ 4♦ 9♣ J♣ K♥ 5♠ Q♦"


def easy_move(view: EliminationView, seed: int = 3) -> Action:
    return decide(view, Level.EASY, random.Random(seed))


@pytest.mark.parametrize(
    ("top", "any_suits", "different_suits"),
    [
        ("7♥", True, False),  # a third 7♥: a set of identical cards, unless suits must differ
        ("7♣", True, False),  # 7♥ 7♥ 7♣: two suits only
        ("5♦", True, True),  # the run 2♦-5♦
        ("A♣", False, False),
        ("8♠", False, False),
    ],
)
def test_takes_the_top_only_when_it_melds(top: str, any_suits: bool, different_suits: bool) -> None:
    for distinct, takes in ((False, any_suits), (True, different_suits)):
        hand = table([MELDY, BOB, CAT], top, distinct=distinct, decks=3)
        action = easy_move(elimination_view_for(hand, 0))
        kind = ActionKind.DRAW_DISCARD if takes else ActionKind.DRAW_STOCK
        assert action == Action(kind, 0), (top, distinct)


def test_a_best_meld_is_the_classic_rule_with_one_deck() -> None:
    rng = random.Random(8)
    for _ in range(400):
        cards = rng.sample(DECK, 11)
        hand, card = tuple(cards[:10]), cards[10]
        assert joins_a_best_meld(hand, card, False) == melds_in_best(hand, card)


def test_discards_the_highest_card_of_least_deadwood_at_random_among_equals() -> None:
    # Deadwood 9♣ J♣ K♥ 5♠ Q♦ 8♠: J♣, K♥ and Q♦ each leave the least; any of them goes.
    hand = table([MELDY + " 8♠", BOB, CAT], "A♣", phase=Phase.DISCARD)
    view = elimination_view_for(hand, 0)
    picked = {easy_move(view, seed).card for seed in range(40)}
    assert picked == {parse_card("J♣"), parse_card("K♥"), parse_card("Q♦")}
    assert all(easy_move(view, seed).kind is ActionKind.DISCARD for seed in range(5))


def test_never_discards_the_card_just_taken() -> None:
    hand = table(
        ["7♥ 7♥ 7♠ 2♦ 3♦ 4♦ 9♣ K♣ 5♠ 6♥ K♥", BOB, CAT], "A♣", phase=Phase.DISCARD, taken="K♥"
    )
    action = easy_move(elimination_view_for(hand, 0))
    assert action == Action(ActionKind.DISCARD, 0, parse_card("K♣"))


def test_goes_gin_as_soon_as_it_can_with_identical_cards() -> None:
    gin = "7♥ 7♥ 7♠ 2♦ 3♦ 4♦ 9♣ 10♣ J♣ Q♣ K♠"
    hand = table([gin, BOB, CAT], "A♣", phase=Phase.DISCARD)
    assert easy_move(elimination_view_for(hand, 0)) == Action(ActionKind.KNOCK, 0, parse_card("K♠"))
    # With different suits the two 7♥ cannot share a set: no gin, the highest deadwood goes.
    hand = table([gin, BOB, CAT], "A♣", phase=Phase.DISCARD, distinct=True)
    action = easy_move(elimination_view_for(hand, 0))
    assert action.kind is ActionKind.DISCARD and action.card == parse_card("K♠")
    # Knocking short of gin is never offered at a gin-only table.
    almost = "7♥ 7♥ 7♠ 2♦ 3♦ 4♦ 9♣ 10♣ J♣ A♠ K♠"
    hand = table([almost, BOB, CAT], "A♣", phase=Phase.DISCARD)
    assert easy_move(elimination_view_for(hand, 0)).kind is ActionKind.DISCARD


def test_the_stall_rule_waits_for_a_very_long_hand() -> None:
    hand = table([MELDY + " 8♠", BOB, CAT], "A♣", phase=Phase.DISCARD)
    view = elimination_view_for(hand, 0)
    rng = random.Random(1)
    state = rng.getstate()
    assert stall_level(view) == 0.0 and random_discard(view, rng) is None
    assert rng.getstate() == state  # ordinary play does not even touch the generator
    draws = Action(ActionKind.DRAW_STOCK, 1)
    long = dataclasses.replace(view, history=(draws,) * (3 * (STALL_TURNS + 60)))
    assert stall_level(long) == 1.0
    loose = [random_discard(long, random.Random(seed)) for seed in range(40)]
    assert any(a is None for a in loose) and any(a is not None for a in loose)
    assert all(a is None or a in long.legal_actions for a in loose)


@pytest.mark.parametrize("levels", [(Level.EASY,) * 2, (Level.HARD,) * 2, (Level.NORMAL,) * 3])
def test_rounds_between_bots_always_end(levels: tuple[Level, ...]) -> None:
    """Two or three careful players, one deck: whole matches, many times over."""
    for i in range(12):
        match = play_table("elimination", list(levels), f"end-{levels}-{i}")
        assert match.result is not None

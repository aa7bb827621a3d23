"""RULES.md sections 3 to 8 for one hand: every rule, every worked example, every illegal move."""

from __future__ import annotations

import copy

import pytest

from bot.gin.cards import DECK, parse_card
from bot.gin.errors import CardError, IllegalMove
from bot.gin.hand import Action, ActionKind, Hand, Outcome, Phase
from bot.gin.settings import Settings
from tests.gin.helpers import NAMES, position

A, B = 0, 1


def act(kind: ActionKind, seat: int, card: str | None = None) -> Action:
    return Action(kind, seat, None if card is None else parse_card(card))


def assert_illegal(hand: Hand, action: Action, reason: str) -> None:
    """The move is refused with the reason, and nothing about the hand changes."""
    before = copy.deepcopy(hand.to_dict())
    with pytest.raises(IllegalMove) as error:
        hand.apply(action)
    assert reason in error.value.reason
    assert hand.to_dict() == before


# --- section 3: the deal ------------------------------------------------------------------


def test_deal_gives_ten_each_an_upcard_and_the_rest_as_stock() -> None:
    hand = Hand.deal((A, B), dealer=B, names=NAMES, seed="deal")
    assert len(hand.hands[A]) == len(hand.hands[B]) == 10
    assert len(hand.discard_pile) == 1
    assert len(hand.stock) == 31
    everything = hand.hands[A] + hand.hands[B] + hand.discard_pile + hand.stock
    assert sorted(everything) == list(DECK)
    assert hand.phase is Phase.UPCARD
    assert hand.turn == A  # the non-dealer plays first


def test_same_seed_same_deal_different_seed_different_deal() -> None:
    one = Hand.deal((A, B), B, NAMES, seed="x")
    two = Hand.deal((A, B), B, NAMES, seed="x")
    three = Hand.deal((A, B), B, NAMES, seed="y")
    assert one.to_dict() == two.to_dict()
    assert one.hands != three.hands


def test_unseeded_deals_differ() -> None:
    deals = {tuple(Hand.deal((A, B), B, NAMES).hands[A]) for _ in range(5)}
    assert len(deals) == 5


def test_turn_order_is_not_fixed_to_two_players() -> None:
    hand = Hand.deal((2, 0, 1), dealer=1, names=("a", "b", "c"), seed="three")
    assert [len(hand.hands[s]) for s in (2, 0, 1)] == [10, 10, 10]
    assert len(hand.stock) == 52 - 31
    hand.apply(act(ActionKind.PASS, 2))
    hand.apply(act(ActionKind.PASS, 0))
    hand.apply(act(ActionKind.PASS, 1))
    assert hand.phase is Phase.DRAW and hand.turn == 2 and hand.stock_only


# --- section 4: the upcard ------------------------------------------------------------------


def test_non_dealer_then_dealer_may_pass_then_non_dealer_draws_from_stock() -> None:
    hand = Hand.deal((A, B), B, NAMES, seed="upcard")
    upcard = hand.upcard
    hand.apply(act(ActionKind.PASS, A))
    assert hand.phase is Phase.UPCARD and hand.turn == B
    hand.apply(act(ActionKind.PASS, B))
    assert hand.phase is Phase.DRAW and hand.turn == A
    assert_illegal(hand, act(ActionKind.DRAW_DISCARD, A), "Everyone passed on the upcard")
    hand.apply(act(ActionKind.DRAW_STOCK, A))
    assert upcard not in hand.hands[A] and hand.phase is Phase.DISCARD


def test_non_dealer_takes_upcard_and_must_discard_another_card() -> None:
    hand = Hand.deal((A, B), B, NAMES, seed="take")
    upcard = hand.upcard
    assert upcard is not None
    hand.apply(act(ActionKind.DRAW_DISCARD, A))
    assert upcard in hand.hands[A] and len(hand.hands[A]) == 11
    assert_illegal(hand, Action(ActionKind.DISCARD, A, upcard), "you just took from the discard")
    other = next(c for c in hand.hands[A] if c != upcard)
    hand.apply(Action(ActionKind.DISCARD, A, other))
    assert hand.turn == B and hand.phase is Phase.DRAW
    hand.apply(act(ActionKind.DRAW_DISCARD, B))  # the dealer may take that discard
    assert other in hand.hands[B]


def test_dealer_takes_upcard_after_non_dealer_passes() -> None:
    hand = Hand.deal((A, B), B, NAMES, seed="dealer-takes")
    upcard = hand.upcard
    hand.apply(act(ActionKind.PASS, A))
    hand.apply(act(ActionKind.DRAW_DISCARD, B))
    assert upcard in hand.hands[B]
    discard = next(c for c in hand.hands[B] if c != upcard)
    hand.apply(Action(ActionKind.DISCARD, B, discard))
    assert hand.turn == A and hand.phase is Phase.DRAW
    assert {a.kind for a in hand.legal_actions()} == {
        ActionKind.DRAW_STOCK,
        ActionKind.DRAW_DISCARD,
    }


def test_upcard_phase_refuses_other_moves() -> None:
    hand = Hand.deal((A, B), B, NAMES, seed="refuse")
    assert_illegal(hand, act(ActionKind.DRAW_STOCK, A), "take it from the discard pile or pass")
    some = hand.hands[A][0]
    assert_illegal(hand, Action(ActionKind.DISCARD, A, some), "or pass")
    assert_illegal(hand, act(ActionKind.PASS, B), "It is Alice's turn")


# --- section 5: a turn ------------------------------------------------------------------


def test_may_discard_the_card_just_drawn_from_stock() -> None:
    hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ K♥ 5♦",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="Q♥",
        stock="J♠ Q♠",
    )
    hand.apply(act(ActionKind.DRAW_STOCK, A))
    assert hand.last_drawn == parse_card("Q♠")
    hand.apply(act(ActionKind.DISCARD, A, "Q♠"))
    assert hand.upcard == parse_card("Q♠")


def test_turn_alternates_and_cards_are_conserved() -> None:
    hand = Hand.deal((A, B), B, NAMES, seed="turns")
    hand.apply(act(ActionKind.PASS, A))
    hand.apply(act(ActionKind.PASS, B))
    for seat in (A, B, A, B):
        hand.apply(act(ActionKind.DRAW_STOCK, seat))
        hand.apply(Action(ActionKind.DISCARD, seat, max(hand.hands[seat], key=lambda c: c.value)))
        everything = hand.hands[A] + hand.hands[B] + hand.discard_pile + hand.stock
        assert sorted(everything) == list(DECK)
        assert hand.turn == 1 - seat


def test_illegal_moves_in_a_turn() -> None:
    hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ K♥ 5♦", "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣", discard_pile="Q♥"
    )
    assert_illegal(hand, act(ActionKind.DISCARD, A, "5♦"), "Draw a card first")
    assert_illegal(hand, act(ActionKind.KNOCK, A, "5♦"), "Draw a card first")
    assert_illegal(hand, act(ActionKind.PASS, A), "only on the upcard")
    assert_illegal(hand, act(ActionKind.DRAW_STOCK, B), "It is Alice's turn")
    assert_illegal(hand, act(ActionKind.DRAW_STOCK, 7), "not playing this hand")
    hand.apply(act(ActionKind.DRAW_DISCARD, A))
    assert_illegal(hand, act(ActionKind.DRAW_STOCK, A), "You already drew")
    assert_illegal(hand, act(ActionKind.DISCARD, A, "A♣"), "You don't hold A♣")
    assert_illegal(hand, Action(ActionKind.DISCARD, A, None), "Say which card")
    assert_illegal(hand, act(ActionKind.DISCARD, A, "Q♥"), "the card you just took")
    assert_illegal(hand, act(ActionKind.KNOCK, A, "Q♥"), "the card you just took")
    assert_illegal(hand, act(ActionKind.BIG_GIN, A), "isn't Big Gin")


def test_errors_are_card_errors_when_about_a_card() -> None:
    hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ K♥ 5♦ 6♦",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="Q♥",
        phase=Phase.DISCARD,
    )
    with pytest.raises(CardError):
        hand.apply(act(ActionKind.DISCARD, A, "A♣"))


def test_knock_at_the_limit_or_less_is_allowed() -> None:
    # Melds 2♠3♠4♠, 7♥8♥9♥, K♣K♦K♥; knocking with 9♦ leaves 5♦ = 5.
    hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ K♥ 5♦ 9♦",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="Q♥",
        phase=Phase.DISCARD,
    )
    assert_illegal(hand, act(ActionKind.KNOCK, A, "K♣"), "you can knock at 10 or less")
    hand.apply(act(ActionKind.KNOCK, A, "9♦"))
    assert hand.result is not None and hand.result.knocker_deadwood == 5


def test_knock_above_limit_is_refused_with_the_numbers() -> None:
    hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ 5♦ 9♦ Q♠",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="Q♥",
        phase=Phase.DISCARD,
    )
    assert_illegal(
        hand,
        act(ActionKind.KNOCK, A, "Q♠"),
        "Your deadwood would be 34 after discarding Q♠; you can knock at 10 or less.",
    )


def test_knock_limit_setting_lower_and_gin_only() -> None:
    hand_cards = "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ K♥ 5♦ 9♦"
    low = position(
        hand_cards,
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="Q♥",
        phase=Phase.DISCARD,
        settings=Settings(knock_limit=4),
    )
    assert_illegal(low, act(ActionKind.KNOCK, A, "9♦"), "you can knock at 4 or less")
    gin_only = position(
        hand_cards,
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="Q♥",
        phase=Phase.DISCARD,
        settings=Settings(knock_limit=0),
    )
    assert_illegal(gin_only, act(ActionKind.KNOCK, A, "9♦"), "This table plays gin only")


def test_knocking_is_optional() -> None:
    hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ K♥ 5♦ 9♦",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="Q♥",
        phase=Phase.DISCARD,
    )
    kinds = {a.kind for a in hand.legal_actions()}
    assert ActionKind.KNOCK in kinds and ActionKind.DISCARD in kinds
    hand.apply(act(ActionKind.DISCARD, A, "9♦"))
    assert hand.phase is Phase.DRAW and hand.turn == B


def test_only_the_player_to_act_has_legal_actions() -> None:
    hand = Hand.deal((A, B), B, NAMES, seed="legal")
    assert hand.legal_actions(B) == []
    assert {a.kind for a in hand.legal_actions(A)} == {ActionKind.PASS, ActionKind.DRAW_DISCARD}


# --- section 6: end of the stock -------------------------------------------------------------


def test_discard_with_two_left_voids_the_hand() -> None:
    hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ Q♥ 5♦",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="J♥",
        stock="5♥ 6♥ J♠",
    )
    hand.apply(act(ActionKind.DRAW_STOCK, A))  # draws J♠, leaving two
    assert len(hand.stock) == 2 and hand.phase is Phase.DISCARD
    hand.apply(act(ActionKind.DISCARD, A, "J♠"))
    assert hand.is_over and hand.result is not None
    assert hand.result.outcome is Outcome.VOID and hand.result.winner is None


def test_may_still_knock_when_two_are_left() -> None:
    hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ K♥ 5♦",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ Q♦",
        discard_pile="J♥",
        stock="5♥ 6♥ A♦",
    )
    hand.apply(act(ActionKind.DRAW_STOCK, A))
    hand.apply(act(ActionKind.KNOCK, A, "5♦"))
    assert hand.result is not None and hand.result.outcome is Outcome.KNOCK


def test_drawing_from_the_pile_does_not_shorten_the_stock() -> None:
    hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ Q♥ 5♦",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="J♥",
        stock="5♥ 6♥ J♠",
    )
    hand.apply(act(ActionKind.DRAW_DISCARD, A))
    hand.apply(act(ActionKind.DISCARD, A, "5♦"))
    assert not hand.is_over and len(hand.stock) == 3


@pytest.mark.parametrize(
    ("void_stock", "left_after_draw", "void"),
    [(0, 0, True), (0, 1, False), (1, 1, True), (1, 2, False)],
)
def test_void_stock_setting(void_stock: int, left_after_draw: int, void: bool) -> None:
    stock = "5♥ 6♥ J♠ Q♠"
    stock_cards = stock.split()[-(left_after_draw + 1) :]
    hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ Q♥ 5♦",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="J♥",
        stock=" ".join(stock_cards),
        settings=Settings(void_stock=void_stock),
    )
    hand.apply(act(ActionKind.DRAW_STOCK, A))
    hand.apply(act(ActionKind.DISCARD, A, "5♦"))
    assert hand.is_over is void


def test_empty_stock_cannot_be_drawn() -> None:
    hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ Q♥ 5♦",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="J♥",
        stock="",
        settings=Settings(void_stock=0),
    )
    assert_illegal(hand, act(ActionKind.DRAW_STOCK, A), "The stock is empty")


# --- sections 7 and 8: showdown and scoring --------------------------------------------------

KNOCKER_WITH_SIX = "2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠"  # knock with K♠: deadwood 6♣ = 6


def test_worked_example_knock_with_6_defender_keeps_19() -> None:
    # The defender lays off Q♦ on 9♦ 10♦ J♦ and 5♠ on the fives, and keeps K♥ 9♣ = 19.
    hand = position(
        KNOCKER_WITH_SIX, "Q♦ 5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣", discard_pile="4♥", phase=Phase.DISCARD
    )
    hand.apply(act(ActionKind.KNOCK, A, "K♠"))
    result = hand.result
    assert result is not None
    assert result.outcome is Outcome.KNOCK
    assert (result.knocker_deadwood, result.defender_deadwood) == (6, 19)
    assert (result.winner, result.points) == (A, 13)
    assert sorted(str(c) for c, _ in result.layoffs) == ["5♠", "Q♦"]
    assert result.knock_discard == parse_card("K♠")


def test_worked_example_defender_down_to_5_undercuts_for_26() -> None:
    hand = position(
        KNOCKER_WITH_SIX, "Q♦ 5♠ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 2♥ 3♥", discard_pile="4♥", phase=Phase.DISCARD
    )
    hand.apply(act(ActionKind.KNOCK, A, "K♠"))
    result = hand.result
    assert result is not None
    assert result.outcome is Outcome.UNDERCUT
    assert (result.knocker_deadwood, result.defender_deadwood) == (6, 5)
    assert (result.winner, result.points, result.loser) == (B, 1 + 25, A)


def test_equal_deadwood_is_an_undercut() -> None:
    # Defender keeps 2♥ 4♥ = 6 after laying off, same as the knocker.
    hand = position(
        KNOCKER_WITH_SIX, "Q♦ 5♠ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 2♥ 4♥", discard_pile="4♦", phase=Phase.DISCARD
    )
    hand.apply(act(ActionKind.KNOCK, A, "K♠"))
    result = hand.result
    assert result is not None and result.outcome is Outcome.UNDERCUT
    assert (result.winner, result.points) == (B, 25)


def test_undercut_bonus_setting() -> None:
    hand = position(
        KNOCKER_WITH_SIX,
        "Q♦ 5♠ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 2♥ 3♥",
        discard_pile="4♥",
        phase=Phase.DISCARD,
        settings=Settings(undercut_bonus=10),
    )
    hand.apply(act(ActionKind.KNOCK, A, "K♠"))
    assert hand.result is not None and hand.result.points == 11


GIN_HAND = "2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ Q♦ K♠"  # discard K♠: all ten cards meld


def test_gin_scores_whole_deadwood_plus_bonus_without_layoffs() -> None:
    # The defender holds K♦ which would lay off on 9♦-Q♦, and 5♠ for the fives: not allowed.
    hand = position(
        GIN_HAND, "K♦ 5♠ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 2♥ 4♥", discard_pile="4♦", phase=Phase.DISCARD
    )
    hand.apply(act(ActionKind.KNOCK, A, "K♠"))
    result = hand.result
    assert result is not None and result.outcome is Outcome.GIN
    assert result.layoffs == ()
    assert result.defender_deadwood == 10 + 5 + 2 + 4
    assert (result.winner, result.points) == (A, 21 + 25)


def test_gin_cannot_be_undercut_and_gin_bonus_setting() -> None:
    # The defender's own hand is also all melds: deadwood 0, still the gin player scores.
    hand = position(
        GIN_HAND,
        "6♥ 7♥ 8♥ A♣ 2♣ 3♣ 4♣ 10♠ 10♥ 10♣",
        discard_pile="4♦",
        phase=Phase.DISCARD,
        settings=Settings(gin_bonus=20),
    )
    hand.apply(act(ActionKind.KNOCK, A, "K♠"))
    result = hand.result
    assert result is not None and result.outcome is Outcome.GIN
    assert (result.winner, result.points) == (A, 20)


BIG_GIN_HAND = "2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ Q♦ K♦"


def test_big_gin_scores_deadwood_plus_31() -> None:
    hand = position(
        BIG_GIN_HAND, "K♠ 5♠ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 2♥ 4♥", discard_pile="4♦", phase=Phase.DISCARD
    )
    assert ActionKind.BIG_GIN in {a.kind for a in hand.legal_actions()}
    hand.apply(act(ActionKind.BIG_GIN, A))
    result = hand.result
    assert result is not None and result.outcome is Outcome.BIG_GIN
    assert result.knock_discard is None and result.layoffs == ()
    assert (result.winner, result.points) == (A, 21 + 31)
    assert len(result.knocker_arrangement.melds) == 3  # type: ignore[union-attr]


def test_big_gin_off_and_bonus_setting() -> None:
    off = position(
        BIG_GIN_HAND,
        "K♠ 5♠ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 2♥ 4♥",
        discard_pile="4♦",
        phase=Phase.DISCARD,
        settings=Settings(big_gin=False),
    )
    assert_illegal(off, act(ActionKind.BIG_GIN, A), "Big Gin is off")
    assert ActionKind.BIG_GIN not in {a.kind for a in off.legal_actions()}
    off.apply(act(ActionKind.KNOCK, A, "K♦"))  # still gin by discarding
    assert off.result is not None and off.result.outcome is Outcome.GIN
    custom = position(
        BIG_GIN_HAND,
        "K♠ 5♠ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 2♥ 4♥",
        discard_pile="4♦",
        phase=Phase.DISCARD,
        settings=Settings(big_gin_bonus=50),
    )
    custom.apply(act(ActionKind.BIG_GIN, A))
    assert custom.result is not None and custom.result.points == 21 + 50


def test_knocker_arrangement_leaves_defender_the_most_deadwood() -> None:
    # A♥2♥3♥4♥ + 4♠4♦4♣ and A♥2♥3♥ + 4♥4♠4♦4♣ both leave 2♣ 3♦ 5♠ = 10. Only the first
    # would let the defender lay off 5♥, so the bot lays down the second.
    hand = position(
        "A♥ 2♥ 3♥ 4♥ 4♠ 4♦ 4♣ 2♣ 3♦ 5♠ K♣",
        "5♥ 9♠ 9♦ Q♠ Q♦ J♣ 10♣ 7♥ 6♣ 8♦",
        discard_pile="K♥",
        phase=Phase.DISCARD,
    )
    hand.apply(act(ActionKind.KNOCK, A, "K♣"))
    result = hand.result
    assert result is not None and result.knocker_arrangement is not None
    melds = {" ".join(map(str, m)) for m in result.knocker_arrangement.melds}
    assert melds == {"A♥ 2♥ 3♥", "4♠ 4♥ 4♦ 4♣"}
    assert result.layoffs == ()
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (10, 84, 74)


def test_cannot_act_after_the_hand_is_over() -> None:
    hand = position(
        KNOCKER_WITH_SIX, "Q♦ 5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣", discard_pile="4♥", phase=Phase.DISCARD
    )
    hand.apply(act(ActionKind.KNOCK, A, "K♠"))
    assert_illegal(hand, act(ActionKind.DRAW_STOCK, B), "This hand is over")
    assert hand.legal_actions() == []


def test_public_actions_show_only_what_a_spectator_saw() -> None:
    hand = Hand.deal((A, B), B, NAMES, seed="public")
    upcard = hand.upcard
    hand.apply(act(ActionKind.PASS, A))
    hand.apply(act(ActionKind.DRAW_DISCARD, B))  # the upcard, public
    thrown = next(c for c in hand.hands[B] if c != upcard)
    hand.apply(Action(ActionKind.DISCARD, B, thrown))
    hand.apply(act(ActionKind.DRAW_DISCARD, A))  # B's discard, public
    hand.apply(Action(ActionKind.DISCARD, A, hand.hands[A][0]))
    hand.apply(act(ActionKind.DRAW_STOCK, B))  # hidden
    drawn = hand.last_drawn
    hand.apply(Action(ActionKind.DISCARD, B, drawn))
    seen = hand.public_actions()
    assert [(a.kind, a.seat, a.card) for a in seen] == [
        (ActionKind.PASS, A, None),
        (ActionKind.DRAW_DISCARD, B, upcard),
        (ActionKind.DISCARD, B, thrown),
        (ActionKind.DRAW_DISCARD, A, thrown),
        (ActionKind.DISCARD, A, seen[4].card),
        (ActionKind.DRAW_STOCK, B, None),
        (ActionKind.DISCARD, B, drawn),
    ]
    assert seen[4].card is not None


def test_the_knock_discard_stays_face_down_in_public_actions() -> None:
    hand = position(
        KNOCKER_WITH_SIX, "Q♦ 5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣", discard_pile="4♥", phase=Phase.DISCARD
    )
    hand.apply(act(ActionKind.KNOCK, A, "K♠"))
    assert hand.actions[-1].card == parse_card("K♠")
    assert hand.public_actions()[-1].card is None


def test_serialization_round_trip_and_replay() -> None:
    hand = Hand.deal((A, B), B, NAMES, seed="round-trip")
    hand.apply(act(ActionKind.PASS, A))
    hand.apply(act(ActionKind.DRAW_DISCARD, B))
    hand.apply(Action(ActionKind.DISCARD, B, hand.hands[B][0]))
    data = hand.to_dict()
    import json

    again = Hand.from_dict(json.loads(json.dumps(data)))
    assert again == hand and again.to_dict() == data
    replayed = Hand.replay(
        hand.seats, hand.dealer, hand.names, hand.settings, hand.seed, list(hand.actions)
    )
    assert replayed == hand

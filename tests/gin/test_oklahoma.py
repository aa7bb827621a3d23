"""RULES.md 12, Oklahoma: the first upcard sets the hand's knock limit; spades may double it.

The worked examples here are the ones written down in docs/rule-decisions.md.
"""

from __future__ import annotations

import copy
import json

import pytest

from bot.gin.cards import DECK, RANKS, parse_card
from bot.gin.errors import IllegalMove, KnockLimitError
from bot.gin.hand import Action, ActionKind, Hand, HandResult, KnockCard, Outcome, Phase
from bot.gin.match import Match, Player
from bot.gin.settings import OklahomaAce, Settings
from tests.gin.helpers import NAMES, position

OKLAHOMA = Settings(variant="oklahoma")
DOUBLE = Settings(variant="oklahoma", spades_double=True)
ALICE, BOB = Player("1", "Alice"), Player("2", "Bob")

# Alice knocks with 6 (6♣) by discarding K♠; Bob lays off Q♦ and 5♠ and keeps 19: 13 points.
KNOCK_6 = ("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠", "Q♦ 5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣")
# Alice knocks with 6; Bob melds down to 5: an undercut worth 1 + 25 = 26 to Bob.
UNDERCUT = ("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠", "Q♦ 5♠ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 2♥ 3♥")
# Alice discards K♠ and goes gin; Bob keeps 5♠ K♥ 9♣ 6♣, 30: 30 + 25 = 55.
GIN = ("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ Q♦ K♠", "5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 6♣")
# All of Alice's eleven cards meld: Big Gin, 30 + 31 = 61.
BIG_GIN = ("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ Q♦ K♦", "5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 6♣")
K = parse_card("K♠")


def at_discard(cards: tuple[str, str], upcard: str, settings: Settings = OKLAHOMA) -> Hand:
    """Alice to discard, the first upcard (and the pile) being ``upcard``."""
    return position(cards[0], cards[1], discard_pile=upcard, phase=Phase.DISCARD, settings=settings)


def knock(hand: Hand, card: str = "K♠") -> HandResult:
    hand.apply(Action(ActionKind.KNOCK, 0, parse_card(card)))
    assert hand.result is not None
    return hand.result


# --- the knock limit ------------------------------------------------------------------------


@pytest.mark.parametrize("rank", range(13))
@pytest.mark.parametrize("ace", list(OklahomaAce))
def test_the_first_upcard_sets_the_knock_limit(rank: int, ace: OklahomaAce) -> None:
    for suit in range(4):
        card = DECK[13 * suit + rank]
        hand = position("", "", discard_pile=str(card), settings=OKLAHOMA.with_changes(ace=ace))
        expected = {0: 0 if ace is OklahomaAce.GIN else 1}.get(rank, min(rank + 1, 10))
        assert hand.knock_limit == expected, f"{RANKS[rank]} with ace {ace}"
        assert hand.knock_card == KnockCard(card, expected, False)


def test_the_limit_stays_when_the_upcard_is_taken_or_covered() -> None:
    hand = Hand.deal((0, 1), 1, NAMES, OKLAHOMA, seed="okla")
    assert hand.first_upcard is not None
    limit = hand.knock_limit
    assert limit == KnockCard.of(hand.first_upcard, OKLAHOMA).limit
    hand.apply(Action(ActionKind.DRAW_DISCARD, 0))
    assert hand.upcard != hand.first_upcard and hand.knock_limit == limit


def test_the_tables_knock_limit_is_not_read_in_oklahoma() -> None:
    settings = OKLAHOMA.with_changes(knock_limit=0)
    assert position("", "", discard_pile="7♥", settings=settings).knock_limit == 7
    classic = position("", "", discard_pile="7♥", settings=Settings(knock_limit=3))
    assert classic.knock_limit == 3 and classic.knock_card is None


def test_a_knock_above_the_limit_is_refused_with_the_upcard_and_the_values() -> None:
    hand = at_discard(KNOCK_6, "4♦")
    before = copy.deepcopy(hand.to_dict())
    assert Action(ActionKind.KNOCK, 0, K) not in hand.legal_actions()
    with pytest.raises(KnockLimitError) as error:
        knock(hand)
    refusal = error.value
    assert refusal.reason == (
        "The upcard was 4♦: knock at 4 or less this hand. After discarding K♠ your deadwood "
        "would be 6."
    )
    assert (refusal.limit, refusal.deadwood, refusal.card, refusal.upcard) == (
        4,
        6,
        K,
        parse_card("4♦"),
    )
    assert refusal.code == "knock_limit" and isinstance(refusal, IllegalMove)
    assert hand.to_dict() == before


def test_the_example_of_the_rule_book_reads_as_written() -> None:
    hand = at_discard(("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 8♣ K♠", KNOCK_6[1]), "4♣")
    with pytest.raises(KnockLimitError, match="The upcard was 4♣: knock at 4 or less this hand"):
        knock(hand)


def test_a_knock_at_the_limit_is_allowed() -> None:
    result = knock(at_discard(KNOCK_6, "6♥"))
    assert result.outcome is Outcome.KNOCK and result.points == 13
    assert result.knock_card == KnockCard(parse_card("6♥"), 6, False)


def test_an_ace_upcard_means_gin_only_by_default() -> None:
    one_point = ("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ A♥ K♠", KNOCK_6[1])
    hand = at_discard(one_point, "A♦")
    assert hand.knock_limit == 0
    with pytest.raises(KnockLimitError, match="The upcard was A♦: this hand is gin only") as e:
        knock(hand)
    assert (e.value.limit, e.value.deadwood) == (0, 1)
    assert knock(at_discard(GIN, "A♦")).outcome is Outcome.GIN


def test_an_ace_upcard_allows_one_point_with_ace_one() -> None:
    one_point = ("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ A♥ K♠", KNOCK_6[1])
    hand = at_discard(one_point, "A♦", OKLAHOMA.with_changes(ace="one"))
    assert hand.knock_limit == 1
    result = knock(hand)
    assert result.outcome is Outcome.KNOCK and result.knocker_deadwood == 1


def test_the_classic_refusals_read_as_before() -> None:
    hand = at_discard(KNOCK_6, "4♦", Settings(knock_limit=4))
    with pytest.raises(KnockLimitError) as error:
        knock(hand)
    assert error.value.reason == (
        "Your deadwood would be 6 after discarding K♠; you can knock at 4 or less."
    )
    assert error.value.upcard is None


# --- spades double --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "outcome", "points"),
    [(KNOCK_6, Outcome.KNOCK, 13), (UNDERCUT, Outcome.UNDERCUT, 26), (GIN, Outcome.GIN, 55)],
)
def test_a_spade_upcard_doubles_every_score_of_the_hand(
    cards: tuple[str, str], outcome: Outcome, points: int
) -> None:
    doubled = at_discard(cards, "7♠", DOUBLE)
    assert doubled.spades_double and doubled.score_multiplier == 2
    result = knock(doubled)
    assert result.outcome is outcome and result.points == 2 * points
    assert result.multiplier == 2 and result.base_points == points
    plain = knock(at_discard(cards, "7♦", DOUBLE))
    assert plain.points == points and plain.multiplier == 1
    undoubled = knock(at_discard(cards, "7♠", OKLAHOMA))
    assert undoubled.points == points and undoubled.multiplier == 1


def test_big_gin_doubles_too() -> None:
    hand = at_discard(BIG_GIN, "8♠", DOUBLE)
    hand.apply(Action(ActionKind.BIG_GIN, 0))
    assert hand.result is not None and hand.result.outcome is Outcome.BIG_GIN
    assert hand.result.points == 2 * (30 + 31)


def test_a_void_hand_still_names_its_knock_card() -> None:
    hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ Q♥ 5♦",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="J♠",
        stock="5♥ 6♥ J♥",
        settings=DOUBLE,
    )
    hand.apply(Action(ActionKind.DRAW_STOCK, 0))
    hand.apply(Action(ActionKind.DISCARD, 0, parse_card("J♥")))
    assert hand.result is not None and hand.result.outcome is Outcome.VOID
    assert hand.result.points == 0 and hand.result.knock_card == KnockCard(
        parse_card("J♠"), 10, True
    )


def test_box_and_game_bonuses_are_not_doubled() -> None:
    # Alice at 140 with 4 hands won, Bob at 0: a doubled knock of 26 takes her to 166.
    settings = DOUBLE
    match = Match.start([ALICE, BOB], settings, seed="okla-end")
    assert settings.target == 150
    match.hand = at_discard(KNOCK_6, "7♠", settings)
    match.scores, match.hands_won = [140, 0], [4, 0]
    report = match.apply(Action(ActionKind.KNOCK, 0, K))
    result = report.result
    assert result is not None and report.scored is not None and report.scored.points == 26
    assert result.points == (166, 0)
    assert result.box_bonus == (5 * 25, 0)  # one box for the doubled hand, as for any other
    assert result.game_bonus == (200, 0)  # a shutout: doubled for that, not for the spade
    assert result.final == (166 + 125 + 200, 0)


# --- records --------------------------------------------------------------------------------


def test_results_round_trip_and_classic_results_read_as_before() -> None:
    result = knock(at_discard(GIN, "7♠", DOUBLE))
    data = json.loads(json.dumps(result.to_dict()))
    assert data["knock_card"] == {"card": int(parse_card("7♠")), "limit": 7, "doubled": True}
    assert HandResult.from_dict(data) == result
    classic = knock(at_discard(GIN, "7♠", Settings()))
    assert "knock_card" not in classic.to_dict() and classic.knock_card is None
    assert HandResult.from_dict(classic.to_dict()).multiplier == 1


def test_oklahoma_hands_replay_and_round_trip() -> None:
    for i in range(30):
        hand = Hand.deal((0, 1), 1, NAMES, DOUBLE, seed=f"replay-{i}")
        while not hand.is_over:
            legal = hand.legal_actions()
            knocks = [a for a in legal if a.kind is ActionKind.KNOCK]
            hand.apply(knocks[0] if knocks else legal[(len(hand.actions) * 7) % len(legal)])
        again = Hand.replay(
            hand.seats, hand.dealer, hand.names, hand.settings, hand.seed, hand.actions
        )
        assert again == hand
        assert Hand.from_dict(json.loads(json.dumps(hand.to_dict()))) == hand
        assert hand.result is not None
        assert hand.result.knocker_deadwood <= hand.knock_limit or hand.result.winner is None

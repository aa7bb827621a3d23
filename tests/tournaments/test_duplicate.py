"""Duplicate rounds: one seed gives every table the same deals, and the score against the
field reads each result against the same seat on the same cards."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from bot.gin.match import Match, Player
from bot.tournaments.duplicate import (
    HandScore,
    SeatDeal,
    field_scores,
    new_round_seed,
    seat_deals,
)


def test_every_table_of_a_round_is_dealt_the_same_cards() -> None:
    seed = new_round_seed()
    tables = [
        Match.start([Player(f"a{n}", f"A{n}"), Player(f"b{n}", f"B{n}")], seed=seed)
        for n in range(4)
    ]
    first = tables[0]
    for match in tables[1:]:
        assert match.cuts == first.cuts
        assert match.hand.dealer == first.hand.dealer
        assert match.hand.hands == first.hand.hands
        assert match.hand.stock == first.hand.stock
        assert match.hand.discard_pile == first.hand.discard_pile
        assert match.hand_seed() == first.hand_seed()
    other = Match.start([Player("x", "X"), Player("y", "Y")], seed=new_round_seed())
    assert other.hand.hands != first.hand.hands


def test_round_seeds_are_fresh() -> None:
    assert len({new_round_seed() for _ in range(50)}) == 50


def test_a_match_gives_both_seats_their_result_on_each_deal() -> None:
    hands = [HandScore("s1", 0, 1, 12), HandScore("s2", 1, None, 0), HandScore("s3", 0, 0, 30)]
    assert seat_deals(hands, ("ann", "ben")) == [
        SeatDeal("ann", "s1", 0, 0, -12),
        SeatDeal("ben", "s1", 0, 1, 12),
        SeatDeal("ann", "s2", 1, 0, 0),
        SeatDeal("ben", "s2", 1, 1, 0),
        SeatDeal("ann", "s3", 0, 0, 30),
        SeatDeal("ben", "s3", 0, 1, -30),
    ]


def test_score_against_the_field_worked_by_hand() -> None:
    """Three tables, one deal (seed s, dealer 0). Seat 0 made +20, +20 and -10: the average
    is 10, so ann (+20) is 10 above the field, cat 10 and eve 20 below. Seat 1 is the
    mirror image. A deal only one table had (dealer 1 at ann's table) counts for nobody."""
    deals = [
        *seat_deals([HandScore("s", 0, 0, 20), HandScore("s", 1, 0, 5)], ("ann", "ben")),
        *seat_deals([HandScore("s", 0, 0, 20)], ("cat", "dan")),
        *seat_deals([HandScore("s", 0, 1, 10)], ("eve", "fay")),
    ]
    scores = field_scores(deals)
    assert {u: s.score for u, s in scores.items()} == {
        "ann": 10, "ben": -10, "cat": 10, "dan": -10, "eve": -20, "fay": 20,
    }  # fmt: skip
    assert scores["ann"].deals == 1


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["s1", "s2"]),
            st.integers(0, 1),
            st.sampled_from([0, 1, None]),
            st.integers(0, 60),
        ),
        max_size=12,
    )
)
def test_the_field_scores_add_up_to_nothing(hands: list[tuple[str, int, int | None, int]]) -> None:
    deals = []
    for n, (seed, dealer, winner, points) in enumerate(hands):
        deals += seat_deals([HandScore(seed, dealer, winner, points)], (f"a{n}", f"b{n}"))
    scores = field_scores(deals)
    assert sum((s.score for s in scores.values()), Fraction(0)) == 0

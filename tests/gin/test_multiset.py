"""Hands from several decks (RULES.md 10.3) against the brute-force multiset reference."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.gin import multiset
from bot.gin.bench import multi_meld_rich_hand, random_hand, shoe_hand
from bot.gin.cards import DECK, Card, card_value, parse_cards
from bot.gin.errors import CardError
from bot.gin.melds import (
    Arrangement,
    arrange,
    best_discard,
    discard_options,
    min_deadwood,
)
from tests.gin import reference_multiset as ref
from tests.gin.test_melds import adversarial_hand

Hand = list[int]


def cards(text: str) -> list[Card]:
    return parse_cards(text)


# --- hand makers ----------------------------------------------------------------------------


def _decks(rng: random.Random) -> int:
    return rng.choice((2, 3, 4))


def _at_most_four(hand: Sequence[int]) -> Hand:
    """The hand without the fifth and later copies of any card."""
    seen: Counter[int] = Counter()
    out = []
    for card in hand:
        if seen[card] < 4:
            seen[card] += 1
            out.append(card)
    return out


def _trim(rng: random.Random, hand: Hand, size: int, decks: int) -> Hand:
    """Cut ``hand`` to ``size`` cards, or fill it up from what the decks still hold."""
    if len(hand) >= size:
        return rng.sample(hand, size)
    left = Counter({c: decks for c in range(52)})
    left.subtract(hand)
    return hand + rng.sample(sorted(left.elements()), size - len(hand))


def shoe(rng: random.Random, size: int) -> Hand:
    """Cards at random from 2, 3 or 4 decks (a repeat is likely, not certain)."""
    return shoe_hand(rng, size, _decks(rng))


def overlap(rng: random.Random, size: int) -> Hand:
    """Runs of one suit that share ranks (as copies), and sets crossing them."""
    decks = _decks(rng)
    suit = rng.randrange(4)
    hand: Hand = []
    for _ in range(rng.choice((2, 2, 3))):
        length = rng.choice((3, 3, 4, 5))
        low = rng.randrange(3, 11 - length) if rng.random() < 0.7 else rng.randrange(14 - length)
        hand += [suit * 13 + r for r in range(low, low + length)]
    if rng.random() < 0.6:
        rank = rng.choice(hand) % 13
        hand += [s * 13 + rank for s in rng.choices(range(4), k=rng.choice((1, 2, 3)))]
    hand = _at_most_four(hand)
    return _trim(rng, hand, size, max(decks, *Counter(hand).values()))


def identical(rng: random.Random, size: int) -> Hand:
    """A few cards, each held two to four times."""
    decks = 4
    base = rng.sample(range(52), rng.choice((2, 3, 4)))
    if rng.random() < 0.5:  # neighbours, so runs and sets both compete for the copies
        rank, suit = rng.randrange(11), rng.randrange(4)
        base = [suit * 13 + rank + i for i in range(3)] + [rng.randrange(4) * 13 + rank]
    hand = _at_most_four([c for c in base for _ in range(rng.randint(2, 4))])
    return _trim(rng, hand, size, decks)


def narrow(rng: random.Random, size: int) -> Hand:
    """Cards from a window of 3 to 5 ranks in 1 to 4 suits of 2 to 4 decks: melds everywhere."""
    decks = _decks(rng)
    width = rng.choice((3, 4, 5))
    low = rng.randrange(14 - width)
    suits = rng.sample(range(4), rng.choice((1, 2, 3, 4)))
    pool = [s * 13 + r for s in suits for r in range(low, low + width) for _ in range(decks)]
    return _trim(rng, rng.sample(pool, min(size, len(pool))), size, decks)


def rich(rng: random.Random, size: int) -> Hand:
    """Melds from several decks, then filler (smaller hands: some of the cards of nine)."""
    if size >= 9:
        return multi_meld_rich_hand(rng, size)
    return rng.sample(multi_meld_rich_hand(rng, 9), size)


KINDS: dict[str, Callable[[random.Random, int], Hand]] = {
    "shoe": shoe,
    "rich": rich,
    "overlap": overlap,
    "identical": identical,
    "narrow": narrow,
}


def make_hands(seed: int, count: int, size: int | Sequence[int], kind: str) -> list[Hand]:
    rng = random.Random(seed)
    sizes = [size] if isinstance(size, int) else list(size)
    out = []
    for _ in range(count):
        hand = KINDS[kind](rng, rng.choice(sizes))
        assert max(Counter(hand).values()) <= 4
        out.append(hand)
    return out


# --- checks ---------------------------------------------------------------------------------


def check_arrangement(arr: Arrangement, hand: Sequence[int], distinct: bool, least: int) -> None:
    """The arrangement uses exactly the hand's cards, in legal melds, with the least deadwood."""
    laid = [c for meld in arr.melds for c in meld] + list(arr.deadwood)
    assert sorted(laid) == sorted(hand)
    for meld in arr.melds:
        assert ref.is_meld(meld, distinct), (meld, hand)
        assert list(meld) == sorted(meld)
        assert all(type(c) is Card for c in meld)
    assert all(type(c) is Card for c in arr.deadwood)
    assert list(arr.deadwood) == sorted(arr.deadwood)
    assert list(arr.melds) == sorted(arr.melds)
    assert arr.deadwood_value == sum(card_value(c) for c in arr.deadwood) == least


def check_discards(hand: Hand, distinct: bool) -> None:
    """best_discard and discard_options against the reference, and against each other."""
    options = ref.discard_options(hand, distinct)
    whole = ref.min_deadwood(hand, distinct)
    got = discard_options(hand, distinct_suits=distinct)
    assert got == options, (hand, distinct)
    assert list(got) == sorted(set(hand))
    assert all(type(c) is Card for c in got)
    card, left = best_discard(hand, distinct_suits=distinct)
    assert (card, left) == ref.pick_discard(options, whole), (hand, distinct)
    if card is not None:
        assert type(card) is Card
        rest = list(hand)
        rest.remove(card)
        assert ref.min_deadwood(rest, distinct) == left


# --- the rule book, by hand -----------------------------------------------------------------


def test_identical_cards_in_one_set() -> None:
    assert min_deadwood("7h 7h 7h") == 0
    assert min_deadwood("7h 7h 7h", distinct_suits=True) == 21
    assert arrange("7h 7h 7h").melds == (tuple(cards("7h 7h 7h")),)
    assert arrange("7h 7h 7h", distinct_suits=True) == Arrangement((), tuple(cards("7h 7h 7h")))
    # Five sevens are one set; with different suits only four of them can be.
    five = "7h 7h 7s 7c 7d"
    assert min_deadwood(five) == 0
    assert str(arrange(five)) == "7♠ 7♥ 7♥ 7♦ 7♣"
    assert min_deadwood(five, distinct_suits=True) == 7
    assert str(arrange(five, distinct_suits=True)) == "7♠ 7♥ 7♦ 7♣ · 7♥"


def test_different_suits_make_several_sets_of_a_rank() -> None:
    six = "7h 7h 7s 7s 7c 7c"
    assert min_deadwood(six, distinct_suits=True) == 0
    assert str(arrange(six, distinct_suits=True)) == "7♠ 7♥ 7♣ · 7♠ 7♥ 7♣"
    assert str(arrange(six)) == "7♠ 7♠ 7♥ 7♥ 7♣ 7♣"  # one set: the fewest melds
    # Seven copies over three suits: two sets of three, one seven left.
    assert min_deadwood("7h 7h 7h 7s 7s 7c 7c", distinct_suits=True) == 7
    # Eight over four suits: two sets of four.
    assert min_deadwood("7h 7h 7s 7s 7c 7c 7d 7d", distinct_suits=True) == 0
    # Two suits only: never a set.
    assert min_deadwood("7h 7h 7s 7s", distinct_suits=True) == 28


def test_identical_cards_in_two_runs_never_one() -> None:
    assert min_deadwood("5h 6h 7h 7h 8h 9h") == 0
    assert str(arrange("5h 6h 7h 7h 8h 9h")) == "5♥ 6♥ 7♥ · 7♥ 8♥ 9♥"
    assert min_deadwood("7h 7h 8h 9h") == 7
    assert min_deadwood("4h 5h 5h 6h 6h 7h") == 0  # 4-5-6 and 5-6-7
    assert min_deadwood("4h 4h 5h 5h 6h 6h", distinct_suits=True) == 0
    assert str(arrange("4h 4h 5h 5h 6h 6h")) == "4♥ 5♥ 6♥ · 4♥ 5♥ 6♥"
    assert min_deadwood("ah 2h 3h ah 2h 3h") == 0
    assert min_deadwood("qh kh ah qh kh ah") == 42  # Q-K-A is no run, with any number of decks
    # Three aces of hearts: a set, or a run and two aces left; the run leaves less.
    assert min_deadwood("ah ah ah 2h 3h") == 2
    # Three sevens of hearts: the set leaves 8♥ 9♥ (17), the run two sevens (14).
    assert min_deadwood("7h 7h 7h 8h 9h") == 14
    assert str(arrange("7h 7h 7h 8h 9h")) == "7♥ 8♥ 9♥ · 7♥ 7♥"


def test_a_card_in_a_set_and_a_run_at_once_is_two_copies() -> None:
    # 7♥ twice: one copy in the set of sevens, one in the run.
    hand = "7h 7h 7s 7c 8h 9h"
    assert min_deadwood(hand) == 0
    assert min_deadwood(hand, distinct_suits=True) == 0
    assert str(arrange(hand)) == "7♠ 7♥ 7♣ · 7♥ 8♥ 9♥"
    # One copy only: the set (8♥ 9♥ left, 17) or the run (7♠ 7♣ left, 14), as with one deck.
    assert min_deadwood("7h 7s 7c 8h 9h") == 14


def test_discards_from_several_decks() -> None:
    hand = "as 2s 3s 5h 5h 5h 9d td jd kc kc"
    assert best_discard(hand) == (parse_cards("kc")[0], 10)
    assert best_discard(hand, distinct_suits=True) == (parse_cards("kc")[0], 25)
    assert discard_options("7h 7h 8h 9h") == {DECK[19]: 0, DECK[20]: 23, DECK[21]: 22}
    # All eleven meld: Big Gin, with a set that holds 7♥ three times.
    big = "7h 7h 7h 7s 8s 9s 5d 6d 7d 8d 9d"
    assert best_discard(big) == (None, 0)
    assert best_discard(big, distinct_suits=True) == ref.best_discard(
        [int(c) for c in cards(big)], True
    )
    # Ties: the higher card number among equal values (K♣ after K♦), as with one deck.
    melded = "as 2s 3s 5h 5d 5c 9d td jd"
    assert best_discard(f"{melded} kd kc") == (parse_cards("kc")[0], 10)
    assert best_discard(f"{melded} kd kd") == (parse_cards("kd")[0], 10)


def test_every_input_form_with_repeats() -> None:
    seven = DECK[19]  # 7♥
    assert min_deadwood(["7h", "7♥", 19, seven]) == 0
    assert min_deadwood(["7h", "7♥", 19, seven], distinct_suits=True) == 28
    assert min_deadwood(iter([19, 19, 19])) == 0
    assert min_deadwood((19, 19, 20, 21)) == 7
    assert min_deadwood("7♥, 7h, 7H") == 0
    assert min_deadwood(["7♡", "7♥️", " 7 h"]) == 0
    assert best_discard(["7h", "7h", "7h", "kc"]) == (DECK[51], 0)
    assert discard_options(["7h", "7h", 19]) == {seven: 14}


def test_more_than_four_copies_and_bad_text_raise() -> None:
    with pytest.raises(CardError, match=r"^7♥ is listed 5 times"):
        min_deadwood("7h 7h 7h 7h 7h")
    with pytest.raises(CardError, match=r"^K♣ is listed 6 times"):
        best_discard([51] * 6 + [1])
    with pytest.raises(CardError, match="is not a card"):
        min_deadwood(["7h", "7h", "zz"])
    with pytest.raises(CardError):
        min_deadwood([19, 19, 52])
    with pytest.raises(CardError):
        arrange([19, 19, -1])
    with pytest.raises(CardError):
        discard_options([0] * 5)
    with pytest.raises(CardError):
        best_discard([])


def test_one_deck_hands_are_unchanged_by_distinct_suits() -> None:
    rng = random.Random(9100)
    for _ in range(600):
        hand = adversarial_hand(rng, rng.choice((10, 11)))
        assert min_deadwood(hand, distinct_suits=True) == min_deadwood(hand)
        assert best_discard(hand, distinct_suits=True) == best_discard(hand)
        assert discard_options(hand, distinct_suits=True) == discard_options(hand)
        assert arrange(hand, distinct_suits=True) == arrange(hand)


def test_multiset_solver_agrees_with_one_deck_solver_without_repeats() -> None:
    # The multi-deck code never sees these hands through the public functions; called
    # directly it must give the single-deck answers.
    rng = random.Random(9200)
    for i in range(1500):
        size = 11 if i % 2 else 10
        hand = adversarial_hand(rng, size) if i % 3 else random_hand(rng, size)
        for distinct in (False, True):
            assert multiset.min_deadwood(hand, distinct) == min_deadwood(hand)
            if size == 11:
                assert multiset.best_discard(hand, distinct) == best_discard(hand)
            if i % 10 == 0:
                assert multiset.discard_options(hand, distinct) == discard_options(hand)
                arr = multiset.arrange(hand, distinct)
                assert arr.deadwood_value == min_deadwood(hand)
                assert len(arr.melds) == len(arrange(hand).melds)


# --- against the reference ------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("distinct", [False, True])
def test_min_deadwood_and_arrange_match_reference(kind: str, distinct: bool) -> None:
    seed = 10_000 + sorted(KINDS).index(kind) * 10 + distinct
    for size, count in ((10, 260), (11, 200), ((3, 4, 5, 6, 7, 8, 9), 160)):
        for hand in make_hands(seed, count, size, kind):
            least = ref.min_deadwood(hand, distinct)
            assert min_deadwood(hand, distinct_suits=distinct) == least, (hand, distinct)
            check_arrangement(arrange(hand, distinct_suits=distinct), hand, distinct, least)
        seed += 1000


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("distinct", [False, True])
def test_discards_match_reference(kind: str, distinct: bool) -> None:
    seed = 20_000 + sorted(KINDS).index(kind) * 10 + distinct
    for hand in make_hands(seed, 90, 11, kind) + make_hands(seed + 1, 25, (5, 8, 10), kind):
        check_discards(hand, distinct)


def test_arrange_is_deterministic() -> None:
    rng = random.Random(9300)
    for hand in make_hands(9301, 300, 11, "narrow") + make_hands(9302, 300, 10, "identical"):
        for distinct in (False, True):
            first = arrange(hand, distinct_suits=distinct)
            shuffled = list(hand)
            rng.shuffle(shuffled)
            assert arrange(shuffled, distinct_suits=distinct) == first
            assert arrange([DECK[c] for c in reversed(hand)], distinct_suits=distinct) == first


def test_big_hands_past_the_tables() -> None:
    # Stretches of more cards than the stretch table holds, and ranks of more copies than the
    # set-choice table holds, are solved at call time.
    rng = random.Random(9400)
    for i in range(120):
        size = rng.randint(12, 15)
        hand = narrow(rng, size) if i % 2 else identical(rng, size)
        for distinct in (False, True):
            least = ref.min_deadwood(hand, distinct)
            assert min_deadwood(hand, distinct_suits=distinct) == least, (hand, distinct)
            check_arrangement(arrange(hand, distinct_suits=distinct), hand, distinct, least)
            if i % 4 == 0:
                check_discards(hand, distinct)


def test_stretch_table_matches_reference() -> None:
    # Every 7th entry of the table of stretches with a repeated rank, as cards of one suit;
    # the table holds runs only, so the reference is asked for sets of different suits (none).
    keys = sorted(multiset._STRETCH_DEAD)[::7]
    assert len(keys) > 200
    for key in keys:
        hand = [13 + c for c in multiset.cards_list(key)]  # hearts
        dead = ref.min_deadwood(hand, True)
        assert multiset._STRETCH_DEAD[key] == dead, hand
        options = ref.discard_options(hand, True)
        gain = min(options.values()) - dead
        rank = max(c % 13 for c, v in options.items() if v - dead == gain)
        assert multiset._STRETCH_DISCARD[key] == (gain, rank), hand


# --- properties -----------------------------------------------------------------------------


@st.composite
def multi_hands(draw: st.DrawFn, max_size: int = 11) -> list[int]:
    """Up to ``max_size`` cards from a few distinct cards near one another, each at most 4
    times: repeats, sets and runs crowd together."""
    low = draw(st.integers(0, 10))
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    pool = [s * 13 + r for s in suits for r in range(low, min(13, low + 4))]
    extra = draw(st.lists(st.integers(0, 51), max_size=3))
    return _at_most_four(draw(st.lists(st.sampled_from(pool + extra), max_size=max_size)))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(multi_hands(), st.booleans())
def test_arrangement_property(hand: list[int], distinct: bool) -> None:
    least = min_deadwood(hand, distinct_suits=distinct)
    check_arrangement(arrange(hand, distinct_suits=distinct), hand, distinct, least)
    assert min_deadwood(list(reversed(hand)), distinct_suits=distinct) == least
    assert least <= min_deadwood(hand, distinct_suits=True)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(multi_hands(), st.booleans())
def test_discard_property(hand: list[int], distinct: bool) -> None:
    if not hand:
        return
    card, left = best_discard(hand, distinct_suits=distinct)
    options = discard_options(hand, distinct_suits=distinct)
    if card is None:
        assert left == 0 and min_deadwood(hand, distinct_suits=distinct) == 0
        return
    assert left == min(options.values()) == options[card]
    rest = list(hand)
    rest.remove(card)
    assert min_deadwood(rest, distinct_suits=distinct) == left
    # One more card never costs more than its own value.
    extra = hand[0]
    if hand.count(extra) < 4:
        grown = min_deadwood([*hand, extra], distinct_suits=distinct)
        assert grown <= min_deadwood(hand, distinct_suits=distinct) + card_value(extra)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(multi_hands(max_size=9), st.booleans())
def test_small_hands_match_reference_property(hand: list[int], distinct: bool) -> None:
    assert min_deadwood(hand, distinct_suits=distinct) == ref.min_deadwood(hand, distinct)
    if hand:
        check_discards(hand, distinct)

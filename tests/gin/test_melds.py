"""The meld solver against the brute-force reference, on fixed-seed and generated hands."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.gin.bench import knocking_hand, meld_rich_hand, random_hand, random_meld
from bot.gin.cards import DECK, Card, card_value, parse_card, parse_cards
from bot.gin.errors import CardError
from bot.gin.melds import (
    Arrangement,
    LayOffResult,
    arrange,
    best_discard,
    best_lay_off,
    discard_options,
    is_big_gin,
    is_meld,
    is_run,
    is_set,
    knocker_arrangement,
    lay_off,
    min_arrangements,
    min_deadwood,
)
from tests.gin import reference as ref

Hand = list[int]


def cards(text: str) -> list[Card]:
    return parse_cards(text)


# --- hand makers ----------------------------------------------------------------------------


def _fill(rng: random.Random, hand: set[int], size: int) -> Hand:
    """Trim or pad ``hand`` to ``size`` cards."""
    picked = rng.sample(sorted(hand), size) if len(hand) > size else sorted(hand)
    return picked + random_hand(rng, size - len(picked), picked)


def dense_hand(rng: random.Random, size: int) -> Hand:
    """Cards from a narrow window of ranks: sets and runs everywhere, all overlapping."""
    width = rng.choice((3, 4, 5))
    low = rng.randrange(14 - width)
    suits = rng.sample(range(4), rng.choice((3, 4)))
    pool = {s * 13 + r for s in suits for r in range(low, low + width)}
    keep = min(len(pool), size - rng.choice((0, 0, 1, 2)))
    return _fill(rng, set(rng.sample(sorted(pool), keep)), size)


def overlap_hand(rng: random.Random, size: int) -> Hand:
    """Cards that sit in both a set and a run."""
    hand: set[int] = set()
    for _ in range(rng.choice((1, 2, 3))):
        rank, suit = rng.randrange(13), rng.randrange(4)
        length = rng.choice((3, 4, 5))
        low = rng.randint(max(0, rank - length + 1), min(rank, 13 - length))
        hand |= {suit * 13 + r for r in range(low, low + length)}
        others = rng.sample([s for s in range(4) if s != suit], rng.choice((2, 3)))
        hand |= {s * 13 + rank for s in others}
    return _fill(rng, hand, size)


def long_run_hand(rng: random.Random, size: int) -> Hand:
    """A run of 6 to 10 cards, sometimes with a set crossing it."""
    suit = rng.randrange(4)
    length = rng.randint(6, min(10, size))
    low = rng.randrange(14 - length)
    hand = {suit * 13 + r for r in range(low, low + length)}
    if rng.random() < 0.5:
        rank = rng.randrange(low, low + length)
        hand |= {s * 13 + rank for s in rng.sample([s for s in range(4) if s != suit], 2)}
    return _fill(rng, hand, size)


def two_runs_hand(rng: random.Random, size: int) -> Hand:
    """Two runs in one suit with a small gap, plus whatever."""
    suit = rng.randrange(4)
    first = rng.randint(3, 5)
    gap = rng.randint(1, 2)
    second = rng.randint(3, 13 - first - gap) if 13 - first - gap >= 3 else 0
    low = rng.randint(0, 13 - first - gap - second)
    ranks = [*range(low, low + first), *range(low + first + gap, low + first + gap + second)]
    return _fill(rng, {suit * 13 + r for r in ranks}, size)


def split_quad_hand(rng: random.Random, size: int) -> Hand:
    """Four of a kind whose cards are wanted by runs too."""
    rank = rng.randrange(13)
    hand = {s * 13 + rank for s in range(4)}
    for suit in rng.sample(range(4), rng.choice((1, 2, 3))):
        step = rng.choice((-2, -1, 1, 2))
        for r in (rank + step, rank + 2 * step if abs(step) == 1 else rank + step // 2):
            if 0 <= r < 13:
                hand.add(suit * 13 + r)
    return _fill(rng, hand, size)


def edge_hand(rng: random.Random, size: int) -> Hand:
    """Aces and kings: A-2-3 is a run, Q-K-A is not."""
    hand = {int(c) for c in cards("A♠ 2♠ 3♠ Q♥ K♥ A♥ Q♦ K♦ A♦ K♣ A♣ 2♥")}
    return _fill(rng, hand, size)


ADVERSARIAL: list[Callable[[random.Random, int], Hand]] = [
    dense_hand,
    overlap_hand,
    long_run_hand,
    two_runs_hand,
    split_quad_hand,
    edge_hand,
]


def adversarial_hand(rng: random.Random, size: int) -> Hand:
    return rng.choice(ADVERSARIAL)(rng, size)


def hands(seed: int, count: int, size: int, kind: str) -> list[Hand]:
    rng = random.Random(seed)
    make = {"random": random_hand, "rich": meld_rich_hand, "adversarial": adversarial_hand}[kind]
    return [make(rng, size) for _ in range(count)]


def lay_off_case(rng: random.Random) -> tuple[list[list[int]], Hand]:
    """Knocker melds chosen to invite lay-offs, and a defender crowded around them."""
    used: set[int] = set()
    melds: list[list[int]] = []
    for _ in range(rng.choice((1, 2, 3))):
        meld = random_meld(rng, used)
        melds.append(meld)
        used.update(meld)
        if len(set(c % 13 for c in meld)) > 1 and rng.random() < 0.4:
            suit = meld[0] // 13  # a second run in the same suit
            for low in rng.sample(range(11), 11):
                run = [suit * 13 + r for r in range(low, low + 3)]
                if not used.intersection(run):
                    melds.append(run)
                    used.update(run)
                    break
    pool: set[int] = set()
    for meld in melds:
        suits = {c // 13 for c in meld}
        if len(suits) == 1:
            pool |= {next(iter(suits)) * 13 + r for r in range(13)}
        else:
            rank = meld[0] % 13
            pool |= {
                s * 13 + r for s in range(4) for r in (rank - 1, rank, rank + 1) if 0 <= r < 13
            }
    pool -= used
    take = min(len(pool), rng.randint(4, 10))
    defender = rng.sample(sorted(pool), take)
    return melds, defender + random_hand(rng, 10 - take, [*used, *defender])


# --- checks ---------------------------------------------------------------------------------


def check_arrangement(arr: Arrangement, hand: Sequence[int]) -> None:
    """The arrangement splits exactly the hand into valid melds plus sorted deadwood."""
    laid = [c for meld in arr.melds for c in meld] + list(arr.deadwood)
    assert sorted(laid) == sorted(hand)
    for meld in arr.melds:
        assert ref.is_meld(meld), meld
        assert list(meld) == sorted(meld)
        assert all(type(c) is Card for c in meld)
    assert list(arr.deadwood) == sorted(arr.deadwood)
    assert list(arr.melds) == sorted(arr.melds)
    assert arr.deadwood_value == sum(card_value(c) for c in arr.deadwood)


def check_lay_off_result(
    melds: Sequence[Sequence[int]], defender: Sequence[int], res: LayOffResult
) -> None:
    """Own melds valid, lay-offs playable in the order given, every card accounted for once."""
    own = [c for meld in res.arrangement.melds for c in meld]
    laid = [c for c, _ in res.layoffs]
    assert sorted(own + laid + list(res.arrangement.deadwood)) == sorted(defender)
    for meld in res.arrangement.melds:
        assert ref.is_meld(meld)
    table = [set(m) for m in melds]
    for card, index in res.layoffs:
        assert ref.is_meld(table[index] | {card}), (card, index, table)
        table[index].add(card)
    assert res.deadwood_value == sum(card_value(c) for c in res.arrangement.deadwood)


# --- the rule book --------------------------------------------------------------------------


def test_worked_example_section_2() -> None:
    hand = cards("7♣ 7♥ 7♠ 5♠ 6♠")
    assert min_deadwood(hand) == 11
    arr = arrange(hand)
    assert arr.melds == (tuple(cards("7♠ 7♥ 7♣")),)
    assert arr.deadwood == tuple(cards("5♠ 6♠"))
    assert str(arr) == "7♠ 7♥ 7♣ · 5♠ 6♠"


def test_melds_recognised() -> None:
    assert is_set("7♣ 7♥ 7♠")
    assert is_set("kc kd kh ks")
    assert not is_set("7♣ 7♥")
    assert not is_set("7♣ 7♥ 8♠")
    assert is_run("A♠ 2♠ 3♠")
    assert is_run(["4d", "5d", "6d", "7d"])
    assert is_run(cards("9♥ 10♥ J♥ Q♥ K♥"))
    assert not is_run("Q♠ K♠ A♠")
    assert not is_run("K♠ A♠ 2♠")
    assert not is_run("K♠ A♥ 2♥")  # card numbers 12, 13, 14 are not one suit
    assert not is_run("4d 5d 7d")
    assert not is_run("4d 5d 6c")
    assert is_meld("Th Jh Qh") and is_meld("2c 2d 2s") and not is_meld("2c 3d 4s")
    assert not is_meld([])


def test_aces_are_low() -> None:
    assert min_deadwood("A♥ 2♥ 3♥") == 0
    assert min_deadwood("Q♥ K♥ A♥") == 21
    assert min_deadwood("K♥ A♥ 2♥") == 13


def test_string_inputs_in_every_form() -> None:
    forms = ["10♥", "Th", "th", "10H", "qs", "Q♠", "A♠", "as", "7c", "7♣ ", " 7♧", "7♣\ufe0f"]
    parsed = [parse_card(f) for f in forms]
    assert min_deadwood(["10♥", "J♥", "qh"]) == 0
    assert min_deadwood("7c 7h 7s 5s 6s") == 11
    assert min_deadwood("7c, 7h, 7s, 5s, 6s") == 11
    assert min_deadwood(["7c", 19, DECK[6], "5♠", 5]) == 11
    assert min_deadwood(c for c in [19, 32, 45]) == 0
    assert parsed[0] == parsed[1] == parsed[2] == parsed[3]
    hand = ["As", "2s", "3s", "Kd", "Kh", "Kc", "9h", "Th", "Jh", "qd", "2c"]
    ints = [int(parse_card(c)) for c in hand]
    assert best_discard(hand) == best_discard(ints) == best_discard([DECK[i] for i in ints])
    assert lay_off([["5h", "6h", "7h"]], ["8h", "9h", "2c"]) == 2
    assert lay_off([[17, 18, 19]], "8♥ 9♥ 2♣") == 2


def test_bad_cards_raise() -> None:
    with pytest.raises(CardError):
        min_deadwood(["7c", "zz"])
    with pytest.raises(CardError):
        min_deadwood(["7c", "7c", "zz"])
    with pytest.raises(CardError):
        min_deadwood([52])
    with pytest.raises(CardError):
        min_deadwood([-1, 3])
    with pytest.raises(CardError):
        lay_off([["5h", "6h", "8h"]], ["2c"])
    with pytest.raises(CardError):
        lay_off([["5h", "6h", "7h"]], ["7h", "2c"])
    with pytest.raises(CardError):
        lay_off([["5h", "6h", "7h"], ["7h", "7c", "7d"]], ["2c"])


def test_one_deck_functions_refuse_a_repeated_card() -> None:
    # Cards from several decks are for min_deadwood, best_discard, discard_options and
    # arrange (tests/gin/test_multiset.py); knocking and laying off are one-deck rules.
    repeated = [
        lambda: min_arrangements([1, 1, 2]),
        lambda: min_arrangements(["7c", "7♣"]),
        lambda: is_big_gin("as as 2s 3s 4s 5h 5d 5c 9d td jd"),
        lambda: is_set("7c 7c 7h"),
        lambda: is_meld([5, 6, 7, 7]),
        lambda: lay_off([["5h", "6h", "7h"]], ["2c", "2c"]),
        lambda: lay_off([["5h", "5h", "6h", "7h"]], ["2c"]),
        lambda: best_lay_off([["5h", "6h", "7h"]], ["2c", "Kd", "2♣"]),
        lambda: knocker_arrangement(KNOCKER + " 4s", "2c"),
        lambda: knocker_arrangement(KNOCKER, "2c 2c"),
    ]
    for call in repeated:
        with pytest.raises(CardError, match=r"is listed twice\.$"):
            call()
    with pytest.raises(CardError, match=r"^2♣ is listed twice\.$"):
        lay_off([["5h", "6h", "7h"]], ["Kd", "2c", "3d", "2♣"])


def test_empty_and_tiny_hands() -> None:
    assert min_deadwood([]) == 0
    assert arrange([]) == Arrangement((), ())
    assert str(arrange([])) == ""
    assert min_deadwood(["Kc"]) == 10
    assert best_discard(["Kc"]) == (parse_card("Kc"), 0)
    with pytest.raises(CardError):
        best_discard([])


# --- min_deadwood ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "size", "count"),
    [
        ("random", 10, 2500),
        ("random", 11, 1000),
        ("rich", 10, 2500),
        ("rich", 11, 1000),
        ("adversarial", 10, 2500),
        ("adversarial", 11, 1500),
    ],
)
def test_min_deadwood_matches_reference(kind: str, size: int, count: int) -> None:
    for hand in hands(1000 + size, count, size, kind):
        assert min_deadwood(hand) == ref.min_deadwood(hand), hand


def test_min_deadwood_hand_made() -> None:
    # A four of a kind that has to be split so that a run can take one of its cards.
    assert min_deadwood("7s 7h 7d 7c 8c 9c 5d") == 5
    # ... or two of them: three runs share the sevens and one seven is left.
    assert min_deadwood("7s 7h 7d 7c 5s 6s 8h 9h 8d 9d") == 7
    # One card in a set and a run at once: the set wins here.
    assert min_deadwood("5h 6h 7h 7s 7c") == 11
    # Long runs, and two runs in one suit.
    assert min_deadwood("as 2s 3s 4s 5s 6s 7s 8s 9s ts") == 0
    assert min_deadwood("as 2s 3s 5s 6s 7s 9s ts js kd") == 10
    assert min_deadwood("qs ks as 2s 3s") == 20


# --- best_discard and discard_options -------------------------------------------------------


@pytest.mark.parametrize(("kind", "count"), [("random", 500), ("rich", 600), ("adversarial", 900)])
def test_best_discard_matches_reference(kind: str, count: int) -> None:
    for hand in hands(2000, count, 11, kind):
        got = best_discard(hand)
        assert got == ref.best_discard(hand), hand
        assert got[0] is None or type(got[0]) is Card


def test_discard_options_match_reference() -> None:
    for kind in ("random", "rich", "adversarial"):
        for hand in hands(3000, 150, 11, kind):
            options = discard_options(hand)
            assert options == ref.discard_options(hand), hand
            assert list(options) == sorted(hand)


def test_best_discard_agrees_with_options() -> None:
    for kind in ("random", "rich", "adversarial"):
        for hand in hands(3100, 1000, 11, kind):
            card, left = best_discard(hand)
            if card is None:
                assert left == 0 and min_deadwood(hand) == 0
                continue
            options = discard_options(hand)
            assert left == min(options.values()) == options[card]
            ties = [c for c, v in options.items() if v == left]
            assert card == max(ties, key=lambda c: (card_value(c), int(c)))


def test_best_discard_tie_rule() -> None:
    melded = "as 2s 3s 5h 5d 5c 9d td jd"
    assert best_discard(f"{melded} ks kd") == (parse_card("kd"), 10)
    # Equal value: the higher card number wins, so 10♣ goes before K♠.
    assert best_discard(f"{melded} ks tc") == (parse_card("tc"), 10)
    # A higher value beats a higher card number.
    assert best_discard(f"{melded} 9s 8c") == (parse_card("9s"), 8)


def test_big_gin() -> None:
    big = "as 2s 3s 4s 5h 5d 5c 9d td jd qd"
    assert is_big_gin(big)
    assert best_discard(big) == (None, 0)
    assert not is_big_gin("as 2s 3s 4s 5h 5d 5c 9d td jd")  # ten cards: gin, not Big Gin
    assert not is_big_gin("as 2s 3s 4s 5h 5d 5c 9d td jd kc")
    assert best_discard("as 2s 3s 4s 5h 5d 5c 9d td jd kc") == (parse_card("kc"), 0)


# --- arrangements ---------------------------------------------------------------------------


def test_min_arrangements_are_exactly_the_best() -> None:
    for kind in ("random", "rich", "adversarial"):
        for hand in hands(4000, 500, 10, kind):
            arrs = min_arrangements(hand)
            best = min_deadwood(hand)
            for arr in arrs:
                check_arrangement(arr, hand)
                assert arr.deadwood_value == best
            got = {frozenset(frozenset(m) for m in arr.melds) for arr in arrs}
            assert len(got) == len(arrs)
            assert got == ref.min_meld_sets(hand), hand
            assert arrange(hand) == arrs[0]


def test_arrange_tie_break() -> None:
    # A run of six stays one meld rather than two runs of three.
    arr = arrange("4h 5h 6h 7h 8h 9h kc")
    assert arr.melds == (tuple(cards("4h 5h 6h 7h 8h 9h")),)
    assert len(min_arrangements("4h 5h 6h 7h 8h 9h kc")) == 2
    # The same cards in any order give the same arrangement.
    hand = cards("4s 5s 6s 5h 5d 9c tc jc qc kc")
    shuffled = list(hand)
    random.Random(7).shuffle(shuffled)
    assert arrange(hand) == arrange(shuffled) == arrange(reversed(hand))


def test_arrangement_str() -> None:
    arr = arrange("7h 8h 9h ks kd kc 2c 5d")
    assert str(arr) == "K♠ K♦ K♣ · 7♥ 8♥ 9♥ · 5♦ 2♣"
    assert str(arrange("7h 8h 9h")) == "7♥ 8♥ 9♥"
    assert str(arrange("2c 5d")) == "5♦ 2♣"


# --- laying off -----------------------------------------------------------------------------


def _knock_cases(seed: int, count: int, rich: bool) -> list[tuple[list[list[int]], Hand]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        knocker = knocking_hand(rng)
        melds = [[int(c) for c in m] for m in arrange(knocker).melds]
        make = meld_rich_hand if rich else random_hand
        out.append((melds, make(rng, 10, knocker)))
    return out


@pytest.mark.parametrize(("rich", "count"), [(False, 2000), (True, 2000)])
def test_lay_off_matches_reference_on_knocking_hands(rich: bool, count: int) -> None:
    for melds, defender in _knock_cases(5000 + rich, count, rich):
        assert lay_off(melds, defender) == ref.lay_off(melds, defender), (melds, defender)


def test_lay_off_matches_reference_on_crowded_hands() -> None:
    rng = random.Random(6000)
    for _ in range(1500):
        melds, defender = lay_off_case(rng)
        expected = ref.lay_off(melds, defender)
        assert lay_off(melds, defender) == expected, (melds, defender)
        res = best_lay_off(melds, defender)
        check_lay_off_result(melds, defender, res)
        assert res.deadwood_value == expected


def test_best_lay_off_results_are_playable() -> None:
    for melds, defender in _knock_cases(7000, 500, True):
        res = best_lay_off(melds, defender)
        check_lay_off_result(melds, defender, res)
        assert res.deadwood_value == lay_off(melds, defender)


def _lay(melds: str, defender: str) -> LayOffResult:
    return best_lay_off([cards(m) for m in melds.split("|")], cards(defender))


def _shown(res: LayOffResult) -> list[tuple[str, int]]:
    return [(str(c), i) for c, i in res.layoffs]


def test_chains_at_both_ends() -> None:
    res = _lay("5h 6h 7h", "3h 4h 8h 9h kc")
    assert res.deadwood_value == 10
    assert _shown(res) == [("8♥", 0), ("9♥", 0), ("4♥", 0), ("3♥", 0)]
    assert lay_off([cards("5h 6h 7h")], cards("3h 8h 9h 10h Jh")) == 3


def test_fourth_card_onto_a_set_of_three() -> None:
    res = _lay("ks kh kd|2c 3c 4c", "kc 5c 9d")
    assert _shown(res) == [("K♣", 0), ("5♣", 1)]
    assert res.deadwood_value == 9
    assert lay_off([cards("ks kh kd kc")], cards("qs")) == 10  # nothing onto four of a kind


def test_card_better_kept_in_own_meld() -> None:
    res = _lay("5h 6h 7h", "8h 8s 8d 2c")
    assert res.layoffs == ()
    assert res.arrangement.melds == (tuple(cards("8s 8h 8d")),)
    assert res.deadwood_value == 2
    res = _lay("8s 8h 8d", "8c 9c tc 3d")
    assert res.layoffs == ()
    assert res.deadwood_value == 3


def test_card_better_laid_off_than_in_own_meld() -> None:
    # 6-7-8♣ would be a run of the defender's own; laying 6♣ 7♣ off and keeping the eights
    # as a set leaves nothing.
    res = _lay("7s 7h 7d|3c 4c 5c", "6c 7c 8c 8s 8d")
    assert res.deadwood_value == 0
    assert _shown(res) == [("6♣", 1), ("7♣", 1)]
    assert res.arrangement.melds == (tuple(cards("8s 8d 8c")),)
    # The ten of hearts does better in a set while 8♥ 9♥ go onto the knocker's run.
    res = _lay("5h 6h 7h", "8h 9h th ts td")
    assert res.deadwood_value == 0
    assert _shown(res) == [("8♥", 0), ("9♥", 0)]
    # Equal either way: the defender keeps own melds rather than laying off.
    res = _lay("5h 6h 7h", "ah 2h 3h 4h")
    assert res.deadwood_value == 0
    assert res.layoffs == ()


def test_two_knocker_runs_in_one_suit() -> None:
    res = _lay("2h 3h 4h|8h 9h th", "5h 7h kc")
    assert res.deadwood_value == 10
    assert sorted(_shown(res)) == [("5♥", 0), ("7♥", 1)]
    assert lay_off([cards("2h 3h 4h"), cards("6h 7h 8h")], cards("5h")) == 0
    assert lay_off([cards("2h 3h 4h"), cards("8h 9h th")], cards("ah 5h 6h 7h jh qh kh")) == 0
    res = _lay("2h 3h 4h|8h 9h th", "ah jh qh kh")
    assert res.deadwood_value == 0


def test_no_lay_off_onto_own_melds_or_around_the_corner() -> None:
    assert lay_off([cards("jh qh kh")], cards("ah 2h")) == 3  # K-A does not connect
    assert lay_off([cards("ah 2h 3h")], cards("kh")) == 10
    # 8♣ only follows 7♣ on a run; 7♣ on the set of sevens opens nothing.
    assert lay_off([cards("7s 7h 7d"), cards("3c 4c 5c")], cards("7c 8c")) == 8


# --- the knocker's arrangement (rule book section 7) ----------------------------------------


KNOCKER = "4s 5s 6s 5h 5d 9c tc jc qc kc"


def test_knocker_has_two_equal_arrangements() -> None:
    arrs = min_arrangements(KNOCKER)
    assert min_deadwood(KNOCKER) == 10
    assert {str(a) for a in arrs} == {
        "5♠ 5♥ 5♦ · 9♣ 10♣ J♣ Q♣ K♣ · 4♠ 6♠",
        "4♠ 5♠ 6♠ · 9♣ 10♣ J♣ Q♣ K♣ · 5♥ 5♦",
    }


def test_knocker_arrangement_leaves_defender_most() -> None:
    set_arr = "5♠ 5♥ 5♦ · 9♣ 10♣ J♣ Q♣ K♣ · 4♠ 6♠"
    run_arr = "4♠ 5♠ 6♠ · 9♣ 10♣ J♣ Q♣ K♣ · 5♥ 5♦"
    # The defender's 5♣ would go onto the set of fives: the knocker shows the run instead.
    defender = "5c 2d 3h ah 8d kd kh qh jh ts"
    arr = knocker_arrangement(KNOCKER, defender)
    assert str(arr) == run_arr
    by_name = {str(a): a for a in min_arrangements(KNOCKER)}
    assert lay_off(by_name[set_arr].melds, defender) < lay_off(by_name[run_arr].melds, defender)
    # The defender's 7♠ 8♠ would go onto the run of spades: the knocker shows the set.
    defender = "7s 8s 2d 3h ah 8d kd kh qh jh"
    assert str(knocker_arrangement(KNOCKER, defender)) == set_arr
    # Nothing to lay off either way: the first arrangement in the fixed order.
    defender = "2d 3h ah 8d kd kh qh jh ts 9s"
    assert knocker_arrangement(KNOCKER, defender) == min_arrangements(KNOCKER)[0]


def test_knocker_arrangement_matches_search() -> None:
    rng = random.Random(8000)
    for _ in range(300):
        knocker = adversarial_hand(rng, 10)
        defender = random_hand(rng, 10, knocker)
        arr = knocker_arrangement(knocker, defender)
        arrs = min_arrangements(knocker)
        left = [ref.lay_off(a.melds, defender) for a in arrs]
        assert arr in arrs
        assert ref.lay_off(arr.melds, defender) == max(left)
        assert arr == arrs[left.index(max(left))]


# --- properties -----------------------------------------------------------------------------

card_lists = st.lists(st.integers(0, 51), max_size=11, unique=True)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(card_lists)
def test_arrangement_partitions_the_hand(hand: list[int]) -> None:
    arr = arrange(hand)
    check_arrangement(arr, hand)
    assert arr.deadwood_value == min_deadwood(hand)
    assert arr.deadwood_value == sum(card_value(c) for c in arr.deadwood)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 51), min_size=11, max_size=11, unique=True))
def test_best_discard_property(hand: list[int]) -> None:
    card, left = best_discard(hand)
    if card is None:
        assert is_big_gin(hand)
    else:
        assert card in hand
        assert min_deadwood([c for c in hand if c != card]) == left
        assert left == min(discard_options(hand).values())


@st.composite
def lay_off_inputs(draw: st.DrawFn) -> tuple[list[list[int]], list[int]]:
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    if draw(st.booleans()):
        return lay_off_case(rng)
    knocker = knocking_hand(rng)
    return [list(m) for m in arrange(knocker).melds], random_hand(rng, 10, knocker)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(lay_off_inputs())
def test_lay_off_property(case: tuple[list[list[int]], list[int]]) -> None:
    melds, defender = case
    res = best_lay_off(melds, defender)
    check_lay_off_result(melds, defender, res)
    assert res.deadwood_value == lay_off(melds, defender) == ref.lay_off(melds, defender)
    assert res.deadwood_value <= min_deadwood(defender)

"""The showdown picture: built from real finished hands, drawn as a sane PNG, cached by value."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from bot.art.bench import example_hand, play_out
from bot.art.showdown import (
    LAID_OFF,
    MAX_WIDTH,
    SeatPicture,
    ShowdownPicture,
    draw_showdown,
    picture_from_hand,
    render_showdown,
)
from bot.gin.cards import parse_card, parse_cards
from bot.gin.hand import Action, ActionKind, Hand, Outcome, Phase
from bot.gin.settings import Settings
from tests.gin.helpers import NAMES, position

A, B = 0, 1
KNOCKER_WITH_SIX = "2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠"  # knock with K♠: deadwood 6♣ = 6
GIN_HAND = "2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ Q♦ K♠"  # discard K♠: all ten cards meld


def knocked(alice: str, bob: str, pile: str = "4♥") -> Hand:
    """Alice knocks with K♠ against Bob's cards: the hand is over."""
    hand = position(alice, bob, discard_pile=pile, phase=Phase.DISCARD)
    hand.apply(Action(ActionKind.KNOCK, A, parse_card("K♠")))
    assert hand.is_over
    return hand


def knock() -> Hand:
    return knocked(KNOCKER_WITH_SIX, "Q♦ 5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣")


def undercut() -> Hand:
    return knocked(KNOCKER_WITH_SIX, "Q♦ 5♠ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 2♥ 3♥")


def gin() -> Hand:
    return knocked(GIN_HAND, "K♦ 5♠ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 2♥ 4♥", pile="4♦")


def picture(hand: Hand) -> ShowdownPicture:
    made = picture_from_hand(hand, NAMES)
    assert made is not None
    return made


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def gold_pixels(image: Image.Image) -> int:
    """Pixels of the lay-off outline's gold, give or take what the palette did to it."""
    data = image.tobytes()
    near = [range(max(0, c - 24), min(256, c + 25)) for c in LAID_OFF]
    return sum(
        1
        for i in range(0, len(data), 3)
        if data[i] in near[0] and data[i + 1] in near[1] and data[i + 2] in near[2]
    )


def assert_sane_png(data: bytes) -> Image.Image:
    image = open_png(data)
    width, height = image.size
    assert 600 <= width <= MAX_WIDTH
    assert 300 <= height <= 700
    assert 5_000 < len(data) < 1_000_000
    return image


@pytest.mark.parametrize(
    ("make", "outcome"),
    [(knock, Outcome.KNOCK), (undercut, Outcome.UNDERCUT), (gin, Outcome.GIN)],
)
def test_each_kind_of_showdown_draws_a_sane_png(make: Callable[[], Hand], outcome: Outcome) -> None:
    hand = make()
    assert hand.result is not None and hand.result.outcome is outcome
    assert_sane_png(render_showdown(picture(hand)))


def test_the_picture_holds_the_engine_s_showdown() -> None:
    hand = knock()
    result = hand.result
    assert result is not None
    shown = picture(hand)
    assert shown.knocker.name == "Alice" and shown.defender.name == "Bob"
    assert shown.knocker.melds == result.knocker_arrangement.melds  # type: ignore[union-attr]
    assert shown.knocker.deadwood == tuple(parse_cards("6♣"))
    assert (shown.knocker.deadwood_count, shown.defender.deadwood_count) == (6, 19)
    assert shown.defender.deadwood == tuple(parse_cards("K♥ 9♣"))
    assert shown.title == "Alice knocks and wins"
    assert shown.result == "Alice knocks with 6 · Bob 19 · Alice scores 13"


def test_lay_offs_are_in_the_picture_and_outlined() -> None:
    hand = knock()
    shown = picture(hand)
    assert shown.defender.layoffs == hand.result.layoffs  # type: ignore[union-attr]
    assert sorted(str(card) for card, _ in shown.defender.layoffs) == ["5♠", "Q♦"]
    melds = shown.knocker.melds
    for card, onto in shown.defender.layoffs:
        assert card not in melds[onto] and card not in shown.defender.deadwood
    assert shown.knocker.layoffs == ()
    assert gold_pixels(open_png(render_showdown(shown))) > 200
    assert gold_pixels(open_png(render_showdown(picture(gin())))) == 0  # none against gin


def test_undercut_and_gin_lines() -> None:
    assert picture(undercut()).result == (
        "Alice knocks with 6 · Bob 5 · Bob undercuts and scores 26"
    )
    shown = picture(gin())
    assert shown.title == "Alice goes gin" and shown.defender.layoffs == ()
    assert shown.knocker.deadwood == () and shown.knocker.deadwood_count == 0
    assert shown.result == "Alice goes gin · Bob 21 · Alice scores 46"


def test_names_come_by_seat_and_lines_can_be_given() -> None:
    shown = picture_from_hand(knock(), ["Ann", "Ben"], title="Hand 3", result="Ann +13")
    assert shown is not None
    assert (shown.knocker.name, shown.defender.name) == ("Ann", "Ben")
    assert (shown.title, shown.result) == ("Hand 3", "Ann +13")


def test_no_picture_without_a_showdown() -> None:
    playing = position(KNOCKER_WITH_SIX, "Q♦ 5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣", phase=Phase.DISCARD)
    assert picture_from_hand(playing, NAMES) is None
    void = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ Q♥ 5♦ J♠",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="J♥",
        stock_size=2,
        phase=Phase.DISCARD,
        settings=Settings(void_stock=2),
    )
    void.apply(Action(ActionKind.DISCARD, A, parse_card("J♠")))
    assert void.result is not None and void.result.outcome is Outcome.VOID
    assert picture_from_hand(void, NAMES) is None


def test_a_cache_hit_returns_the_same_bytes() -> None:
    first = render_showdown(picture(knock()))
    again = render_showdown(picture(knock()))  # an equal picture built afresh
    assert again is first
    assert draw_showdown(picture(knock())) == first  # and drawing is deterministic


def test_different_showdowns_give_different_images() -> None:
    images = {render_showdown(picture(make())) for make in (knock, undercut, gin)}
    assert len(images) == 3
    renamed = picture_from_hand(knock(), ("Alice", "Robert"))
    assert renamed is not None
    assert render_showdown(renamed) not in images


def test_played_out_hands_all_draw() -> None:
    seen = set()
    for n in range(12):
        hand = play_out(f"showdown-test-{n}", gin_hunter=n % 3 == 0)
        shown = picture_from_hand(hand, NAMES)
        if shown is None:
            assert hand.result is not None and hand.result.outcome is Outcome.VOID
            continue
        seen.add(hand.result.outcome)  # type: ignore[union-attr]
        assert_sane_png(render_showdown(shown))
    assert Outcome.KNOCK in seen


def test_a_crowded_row_and_long_names_stay_inside_the_width() -> None:
    # Runs laid off at both ends: the knocker's row holds 20 cards.
    knocker = SeatPicture(
        "Wolfeschlegelsteinhausenbergerdorff " * 3,
        tuple(tuple(parse_cards(m)) for m in ("4♠ 5♠ 6♠", "4♥ 5♥ 6♥", "4♦ 5♦ 6♦")),
        tuple(parse_cards("A♣")),
        1,
    )
    laid = [(c, 0) for c in parse_cards("2♠ 3♠ 7♠ 8♠")]
    laid += [(c, 1) for c in parse_cards("2♥ 3♥ 7♥")] + [(c, 2) for c in parse_cards("3♦ 7♦ 8♦")]
    defender = SeatPicture("Bob" * 40, (), tuple(parse_cards("K♣ Q♣ J♣")), 30, tuple(laid))
    shown = ShowdownPicture("A very long title " * 10, knocker, defender, "x" * 300)
    image = assert_sane_png(draw_showdown(shown))
    assert image.width == MAX_WIDTH


def test_a_picture_is_checked_and_hashable() -> None:
    shown = picture(knock())
    assert hash(shown) == hash(picture(knock()))
    with pytest.raises(ValueError, match="meld"):
        ShowdownPicture(
            "t", shown.knocker, SeatPicture("Bob", (), (), 0, ((parse_card("A♠"), 5),)), "r"
        )
    with pytest.raises(ValueError, match="defender"):
        ShowdownPicture("t", shown.defender, shown.defender, "r")


def test_the_sample_hand_is_the_worked_example() -> None:
    result = example_hand().result
    assert result is not None and result.outcome is Outcome.KNOCK
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (6, 19, 13)

"""The coach's review as text: every kind of choice in a sentence, in every language, with
the cards given and no others."""

from __future__ import annotations

import pytest

from bot.gin.cards import parse_card
from bot.gin.coach import Mistake, Review
from bot.gin.hand import Action, ActionKind
from bot.i18n import LANGUAGES, speaking
from bot.render.coach import hint_text, mistake_line, points_text, review_panel

C = parse_card
HELD = (C("9C"), C("7D"), C("2S"), C("3S"), C("4S"), C("KH"), C("KD"), C("KC"), C("5H"), C("6H"))


def mistake(chosen: Action, better: Action, points: float = 4.2, turn: int = 5) -> Mistake:
    return Mistake(3, turn, HELD, C("QH"), chosen, better, points)


DISCARD_9C = Action(ActionKind.DISCARD, 0, C("9C"))
DISCARD_7D = Action(ActionKind.DISCARD, 0, C("7D"))
KNOCK_9C = Action(ActionKind.KNOCK, 0, C("9C"))
KNOCK_7D = Action(ActionKind.KNOCK, 0, C("7D"))
STOCK = Action(ActionKind.DRAW_STOCK, 0)
TAKE = Action(ActionKind.DRAW_DISCARD, 0)
PASS = Action(ActionKind.PASS, 0)
CHOICES = [
    (
        DISCARD_7D,
        DISCARD_9C,
        "you kept 9♣ and discarded 7♦; discarding 9♣ was worth about 4 points more.",
    ),
    (
        DISCARD_7D,
        KNOCK_9C,
        "you discarded 7♦; knocking and discarding 9♣ was worth about 4 points more.",
    ),
    (KNOCK_7D, DISCARD_9C, "you knocked, discarding 7♦; playing on and discarding 9♣ was worth"),
    (KNOCK_7D, KNOCK_9C, "you knocked, discarding 7♦; knocking and discarding 9♣ instead"),
    (STOCK, TAKE, "you drew from the stock; taking Q♥ was worth about 4 points more."),
    (TAKE, STOCK, "you took Q♥; drawing from the stock was worth about 4 points more."),
    (PASS, TAKE, "you passed on Q♥; taking it was worth about 4 points more."),
    (TAKE, PASS, "you took Q♥; passing was worth about 4 points more."),
]


@pytest.mark.parametrize(("chosen", "better", "said"), CHOICES)
def test_each_kind_of_choice_in_a_sentence(chosen: Action, better: Action, said: str) -> None:
    line = mistake_line(mistake(chosen, better))
    assert line.startswith("**Hand 3, turn 5:** ")
    assert said in line


def test_points_are_whole_and_at_least_one() -> None:
    assert points_text(1.0) == "about 1 point"
    assert points_text(0.6) == "about 1 point"
    assert points_text(4.5) == "about 4 points"  # rounded half to even
    assert points_text(12.7) == "about 13 points"


def test_a_review_page_lists_the_choices_with_the_hand_then() -> None:
    review = Review(
        3, 0, 0, 9, (mistake(DISCARD_7D, DISCARD_9C, 6.0), mistake(STOCK, TAKE, 2.0, 2))
    )
    panel = review_panel(review, match_id=12)
    assert panel.title == "Review of hand 3 (match #12)"
    lines = panel.body.splitlines()
    assert lines[0] == "Where I would have played differently (2 choices):"
    assert lines[1].startswith("**Hand 3, turn 5:** you kept 9♣")
    assert lines[2] == "› your hand: " + " ".join(str(c) for c in HELD)
    assert lines[3].startswith("**Hand 3, turn 2:** you drew from the stock")
    assert "hidden cards stay hidden" in panel.footer


def test_a_clean_hand_is_praised() -> None:
    panel = review_panel(Review(1, 0, 0, 7, ()))
    assert panel.title == "Review of hand 1"
    assert "each of your 7 decisions was as good as mine" in panel.body


def test_cards_go_through_the_face_given() -> None:
    review = Review(3, 0, 0, 9, (mistake(DISCARD_7D, DISCARD_9C),))
    panel = review_panel(review, lambda card: f"<{card}>")
    assert "you kept <9♣> and discarded <7♦>" in panel.body
    assert "<Q♥>" not in panel.body  # the upcard had no part in a discard


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_sentence_in_every_language(language: str) -> None:
    english = [mistake_line(mistake(c, b)) for c, b, _ in CHOICES]
    clean = review_panel(Review(1, 0, 0, 1, ()))
    moves = (DISCARD_9C, KNOCK_9C, STOCK, TAKE, PASS)
    english_hints = [hint_text(a, C("QH")) for a in moves]
    with speaking(language):
        lines = [mistake_line(mistake(c, b)) for c, b, _ in CHOICES]
        page = review_panel(Review(3, 0, 0, 9, (mistake(DISCARD_7D, DISCARD_9C),)), match_id=4)
        praise = review_panel(Review(1, 0, 0, 1, ()))
        hints = [hint_text(a, C("QH")) for a in moves]
    for line, original in zip(lines, english, strict=True):
        assert line != original
        assert ("9♣" in line and "7♦" in line) or "Q♥" in line
    assert praise.title != clean.title and praise.body != clean.body
    assert page.footer != review_panel(Review(3, 0, 0, 9, ())).footer
    assert "4" in page.title and "3" in page.title
    for shown, original in zip(hints, english_hints, strict=True):
        assert shown.startswith("🎓 ") and shown != original

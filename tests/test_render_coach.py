"""The coach's review as text: every kind of choice in a sentence, in every language, with
the cards given and no others."""

from __future__ import annotations

import pytest

from bot.gin.ai.advice import Advice, Facts
from bot.gin.cards import parse_card
from bot.gin.coach import Mistake, Review
from bot.gin.hand import Action, ActionKind
from bot.i18n import LANGUAGES, speaking
from bot.render.coach import hint_text, mistake_line, points_text, review_panel, why_line

C = parse_card
HELD = (C("9C"), C("7D"), C("2S"), C("3S"), C("4S"), C("KH"), C("KD"), C("KC"), C("5H"), C("6H"))


def mistake(chosen: Action, better: Action, points: float = 4.2, turn: int = 5) -> Mistake:
    return Mistake(
        3, turn, HELD, C("QH"), chosen, better, points, 0.5, facts(chosen), facts(better)
    )


def facts(action: Action) -> Facts:
    """Facts as the coach finds them: a throw's deadwood and cards to come, a draw's upcard."""
    if action.kind is ActionKind.KNOCK:
        return Facts(left=5, joining=3, gin_cards=2, undercut=4)
    if action.kind is ActionKind.DISCARD:
        return Facts(left=5 if action.card == C("9C") else 7, joining=6, gin_cards=0)
    return Facts(left=31, joins=False)


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
    assert lines[2].startswith("› why: discarding 9♣ leaves deadwood 5")
    assert lines[3] == "› your hand: " + " ".join(str(c) for c in HELD)
    assert lines[4].startswith("**Hand 3, turn 2:** you drew from the stock")
    assert lines[5] == "› why: taking Q♥ brings your deadwood down to 31."
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


REASONS = [
    (DISCARD_7D, DISCARD_9C, "discarding 9♣ leaves deadwood 5 and 6 unseen cards that join"),
    (DISCARD_7D, KNOCK_9C, "your deadwood was 5 after discarding 9♣, low enough to knock"),
    (KNOCK_7D, DISCARD_9C, "your knock at deadwood 5 is undercut by about 4 in 10"),
    (KNOCK_7D, KNOCK_9C, "knocking with 9♣ keeps deadwood 5; with 7♦, 5."),
    (STOCK, TAKE, "taking Q♥ brings your deadwood down to 31."),
    (TAKE, STOCK, "Q♥ joins nothing in your hand."),
    (PASS, TAKE, "taking Q♥ brings your deadwood down to 31."),
    (TAKE, PASS, "Q♥ joins nothing in your hand."),
]


@pytest.mark.parametrize(("chosen", "better", "said"), REASONS)
def test_each_choice_has_a_reason_to_check(chosen: Action, better: Action, said: str) -> None:
    line = why_line(mistake(chosen, better))
    assert line.startswith("› why: ") and said in line


def test_a_knock_passed_up_for_gin_counts_the_cards() -> None:
    knocked = Mistake(
        3, 5, HELD, None, KNOCK_7D, DISCARD_9C, 6.0, 0.5,
        Facts(left=5, undercut=7), Facts(left=5, gin_cards=4),
    )  # fmt: skip
    assert why_line(knocked) == (
        "› why: after discarding 9♣, 4 unseen cards give you gin; your knock at deadwood 5 is "
        "undercut by about 7 in 10 of the hands your opponent may hold."
    )


def alike(near_chosen: int, near_better: int) -> Mistake:
    """Two discards that leave the same deadwood and the same cards to meld with."""
    return Mistake(
        3, 5, HELD, None, DISCARD_7D, DISCARD_9C, 3.0, 0.5,
        Facts(left=9, joining=4, near=near_chosen), Facts(left=9, joining=4, near=near_better),
    )  # fmt: skip


def test_two_throws_alike_are_told_apart_by_the_danger_of_the_card_thrown() -> None:
    """No "deadwood 9 and 4; … 9 and 4": the reason says what differs, the card that can
    help the opponent, or (when nothing a player can count differs) the search's finding."""
    assert why_line(alike(5, 2)) == (
        "› why: both leave deadwood 9 and 4 unseen cards that join a meld, but 7♦ can meld "
        "with 5 cards you have not seen (its rank, or near it in its suit) and 9♣ with 2: 7♦ "
        "is likelier to help your opponent."
    )
    for same in (alike(3, 3), alike(2, 5)):
        assert why_line(same) == (
            "› why: both leave deadwood 9 and 4 unseen cards that join a meld; played out "
            "over many imagined deals, discarding 9♣ scored better."
        )
    with speaking("de"):
        told = [why_line(alike(5, 2)), why_line(alike(3, 3))]
    assert told[0].startswith("› warum:") and "7♦" in told[0] and "5" in told[0]
    assert told[1].startswith("› warum:") and "9♣" in told[1]


HINTS = [
    (
        Advice(DISCARD_9C, Facts(left=12, joining=5, gin_cards=0)),
        "🎓 Coach: discard 9♣: it leaves deadwood 12, and 5 unseen cards join a meld.",
    ),
    (
        Advice(DISCARD_9C, Facts(left=4, gin_cards=4), Facts(left=4, undercut=2), int(C("9C"))),
        "🎓 Coach: don't knock yet: discard 9♣; 4 cards give you gin.",
    ),
    (
        Advice(DISCARD_9C, Facts(left=4, gin_cards=0), Facts(left=4, undercut=6), int(C("9C"))),
        "🎓 Coach: don't knock yet: discard 9♣; a knock at deadwood 4 would be undercut by about"
        " 6 in 10 of the hands your opponent may hold.",
    ),
    (Advice(KNOCK_9C, Facts(left=3)), "🎓 Coach: knock, discarding 9♣ (deadwood 3)."),
    (Advice(KNOCK_9C, Facts(left=0)), "🎓 Coach: go gin, discarding 9♣."),
    (Advice(STOCK, Facts(joins=False)), "🎓 Coach: draw from the stock: Q♥ joins nothing."),
    (Advice(TAKE, Facts(left=20, joins=True)), "🎓 Coach: take Q♥: it joins a meld."),
    (
        Advice(TAKE, Facts(left=20, joins=False)),
        "🎓 Coach: take Q♥: your deadwood goes down to 20.",
    ),
    (Advice(PASS, Facts(joins=False)), "🎓 Coach: pass on Q♥: it joins nothing."),
]


@pytest.mark.parametrize(("advice", "said"), HINTS)
def test_each_hint_in_a_line_with_its_reason(advice: Advice, said: str) -> None:
    assert hint_text(advice, C("QH")) == said


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_sentence_in_every_language(language: str) -> None:
    english = [mistake_line(mistake(c, b)) for c, b, _ in CHOICES]
    english_why = [why_line(mistake(c, b)) for c, b, _ in REASONS]
    clean = review_panel(Review(1, 0, 0, 1, ()))
    english_hints = [hint_text(a, C("QH")) for a, _ in HINTS]
    with speaking(language):
        lines = [mistake_line(mistake(c, b)) for c, b, _ in CHOICES]
        whys = [why_line(mistake(c, b)) for c, b, _ in REASONS]
        page = review_panel(Review(3, 0, 0, 9, (mistake(DISCARD_7D, DISCARD_9C),)), match_id=4)
        praise = review_panel(Review(1, 0, 0, 1, ()))
        hints = [hint_text(a, C("QH")) for a, _ in HINTS]
    for why, original in zip(whys, english_why, strict=True):
        assert why.startswith("› ") and why != original
    for line, original in zip(lines, english, strict=True):
        assert line != original
        assert ("9♣" in line and "7♦" in line) or "Q♥" in line
    assert praise.title != clean.title and praise.body != clean.body
    assert page.footer != review_panel(Review(3, 0, 0, 9, ())).footer
    assert "4" in page.title and "3" in page.title
    for shown, original in zip(hints, english_hints, strict=True):
        assert shown.startswith("🎓 ") and shown != original

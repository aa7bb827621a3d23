"""RULES.md section 1: the deck, card values and every text form of a card."""

import pytest

from bot.gin.cards import (
    CARD_BY_TEXT,
    DECK,
    SUIT_LETTERS,
    Card,
    _parse_text,
    card_value,
    format_cards,
    parse_card,
    parse_cards,
)
from bot.gin.errors import CardError


def test_deck_has_52_distinct_cards() -> None:
    assert len(DECK) == 52
    assert len({str(c) for c in DECK}) == 52


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("A♠", "A♠"),
        ("10♥", "10♥"),
        ("Td", "10♦"),
        ("th", "10♥"),
        ("qs", "Q♠"),
        ("7c", "7♣"),
        ("KC", "K♣"),
        ("j♦", "J♦"),
        (" 9 h ", "9♥"),
        ("A♠️", "A♠"),  # emoji presentation selector from phone keyboards
        ("10S", "10♠"),
        ("2♣", "2♣"),
    ],
)
def test_every_text_form_parses_to_the_canonical_card(text: str, canonical: str) -> None:
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "text", ["", "x", "11h", "1h", "0s", "Ax", "♠A", "10", "hello", "QQs", "Z♠"]
)
def test_anything_else_is_a_clear_error(text: str) -> None:
    with pytest.raises(CardError) as error:
        parse_card(text)
    assert "is not a card" in error.value.reason
    assert "10♥" in error.value.reason  # shows an example of what to type


def test_values_ace_low_faces_ten() -> None:
    assert [parse_card(t).value for t in ["A♠", "2♠", "9♦", "10♥", "J♣", "Q♣", "K♣"]] == [
        1,
        2,
        9,
        10,
        10,
        10,
        10,
    ]
    assert all(card_value(int(c)) == c.value for c in DECK)


def test_card_is_an_int_with_rank_and_suit() -> None:
    card = parse_card("Q♥")
    assert isinstance(card, Card) and isinstance(card, int)
    assert (card.rank, card.suit) == (11, 1)
    assert repr(card) == "Card(Q♥)"
    assert f"{card:>4}" == "  Q♥"


def test_parse_cards_and_format() -> None:
    hand = parse_cards("7h 8h, 9h Ks")
    assert format_cards(hand) == "7♥ 8♥ 9♥ K♠"
    assert parse_cards(["as", 0]) == [DECK[0], DECK[0]]
    with pytest.raises(CardError):
        parse_card(52)


def test_the_lookup_holds_every_compact_spelling_and_agrees_with_the_parser() -> None:
    for text, card in CARD_BY_TEXT.items():
        assert _parse_text(text) is card, text
    for card in DECK:
        rank = str(card)[:-1]
        letter = SUIT_LETTERS[card.suit]
        spellings = [str(card), rank + letter, rank.lower() + letter.lower(), str(card) + "\ufe0f"]
        if rank == "10":
            spellings += ["T" + letter, "t" + letter.lower(), "t" + str(card)[-1]]
        for text in spellings:
            assert CARD_BY_TEXT[text] is card, text
    assert CARD_BY_TEXT["Q♡"] is CARD_BY_TEXT["qh"] is parse_card("Q♥")
    # Spaces and other spellings go the long way, with the same answers and errors.
    assert parse_card(" 10 ♥ ") is parse_card("10♥")
    with pytest.raises(CardError):
        parse_card("10")

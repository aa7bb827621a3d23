"""The card emoji: 53 valid, distinct, small PNGs of Discord's size, named and coloured right."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.art import cards as art
from bot.art.cards import (
    BACK_NAME,
    SIZE,
    all_card_images,
    card_back,
    card_face,
    emoji_name,
)
from bot.gin.cards import DECK, parse_card

EMOJI_LIMIT = 256 * 1024


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGBA")


def pixels(image: Image.Image) -> list[tuple[int, ...]]:
    """(r, g, b, a) of every pixel of an RGBA image."""
    data = image.tobytes()
    return [tuple(data[i : i + 4]) for i in range(0, len(data), 4)]


def red_pixels(image: Image.Image) -> int:
    """Opaque pixels where red clearly dominates green and blue."""
    return sum(1 for r, g, b, a in pixels(image) if a > 200 and r > 150 and r > 2 * g and r > 2 * b)


def dark_pixels(image: Image.Image) -> int:
    return sum(1 for r, g, b, a in pixels(image) if a > 200 and max(r, g, b) < 80)


def test_every_image_is_a_small_square_png() -> None:
    images = all_card_images()
    assert len(images) == 53
    for name, data in images.items():
        assert len(data) < EMOJI_LIMIT, name
        assert open_png(data).size == (SIZE, SIZE) == (128, 128)


def test_every_image_differs_from_every_other() -> None:
    images = all_card_images()
    assert len(set(images.values())) == 53
    pixels = {open_png(data).tobytes() for data in images.values()}
    assert len(pixels) == 53


@pytest.mark.parametrize(
    ("card", "name"),
    [("7♥", "gin_7H"), ("10♥", "gin_10H"), ("K♠", "gin_KS"), ("A♦", "gin_AD"), ("Q♣", "gin_QC")],
)
def test_emoji_names(card: str, name: str) -> None:
    assert emoji_name(parse_card(card)) == name


def test_names_cover_the_deck_and_the_back() -> None:
    images = all_card_images()
    assert BACK_NAME == "gin_back"
    assert list(images) == [emoji_name(c) for c in DECK] + [BACK_NAME]
    for card in DECK:
        assert images[emoji_name(card)] == card_face(card)
        # Discord's emoji names: 2 to 32 letters, digits or underscores.
        assert emoji_name(card).replace("_", "").isalnum() and len(emoji_name(card)) <= 32
    assert images[BACK_NAME] == card_back()


def test_red_suits_are_red_and_black_suits_have_no_red() -> None:
    for card in DECK:
        reds = red_pixels(open_png(card_face(card)))
        if card.suit in (1, 2):  # ♥ ♦
            assert reds > 1500, card
        else:
            assert reds == 0, card


def test_faces_keep_a_transparent_margin_and_an_opaque_card() -> None:
    image = open_png(card_face(parse_card("Q♠")))
    alpha = image.getchannel("A")
    assert alpha.getpixel((0, 64)) == 0  # beside the card
    assert alpha.getpixel((64, 64)) == 255  # on it


def test_faces_are_cached_and_deterministic() -> None:
    card = parse_card("9♦")
    assert card_face(card) is card_face(card)
    assert card_face.__wrapped__(card) == card_face(card)


def test_faces_still_read_at_emoji_size() -> None:
    # Shrunk to 32 px the red of a heart still dominates, and a spade stays dark on white.
    heart = open_png(card_face(parse_card("K♥"))).resize((32, 32), Image.Resampling.LANCZOS)
    spade = open_png(card_face(parse_card("K♠"))).resize((32, 32), Image.Resampling.LANCZOS)
    assert red_pixels(heart) > 60
    assert dark_pixels(spade) > 100


def test_without_any_known_font_the_built_in_one_draws_the_rank(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(art, "RANK_FONTS", ("no-such-font-here.ttf",))
    art.rank_font.cache_clear()
    try:
        face = art.face_image.__wrapped__(parse_card("10♣"))
    finally:
        art.rank_font.cache_clear()
    assert face.size == (SIZE, SIZE)
    assert face.tobytes() != art.face_image(parse_card("J♣")).tobytes()
    assert dark_pixels(face) > 1500  # the rank and the pip are drawn, not a blank card

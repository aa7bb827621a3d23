"""The bot's own card art: 52 faces and a back as 128×128 PNG emoji, drawn with Pillow.

Discord shows an emoji at 22 to 48 px, so each face is one huge rank and one big suit pip in
high contrast, nothing else. Suits are drawn as shapes, not font glyphs, so they look the same
on any machine; only the rank needs a font, and any bold sans (or Pillow's own) will do.
Everything is drawn four times larger and scaled down, which is the antialiasing.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Mapping
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFilter, ImageFont, ImageOps

from bot.gin.cards import DECK, RANKS, SUIT_LETTERS, Card

SIZE = 128
"""Discord's emoji size: the side of every image here."""

BACK_NAME = "gin_back"

SCALE = 4  # drawn at 512×512, then scaled down
CARD_BOX = (8, 2, 120, 126)  # the card's outline within the 128 px square
CORNER = 13
BORDER = 4
RANK_BOX = (14, 8, 114, 65)  # where the rank glyph is fitted
PIP_BOX = (33, 69, 95, 122)  # where the suit pip is fitted

PAPER = (255, 255, 255, 255)
EDGE = (34, 34, 34, 255)
RED = (214, 18, 28, 255)
BLACK = (18, 18, 18, 255)
BACK_FILL = (28, 58, 150, 255)
BACK_LINE = (72, 108, 214, 255)

# Bold sans faces, wide ones first: at 22 px a wide glyph reads better, and "10" is squeezed
# to fit. Pillow looks a bare file name up in the system's font folders, so no path is assumed.
RANK_FONTS = (
    "DejaVuSans-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "LiberationSans-Bold.ttf",
    "FreeSansBold.ttf",
    "NotoSans-Bold.ttf",
    "Arial Bold.ttf",
    "arialbd.ttf",
)
GLYPH_SIZE = 256  # font size a glyph is drawn at before it is fitted to its box

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont | ImageFont.TransposedFont


def is_red(card: Card) -> bool:
    """Hearts and diamonds."""
    return card.suit in (1, 2)


def emoji_name(card: Card) -> str:
    """The emoji's name: ``gin_`` then rank and suit letter (``gin_10H``, ``gin_KS``)."""
    return f"gin_{RANKS[card.rank]}{SUIT_LETTERS[card.suit]}"


@cache
def card_face(card: Card) -> bytes:
    """The face of ``card`` as a 128×128 PNG."""
    return png(face_image(card), optimize=True)


@lru_cache(maxsize=1)
def card_back() -> bytes:
    """The back of every card as a 128×128 PNG."""
    return png(back_image(), optimize=True)


class CardImages(Mapping[str, bytes]):
    """Every emoji image by name, each drawn only when first read: a bot that already has
    its emojis never draws one."""

    def __init__(self) -> None:
        self._cards = {emoji_name(card): card for card in DECK}

    def __getitem__(self, name: str) -> bytes:
        if name == BACK_NAME:
            return card_back()
        return card_face(self._cards[name])

    def __iter__(self) -> Iterator[str]:
        yield from self._cards
        yield BACK_NAME

    def __len__(self) -> int:
        return len(self._cards) + 1


def all_card_images() -> dict[str, bytes]:
    """Every emoji the bot uploads, by name: 52 faces, then the back."""
    images = {emoji_name(card): card_face(card) for card in DECK}
    images[BACK_NAME] = card_back()
    return images


def png(image: Image.Image, *, compress_level: int = 9, optimize: bool = False) -> bytes:
    """The image encoded as PNG."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=compress_level, optimize=optimize)
    return out.getvalue()


def palette_png(image: Image.Image, *, colours: int = 64, compress_level: int = 3) -> bytes:
    """The image as a PNG of at most ``colours`` colours, undithered: felt, card faces and
    text need few, and one byte a pixel makes the file a third the size, and quicker to write,
    than full colour."""
    reduced = image.quantize(
        colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    return png(reduced, compress_level=compress_level)


# --- drawing ---------------------------------------------------------------------------


@cache
def face_image(card: Card) -> Image.Image:
    """The face as an RGBA image (shared: copy before changing it)."""
    big = _blank_card(PAPER)
    colour = RED if is_red(card) else BLACK
    ink = Image.new("L", big.size, 0)
    _paste_fitted(ink, _glyph(RANKS[card.rank]), _scaled(RANK_BOX))
    _draw_suit(ImageDraw.Draw(ink), card.suit, _scaled(PIP_BOX))
    big.paste(Image.new("RGBA", big.size, colour), (0, 0), ink)
    return big.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1)
def back_image() -> Image.Image:
    """The back as an RGBA image: a blue lattice inside a white frame (shared: copy it)."""
    big = _blank_card(BACK_FILL)
    lattice = Image.new("L", big.size, 0)
    draw = ImageDraw.Draw(lattice)
    x0, y0, x1, y1 = _scaled(CARD_BOX)
    step = 18 * SCALE
    width = 3 * SCALE
    for offset in range(-(y1 - y0), x1 - x0 + (y1 - y0), step):
        draw.line((x0 + offset, y0, x0 + offset + (y1 - y0), y1), fill=255, width=width)
        draw.line((x0 + offset, y1, x0 + offset + (y1 - y0), y0), fill=255, width=width)
    inside = Image.new("L", big.size, 0)
    inner = (x0 + 14 * SCALE, y0 + 14 * SCALE, x1 - 14 * SCALE, y1 - 14 * SCALE)
    ImageDraw.Draw(inside).rounded_rectangle(inner, radius=6 * SCALE, fill=255)
    lattice.paste(0, (0, 0), Image.eval(inside, lambda v: 255 - v))
    big.paste(Image.new("RGBA", big.size, BACK_LINE), (0, 0), lattice)
    frame = ImageDraw.Draw(big)
    frame.rounded_rectangle(inner, radius=6 * SCALE, outline=PAPER, width=4 * SCALE)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    r = 22 * SCALE
    frame.polygon([(cx, cy - r), (cx + r * 3 // 4, cy), (cx, cy + r), (cx - r * 3 // 4, cy)], PAPER)
    return big.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def _scaled(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    return x0 * SCALE, y0 * SCALE, x1 * SCALE, y1 * SCALE


def _blank_card(fill: tuple[int, int, int, int]) -> Image.Image:
    """A transparent square holding the card's rounded outline, filled, at drawing scale."""
    big = Image.new("RGBA", (SIZE * SCALE, SIZE * SCALE), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        _scaled(CARD_BOX), radius=CORNER * SCALE, fill=fill, outline=EDGE, width=BORDER * SCALE
    )
    return big


@lru_cache(maxsize=4)
def rank_font(size: int) -> tuple[Font, bool]:
    """A bold sans at ``size``: the first of RANK_FONTS found, else Pillow's built-in font;
    and whether it is bold (the built-in one is not)."""
    for name in RANK_FONTS:
        try:
            return ImageFont.truetype(name, size), True
        except OSError:
            continue
    return ImageFont.load_default(size=size), False


def _glyph(text: str) -> Image.Image:
    """``text`` as a white-on-black mask cropped to its ink, whatever the font's metrics."""
    font, bold = rank_font(GLYPH_SIZE)
    left, top, right, bottom = ImageDraw.Draw(Image.new("L", (1, 1))).textbbox(
        (0, 0), text, font=font
    )
    mask = Image.new("L", (int(right - left) + 4, int(bottom - top) + 4), 0)
    ImageDraw.Draw(mask).text((2 - left, 2 - top), text, fill=255, font=font)
    if not bold:  # thin strokes vanish at emoji size: thicken them
        mask = ImageOps.expand(mask, 12, 0).filter(ImageFilter.MaxFilter(21))
    ink = mask.getbbox()
    return mask.crop(ink) if ink else mask


def _paste_fitted(target: Image.Image, mask: Image.Image, box: tuple[int, int, int, int]) -> None:
    """Scale ``mask`` to the box's full height (squeezed to its width if wider), centred."""
    x0, y0, x1, y1 = box
    height = y1 - y0
    width = min(x1 - x0, round(mask.width * height / mask.height))
    fitted = mask.resize((width, height), Image.Resampling.LANCZOS)
    left = x0 + (x1 - x0 - width) // 2
    target.paste(255, (left, y0), fitted)


# Suit shapes, drawn into a mask within a box. The heart is the classic parametric curve;
# the spade is that heart upside down on a stem; the club is three balls on a stem.


def _heart_curve(steps: int = 120) -> list[tuple[float, float]]:
    """The heart outline in unit coordinates: x in -1..1, y from 0 (top) to 1 (point)."""
    points = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((x / 16, (12 - y) / 29))  # y runs from -17 (point) to about 12 (lobes)
    return points


def _place(
    points: list[tuple[float, float]], box: tuple[float, float, float, float]
) -> list[tuple[float, float]]:
    """Unit points (x -1..1, y 0..1) into a box."""
    x0, y0, x1, y1 = box
    half = (x1 - x0) / 2
    return [(x0 + half * (1 + x), y0 + (y1 - y0) * y) for x, y in points]


def _draw_suit(draw: ImageDraw.ImageDraw, suit: int, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    if suit == 1:  # hearts
        draw.polygon(_place(_heart_curve(), box), fill=255)
    elif suit == 2:  # diamonds
        half = w * 0.40
        draw.polygon([(cx, y0), (cx + half, y0 + h / 2), (cx, y1), (cx - half, y0 + h / 2)], 255)
    elif suit == 0:  # spades
        flipped = [(x, 1 - y) for x, y in _heart_curve()]
        draw.polygon(_place(flipped, (x0, y0, x1, y0 + h * 0.82)), fill=255)
        _draw_stem(draw, cx, y0 + h * 0.55, y1, w)
    else:  # clubs
        r = w * 0.25
        for bx, by in (
            (cx, y0 + r),
            (cx - w * 0.25, y0 + h * 0.55),
            (cx + w * 0.25, y0 + h * 0.55),
        ):
            draw.ellipse((bx - r, by - r, bx + r, by + r), fill=255)
        draw.polygon(
            [(cx, y0 + r), (cx - r * 0.6, y0 + h * 0.55), (cx + r * 0.6, y0 + h * 0.55)], 255
        )
        _draw_stem(draw, cx, y0 + h * 0.5, y1, w)


def _draw_stem(draw: ImageDraw.ImageDraw, cx: float, top: float, bottom: float, w: float) -> None:
    """The flared foot under a spade or a club."""
    draw.polygon(
        [
            (cx - w * 0.06, top),
            (cx + w * 0.06, top),
            (cx + w * 0.24, bottom),
            (cx - w * 0.24, bottom),
        ],
        fill=255,
    )


def contact_sheet(columns: int = 13) -> bytes:
    """Every face, a suit to a row, then the back: the sample picture of the art."""
    images = [face_image(card) for card in DECK] + [back_image()]
    rows = math.ceil(len(images) / columns)
    gap = 8
    sheet = Image.new("RGBA", (columns * (SIZE + gap) + gap, rows * (SIZE + gap) + gap))
    sheet.paste((54, 57, 63, 255), (0, 0, sheet.width, sheet.height))  # Discord's dark grey
    for i, image in enumerate(images):
        row, column = divmod(i, columns)
        sheet.alpha_composite(image, (gap + column * (SIZE + gap), gap + row * (SIZE + gap)))
    return png(sheet, compress_level=6)

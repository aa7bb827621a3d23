"""The showdown of a hand as one picture: both hands melded, the lay-offs, the deadwood, the score.

A picture is plain data (``ShowdownPicture``), so a render is cached by it and the engine's
objects never reach the drawing code. Card tiles are scaled once and pasted; the PNG is written
with a small palette and light compression, which keeps a render to a few milliseconds and the
file to about 25 KB.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.art.cards import CARD_BOX, Font, face_image, palette_png
from bot.gin.cards import DECK, Card
from bot.gin.hand import Hand, HandResult, Outcome

MAX_WIDTH = 1200
MIN_WIDTH = 720
MARGIN = 24
CARD_HEIGHT = 90
CARD_GAP = 8  # between the cards of a meld: room for a lay-off's outline
GROUP_GAP = 30  # between melds, and before the deadwood
OUTLINE = 4

FELT = (21, 84, 55)
TITLE_INK = (255, 255, 255)
TEXT_INK = (226, 236, 230)
RESULT_INK = (255, 214, 92)
LAID_OFF = (255, 196, 36)
DIM_GREY = (60, 66, 63)

TEXT_FONTS = ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "FreeSans.ttf", "Arial.ttf")
BOLD_FONTS = ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "FreeSansBold.ttf", "arialbd.ttf")


@dataclass(frozen=True, slots=True)
class SeatPicture:
    """One player's side of the showdown.

    ``layoffs`` are the defender's cards laid off onto the knocker's melds, as (card, index of
    the knocker's meld); they are not among the defender's own melds or deadwood.
    """

    name: str
    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    deadwood_count: int
    layoffs: tuple[tuple[Card, int], ...] = ()
    details: str | None = None  # the words after the name; None: in English, made here


@dataclass(frozen=True, slots=True)
class ShowdownPicture:
    """Everything the showdown picture shows, as plain hashable data."""

    title: str
    knocker: SeatPicture
    defender: SeatPicture
    result: str

    def __post_init__(self) -> None:
        if self.knocker.layoffs:
            raise ValueError("only the defender lays off")
        melds = len(self.knocker.melds)
        if any(not 0 <= i < melds for _, i in self.defender.layoffs):
            raise ValueError("a lay-off names a meld the knocker does not have")


def picture_from_hand(
    hand: Hand,
    names: Sequence[str],
    *,
    title: str | None = None,
    result: str | None = None,
) -> ShowdownPicture | None:
    """The picture of a finished two-player showdown, or None when there was none (a void
    hand, a hand still going, or a player going out with nobody to face).

    ``names`` are display names by seat. ``title`` and ``result`` replace the default lines,
    for a caller that words them itself.
    """
    if hand.result is None:
        return None
    return picture_from_result(hand.result, names, title=title, result=result)


def picture_from_result(
    outcome: HandResult,
    names: Sequence[str],
    *,
    title: str | None = None,
    result: str | None = None,
    details: Callable[[int, int], str] | None = None,
) -> ShowdownPicture | None:
    """``picture_from_hand`` from the hand's result alone (what a match keeps of its hands).
    ``details``: the words after each player's name, from their deadwood count and the cards
    they laid off (for a caller that words them in its reader's language)."""
    if outcome.outcome is Outcome.VOID:
        return None
    if outcome.knocker is None or outcome.defender is None:
        return None
    knocker_arr, defender_arr = outcome.knocker_arrangement, outcome.defender_arrangement
    if knocker_arr is None or defender_arr is None:
        return None

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"Seat {seat}"

    knocker, defender = name(outcome.knocker), name(outcome.defender)
    return ShowdownPicture(
        title=title if title is not None else _title(outcome.outcome, knocker),
        knocker=SeatPicture(
            knocker,
            knocker_arr.melds,
            knocker_arr.deadwood,
            outcome.knocker_deadwood,
            details=None if details is None else details(outcome.knocker_deadwood, 0),
        ),
        defender=SeatPicture(
            defender,
            defender_arr.melds,
            defender_arr.deadwood,
            outcome.defender_deadwood,
            outcome.layoffs,
            details=(
                None
                if details is None
                else details(outcome.defender_deadwood, len(outcome.layoffs))
            ),
        ),
        result=result
        if result is not None
        else _result_line(
            outcome.outcome,
            knocker,
            defender,
            outcome.knocker_deadwood,
            outcome.defender_deadwood,
            outcome.points,
        ),
    )


def _title(outcome: Outcome, knocker: str) -> str:
    return {
        Outcome.KNOCK: f"{knocker} knocks and wins",
        Outcome.UNDERCUT: f"{knocker} knocks and is undercut",
        Outcome.GIN: f"{knocker} goes gin",
        Outcome.BIG_GIN: f"{knocker} goes Big Gin",
    }.get(outcome, "Showdown")


def _result_line(
    outcome: Outcome, knocker: str, defender: str, knocked: int, kept: int, points: int
) -> str:
    if outcome is Outcome.KNOCK:
        return f"{knocker} knocks with {knocked} · {defender} {kept} · {knocker} scores {points}"
    if outcome is Outcome.UNDERCUT:
        return (
            f"{knocker} knocks with {knocked} · {defender} {kept} · "
            f"{defender} undercuts and scores {points}"
        )
    went = "Big Gin" if outcome is Outcome.BIG_GIN else "gin"
    return f"{knocker} goes {went} · {defender} {kept} · {knocker} scores {points}"


@lru_cache(maxsize=16)  # a showdown is posted once; the cache serves retries
def render_showdown(picture: ShowdownPicture) -> bytes:
    """The picture as PNG bytes, cached: a showdown is shown to several people at once."""
    return draw_showdown(picture)


# --- drawing ---------------------------------------------------------------------------

Tile = tuple[Card, str]  # a card and how it is drawn: "meld", "laid" (outlined) or "dead" (dim)


def warm_up() -> None:
    """Make every card tile and font and draw one picture, uncached, at start-up: the first
    showdowns of the day then take as long as the rest."""
    for card in DECK:
        for kind in ("meld", "laid", "dead"):
            card_tile(card, kind)
    cards = DECK[:3], DECK[13:16]
    picture = ShowdownPicture(
        "Warming up",
        SeatPicture("A", (tuple(cards[0]),), (), 0),
        SeatPicture("B", (tuple(cards[1]),), (DECK[30],), DECK[30].value),
        "",
    )
    draw_showdown(picture)


def draw_showdown(picture: ShowdownPicture) -> bytes:
    """The picture as PNG bytes, drawn afresh (``render_showdown`` is the cached one)."""
    rows = [_knocker_row(picture), _seat_row(picture.defender)]
    card_width = card_tile(Card(0), "meld").width
    width = max(_natural_width(row, card_width) for row in rows) + 2 * MARGIN
    width = max(MIN_WIDTH, min(MAX_WIDTH, width))
    inner = width - 2 * MARGIN
    title_font, label_font, name_font = (
        text_font(30, True),
        text_font(21, False),
        text_font(21, True),
    )
    result_font = text_font(25, True)
    row_height = CARD_HEIGHT + 2 * OUTLINE
    height = MARGIN + 40 + 2 * (14 + 30 + row_height) + 18 + 34 + MARGIN
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    draw.text((MARGIN, y), _fit(picture.title, title_font, inner), font=title_font, fill=TITLE_INK)
    y += 40
    for seat, row in zip((picture.knocker, picture.defender), rows, strict=True):
        y += 14
        _label(draw, (MARGIN, y), seat, name_font, label_font, inner)
        y += 30
        _draw_row(image, draw, row, MARGIN, y + OUTLINE, inner)
        y += row_height
    y += 18
    draw.text(
        (MARGIN, y), _fit(picture.result, result_font, inner), font=result_font, fill=RESULT_INK
    )
    return palette_png(image)


def _knocker_row(picture: ShowdownPicture) -> list[list[Tile]]:
    """The knocker's melds, each with the cards laid off onto it in its place, then deadwood."""
    laid: dict[int, list[Card]] = {}
    for card, onto in picture.defender.layoffs:
        laid.setdefault(onto, []).append(card)
    groups: list[list[Tile]] = []
    for i, meld in enumerate(picture.knocker.melds):
        extra = set(laid.get(i, ()))
        cards = sorted([*meld, *extra])
        groups.append([(c, "laid" if c in extra else "meld") for c in cards])
    if picture.knocker.deadwood:
        groups.append([(c, "dead") for c in picture.knocker.deadwood])
    return groups


def _seat_row(seat: SeatPicture) -> list[list[Tile]]:
    groups: list[list[Tile]] = [[(c, "meld") for c in meld] for meld in seat.melds]
    if seat.deadwood:
        groups.append([(c, "dead") for c in seat.deadwood])
    return groups


def _natural_width(groups: list[list[Tile]], card_width: int) -> int:
    cards = sum(len(g) for g in groups)
    if not cards:
        return 0
    return cards * card_width + (cards - len(groups)) * CARD_GAP + (len(groups) - 1) * GROUP_GAP


def _draw_row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    groups: list[list[Tile]],
    x: int,
    y: int,
    inner: int,
) -> None:
    """Paste the groups left to right; a row too long for the width overlaps its cards."""
    groups = [g for g in groups if g]
    if not groups:
        return
    card_width = card_tile(Card(0), "meld").width
    cards = sum(len(g) for g in groups)
    step = float(card_width + CARD_GAP)
    if cards > len(groups) and _natural_width(groups, card_width) > inner:
        room = inner - len(groups) * card_width - (len(groups) - 1) * GROUP_GAP
        step = max(card_width * 0.3, room / (cards - len(groups)))
    left = float(x)
    for group in groups:
        for i, (card, kind) in enumerate(group):
            at = round(left + i * step)
            tile = card_tile(card, kind)
            if kind == "laid":
                draw.rounded_rectangle(
                    (
                        at - OUTLINE,
                        y - OUTLINE,
                        at + tile.width + OUTLINE - 1,
                        y + tile.height + OUTLINE - 1,
                    ),
                    radius=12,
                    fill=LAID_OFF,
                )
            image.paste(tile, (at, y), tile)
        left += (len(group) - 1) * step + card_width + GROUP_GAP


def _label(
    draw: ImageDraw.ImageDraw,
    at: tuple[int, int],
    seat: SeatPicture,
    name_font: Font,
    label_font: Font,
    inner: int,
) -> None:
    """The player's name in bold, then their deadwood and lay-offs."""
    details = seat.details
    if details is None:
        details = english_details(seat.deadwood_count, len(seat.layoffs))
    name = _fit(seat.name, name_font, inner // 2)
    draw.text(at, name, font=name_font, fill=TITLE_INK)
    shift = round(name_font.getlength(name))
    rest = _fit(details, label_font, inner - shift)
    draw.text((at[0] + shift, at[1]), rest, font=label_font, fill=TEXT_INK)


def english_details(deadwood: int, laid_off: int) -> str:
    """The words after a player's name: their deadwood, and the cards they laid off."""
    details = f"  ·  deadwood {deadwood}"
    if laid_off:
        details += f"  ·  laid off {laid_off} card{'s' if laid_off != 1 else ''} (outlined in gold)"
    return details


def _fit(text: str, font: Font, width: int) -> str:
    """``text``, cut with an ellipsis if it is wider than ``width``."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


@cache
def card_tile(card: Card, kind: str) -> Image.Image:
    """The card's face cut to its outline and scaled to the showdown's size; "dead" is dimmed."""
    face = face_image(card).crop(CARD_BOX)
    width = round(face.width * CARD_HEIGHT / face.height)
    tile = face.resize((width, CARD_HEIGHT), Image.Resampling.LANCZOS)
    if kind != "dead":
        return tile
    grey = Image.new("RGBA", tile.size, (*DIM_GREY, 255))
    dim = Image.blend(tile, grey, 0.55)
    dim.putalpha(tile.getchannel("A"))
    return dim


@lru_cache(maxsize=8)
def text_font(size: int, bold: bool) -> Font:
    """A sans at ``size``: the first font of the list found, else Pillow's built-in font."""
    for name in BOLD_FONTS if bold else TEXT_FONTS:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)

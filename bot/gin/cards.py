"""Cards: the 52 card values, their canonical text form and the one card parser."""

from __future__ import annotations

from collections.abc import Iterable

from bot.gin.errors import CardError

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("♠", "♥", "♦", "♣")
SUIT_LETTERS = ("S", "H", "D", "C")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SPADES = 0  # the suit index of spades (Oklahoma's spades double)

_RANK_ALIASES = {r.lower(): i for i, r in enumerate(RANKS)} | {"t": 9}
# ♤♡♢♧ and the emoji-presentation variants people paste from phones.
_SUIT_ALIASES = {
    **{s: i for i, s in enumerate(SUITS)},
    **{s.lower(): i for i, s in enumerate(SUIT_LETTERS)},
    "♤": 0,
    "♡": 1,
    "♢": 2,
    "♧": 3,
}


class Card(int):
    """One card, as the int ``suit * 13 + rank`` (rank 0 is the ace).

    Subclassing int keeps cards cheap to hash, compare and pack into bit masks, while ``str``
    gives the canonical form (``10♥``, ``K♠``) everywhere a card is shown.
    """

    __slots__ = ()

    @property
    def rank(self) -> int:
        """0 for an ace up to 12 for a king."""
        return int(self) % 13

    @property
    def suit(self) -> int:
        """Index into SUITS: 0 ♠, 1 ♥, 2 ♦, 3 ♣."""
        return int(self) // 13

    @property
    def value(self) -> int:
        """Deadwood value: ace 1, two to ten face value, J Q K 10."""
        return min(self.rank + 1, 10)

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({self})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))
"""Every card once, in a fixed order (♠ A-K, ♥ A-K, ♦ A-K, ♣ A-K)."""


def card_value(card: int) -> int:
    """Deadwood value of a card given as its int."""
    return min(card % 13 + 1, 10)


def _spellings() -> dict[str, Card]:
    """Every compact spelling of every card: rank and suit in any case and alias, no spaces."""
    ranks: dict[int, set[str]] = {}
    for text, rank in _RANK_ALIASES.items():
        ranks.setdefault(rank, set()).update({text, text.upper()})
    suits: dict[int, set[str]] = {}
    for text, suit in _SUIT_ALIASES.items():
        suits.setdefault(suit, set()).update({text, text.upper()})
        if not text.isalpha():
            suits[suit].add(text + "\ufe0f")  # the emoji-presentation form
    return {
        r + s: DECK[suit * 13 + rank]
        for rank, rank_texts in ranks.items()
        for suit, suit_texts in suits.items()
        for r in rank_texts
        for s in suit_texts
    }


CARD_BY_TEXT: dict[str, Card] = _spellings()
"""Text to card for every spelling ``parse_card`` accepts without spaces (``10♥``, ``th``,
``TH``, ``Q♡``...): the common case of reading a card is one dict lookup."""


def parse_card(text: str | int) -> Card:
    """Read a card typed by a person: rank then suit, any case (``10♥``, ``Th``, ``qs``, ``A♠``).

    Raises CardError with a reason a player can read when the text is not a card.
    """
    if isinstance(text, Card):
        return text
    if isinstance(text, int):
        if 0 <= text < 52:
            return DECK[text]
        raise CardError("There is no card number {number}.", number=text)
    found = CARD_BY_TEXT.get(text)
    if found is not None:
        return found
    return _parse_text(text)


def _parse_text(text: str) -> Card:
    """The full reading of card text: spaces and emoji selectors anywhere, any case."""
    cleaned = "".join(text.split()).replace("\ufe0f", "")
    if len(cleaned) < 2:
        raise _not_a_card(text)
    rank_text, suit_text = cleaned[:-1].lower(), cleaned[-1].lower()
    rank = _RANK_ALIASES.get(rank_text)
    suit = _SUIT_ALIASES.get(suit_text)
    if rank is None or suit is None:
        raise _not_a_card(text)
    return DECK[suit * 13 + rank]


def parse_cards(items: Iterable[str | int]) -> list[Card]:
    """Parse several cards; a single string may hold them separated by spaces or commas."""
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    return [parse_card(item) for item in items]


def format_cards(cards: Iterable[int]) -> str:
    """Cards in canonical form, separated by spaces."""
    return " ".join(str(DECK[c]) for c in cards)


def sort_cards(cards: Iterable[int]) -> list[Card]:
    """Cards by suit, then rank: the order a hand is shown in."""
    return [DECK[c] for c in sorted(cards)]


def _not_a_card(text: str) -> CardError:
    """The refusal of text that is no card, quoting (the start of) what was written."""
    shown = text.strip()
    if not shown:
        return CardError(
            "“(nothing)” is not a card. Write the rank then the suit, "
            "for example 10♥, Th, qs or A♠ (suits S H D C or ♠ ♥ ♦ ♣)."
        )
    if len(shown) > 20:
        shown = shown[:20] + "…"
    return CardError(
        "“{text}” is not a card. Write the rank then the suit, "
        "for example 10♥, Th, qs or A♠ (suits S H D C or ♠ ♥ ♦ ♣).",
        text=shown,
    )

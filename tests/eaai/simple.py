"""SimpleGinRummyPlayer, the challenge's sample player, every program's first yardstick.

- It takes the face-up card only when that card makes a meld with two or more of its cards.
- It discards a card whose loss leaves the least deadwood (any card, melded or not; one at
  random among equals), never the face-up card it just took, and never repeats a draw and
  discard pair it made earlier in the hand.
- It goes out as soon as its deadwood allows (10 or less after the discard).
"""

from __future__ import annotations

import random

from bot.gin.ai import handmath as hm
from tests.eaai.players import HostPlayer

KNOCK_LIMIT = 10


class SimplePlayer(HostPlayer):
    name = "simple"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.seat = 0
        self.hand = 0
        self.face_up = -1
        self.drawn = -1
        self.pairs: set[int] = set()

    def start_hand(self, seat: int, first: int, cards: list[int]) -> None:
        self.seat = seat
        self.hand = hm.mask_of(cards)
        self.face_up = -1
        self.drawn = -1
        self.pairs = set()

    def will_draw_face_up(self, card: int) -> bool:
        self.face_up = card
        return bool(hm.completions(self.hand) >> card & 1)

    def report_draw(self, seat: int, card: int | None) -> None:
        if seat == self.seat and card is not None:
            self.hand |= 1 << card
            self.drawn = card

    def get_discard(self) -> int:
        options = hm.discard_deadwoods(self.hand)
        least = hm.BIG
        candidates: list[int] = []
        for card in sorted(options):
            if card == self.drawn and self.drawn == self.face_up:
                continue
            if (1 << self.drawn | 1 << card) in self.pairs:
                continue
            left = options[card]
            if left < least:
                least = left
                candidates = [card]
            elif left == least:
                candidates.append(card)
        discard = self.rng.choice(candidates)
        self.pairs.add(1 << self.drawn | 1 << discard)
        return discard

    def report_discard(self, seat: int, card: int) -> None:
        if seat == self.seat:
            self.hand &= ~(1 << card)

    def knocks(self) -> bool:
        return hm.deadwood(self.hand) <= KNOCK_LIMIT

"""How far a hand is from gin, and which draws bring it closer, for gin-only hands of any decks.

Going out needs ten cards in melds. Melds have three cards or more, so a gin hand is at most
three melds, and the question "how many more useful draws does this hand need?" becomes: cover
as many of the hand's cards as possible with at most three groups, each a meld still to be
completed (7♥ 9♥ is a run of three with 8♥ missing; 7♥ 7♠ a set with one missing), whose sizes
add up to ten at most. The cards left uncovered are the draws still needed: the hand's
*distance* from gin. A group can be completed only if each missing card still has a live
copy, so dead cards (all copies seen) cut groups, and with several decks sets of identical
cards come in naturally.

It is an estimate, kept quick on purpose: a lone card is taken to be the start of some meld,
a group missing more than ``MAX_MISSING`` cards is not counted on, and two groups are not
checked for wanting the same last copy of a card.

Counts are packed into one int, five bits per card (bit ``5 * card``), so "do these groups fit
in the hand together?" is one subtraction against a guard bit per card, whatever the decks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

FIELD = 5
ONE: tuple[int, ...] = tuple(1 << (FIELD * c) for c in range(52))
GUARD = sum(16 << (FIELD * c) for c in range(52))
SUIT_FIELDS = (1 << (FIELD * 13)) - 1
GIN = 10
MAX_GROUPS = 3
MAX_MISSING = 3  # a group missing more cards than this is never worth counting on

Group = tuple[int, int, int]
"""(cards covered, meld size, packed use of the hand's cards)."""


def pack(cards: Iterable[int]) -> int:
    packed = 0
    for c in cards:
        packed += ONE[c]
    return packed


class GinMath:
    """Distance and outs under one seat's knowledge of which cards are still live.

    ``live[c]`` is how many copies of card ``c`` the seat might still draw: a group whose
    missing cards have none cannot be completed. ``weights[c]`` (by default ``live[c]``) is what
    drawing card ``c`` is worth when counting outs: the live copies, less those likely held by
    others. Group lists per suit and per rank, and every cover asked, are cached: one decision
    asks about many hands that differ in a card or two.
    """

    def __init__(
        self, live: Sequence[int], distinct: bool, weights: Sequence[float] | None = None
    ) -> None:
        self.live = list(live)
        self.weights = list(live if weights is None else weights)
        self.distinct = distinct
        self.copies_rank = [sum(self.live[s * 13 + r] for s in range(4)) for r in range(13)]
        self.dead_suit = [
            sum(1 << r for r in range(13) if self.live[s * 13 + r] <= 0) for s in range(4)
        ]
        self._suit_cache: dict[tuple[int, int], list[Group]] = {}
        self._rank_cache: dict[tuple[int, int, int, int, int], list[Group]] = {}
        self._cover_cache: dict[int, int] = {}

    # --- groups ---------------------------------------------------------------------------

    def suit_groups(self, packed: int, suit: int) -> list[Group]:
        """Runs to be, in one suit: each window from one held rank to another, with every
        held rank between them used once."""
        key = packed >> (FIELD * 13 * suit) & SUIT_FIELDS
        cached = self._suit_cache.get((suit, key))
        if cached is not None:
            return cached
        ranks = [r for r in range(13) if key >> (FIELD * r) & 31]
        held = sum(1 << r for r in ranks)
        dead = self.dead_suit[suit]
        base = 13 * suit
        out: list[Group] = []
        for i, low in enumerate(ranks):
            use = ONE[base + low]
            for k in range(i + 1, len(ranks)):
                high = ranks[k]
                span = high - low + 1
                if span > GIN:
                    break
                cover = k - i + 1
                window = ((1 << span) - 1) << low
                if (window & ~held) & dead:
                    break  # a missing card is dead here, and in every longer window
                if span - cover > MAX_MISSING:
                    break
                use += ONE[base + high]
                if span == 2:  # two neighbours: a third card at either end
                    below = low > 0 and not dead >> (low - 1) & 1
                    above = high < 12 and not dead >> (high + 1) & 1
                    if not (below or above):
                        continue
                out.append((cover, max(3, span), use))
        self._suit_cache[(suit, key)] = out
        return out

    def rank_groups(self, packed: int, rank: int) -> list[Group]:
        """Sets to be, of one rank: every choice of the held copies, two or more."""
        f = FIELD * rank
        held = (
            packed >> f & 31,
            packed >> (f + 65) & 31,
            packed >> (f + 130) & 31,
            packed >> (f + 195) & 31,
        )
        if held[0] + held[1] + held[2] + held[3] < 2:
            return _NONE
        key = (rank, *held)
        cached = self._rank_cache.get(key)
        if cached is not None:
            return cached
        out: list[Group] = []
        cards = [13 * s + rank for s in range(4)]
        limits = [min(h, 1) for h in held] if self.distinct else list(held)
        for use in product(*(range(n + 1) for n in limits)):
            cover = sum(use)
            if cover < 2:
                continue
            if cover < 3:
                if self.distinct:
                    free = sum(1 for s in range(4) if not use[s] and self.live[cards[s]] > 0)
                else:
                    free = int(self.copies_rank[rank])
                if free < 3 - cover:
                    continue
            packed_use = sum(ONE[c] * n for c, n in zip(cards, use, strict=True))
            out.append((cover, max(3, cover), packed_use))
        self._rank_cache[key] = out
        return out

    def groups(self, packed: int) -> list[Group]:
        out: list[Group] = []
        for s in range(4):
            out += self.suit_groups(packed, s)
        for r in range(13):
            out += self.rank_groups(packed, r)
        out.sort(key=_by_cover)
        return out

    # --- distance -------------------------------------------------------------------------

    def cover(self, packed: int, cards: int, groups: list[Group] | None = None) -> int:
        """The most of the hand's ``cards`` cards that at most three groups can cover."""
        cached = self._cover_cache.get(packed)
        if cached is not None:
            return cached
        if groups is None:
            groups = self.groups(packed)
        roof = packed | GUARD
        best = min(MAX_GROUPS, cards)  # lone cards, each the start of a meld
        count = len(groups)
        for i in range(count):
            ci, si, ui = groups[i]
            if 3 * ci <= best:
                break
            value = ci + min(2, (GIN - si) // 3, cards - ci)
            if value > best:
                best = value
            for j in range(i + 1, count):
                cj, sj, uj = groups[j]
                if ci + 2 * cj <= best:
                    break
                size = si + sj
                if size > GIN:
                    continue
                uij = ui + uj
                if (roof - uij) & GUARD != GUARD:
                    continue
                value = ci + cj + min(1, (GIN - size) // 3, cards - ci - cj)
                if value > best:
                    best = value
                for k in range(j + 1, count):
                    ck, sk, uk = groups[k]
                    if ci + cj + ck <= best:
                        break
                    if size + sk > GIN or (roof - uij - uk) & GUARD != GUARD:
                        continue
                    best = ci + cj + ck
        self._cover_cache[packed] = best
        return best

    def distance(self, packed: int, cards: int) -> int:
        """Useful draws still needed to go out (0: ten of these cards meld)."""
        return GIN - self.cover(packed, cards)

    def outs(self, packed: int, candidates: Iterable[int]) -> tuple[int, float, list[int]]:
        """A hand's distance, the weight (live copies) of the cards that would shorten it, and
        those cards.

        Adding a card raises the cover by one at most, and only through a group holding that
        card, so for a card not held yet only the selections through such a group are
        searched, against the cover to beat.
        """
        cards = _cards(packed)
        suits = [self.suit_groups(packed, s) for s in range(4)]
        ranks = [self.rank_groups(packed, r) for r in range(13)]
        merged = [g for lst in suits for g in lst] + [g for lst in ranks for g in lst]
        merged.sort(key=_by_cover)
        base = self.cover(packed, cards, merged)
        total = 0.0
        found = []
        live = self.live
        weights = self.weights
        for c in candidates:
            if live[c] <= 0:
                continue
            more = packed + ONE[c]
            if packed >> (FIELD * c) & 31:
                better = self.cover(more, cards + 1) > base
            else:
                better = self._through(more, c, cards + 1, base, suits, ranks)
            if better:
                total += weights[c]
                found.append(c)
        return GIN - base, total, found

    def _through(
        self,
        packed: int,
        card: int,
        cards: int,
        base: int,
        suits: list[list[Group]],
        ranks: list[list[Group]],
    ) -> bool:
        """Whether the hand with ``card`` newly added covers more than ``base``."""
        cached = self._cover_cache.get(packed)
        if cached is not None:
            return cached > base
        suit, rank = divmod(card, 13)
        new_suit = self.suit_groups(packed, suit)
        new_rank = self.rank_groups(packed, rank)
        field = FIELD * card
        first = [g for g in new_suit if g[2] >> field & 31]
        first += [g for g in new_rank if g[2] >> field & 31]
        if not first:
            return False
        groups = list(new_suit) + list(new_rank)
        for s in range(4):
            if s != suit:
                groups += suits[s]
        for r in range(13):
            if r != rank:
                groups += ranks[r]
        groups.sort(key=_by_cover)
        roof = packed | GUARD
        count = len(groups)
        for cg, sg, ug in first:
            need = base + 1 - cg
            cap = GIN - sg
            rest = cards - cg
            if need <= min(2, cap // 3, rest):
                return True  # lone cards fill the other groups
            for i in range(count):
                ci, si, ui = groups[i]
                if 2 * ci < need:
                    break
                if si > cap:
                    continue
                uo = ug + ui
                if (roof - uo) & GUARD != GUARD:
                    continue
                if ci + min(1, (cap - si) // 3, rest - ci) >= need:
                    return True
                for j in range(i + 1, count):
                    cj, sj, uj = groups[j]
                    if ci + cj < need:
                        break
                    if si + sj <= cap and (roof - uo - uj) & GUARD == GUARD:
                        return True
        return False


_NONE: list[Group] = []


def _by_cover(group: Group) -> int:
    return -group[0]


def _cards(packed: int) -> int:
    total = 0
    while packed:
        total += packed & 31
        packed >>= FIELD
    return total


NEAR_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            {13 * s + c % 13 for s in range(4)}
            | {c + d for d in (-2, -1, 1, 2) if 0 <= c % 13 + d < 13}
        )
    )
    for c in range(52)
)
"""For each card, the cards that can share a three-card meld with it, itself included (a
second copy, with several decks)."""


def candidates(cards: Iterable[int]) -> list[int]:
    """Every card that could join a meld with one of ``cards``."""
    out: set[int] = set()
    for c in cards:
        out.update(NEAR_CARDS[c])
    return sorted(out)

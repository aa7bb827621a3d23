"""Melds and deadwood: an exact, fast solver for gin rummy hands.

How it works
------------
A hand is one 52-bit mask (bit ``suit * 13 + rank``) that splits into four 13-bit suit masks.

Runs never leave their suit, and inside one suit every maximal stretch of three or more
consecutive cards is itself a run, so the least deadwood that runs alone leave in a suit is the
value of the cards in stretches shorter than three. Tables built once at import hold, for each of
the 8192 suit masks, that deadwood and what the best single discard from the suit does to it.

Sets are the only thing that ties suits together, and a hand of eleven cards has at most three
ranks holding three or more cards. For each such rank the solver tries every way to use it (no
set, the four-card set, each three-card set), takes the chosen cards out and adds up four table
entries. Choices that can never help are skipped: a set card that cannot be part of any run in
its suit is always better inside the set than outside it.

Discards: with eleven cards, the deadwood left after the best discard is the least, over all
arrangements of the eleven cards, of their deadwood less their highest deadwood card. The tables
give that per suit, so ``best_discard`` is one pass over the set choices instead of eleven solves.

Lay-offs: the defender's own runs stay inside a suit, a lay-off onto a knocker's run needs a
chain of the defender's cards reaching that run in the same suit, and a lay-off onto a set of
three is the one missing card of that rank. So once the set choice is fixed every suit is solved
on its own: every choice of own runs in the suit is tried, and every card left over that is
chained to a knocker run, or is the fourth card of a knocker set, is laid off.

Ordering: cards inside a meld, and deadwood, are sorted by suit then rank (card number); the
melds of an arrangement are sorted by their cards.

Reading cards: ints and ``Card`` values go straight into the mask; text is one lookup each in
``CARD_BY_TEXT`` (every compact spelling), and anything else goes through ``parse_card``.

Several decks: ``min_deadwood``, ``best_discard``, ``discard_options`` and ``arrange`` also take
hands that hold a card more than once (elimination plays with up to four decks). Reading the
mask finds the repeat, and the hand goes to ``bot.gin.multiset``, whose docstring tells how it
is solved; a hand without repeats never leaves the code here, so ``distinct_suits`` (a set's
suits must differ) changes nothing for it. Knocking and laying off are two-player rules, played
with one deck: those functions take one deck only and refuse a repeated card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from bot.gin.cards import CARD_BY_TEXT, DECK, Card, card_value, parse_card
from bot.gin.errors import CardError

CardLike = str | int
"""A card as a ``Card``, its int, or its text form (``10♥``, ``Th``, ``qs``)."""

_SUIT = 0x1FFF  # one suit's 13 bits
_SPREAD_ONE = 1 | 1 << 13 | 1 << 26 | 1 << 39  # the four cards of the ace rank
_BIG = 1 << 20  # larger than any deadwood
_VALUES = tuple(min(rank + 1, 10) for rank in range(13))


# --- tables, built once at import -----------------------------------------------------------


def _build_tables() -> tuple[
    list[int], list[int], list[int], list[int], list[tuple[tuple[int, int], ...]], list[int]
]:
    size = 1 << 13
    suit_value = [0] * size
    run_cards = [0] * size  # the cards of a suit mask that lie in a stretch of 3 or more
    for mask in range(1, size):
        low = mask & -mask
        suit_value[mask] = suit_value[mask ^ low] + _VALUES[low.bit_length() - 1]
        starts = mask & ~(mask << 1)  # the first card of each stretch
        stretches = 0
        while starts:
            start = starts & -starts
            starts ^= start
            stretch = mask & ~(mask + start)  # the carry clears exactly this stretch
            if stretch.bit_count() >= 3:
                stretches |= stretch
        run_cards[mask] = stretches
    run_dw = [suit_value[mask & ~run_cards[mask]] for mask in range(size)]
    # discard_gain[m]: least (deadwood of m without one card) - (deadwood of m); _BIG if empty.
    # discard_rank[m]: the highest rank whose discard reaches it.
    discard_gain = [_BIG] * size
    discard_rank = [-1] * size
    drops: list[tuple[tuple[int, int], ...]] = [()] * size
    for mask in range(1, size):
        base = run_dw[mask]
        pairs = []
        best = _BIG
        best_rank = -1
        for rank in range(13):
            if mask >> rank & 1:
                after = run_dw[mask ^ (1 << rank)]
                pairs.append((rank, after))
                if after - base <= best:
                    best = after - base
                    best_rank = rank
        discard_gain[mask] = best
        discard_rank[mask] = best_rank
        drops[mask] = tuple(pairs)
    return suit_value, run_cards, run_dw, discard_gain, drops, discard_rank


_SUIT_VALUE, _RUN_CARDS, _RUN_DW, _DISCARD_GAIN, _DROPS, _DISCARD_RANK = _build_tables()


def _spread(suits: int) -> int:
    """A 4-bit suit set as the matching cards of the ace rank (bits 0, 13, 26, 39)."""
    return sum(1 << (13 * s) for s in range(4) if suits >> s & 1)


def _build_set_options() -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
    """Ways to use a rank holding 3 or 4 cards, as ace-rank masks of the cards put in the set.

    ``pruned`` is keyed by ``present | capable << 1`` (``capable``: the present cards that
    could lie in a run); it leaves out choices that leave a card which cannot lie in a run out
    of the set, when the set could have taken it. ``full`` is keyed by ``present`` alone.
    """
    full: dict[int, tuple[int, ...]] = {}
    pruned: dict[int, tuple[int, ...]] = {}
    for present in range(16):
        count = present.bit_count()
        if count < 3:
            continue
        choices = [0, present]
        if count == 4:
            choices += [present & ~(1 << s) for s in range(4)]
        full[_spread(present)] = tuple(_spread(c) for c in choices)
        for capable in range(16):
            if capable & ~present:
                continue
            kept = []
            for chosen in choices:
                left_out = present & ~chosen
                if chosen == 0 and capable == 0:
                    continue  # the whole set beats leaving every card dead
                if chosen and left_out & ~capable:
                    continue  # the full set beats leaving a dead card beside it
                kept.append(_spread(chosen))
            pruned[_spread(present) | _spread(capable) << 1] = tuple(kept)
    return full, pruned


_SET_CHOICES, _SET_CHOICES_PRUNED = _build_set_options()


def _run_patterns() -> list[tuple[int, ...]]:
    """For a stretch of n cards, every subset whose own stretches are all 3 or longer."""
    out: list[tuple[int, ...]] = []
    for n in range(14):
        found = []
        for sub in range(1 << n):
            ok = True
            rest = sub
            while rest:
                low = rest & -rest
                piece = rest & ~(rest + low)  # the lowest stretch of rest
                if piece.bit_count() < 3:
                    ok = False
                    break
                rest ^= piece
            if ok:
                found.append(sub)
        out.append(tuple(found))
    return out


_RUN_PATTERNS = _run_patterns()


# --- input ----------------------------------------------------------------------------------


class _Repeated(Exception):
    """A hand that holds some card more than once, with its cards already read: the functions
    that take hands from several decks catch it; ``_one_deck`` turns it into a CardError."""

    def __init__(self, cards: Sequence[int]) -> None:
        super().__init__()
        self.cards = cards


def _one_deck(cards: Iterable[CardLike]) -> int:
    """``_mask`` for the functions that take one deck only: a repeated card is a CardError."""
    try:
        return _mask(cards)
    except _Repeated as repeated:
        seen = 0
        for card in repeated.cards:
            if seen >> card & 1:
                raise CardError("{card} is listed twice.", card=DECK[card]) from None
            seen |= 1 << card
        raise AssertionError("no card repeats") from None


def _mask(cards: Iterable[CardLike]) -> int:
    """The 52-bit mask of the cards.

    CardError for text that is no card; ``_Repeated`` when a card repeats.
    """
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    elif not isinstance(cards, list | tuple):
        cards = list(cards)
    mask = 0
    try:
        for c in cast("Iterable[int]", cards):
            mask |= 1 << c
    except (TypeError, ValueError):
        return _text_mask(cards)
    if mask.bit_count() != len(cards):
        if mask >> 52:
            return _slow_mask(cards)
        raise _Repeated(cast("Sequence[int]", cards))  # ints 0-51 all: no need to read again
    if mask >> 52:
        return _slow_mask(cards)
    return mask


def _text_mask(cards: Sequence[CardLike]) -> int:
    """Cards as text: one dict lookup each for the spellings people type."""
    get = CARD_BY_TEXT.get
    mask = 0
    try:
        for item in cards:
            mask |= 1 << get(item)  # type: ignore[arg-type, operator]
    except TypeError:  # an int among the text, a spelling with spaces, or no card at all
        return _slow_mask(cards)
    if mask.bit_count() != len(cards):
        raise _Repeated([CARD_BY_TEXT[item] for item in cast("Sequence[str]", cards)])
    return mask


def _slow_mask(cards: Sequence[CardLike]) -> int:
    parsed = [parse_card(item) for item in cards]
    mask = 0
    for card in parsed:
        mask |= 1 << card
    if mask.bit_count() != len(parsed):
        raise _Repeated(parsed)
    return mask


def _cards(mask: int) -> tuple[Card, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(DECK[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


# --- the set choices ------------------------------------------------------------------------


def _choices(hand: int, free: int = 0) -> list[int]:
    """Every useful choice of set cards for the hand, as masks (0 is "no sets").

    Cards in ``free`` are treated as able to lie in a run (so never pruned); the lay-off search
    passes the suits where cards can go onto the knocker's melds. With ``free = -1`` nothing
    is pruned.
    """
    s0 = hand & _SUIT
    s1 = hand >> 13 & _SUIT
    s2 = hand >> 26 & _SUIT
    s3 = hand >> 39
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if not ranks:
        return [0]
    if free == -1:
        table = _SET_CHOICES
        capable = 0
    else:
        table = _SET_CHOICES_PRUNED
        rc = _RUN_CARDS
        capable = (rc[s0] | rc[s1] << 13 | rc[s2] << 26 | rc[s3] << 39 | free) & hand
    combos = [0]
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        rank = low.bit_length() - 1
        if free == -1:
            options = table[hand >> rank & _SPREAD_ONE]
        else:
            key = (hand >> rank & _SPREAD_ONE) | (capable >> rank & _SPREAD_ONE) << 1
            options = table[key]
        if len(options) == 1:
            shift = options[0] << rank
            combos = [c | shift for c in combos]
        else:
            combos = [c | o << rank for c in combos for o in options]
    return combos


def _least(hand: int) -> int:
    dw = _RUN_DW
    s0 = hand & _SUIT
    s1 = hand >> 13 & _SUIT
    s2 = hand >> 26 & _SUIT
    s3 = hand >> 39
    if not ((s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))):
        return dw[s0] + dw[s1] + dw[s2] + dw[s3]
    best = _BIG
    for chosen in _choices(hand):
        h = hand ^ chosen
        total = dw[h & _SUIT] + dw[h >> 13 & _SUIT] + dw[h >> 26 & _SUIT] + dw[h >> 39]
        if total < best:
            best = total
            if not best:
                break
    return best


# --- public: melds --------------------------------------------------------------------------


def _is_set_mask(mask: int) -> bool:
    if mask.bit_count() not in (3, 4):
        return False
    rank = (mask & -mask).bit_length() - 1
    return not (mask >> rank) & ~_SPREAD_ONE


def _is_run_mask(mask: int) -> bool:
    if mask.bit_count() < 3:
        return False
    low = (mask & -mask).bit_length() - 1
    shifted = mask >> low
    return low // 13 == (mask.bit_length() - 1) // 13 and not shifted & (shifted + 1)


def is_set(cards: Iterable[CardLike]) -> bool:
    """Three or four cards of one rank (one deck: a repeated card is a CardError)."""
    return _is_set_mask(_one_deck(cards))


def is_run(cards: Iterable[CardLike]) -> bool:
    """Three or more cards of one suit in consecutive rank (aces low: A-2-3 yes, Q-K-A no)."""
    return _is_run_mask(_one_deck(cards))


def is_meld(cards: Iterable[CardLike]) -> bool:
    """A set or a run."""
    mask = _one_deck(cards)
    return _is_set_mask(mask) or _is_run_mask(mask)


@dataclass(frozen=True)
class Arrangement:
    """A hand split into melds and deadwood (each meld and the deadwood sorted by card)."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]

    @property
    def deadwood_value(self) -> int:
        return sum(card_value(c) for c in self.deadwood)

    def __str__(self) -> str:
        parts = [" ".join(map(str, meld)) for meld in self.melds]
        if self.deadwood:
            parts.append(" ".join(map(str, self.deadwood)))
        return " · ".join(parts)


def min_deadwood(cards: Iterable[CardLike], *, distinct_suits: bool = False) -> int:
    """The least deadwood the cards can leave.

    The cards may come from several decks (a card up to four times); ``distinct_suits`` then
    asks that a set's suits all differ. With no card repeated it changes nothing.
    """
    try:
        hand = _mask(cards)
    except _Repeated as repeated:
        from bot.gin import multiset

        return multiset.min_deadwood(repeated.cards, distinct_suits)
    return _least(hand)


def _suit_run_splits(mask: int) -> list[tuple[int, ...]]:
    """Every split of a suit mask into runs that leaves its least deadwood, as run masks."""
    if not mask:
        return [()]
    target = _RUN_DW[mask]
    low = mask & -mask
    rank = low.bit_length() - 1
    out: list[tuple[int, ...]] = []
    if _VALUES[rank] + _RUN_DW[mask ^ low] == target:
        out += _suit_run_splits(mask ^ low)
    run = low
    top = rank
    while mask >> (top + 1) & 1:
        top += 1
        run |= 1 << top
        if top - rank >= 2 and _RUN_DW[mask ^ run] == target:
            out += [(run, *rest) for rest in _suit_run_splits(mask ^ run)]
    return out


def _set_melds(chosen: int) -> list[tuple[Card, ...]]:
    melds = []
    for rank in range(13):
        group = chosen >> rank & _SPREAD_ONE
        if group:
            melds.append(_cards(group << rank))
    return melds


def _arrangement_key(arr: Arrangement) -> tuple[int, tuple[tuple[int, ...], ...]]:
    return len(arr.melds), tuple(tuple(int(c) for c in m) for m in arr.melds)


def min_arrangements(cards: Iterable[CardLike]) -> list[Arrangement]:
    """Every arrangement with the least deadwood, each meld choice once.

    Order: fewest melds first, then by the melds compared card by card. ``arrange`` returns the
    first of them. One deck only: a repeated card is a CardError.
    """
    return _min_arrangements(_one_deck(cards))


def _min_arrangements(hand: int) -> list[Arrangement]:
    target = _least(hand)
    found: dict[frozenset[tuple[Card, ...]], Arrangement] = {}
    for chosen in _choices(hand):
        h = hand ^ chosen
        suits = [h >> (13 * s) & _SUIT for s in range(4)]
        if sum(_RUN_DW[m] for m in suits) != target:
            continue
        sets = _set_melds(chosen)
        splits = [_suit_run_splits(m) for m in suits]
        combos: list[list[tuple[Card, ...]]] = [list(sets)]
        dead = 0
        for s in range(4):
            dead |= (suits[s] & ~_RUN_CARDS[suits[s]]) << (13 * s)
            nxt = []
            for partial in combos:
                for split in splits[s]:
                    nxt.append(partial + [_cards(run << (13 * s)) for run in split])
            combos = nxt
        deadwood = _cards(dead)
        for melds in combos:
            arr = Arrangement(tuple(sorted(melds)), deadwood)
            found.setdefault(frozenset(arr.melds), arr)
    return sorted(found.values(), key=_arrangement_key)


def arrange(cards: Iterable[CardLike], *, distinct_suits: bool = False) -> Arrangement:
    """The arrangement with the least deadwood.

    Ties are broken by the order of ``min_arrangements``: fewest melds (so a long run stays one
    meld), then the melds compared card by card. Cards from several decks are taken as in
    ``min_deadwood`` (a set may then hold one card twice, unless ``distinct_suits``), with the
    same order of ties.
    """
    try:
        hand = _mask(cards)
    except _Repeated as repeated:
        from bot.gin import multiset

        return multiset.arrange(repeated.cards, distinct_suits)
    return _min_arrangements(hand)[0]


# --- public: discards -----------------------------------------------------------------------


def best_discard(
    cards: Iterable[CardLike], *, distinct_suits: bool = False
) -> tuple[Card | None, int]:
    """The discard leaving the least deadwood, and that deadwood; ``(None, 0)`` for Big Gin.

    Meant for eleven cards. Among discards leaving the same deadwood the highest-value card is
    chosen, then the highest card number (so K♣ before K♦, and K♠ before Q♠). Cards from
    several decks are taken as in ``min_deadwood``.
    """
    try:
        hand = _mask(cards)
    except _Repeated as repeated:
        from bot.gin import multiset

        return multiset.best_discard(repeated.cards, distinct_suits)
    if not hand:
        raise CardError("There is no card to discard.")
    # The pruned set choices are safe here too: a choice left out is beaten by one that puts a
    # dead card into a set, and that choice either still has a dead card to throw (which does
    # at least as well as any discard from the pruned choice) or is Big Gin.
    dw = _RUN_DW
    gain = _DISCARD_GAIN
    best = _BIG
    winners: list[tuple[int, int]] = []
    for chosen in _choices(hand):
        h = hand ^ chosen
        a = h & _SUIT
        b = h >> 13 & _SUIT
        c = h >> 26 & _SUIT
        d = h >> 39
        base = dw[a] + dw[b] + dw[c] + dw[d]
        if not base:
            return None, 0
        g = min(gain[a], gain[b], gain[c], gain[d])
        total = base + g
        if total < best:
            best = total
            winners = [(h, g)]
        elif total == best:
            winners.append((h, g))
    pick = -1
    pick_key = -1
    for h, g in winners:
        for s in range(4):
            m = h >> (13 * s) & _SUIT
            if gain[m] == g:
                rank = _DISCARD_RANK[m]
                key = _VALUES[rank] << 6 | (13 * s + rank)
                if key > pick_key:
                    pick_key = key
                    pick = 13 * s + rank
    return DECK[pick], best


def discard_options(cards: Iterable[CardLike], *, distinct_suits: bool = False) -> dict[Card, int]:
    """For each card, the least deadwood left after discarding it (cards in order).

    Cards from several decks are taken as in ``min_deadwood``: each different card is listed
    once, with the deadwood after discarding one copy of it.
    """
    try:
        hand = _mask(cards)
    except _Repeated as repeated:
        from bot.gin import multiset

        return multiset.discard_options(repeated.cards, distinct_suits)
    dw = _RUN_DW
    drops = _DROPS
    left = [_BIG] * 52
    for chosen in _choices(hand, -1):
        h = hand ^ chosen
        suits = (h & _SUIT, h >> 13 & _SUIT, h >> 26 & _SUIT, h >> 39)
        base = dw[suits[0]] + dw[suits[1]] + dw[suits[2]] + dw[suits[3]]
        for s in range(4):
            m = suits[s]
            if not m:
                continue
            rest = base - dw[m]
            offset = 13 * s
            for rank, after in drops[m]:
                v = rest + after
                i = offset + rank
                if v < left[i]:
                    left[i] = v
    return {c: left[c] for c in _cards(hand)}


def is_big_gin(cards: Iterable[CardLike]) -> bool:
    """Eleven cards that all meld (one deck only: a repeated card is a CardError)."""
    hand = _one_deck(cards)
    return hand.bit_count() == 11 and _least(hand) == 0


# --- public: laying off ---------------------------------------------------------------------


@dataclass(frozen=True)
class LayOffResult:
    """The defender's own melds and deadwood, and the cards laid off onto the knocker's melds.

    ``layoffs`` holds (card, index of the knocker meld it goes onto) in an order they can be
    played in.
    """

    arrangement: Arrangement
    layoffs: tuple[tuple[Card, int], ...]

    @property
    def deadwood_value(self) -> int:
        return self.arrangement.deadwood_value


@dataclass
class _Targets:
    runs: list[int]  # per suit: the knocker's run cards (13-bit)
    fourths: list[int]  # per suit: ranks whose card would be the fourth of a knocker set
    melds: list[tuple[str, int, int, int]]  # per meld: kind, suit (or -1), low rank, high rank


def _targets(knocker_melds: Iterable[Iterable[CardLike]], defender: int) -> _Targets:
    runs = [0, 0, 0, 0]
    fourths = [0, 0, 0, 0]
    info: list[tuple[str, int, int, int]] = []
    seen = 0
    for meld in knocker_melds:
        m = _one_deck(meld)
        if m & (seen | defender):
            raise CardError("{card} is in two places.", card=_cards(m & (seen | defender))[0])
        seen |= m
        count = m.bit_count()
        low = (m & -m).bit_length() - 1
        suit, rank = divmod(low, 13)
        if _is_run_mask(m):
            runs[suit] |= m >> (13 * suit)
            info.append(("run", suit, rank, rank + count - 1))
        elif _is_set_mask(m):
            if count == 3:
                missing = _SPREAD_ONE & ~(m >> rank)
                fourths[(missing.bit_length() - 1) // 13] |= 1 << rank
            info.append(("set", -1, rank, rank))
        else:
            raise CardError("{cards} is not a meld.", cards=" ".join(map(str, _cards(m))))
    return _Targets(runs, fourths, info)


def _reach(cards: int, run: int) -> int:
    """The cards of ``cards | run`` chained to ``run`` (one suit)."""
    have = cards | run
    got = run
    while True:
        more = (got | got << 1 | got >> 1) & have
        if more == got:
            return got
        got = more


def _run_subsets(mask: int) -> list[int]:
    """Every subset of a suit mask made of whole runs (each stretch 3 or longer)."""
    out = [0]
    block = mask & ~(mask << 1)
    while block:
        start = block & -block
        block ^= start
        stretch = mask & ~(mask + start)
        if stretch.bit_count() >= 3:
            shift = start.bit_length() - 1
            pats = _RUN_PATTERNS[stretch.bit_count()]
            out = [o | p << shift for o in out for p in pats]
    return out


def _suit_lay_off(mask: int, run: int, fourth: int) -> int:
    """Least deadwood of one suit given the knocker's run cards and set fourths in it."""
    possible = ((_reach(mask, run) & ~run) | fourth) & mask
    if not possible:
        return _RUN_DW[mask]
    value = _SUIT_VALUE
    best = _BIG
    for own in _run_subsets(mask):
        left = mask ^ own
        laid = (left & fourth) | (_reach(left, run) & ~run)
        v = value[left & ~laid]
        if v < best:
            best = v
    return best


def _lay_off_value(hand: int, t: _Targets) -> int:
    runs = t.runs
    fourths = t.fourths
    special = [s for s in range(4) if runs[s] | fourths[s]]
    if not special:
        return _least(hand)
    free = 0
    for s in special:
        free |= _SUIT << (13 * s)
    dw = _RUN_DW
    memo: dict[int, int] = {}
    best = _BIG
    for chosen in _choices(hand, free):
        h = hand ^ chosen
        total = 0
        for s in range(4):
            m = h >> (13 * s) & _SUIT
            if runs[s] | fourths[s]:
                key = s << 13 | m
                v = memo.get(key)
                if v is None:
                    v = _suit_lay_off(m, runs[s], fourths[s])
                    memo[key] = v
                total += v
            else:
                total += dw[m]
        if total < best:
            best = total
    return best


def lay_off(knocker_melds: Iterable[Iterable[CardLike]], defender_cards: Iterable[CardLike]) -> int:
    """The defender's least deadwood after choosing own melds and lay-offs together.

    One deck only (knocking is a two-player rule): a repeated card is a CardError.
    """
    hand = _one_deck(defender_cards)
    return _lay_off_value(hand, _targets(knocker_melds, hand))


def _suit_lay_off_choice(mask: int, run: int, fourth: int) -> tuple[int, int, int]:
    """(deadwood, own run cards, laid-off cards) for one suit; ties keep more own cards."""
    best: tuple[int, int, int] | None = None
    best_own = -1
    for own in _run_subsets(mask):
        left = mask ^ own
        laid = (left & fourth) | (_reach(left, run) & ~run)
        v = _SUIT_VALUE[left & ~laid]
        if best is None or v < best[0] or (v == best[0] and own.bit_count() > best_own):
            best = (v, own, laid)
            best_own = own.bit_count()
    assert best is not None
    return best


def best_lay_off(
    knocker_melds: Sequence[Iterable[CardLike]], defender_cards: Iterable[CardLike]
) -> LayOffResult:
    """The defender's own melds and lay-offs chosen together for the least deadwood.

    Among equally good choices the defender keeps the most cards in their own melds, then the
    first choice in a fixed search order. One deck only: a repeated card is a CardError.
    """
    hand = _one_deck(defender_cards)
    t = _targets(knocker_melds, hand)
    free = 0
    for s in range(4):
        if t.runs[s] | t.fourths[s]:
            free |= _SUIT << (13 * s)
    best_key: tuple[int, int] | None = None
    best_pick: tuple[int, list[tuple[int, int]]] = (0, [])
    for chosen in _choices(hand, free):
        h = hand ^ chosen
        total = 0
        kept = chosen.bit_count()
        per_suit = []
        for s in range(4):
            m = h >> (13 * s) & _SUIT
            v, own, laid = _suit_lay_off_choice(m, t.runs[s], t.fourths[s])
            total += v
            kept += own.bit_count()
            per_suit.append((own, laid))
        key = (total, -kept)
        if best_key is None or key < best_key:
            best_key = key
            best_pick = (chosen, per_suit)
    chosen, per_suit = best_pick
    melds = _set_melds(chosen)
    dead = 0
    steps: list[tuple[Card, int]] = []
    for s, (own, laid) in enumerate(per_suit):
        m = hand >> (13 * s) & _SUIT & ~(chosen >> (13 * s))
        rest = own
        while rest:
            low = rest & -rest
            stretch = rest & ~(rest + low)
            rest ^= stretch
            melds.append(_cards(stretch << (13 * s)))
        dead |= (m & ~own & ~laid) << (13 * s)
        steps += _order_lay_offs(s, laid, t)
    steps.sort(key=lambda step: step[1])  # stable: each meld keeps its own playable order
    return LayOffResult(Arrangement(tuple(sorted(melds)), _cards(dead)), tuple(steps))


def _order_lay_offs(suit: int, laid: int, t: _Targets) -> list[tuple[Card, int]]:
    """An order to play one suit's laid-off cards: runs grow one end at a time, then sets."""
    steps: list[tuple[Card, int]] = []
    spans: dict[int, list[int]] = {}
    set_of_rank: dict[int, int] = {}
    for i, (kind, s, low, high) in enumerate(t.melds):
        if kind == "run" and s == suit:
            spans[i] = [low, high]
        elif kind == "set":
            set_of_rank[low] = i
    pending = laid
    grown = True
    while pending and grown:
        grown = False
        for i, span in spans.items():
            while span[1] < 12 and pending >> (span[1] + 1) & 1:
                span[1] += 1
                pending ^= 1 << span[1]
                steps.append((DECK[13 * suit + span[1]], i))
                grown = True
            while span[0] > 0 and pending >> (span[0] - 1) & 1:
                span[0] -= 1
                pending ^= 1 << span[0]
                steps.append((DECK[13 * suit + span[0]], i))
                grown = True
    for rank in _cards(pending):  # what is left: fourth cards of knocker sets
        steps.append((DECK[13 * suit + rank], set_of_rank[rank]))
    return steps


def knocker_arrangement(
    knocker_cards: Iterable[CardLike], defender_cards: Iterable[CardLike]
) -> Arrangement:
    """The knocker's arrangement: least deadwood, then the most deadwood left to the defender.

    Remaining ties go to the first in ``min_arrangements`` order. One deck only: a repeated
    card is a CardError.
    """
    hand = _one_deck(defender_cards)
    best: Arrangement | None = None
    best_left = -1
    for arr in min_arrangements(knocker_cards):
        left = _lay_off_value(hand, _targets(arr.melds, hand))
        if left > best_left:
            best, best_left = arr, left
    assert best is not None
    return best

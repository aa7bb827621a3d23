"""Melds and deadwood for hands from several decks, where a card may be held up to four times.

The rules (RULES.md 10.3): a set is three or more cards of one rank, identical cards allowed;
with ``distinct`` (the table setting ``set_suits = different``) a set's suits must all differ,
so a rank may hold several sets of three or four. A run is three or more cards of one suit in
consecutive rank, each rank once; two identical cards may sit in two runs, never in one. Each
physical card is in at most one meld. The public functions in ``bot.gin.melds`` send a hand
here only when some card repeats (and import this module then, so one-deck play never builds
its tables); a hand without repeats is solved by the single-deck code.

How it works
------------
A hand is packed into one int of four 52-bit layers: bit ``52 * j + card`` is set when the
hand holds more than ``j`` copies of the card. Layer 0 is the single-deck mask of the cards
present, and each suit of each layer is a 13-bit mask, so one suit's cards are
``hand >> 13 * suit & SUIT_LANES``: its four layers in one int.

Sets tie suits together, so, as in the single-deck solver, every useful way to put each rank
holding three or more cards into sets is tried; the chosen copies are taken out of the top
layers, and each suit is then solved for runs on its own. A rank's choice is how many of each
suit's copies go into sets. Without ``distinct`` any three or more copies form a set (one set
per rank is enough); with it, counts ``u`` can be split into sets of different suits exactly
when they sum to at least three and to three times their largest count (deal the copies round
``max(u)`` sets). Copies that cannot lie in any run (no run through that rank is possible in
their suit) are dead unless a set takes them and touch nothing else, so for each choice in
the other suits only the one that sets the most of them is kept. The choices of every rank of
up to ``TABLE_SET_CARDS`` copies are listed at import; bigger ranks are listed at call time.

Runs inside a suit: a stretch of three or more consecutive ranks, each held once, is one run,
so a suit whose repeated ranks lie outside such stretches costs the single-deck table entry
plus the value of its extra copies. A stretch that holds a repeated
rank is looked up in a table of every such stretch of up to ``TABLE_CARDS`` cards, built at
import by a dynamic programme over the ranks. Its state is how many runs are open with one
card, with two, and with three or more; open runs of one or two cards must take the next rank,
and extending a long run is never worse than starting a new one or leaving the card dead, so
the only choice at each rank is how many new runs start there. Bigger stretches (rare: that
many cards of one suit in a row) run the same programme at call time.

Discards: as in the single-deck solver, the least deadwood after one discard is, over the set
choices, the suits' deadwood plus the best single-card gain in any suit; the stretch table
holds that gain too. A choice left out above loses to one that sets more dead copies, and
that one does better after any discard too (or all its cards meld), so the best discard and
every card that reaches it are found among the choices kept.

Arrangements: among the choices with the least deadwood, each gives its sets (as few as can
be) and, per stretch, the runs of the programme with the fewest runs; the fewest melds win,
then the melds compared card by card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from bot.gin.cards import DECK, Card
from bot.gin.errors import CardError
from bot.gin.melds import (
    _BIG,
    _DISCARD_GAIN,
    _DISCARD_RANK,
    _RUN_CARDS,
    _RUN_DW,
    _SPREAD_ONE,
    _SUIT,
    _SUIT_VALUE,
    _VALUES,
    Arrangement,
    _arrangement_key,
    _least,
)

MAX_COPIES = 4
"""Four decks at most: no card is held more than four times."""

TABLE_CARDS = 8
"""Stretches (a repeated rank among them) of up to this many cards are solved at import:
about 1,900 of them, in a few milliseconds."""

_LANE = 52
_ONE_LANES = 1 | 1 << 52 | 1 << 104 | 1 << 156  # one card in each of the four layers
_SUIT_LANES = _SUIT * _ONE_LANES
_SPREAD_LANES = _SPREAD_ONE * _ONE_LANES
_LAYER = (1 << _LANE) - 1


# --- reading a hand -------------------------------------------------------------------------


def pack(cards: Iterable[int]) -> int:
    """The hand as four layers (bit ``52 * j + card`` for the copy after the ``j``-th).

    CardError when a card is held more than four times.
    """
    packed = 0
    for card in cards:
        bit = 1 << card
        while packed & bit:
            bit <<= _LANE
        packed |= bit
    if packed >> (_LANE * MAX_COPIES):
        over = packed >> (_LANE * MAX_COPIES) & _LAYER
        card = DECK[(over & -over).bit_length() - 1]
        held = sum(
            packed >> (_LANE * j + card) & 1 for j in range(packed.bit_length() // _LANE + 1)
        )
        raise CardError(
            "{card} is listed {held} times, but even four decks hold only four of each card.",
            card=card,
            held=held,
        )
    return packed


def cards_list(packed: int) -> list[Card]:
    """Every copy in a packed hand, in card order."""
    out = []
    while packed:
        out += _cards_of(packed & _LAYER)
        packed >>= _LANE
    return sorted(out)


def _cards_of(mask: int) -> list[Card]:
    """The cards of one layer, in order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(DECK[low.bit_length() - 1])
        mask ^= low
    return out


def _counts(suit_key: int) -> list[int]:
    """The 13 rank counts of one suit's layers."""
    return [
        sum(suit_key >> (_LANE * j + rank) & 1 for j in range(MAX_COPIES)) for rank in range(13)
    ]


# --- runs in one stretch --------------------------------------------------------------------
#
# A state is a | b << 3 | d << 6: open runs holding one card, two cards, three or more.


def _transitions() -> list[dict[int, tuple[tuple[int, int], ...]]]:
    """For each count (1-4) and state, the next states and how many copies stay dead."""
    out: list[dict[int, tuple[tuple[int, int], ...]]] = [{}]
    for count in range(1, MAX_COPIES + 1):
        table: dict[int, tuple[tuple[int, int], ...]] = {}
        for a in range(MAX_COPIES + 1):
            for b in range(MAX_COPIES + 1 - a):
                for d in range(MAX_COPIES + 1 - a - b):
                    free = count - a - b  # open short runs must take this rank
                    if free < 0:
                        continue
                    extend = min(d, free)
                    spare = free - extend
                    table[a | b << 3 | d << 6] = tuple(
                        (new | a << 3 | (b + extend) << 6, spare - new) for new in range(spare + 1)
                    )
        out.append(table)
    return out


_STEPS = _transitions()


def _step(states: dict[int, int], count: int, value: int) -> dict[int, int]:
    """The programme one rank on: each state's least deadwood after a rank of ``count``."""
    steps = _STEPS[count]
    out: dict[int, int] = {}
    for state, cost in states.items():
        for nxt, dead in steps.get(state, ()):
            total = cost + dead * value
            old = out.get(nxt)
            if old is None or total < old:
                out[nxt] = total
    return out


def _closed(states: dict[int, int]) -> int:
    """The least deadwood among states with no short run left open."""
    return min(cost for state, cost in states.items() if not state & 0o77)


def _stretch_dead_slow(counts: Sequence[int], low: int) -> int:
    """The programme over one stretch, for stretches too big for the table."""
    states = {0: 0}
    for i, count in enumerate(counts):
        states = _step(states, count, _VALUES[low + i])
    return _closed(states)


def _build_stretch_dead(limit: int) -> dict[int, int]:
    """Least deadwood of every stretch (3+ ranks, each held) with a repeat and ``limit`` cards
    or fewer, keyed by its layers. One walk per lowest rank, extending the programme rank by
    rank, so each prefix is solved once."""
    table: dict[int, int] = {}
    todo: list[tuple[int, dict[int, int], int, int, int, bool]] = [
        (low, {0: 0}, 0, 0, 0, False) for low in range(11)
    ]
    while todo:
        rank, states, key, held, length, repeat = todo.pop()
        value = _VALUES[rank]
        for count in range(1, MAX_COPIES + 1):
            if held + count > limit:
                break
            nxt = _step(states, count, value)
            grown = key
            for j in range(count):
                grown |= 1 << (_LANE * j + rank)
            again = repeat or count > 1
            if length >= 2 and again:
                table[grown] = _closed(nxt)
            if rank < 12:
                todo.append((rank + 1, nxt, grown, held + count, length + 1, again))
    return table


_STRETCH_DEAD = _build_stretch_dead(TABLE_CARDS)


def _stretch_dead(key: int) -> int:
    """Least deadwood of one stretch with a repeat (layers of one suit, no other cards)."""
    found = _STRETCH_DEAD.get(key)
    if found is not None:
        return found
    counts = _counts(key)
    low = (key & -key).bit_length() - 1
    return _stretch_dead_slow(counts[low : low + (key & _SUIT).bit_count()], low)


def _piece_dead(key: int) -> int:
    """Least deadwood of one run of consecutive held ranks of a suit, repeats or not."""
    present = key & _SUIT
    if _RUN_CARDS[present] != present:  # fewer than three ranks: all dead
        value = _SUIT_VALUE
        return (
            value[present]
            + value[key >> 52 & _SUIT]
            + value[key >> 104 & _SUIT]
            + value[key >> 156]
        )
    if not key >> _LANE:
        return 0
    return _stretch_dead(key)


def _stretch_discard(key: int, dead: int) -> tuple[int, int]:
    """(least change in deadwood from taking one copy out, the highest rank that does it)."""
    present = key & _SUIT
    best = _BIG
    best_rank = -1
    for rank in range((present & -present).bit_length() - 1, present.bit_length()):
        bit = 1 << rank
        top = bit
        while key & top << _LANE:
            top <<= _LANE
        if top != bit:  # a repeated rank: one copy fewer, the stretch stays whole
            after = _piece_dead(key ^ top)
        else:  # the stretch breaks in two
            below = key & (bit - 1) * _ONE_LANES
            after = _piece_dead(below) + _piece_dead(key ^ below ^ bit)
        if after - dead <= best:
            best = after - dead
            best_rank = rank
    return best, best_rank


_STRETCH_DISCARD = {key: _stretch_discard(key, dead) for key, dead in _STRETCH_DEAD.items()}


def _stretch_info(key: int) -> tuple[int, int, int]:
    """(deadwood, best change from one discard, its highest rank) of a stretch with a repeat."""
    dead = _stretch_dead(key)
    found = _STRETCH_DISCARD.get(key)
    if found is None:
        found = _stretch_discard(key, dead)
    return dead, found[0], found[1]


def _repeat_stretches(key: int, present: int, repeats: int) -> list[int]:
    """The layers of each stretch of three or more held ranks that holds a repeated rank."""
    runs = _RUN_CARDS[present]
    starts = runs & ~(runs << 1)
    out = []
    while starts:
        start = starts & -starts
        starts ^= start
        stretch = runs & ~(runs + start)  # the carry clears exactly this stretch
        if stretch & repeats:
            out.append(key & stretch * _ONE_LANES)
    return out


def _suit_dead(key: int) -> int:
    """Least deadwood that runs leave in one suit (its four layers)."""
    present = key & _SUIT
    if key == present:
        return _RUN_DW[present]
    repeats = key >> _LANE & _SUIT
    total = 0
    if repeats & _RUN_CARDS[present]:
        for stretch in _repeat_stretches(key, present, repeats):
            total += _stretch_dead(stretch)
            key ^= stretch
        present = key & _SUIT
    value = _SUIT_VALUE
    return (
        total
        + _RUN_DW[present]
        + value[key >> 52 & _SUIT]
        + value[key >> 104 & _SUIT]
        + value[key >> 156]
    )


def _suit_info(key: int) -> tuple[int, int, int]:
    """(deadwood, best change from one discard, the highest rank that gives it) of one suit."""
    present = key & _SUIT
    if key == present:
        return _RUN_DW[present], _DISCARD_GAIN[present], _DISCARD_RANK[present]
    repeats = key >> _LANE & _SUIT
    total = 0
    gain = _BIG
    rank = -1
    if repeats & _RUN_CARDS[present]:
        for stretch in _repeat_stretches(key, present, repeats):
            dead, g, r = _stretch_info(stretch)
            total += dead
            if g < gain or (g == gain and r > rank):
                gain, rank = g, r
            key ^= stretch
        present = key & _SUIT
    # Copies outside the stretches above are dead, so the single-deck entry of the cards
    # present gives their discard too.
    g = _DISCARD_GAIN[present]
    if g < gain or (g == gain and _DISCARD_RANK[present] > rank):
        gain, rank = g, _DISCARD_RANK[present]
    value = _SUIT_VALUE
    total += (
        _RUN_DW[present] + value[key >> 52 & _SUIT] + value[key >> 104 & _SUIT] + value[key >> 156]
    )
    return total, gain, rank


def _deadwood(hand: int) -> int:
    """Least deadwood of a packed hand with no sets."""
    lanes = _SUIT_LANES
    return (
        _suit_dead(hand & lanes)
        + _suit_dead(hand >> 13 & lanes)
        + _suit_dead(hand >> 26 & lanes)
        + _suit_dead(hand >> 39 & lanes)
    )


# --- sets -----------------------------------------------------------------------------------


def _clear(suit: int, count: int, used: int) -> int:
    """The bits that take ``used`` of ``count`` copies out of a suit's top layers (rank 0)."""
    return sum(1 << (_LANE * j + 13 * suit) for j in range(count - used, count))


def _legal(used: Sequence[int], distinct: bool) -> bool:
    """Whether copies in these per-suit counts form sets (all of them in some set)."""
    total = sum(used)
    if distinct:  # deal the copies round max(used) sets: each gets 3 or 4 different suits
        return total >= 3 and total >= 3 * max(used)
    return total >= 3


_CLEARS = tuple(
    tuple(tuple(_clear(s, c, u) for u in range(c + 1)) for c in range(MAX_COPIES + 1))
    for s in range(4)
)


def _rank_options(counts: Sequence[int], dead: Sequence[bool], distinct: bool) -> list[int]:
    """Every useful choice of one rank's copies for sets, as bits to clear (at rank 0).

    ``counts``: copies per suit; ``dead``: the suits where no run can pass through the rank.
    Copies in those suits are dead unless a set takes them, and they touch nothing else, so
    for each choice in the other suits only the one that puts the most of them in sets is
    kept: without ``distinct`` all of them; with it ``min(count, m)`` of each such suit, for
    the number of sets ``m`` that takes the most (that choice is the only one that many).
    """
    clears = [_CLEARS[s][counts[s]] for s in range(4)]
    able = [s for s in range(4) if counts[s] and not dead[s]]
    dead_counts = [c if d else 0 for c, d in zip(counts, dead, strict=True)]
    top_dead = max(dead_counts)
    # (sets, dead copies used per suit, their total) for each number of sets worth trying
    fills = [
        (m, fill, sum(fill))
        for m in (range(1, top_dead + 1) if distinct else (MAX_COPIES,))
        for fill in [[min(c, m) for c in dead_counts]]
    ]
    out = []
    for part in product(*(range(counts[s] + 1) for s in able)):
        top = max(part, default=0)
        total_part = sum(part)
        best: list[int] | None = None
        best_total = 0
        for m, fill, total_fill in fills:
            total = total_part + total_fill
            sets = max(m, top) if distinct else 1
            if total > best_total and total >= 3 and (not distinct or total >= 3 * sets):
                best, best_total = fill, total
        if best is None:  # no dead copy to add: the capable copies alone, or no set
            if any(part) and not _legal(part, distinct):
                continue  # these copies form no set
            best = [0, 0, 0, 0]
        used = list(best)
        for s, u in zip(able, part, strict=True):
            used[s] = u
        out.append(
            clears[0][used[0]] | clears[1][used[1]] | clears[2][used[2]] | clears[3][used[3]]
        )
    return out


def _option_key(counts: Sequence[int], dead: Sequence[bool]) -> int:
    """A rank's copies (its four layers at rank 0) and its run-capable suits (one bit up)."""
    key = 0
    for s, (c, d) in enumerate(zip(counts, dead, strict=True)):
        key |= _clear(s, c, c) | (0 if d or not c else 1 << (13 * s + 1))
    return key


TABLE_SET_CARDS = 5
"""Ranks holding up to this many copies have their set choices listed once, at import."""


def _build_options(distinct: bool) -> dict[int, tuple[int, ...]]:
    """The choices of every rank of 3 to ``TABLE_SET_CARDS`` copies, by ``_option_key``."""
    table: dict[int, tuple[int, ...]] = {}
    for counts in product(range(MAX_COPIES + 1), repeat=4):
        if not 3 <= sum(counts) <= TABLE_SET_CARDS:
            continue
        for dead in product((False, True), repeat=4):
            if any(d and not c for c, d in zip(counts, dead, strict=True)):
                continue  # an absent suit counts as capable here, so each key once
            table[_option_key(counts, dead)] = tuple(_rank_options(counts, dead, distinct))
    return table


_OPTIONS = (_build_options(False), _build_options(True))


_Seen = dict[int, list[int]]
"""Set choices of big ranks already listed during one call (``discard_options`` asks often)."""


def _options(lanes: int, able: int, distinct: bool, seen: _Seen) -> tuple[int, ...] | list[int]:
    """The set choices of one rank (``lanes``: its layers; ``able``: run-capable suits)."""
    key = lanes | able << 1
    found = _OPTIONS[distinct].get(key)
    if found is not None:
        return found
    listed = seen.get(key)
    if listed is None:
        counts = []
        for s in range(4):
            suit = lanes >> (13 * s)
            counts.append((suit & 1) + (suit >> 52 & 1) + (suit >> 104 & 1) + (suit >> 156 & 1))
        dead = [not able >> (13 * s) & 1 for s in range(4)]
        listed = seen[key] = _rank_options(counts, dead, distinct)
    return listed


def _choices(hand: int, distinct: bool, seen: _Seen | None = None) -> list[int]:
    """Every useful choice of set cards, as bits to clear from the packed hand."""
    # Ranks held three or more times: count the suits of layer 0, then each extra copy.
    present = hand & _LAYER
    s0 = present & _SUIT
    s1 = present >> 13 & _SUIT
    s2 = present >> 26 & _SUIT
    s3 = present >> 39
    one = s0 | s1 | s2 | s3
    two = (s0 & s1) | ((s0 | s1) & (s2 | s3)) | (s2 & s3)
    three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    extra = hand >> _LANE
    while extra:
        low = extra & -extra
        extra ^= low
        bit = 1 << (low.bit_length() - 1) % 13
        three |= two & bit
        two |= one & bit
        one |= bit
    if not three:
        return [0]
    rc = _RUN_CARDS
    capable = (
        rc[present & _SUIT]
        | rc[present >> 13 & _SUIT] << 13
        | rc[present >> 26 & _SUIT] << 26
        | rc[present >> 39] << 39
    )
    if seen is None:
        seen = {}
    combos = [0]
    while three:
        low = three & -three
        three ^= low
        rank = low.bit_length() - 1
        lanes = hand >> rank & _SPREAD_LANES
        options = _options(lanes, capable >> rank & _SPREAD_ONE, distinct, seen)
        if len(options) == 1:
            shift = options[0] << rank
            combos = [c | shift for c in combos]
        else:
            combos = [c | o << rank for c in combos for o in options]
    return combos


def _least_packed(hand: int, distinct: bool, seen: _Seen | None = None) -> int:
    """Least deadwood of a packed hand; one without repeats goes to the single-deck solver."""
    if not hand >> _LANE:
        return _least(hand)
    best = _BIG
    for chosen in _choices(hand, distinct, seen):
        total = _deadwood(hand ^ chosen)
        if total < best:
            best = total
            if not best:
                break
    return best


# --- public ---------------------------------------------------------------------------------


def min_deadwood(cards: Iterable[int], distinct: bool = False) -> int:
    """The least deadwood of cards from several decks (``distinct``: a set's suits differ)."""
    return _least_packed(pack(cards), distinct)


def best_discard(cards: Iterable[int], distinct: bool = False) -> tuple[Card | None, int]:
    """The discard leaving the least deadwood and that deadwood; ``(None, 0)`` if all meld.

    Ties: the highest-value card, then the highest card number (as in ``bot.gin.melds``).
    """
    hand = pack(cards)
    if not hand:
        raise CardError("There is no card to discard.")
    lanes = _SUIT_LANES
    best = _BIG
    winners: list[tuple[int, list[tuple[int, int, int]]]] = []
    for chosen in _choices(hand, distinct):
        h = hand ^ chosen
        infos = [
            _suit_info(h & lanes),
            _suit_info(h >> 13 & lanes),
            _suit_info(h >> 26 & lanes),
            _suit_info(h >> 39 & lanes),
        ]
        base = infos[0][0] + infos[1][0] + infos[2][0] + infos[3][0]
        if not base:
            return None, 0
        g = min(infos[0][1], infos[1][1], infos[2][1], infos[3][1])
        total = base + g
        if total < best:
            best = total
            winners = [(g, infos)]
        elif total == best:
            winners.append((g, infos))
    pick = -1
    pick_key = -1
    for g, infos in winners:
        for s, (_, gain, rank) in enumerate(infos):
            if gain == g:
                key = _VALUES[rank] << 6 | (13 * s + rank)
                if key > pick_key:
                    pick_key = key
                    pick = 13 * s + rank
    return DECK[pick], best


def discard_options(cards: Iterable[int], distinct: bool = False) -> dict[Card, int]:
    """For each different card held, the least deadwood after discarding one copy of it."""
    hand = pack(cards)
    seen: _Seen = {}
    out = {}
    for card in _cards_of(hand & _LAYER):
        top = 1 << card
        while hand & top << _LANE:
            top <<= _LANE
        out[card] = _least_packed(hand ^ top, distinct, seen)
    return out


def arrange(cards: Iterable[int], distinct: bool = False) -> Arrangement:
    """An arrangement with the least deadwood; of those, the fewest melds, then the melds
    compared card by card. A set may hold the same card more than once (not with
    ``distinct``); with ``distinct`` a rank's set cards form as few sets as they can."""
    hand = pack(cards)
    totals = [(_deadwood(hand ^ chosen), chosen) for chosen in _choices(hand, distinct)]
    target = min(total for total, _ in totals)
    best: Arrangement | None = None
    best_key: tuple[int, tuple[tuple[int, ...], ...]] | None = None
    for total, chosen in totals:
        if total != target:
            continue
        h = hand ^ chosen
        melds = _set_melds(chosen, distinct)
        dead: list[Card] = []
        for s in range(4):
            _suit_runs(h >> (13 * s) & _SUIT_LANES, s, melds, dead)
        arr = Arrangement(tuple(sorted(melds)), tuple(sorted(dead)))
        key = _arrangement_key(arr)
        if best_key is None or key < best_key:
            best, best_key = arr, key
    assert best is not None
    return best


# --- building an arrangement ----------------------------------------------------------------


def _set_melds(chosen: int, distinct: bool) -> list[tuple[Card, ...]]:
    """The sets of a set choice: one per rank, or with ``distinct`` as few as can be."""
    by_rank: dict[int, list[Card]] = {}
    for card in cards_list(chosen):
        by_rank.setdefault(card.rank, []).append(card)
    melds: list[tuple[Card, ...]] = []
    for group in by_rank.values():
        if not distinct:
            melds.append(tuple(group))
            continue
        size = max(group.count(c) for c in group)
        sets: list[list[Card]] = [[] for _ in range(size)]
        for i, card in enumerate(group):  # a card's copies are side by side: different sets
            sets[i % size].append(card)
        melds += [tuple(s) for s in sets]
    return melds


def _suit_runs(key: int, suit: int, melds: list[tuple[Card, ...]], dead: list[Card]) -> None:
    """Add to ``melds`` the fewest runs that leave one suit its least deadwood, and to
    ``dead`` the copies left over."""
    offset = 13 * suit
    rest = key & _SUIT
    while rest:
        low = rest & -rest
        stretch = rest & ~(rest + low)  # the lowest stretch of held ranks
        rest ^= stretch
        first = low.bit_length() - 1
        ranks = range(first, first + stretch.bit_count())
        piece = key & stretch * _ONE_LANES
        if len(ranks) < 3:  # too short for a run
            dead += cards_list(piece << offset)
            continue
        if not piece >> _LANE:  # each rank once: one run
            melds.append(tuple(DECK[offset + r] for r in ranks))
            continue
        counts = [sum(piece >> (_LANE * j + r) & 1 for j in range(MAX_COPIES)) for r in ranks]
        for lowest, highest in _stretch_runs(counts, first):
            melds.append(tuple(DECK[offset + r] for r in range(lowest, highest + 1)))
            for r in range(lowest, highest + 1):
                counts[r - first] -= 1
        for r, count in zip(ranks, counts, strict=True):
            dead += [DECK[offset + r]] * count


def _stretch_runs(counts: Sequence[int], low: int) -> list[tuple[int, int]]:
    """Runs (lowest, highest rank) leaving a stretch its least deadwood, as few as can be."""
    # The same programme as the table, keeping (deadwood, runs) and the way back.
    layers: list[dict[int, tuple[tuple[int, int], int, int]]] = []
    states: dict[int, tuple[int, int]] = {0: (0, 0)}
    for i, count in enumerate(counts):
        value = _VALUES[low + i]
        nxt: dict[int, tuple[int, int]] = {}
        back: dict[int, tuple[tuple[int, int], int, int]] = {}
        for state, (cost, runs) in states.items():
            for new_state, dead in _STEPS[count].get(state, ()):
                started = new_state & 7
                cand = (cost + dead * value, runs + started)
                if new_state not in nxt or cand < nxt[new_state]:
                    nxt[new_state] = cand
                    back[new_state] = (cand, state, started)
        layers.append(back)
        states = nxt
    end = min((s for s in states if not s & 0o77), key=lambda s: states[s])
    starts = []
    for back in reversed(layers):
        _, prev, started = back[end]
        starts.append(started)
        end = prev
    starts.reverse()
    # Replay: short runs must go on; long runs go on while the rank has copies, newest first.
    spans = []
    open_runs: list[int] = []  # lowest rank of each open run
    for i, count in enumerate(counts):
        rank = low + i
        short = [r for r in open_runs if rank - r < 3]
        long = sorted((r for r in open_runs if rank - r >= 3), reverse=True)
        keep = long[: count - len(short)]
        spans += [(r, rank - 1) for r in long[len(keep) :]]
        open_runs = short + keep + [rank] * starts[i]
    spans += [(r, low + len(counts) - 1) for r in open_runs]
    return spans

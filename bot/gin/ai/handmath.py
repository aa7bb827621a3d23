"""Deadwood, discards and lay-offs on 52-bit card masks, for searches that ask millions of times.

``bot.gin.melds`` answers the same questions for the rules engine, with arrangements to show
and every tie broken for people; a search only needs numbers, as fast as Python gives them. A
hand is one int (bit ``suit * 13 + rank``), as in ``bot.gin.melds`` and ``cardmath``.

Runs stay inside a suit, and inside one suit every stretch of three or more consecutive cards
is a run, so a table over the 8192 suit masks gives the deadwood runs leave in a suit. Sets tie
suits together: for each rank holding three or four cards every way of using it is tried (no
set, the whole set, each set of three), with a set card that can lie in no run always put in
its set. A hand of eleven cards has at most three such ranks, so a hand costs a few table
look-ups.

Discards: the deadwood after the best discard from eleven cards is, over the set choices, the
suits' deadwood less the best single saving a suit offers (a second table). Lay-offs are
solved per suit once the defender's sets are chosen, as in ``bot.gin.melds``.
"""

from __future__ import annotations

SUIT = 0x1FFF
ACES = 1 | 1 << 13 | 1 << 26 | 1 << 39
FULL = (1 << 52) - 1
BIG = 1 << 20
RANK_VALUE: tuple[int, ...] = tuple(min(r + 1, 10) for r in range(13))
VALUE: tuple[int, ...] = tuple(RANK_VALUE[c % 13] for c in range(52))


def _tables() -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    size = 1 << 13
    value = [0] * size
    run_cards = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        value[mask] = value[mask ^ low] + RANK_VALUE[low.bit_length() - 1]
        starts = mask & ~(mask << 1)
        stretches = 0
        while starts:
            start = starts & -starts
            starts ^= start
            stretch = mask & ~(mask + start)
            if stretch.bit_count() >= 3:
                stretches |= stretch
        run_cards[mask] = stretches
    run_dw = [value[m & ~run_cards[m]] for m in range(size)]
    # gain[m]: the least (deadwood of m less one card) - (deadwood of m), BIG for no card;
    # gain_rank[m]: the rank thrown for it (ties: the highest value, then the highest rank).
    gain = [BIG] * size
    gain_rank = [-1] * size
    for mask in range(1, size):
        base = run_dw[mask]
        best = BIG
        best_rank = -1
        for rank in range(13):
            if mask >> rank & 1:
                g = run_dw[mask ^ (1 << rank)] - base
                if g <= best:
                    best = g
                    best_rank = rank
        gain[mask] = best
        gain_rank[mask] = best_rank
    return value, run_cards, run_dw, gain, gain_rank


SUIT_VALUE, RUN_CARDS, RUN_DW, GAIN, GAIN_RANK = _tables()


def _spread(suits: int) -> int:
    return sum(1 << (13 * s) for s in range(4) if suits >> s & 1)


def _set_options() -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
    """Ways to use a rank of three or four cards, as ace-rank masks of the set's cards.

    ``pruned`` is keyed by ``present | capable << 1`` (``capable``: the present cards that lie
    in a run of their suit) and leaves out every choice that strands a card the set could take
    and no run can; ``every`` is keyed by ``present`` and keeps all choices (for discards,
    where the card left out may be the one thrown).
    """
    every: dict[int, tuple[int, ...]] = {}
    pruned: dict[int, tuple[int, ...]] = {}
    for present in range(16):
        if present.bit_count() < 3:
            continue
        choices = [0, present]
        if present.bit_count() == 4:
            choices += [present & ~(1 << s) for s in range(4)]
        every[_spread(present)] = tuple(_spread(c) for c in choices)
        for capable in range(16):
            if capable & ~present:
                continue
            kept = []
            for chosen in choices:
                if chosen == 0 and capable == 0:
                    continue
                if chosen and present & ~chosen & ~capable:
                    continue
                kept.append(_spread(chosen))
            pruned[_spread(present) | _spread(capable) << 1] = tuple(kept)
    return every, pruned


SET_EVERY, SET_PRUNED = _set_options()


def set_ranks(hand: int) -> int:
    """The ranks (13-bit) holding three or four cards of the hand."""
    s0 = hand & SUIT
    s1 = hand >> 13 & SUIT
    s2 = hand >> 26 & SUIT
    s3 = hand >> 39
    return (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))


def set_choices(hand: int, every: bool = False) -> list[int]:
    """Every useful choice of set cards for the hand, as masks (0: no sets)."""
    ranks = set_ranks(hand)
    if not ranks:
        return [0]
    if every:
        capable = 0
    else:
        rc = RUN_CARDS
        capable = (
            rc[hand & SUIT] | rc[hand >> 13 & SUIT] << 13 | rc[hand >> 26 & SUIT] << 26
        ) | rc[hand >> 39] << 39
    combos = [0]
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        rank = low.bit_length() - 1
        if every:
            options = SET_EVERY[hand >> rank & ACES]
        else:
            options = SET_PRUNED[(hand >> rank & ACES) | (capable >> rank & ACES) << 1]
        if len(options) == 1:
            shift = options[0] << rank
            combos = [c | shift for c in combos]
        else:
            combos = [c | o << rank for c in combos for o in options]
    return combos


def deadwood(hand: int) -> int:
    """The least deadwood of the cards of ``hand``."""
    dw = RUN_DW
    s0 = hand & SUIT
    s1 = hand >> 13 & SUIT
    s2 = hand >> 26 & SUIT
    s3 = hand >> 39
    if not ((s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))):
        return dw[s0] + dw[s1] + dw[s2] + dw[s3]
    best = BIG
    for chosen in set_choices(hand):
        h = hand ^ chosen
        total = dw[h & SUIT] + dw[h >> 13 & SUIT] + dw[h >> 26 & SUIT] + dw[h >> 39]
        if total < best:
            best = total
            if not best:
                break
    return best


def best_discard(hand: int) -> tuple[int, int]:
    """(deadwood left, card) of the best discard from ``hand`` (eleven cards, say).

    Ties go to the highest-value card, then the highest card number. For a hand whose every
    card melds, a card whose discard leaves gin.
    """
    dw = RUN_DW
    gain = GAIN
    best = BIG
    winners: list[tuple[int, int]] = []
    for chosen in set_choices(hand):
        h = hand ^ chosen
        a = h & SUIT
        b = h >> 13 & SUIT
        c = h >> 26 & SUIT
        d = h >> 39
        base = dw[a] + dw[b] + dw[c] + dw[d]
        if not base:
            return _melded_discard(hand)
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
            m = h >> (13 * s) & SUIT
            if m and gain[m] == g:
                rank = GAIN_RANK[m]
                key = RANK_VALUE[rank] << 6 | (13 * s + rank)
                if key > pick_key:
                    pick_key = key
                    pick = 13 * s + rank
    return best, pick


def _melded_discard(hand: int) -> tuple[int, int]:
    """Every card melds: the discard leaving the least deadwood (gin when a meld has four)."""
    options = discard_deadwoods(hand)
    card = min(options, key=lambda c: (options[c], -VALUE[c], -c))
    return options[card], card


def discard_deadwoods(hand: int) -> dict[int, int]:
    """For each card of ``hand``, the least deadwood left after discarding it."""
    dw = RUN_DW
    left: dict[int, int] = {}
    cards = []
    m = hand
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    for card in cards:
        left[card] = BIG
    for chosen in set_choices(hand, every=True):
        h = hand ^ chosen
        suits = (h & SUIT, h >> 13 & SUIT, h >> 26 & SUIT, h >> 39)
        base = dw[suits[0]] + dw[suits[1]] + dw[suits[2]] + dw[suits[3]]
        # A set card thrown from a set of four still leaves a set of three: the choice that
        # keeps the other three covers it, so only cards outside the chosen sets are tried.
        for s in range(4):
            sm = suits[s]
            if not sm:
                continue
            rest = base - dw[sm]
            offset = 13 * s
            x = sm
            while x:
                low = x & -x
                x ^= low
                rank = low.bit_length() - 1
                v = rest + dw[sm ^ low]
                card = offset + rank
                if v < left[card]:
                    left[card] = v
    # A card in a set of three of every choice (never outside one) still has a value: the
    # other choices above always include leaving its rank out of sets, so it was reached.
    return left


def cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: object) -> int:
    mask = 0
    for c in cards:  # type: ignore[attr-defined]
        mask |= 1 << c
    return mask


# --- melds of a hand, and lay-offs ------------------------------------------------------------


def meld_cards(hand: int) -> tuple[int, int, int]:
    """(deadwood, run cards, set cards) of a least-deadwood arrangement of ``hand``.

    Runs are given as card masks (each stretch of three or more in a suit is one run); the
    deadwood cards are ``hand & ~(runs | sets)``. Among equal arrangements the first found.
    """
    dw = RUN_DW
    rc = RUN_CARDS
    best = BIG
    best_runs = 0
    best_sets = 0
    for chosen in set_choices(hand):
        h = hand ^ chosen
        a = h & SUIT
        b = h >> 13 & SUIT
        c = h >> 26 & SUIT
        d = h >> 39
        total = dw[a] + dw[b] + dw[c] + dw[d]
        if total < best:
            best = total
            best_sets = chosen
            best_runs = rc[a] | rc[b] << 13 | rc[c] << 26 | rc[d] << 39
    return best, best_runs, best_sets


def fourth_cards(sets: int) -> int:
    """The cards that would be the fourth of a set of three among ``sets``."""
    out = 0
    for rank in range(13):
        group = sets >> rank & ACES
        if group and group.bit_count() == 3:
            out |= (ACES & ~group) << rank
    return out


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
    """Every subset of a suit mask made of whole runs (each stretch three or longer)."""
    out = [0]
    block = mask & ~(mask << 1)
    while block:
        start = block & -block
        block ^= start
        stretch = mask & ~(mask + start)
        n = stretch.bit_count()
        if n >= 3:
            shift = start.bit_length() - 1
            out = [o | p << shift for o in out for p in _RUN_PATTERNS[n]]
    return out


def _run_patterns() -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for n in range(14):
        found = []
        for sub in range(1 << n):
            rest = sub
            ok = True
            while rest:
                low = rest & -rest
                piece = rest & ~(rest + low)
                if piece.bit_count() < 3:
                    ok = False
                    break
                rest ^= piece
            if ok:
                found.append(sub)
        out.append(tuple(found))
    return out


_RUN_PATTERNS = _run_patterns()
_SUIT_LAY_OFF: dict[int, int] = {}


def _suit_lay_off(mask: int, run: int, fourth: int) -> int:
    """Least deadwood of one suit of the defender given the knocker's runs and set fourths."""
    key = mask | run << 13 | fourth << 26
    cached = _SUIT_LAY_OFF.get(key)
    if cached is not None:
        return cached
    possible = ((_reach(mask, run) & ~run) | fourth) & mask
    if not possible:
        best = RUN_DW[mask]
    else:
        best = BIG
        for own in _run_subsets(mask):
            left = mask ^ own
            laid = (left & fourth) | (_reach(left, run) & ~run)
            v = SUIT_VALUE[left & ~laid]
            if v < best:
                best = v
    if len(_SUIT_LAY_OFF) > 200_000:
        _SUIT_LAY_OFF.clear()
    _SUIT_LAY_OFF[key] = best
    return best


def defender_deadwood(defender: int, runs: int, sets: int) -> int:
    """The defender's least deadwood after their own melds and lay-offs onto the knocker's
    ``runs`` and ``sets`` (card masks), chosen together."""
    fourths = fourth_cards(sets)
    targets = runs | fourths
    if not targets:
        return deadwood(defender)
    special = [s for s in range(4) if targets >> (13 * s) & SUIT]
    free = 0
    for s in special:
        free |= SUIT << (13 * s)
    # Set choices with the suits that may lay off counted as run-capable (never pruned).
    ranks = set_ranks(defender)
    combos = [0]
    if ranks:
        rc = RUN_CARDS
        h = defender
        capable = (
            rc[h & SUIT] | rc[h >> 13 & SUIT] << 13 | rc[h >> 26 & SUIT] << 26 | rc[h >> 39] << 39
        )
        capable = (capable | free) & h
        while ranks:
            low = ranks & -ranks
            ranks ^= low
            rank = low.bit_length() - 1
            options = SET_PRUNED[(h >> rank & ACES) | (capable >> rank & ACES) << 1]
            combos = [c | o << rank for c in combos for o in options]
    best = BIG
    dw = RUN_DW
    for chosen in combos:
        h = defender ^ chosen
        total = 0
        for s in range(4):
            m = h >> (13 * s) & SUIT
            t_run = runs >> (13 * s) & SUIT
            t_four = fourths >> (13 * s) & SUIT
            if t_run | t_four:
                total += _suit_lay_off(m, t_run, t_four)
            else:
                total += dw[m]
        if total < best:
            best = total
    return best


# --- meld chances -----------------------------------------------------------------------------


def completions(mask: int) -> int:
    """Every card that makes a three-card meld with two cards of ``mask``."""
    out = 0
    for s in range(4):
        m = mask >> (13 * s) & SUIT
        adjacent = m & (m >> 1)
        gapped = m & (m >> 2)
        run = (adjacent >> 1) | (adjacent << 2) | (gapped << 1)
        out |= (run & SUIT) << (13 * s)
    a = mask & SUIT
    b = mask >> 13 & SUIT
    c = mask >> 26 & SUIT
    d = mask >> 39
    pairs = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    return out | pairs | pairs << 13 | pairs << 26 | pairs << 39


def _near(card: int) -> int:
    suit, rank = divmod(card, 13)
    mask = 0
    for other in range(4):
        if other != suit:
            mask |= 1 << (other * 13 + rank)
    for step in (-2, -1, 1, 2):
        if 0 <= rank + step < 13:
            mask |= 1 << (suit * 13 + rank + step)
    return mask


NEAR: tuple[int, ...] = tuple(_near(c) for c in range(52))
"""For each card, the cards that can sit in a three-card meld with it."""

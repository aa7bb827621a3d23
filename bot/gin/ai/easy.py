"""The easy opponent: the classic baseline strategy that Gin Rummy programs are measured against.

- Take the top of the discard pile (the upcard or a later discard) only when it becomes part of
  a meld in a best arrangement of the hand with it; otherwise draw from the stock (or pass).
- Discard the card whose loss leaves the least deadwood; among those, the highest-value card;
  among those, one at random. It never looks at what anyone else might want.
- Knock as soon as the deadwood allows (at a gin-only table: go gin as soon as it can), and
  declare Big Gin when it can.

The same rules play every mode: in elimination the hand may hold identical cards and sets and
deadwood follow the table's rules. Like every level it never takes a card from the pile a
second time in one hand, so two players cannot pass the same cards back and forth for ever.
At a gin-only table a hand that has gone on far longer than any ordinary one (two players
each keeping what the other needs, the stock reshuffled again and again) is ended by
discarding at random now and then; see ``bot.gin.ai.stall``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.gin.ai.stall import random_discard, skip_pile
from bot.gin.ai.view import EliminationView, PlayerView
from bot.gin.cards import Card
from bot.gin.hand import Action, ActionKind, Phase
from bot.gin.melds import discard_options, min_arrangements, min_deadwood


def melds_in_best(hand: tuple[Card, ...], card: Card) -> bool:
    """Whether ``card`` is in a meld of some least-deadwood arrangement of the hand with it."""
    for arrangement in min_arrangements([*hand, card]):
        if any(card in meld for meld in arrangement.melds):
            return True
    return False


def joins_a_best_meld(hand: Sequence[Card], card: Card, distinct_suits: bool) -> bool:
    """``melds_in_best`` for any number of decks: whether some least-deadwood arrangement of
    the hand with ``card`` puts that card in a meld.

    With the card as deadwood an arrangement leaves at least the hand's own least deadwood plus
    the card's value; when the hand with it does better, every best arrangement melds it. When
    it only ties, some best arrangement melds it exactly when some meld through the card leaves
    the other cards that same least deadwood.
    """
    with_it = [*hand, card]
    least = min_deadwood(with_it, distinct_suits=distinct_suits)
    alone = min_deadwood(hand, distinct_suits=distinct_suits) + card.value
    if least < alone:
        return True
    for meld in melds_through(with_it, card, distinct_suits):
        rest = list(with_it)
        for c in meld:
            rest.remove(c)
        if min_deadwood(rest, distinct_suits=distinct_suits) == least:
            return True
    return False


def melds_through(cards: Sequence[Card], card: Card, distinct_suits: bool) -> list[list[Card]]:
    """Every meld of ``cards`` holding one copy of ``card``, each choice of copies once."""
    out: list[list[Card]] = []
    suit, rank = card.suit, card.rank
    held = {c.rank for c in cards if c.suit == suit}
    low = rank
    while low - 1 in held:
        low -= 1
    high = rank
    while high + 1 in held:
        high += 1
    for start in range(low, rank + 1):
        for end in range(max(rank, start + 2), high + 1):
            out.append([Card(13 * suit + r) for r in range(start, end + 1)])
    others = sorted(c for c in cards if c.rank == rank)
    others.remove(card)
    chosen: set[tuple[Card, ...]] = set()
    count = len(others)
    for mask in range(1, 1 << count):
        group = tuple(others[i] for i in range(count) if mask >> i & 1)
        if len(group) < 2 or group in chosen:
            continue
        if distinct_suits and len({c.suit for c in (*group, card)}) != len(group) + 1:
            continue
        chosen.add(group)
        out.append([card, *group])
    return out


def choose_discard(
    hand: Sequence[Card], banned: Card | None, rng: random.Random, distinct_suits: bool = False
) -> tuple[Card, int]:
    """The card leaving the least deadwood and that deadwood; never the card just taken.

    Ties go to the higher-value card, then at random.
    """
    options = discard_options(hand, distinct_suits=distinct_suits)
    if banned is not None:
        options.pop(banned, None)
    least = min(options.values())
    tied = [c for c, left in options.items() if left == least]
    top = max(c.value for c in tied)
    return rng.choice([c for c in tied if c.value == top]), least


def decide_easy(view: PlayerView, rng: random.Random) -> Action:
    """The baseline's move for the seat to act in a two-player hand."""
    me = view.seat
    legal = view.legal_actions
    if view.phase in (Phase.UPCARD, Phase.DRAW):
        take = Action(ActionKind.DRAW_DISCARD, me)
        top = view.upcard
        if (
            take in legal
            and top is not None
            and top not in view.my_pickups
            and melds_in_best(view.hand, top)
        ):
            return take
        skip = ActionKind.PASS if view.phase is Phase.UPCARD else ActionKind.DRAW_STOCK
        return Action(skip, me)
    big_gin = Action(ActionKind.BIG_GIN, me)
    if big_gin in legal:
        return big_gin
    card, left = choose_discard(view.hand, view.taken_from_discard, rng)
    if left <= view.knock_limit:
        return Action(ActionKind.KNOCK, me, card)
    return Action(ActionKind.DISCARD, me, card)


def decide_easy_elimination(view: EliminationView, rng: random.Random) -> Action:
    """The baseline's move for the seat to act in a hand of any number of players."""
    me = view.seat
    legal = view.legal_actions
    if view.phase is not Phase.DISCARD:
        take = Action(ActionKind.DRAW_DISCARD, me)
        top = view.upcard
        if (
            take in legal
            and top is not None
            and top not in view.my_pickups
            and joins_a_best_meld(view.hand, top, view.distinct_suits)
        ):
            return take
        return skip_pile(view)
    card, _ = choose_discard(view.hand, view.taken_from_discard, rng, view.distinct_suits)
    knock = Action(ActionKind.KNOCK, me, card)
    if knock in legal:
        return knock
    loose = random_discard(view, rng)
    if loose is not None:
        return loose
    return Action(ActionKind.DISCARD, me, card)

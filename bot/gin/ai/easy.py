"""The easy opponent: the simple baseline strategy that Gin Rummy programs are measured against.

- Take the top of the discard pile (the upcard or a later discard) only when it becomes part of
  a meld in a best arrangement of the hand with it; otherwise draw from the stock (or pass).
- Discard the card whose loss leaves the least deadwood, which is the highest-value deadwood
  card; it never looks at what the opponent might want.
- Knock as soon as the deadwood allows, and declare Big Gin when it can.

Like every level it never takes a card from the pile a second time in one hand, so two
players cannot pass the same cards back and forth for ever.
"""

from __future__ import annotations

import random

from bot.gin.ai.cardmath import NEAR, mask_of
from bot.gin.ai.view import PlayerView
from bot.gin.cards import Card
from bot.gin.hand import Action, ActionKind, Phase
from bot.gin.melds import discard_options, min_arrangements


def melds_in_best(hand: tuple[Card, ...], card: Card) -> bool:
    """Whether ``card`` is in a meld of some least-deadwood arrangement of the hand with it."""
    for arrangement in min_arrangements([*hand, card]):
        if any(card in meld for meld in arrangement.melds):
            return True
    return False


def choose_discard(view: PlayerView, rng: random.Random) -> tuple[Card, int]:
    """The card leaving the least deadwood and that deadwood; never the card just taken.

    Ties go to the higher-value card, then to the card with fewer cards near it in the hand
    (the one least likely to meld later), then at random.
    """
    options = discard_options(view.hand)
    options.pop(view.taken_from_discard, None)  # type: ignore[arg-type]
    least = min(options.values())
    tied = [c for c, left in options.items() if left == least]
    if len(tied) > 1:
        hand_mask = mask_of(view.hand)

        def key(c: Card) -> tuple[int, int]:
            return (-c.value, (NEAR[c] & hand_mask).bit_count())

        best_key = min(key(c) for c in tied)
        tied = [c for c in tied if key(c) == best_key]
    return rng.choice(tied), least


def decide_easy(view: PlayerView, rng: random.Random) -> Action:
    """The baseline's move for the seat to act."""
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
    card, left = choose_discard(view, rng)
    if left <= view.settings.knock_limit:
        return Action(ActionKind.KNOCK, me, card)
    return Action(ActionKind.DISCARD, me, card)

"""Simple scripted players for simulations: random, greedy knockers and gin hunters."""

from __future__ import annotations

import random

from bot.gin.hand import Action, ActionKind, Hand, Phase


def choose(hand: Hand, style: str, rng: random.Random) -> Action:
    """A legal action for the player to act. ``style``: random, knocker or hunter."""
    legal = hand.legal_actions()
    assert legal, "the player to act always has a legal action"
    if style == "random":
        return rng.choice(legal)
    me = hand.turn
    if hand.phase in (Phase.UPCARD, Phase.DRAW):
        take = next((a for a in legal if a.kind is ActionKind.DRAW_DISCARD), None)
        if take is not None and hand.upcard is not None:
            options = hand.discard_options(hand.hands[me] + [hand.upcard])
            options.pop(hand.upcard, None)
            if options and min(options.values()) < hand.deadwood(hand.hands[me]):
                return take
        return next(
            (a for a in legal if a.kind in (ActionKind.DRAW_STOCK, ActionKind.PASS)), legal[0]
        )
    kinds = {a.kind for a in legal}
    if ActionKind.BIG_GIN in kinds:
        return Action(ActionKind.BIG_GIN, me)
    options = hand.discard_options(hand.hands[me])
    options.pop(hand.taken_from_discard, None)  # type: ignore[arg-type]
    best = min(options, key=lambda c: (options[c], -c.value))
    knock = Action(ActionKind.KNOCK, me, best)
    if knock in legal and (options[best] == 0 or style == "knocker"):
        return knock
    return Action(ActionKind.DISCARD, me, best)

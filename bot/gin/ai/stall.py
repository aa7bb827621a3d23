"""Keeping a gin-only hand from going on for ever.

In elimination nobody can knock, and an empty stock is refilled from the pile, so a hand ends
only when somebody goes gin. Two careful players can lock each other out: each keeps the
cards the other needs, the stock goes round and round, and no one ever melds all ten. Past a
length that ordinary hands never reach, every level starts discarding at random now and then,
more often the longer it goes, which frees the locked cards; before that nothing changes.
"""

from __future__ import annotations

import random

from bot.gin.ai.view import EliminationView
from bot.gin.hand import Action, ActionKind

STALL_TURNS = 40
"""Turns per player in one hand after which the players start loosening."""
LOOSEN_OVER = 40
"""Turns per player over which the chance of a random discard grows to its most."""
MOST = 0.5


def turns_each(view: EliminationView) -> float:
    """Turns each player has had in this hand, on average."""
    return view.draws / max(1, len(view.seats))


def stall_level(view: EliminationView) -> float:
    """0 in an ordinary hand, growing to 1 as a hand runs far too long."""
    over = turns_each(view) - STALL_TURNS
    return 0.0 if over <= 0 else min(1.0, over / LOOSEN_OVER)


def random_discard(view: EliminationView, rng: random.Random) -> Action | None:
    """A random legal discard when the hand has gone on too long (sometimes), else None.

    The random generator is touched only past the stall length, so ordinary play is the same
    with or without this rule.
    """
    level = stall_level(view)
    if level <= 0.0 or rng.random() >= MOST * level:
        return None
    choices = [a for a in view.legal_actions if a.kind is ActionKind.DISCARD]
    return rng.choice(choices) if choices else None


def skip_pile(view: EliminationView) -> Action:
    """Not taking the top of the pile: the stock, or passing, or (stock empty) the pile."""
    me = view.seat
    legal = view.legal_actions
    for kind in (ActionKind.DRAW_STOCK, ActionKind.PASS):
        action = Action(kind, me)
        if action in legal:
            return action
    return legal[0]

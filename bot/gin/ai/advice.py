"""The coach's voice: the expert's own move for a seat, with facts a player can check, and
how clearly one move beats another once the valuation's own noise is counted.

A hint is ``decide_expert`` itself, from the seat's view alone, so a player who takes every
hint plays as the expert plays. Its reasons are facts the player can count from their own
cards and the table: the deadwood a throw leaves, how many unseen cards would join a meld or
give gin, whether the upcard joins a meld; and, for a knock, how often the opponent hands the
search imagines would undercut it (an estimate, said as "about N in 10").

``margin`` is the search's judgement of one move against another over the same worlds, with
the standard error of that difference: a review names a choice only when the difference
stands clear of that error. Pure: the same view and generator state give the same result.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from bot.gin.ai import handmath as hm
from bot.gin.ai.expert import (
    Search,
    World,
    decide_expert,
    sample_worlds,
    showdown,
    table_of,
    wants_upcard,
)
from bot.gin.ai.view import PlayerView
from bot.gin.hand import Action, ActionKind

RISK_SAMPLES = 200
"""Imagined opponent hands for a knock's undercut risk (as many as the expert's knock search)."""


@dataclass(frozen=True, slots=True)
class Facts:
    """What a player can check about one move, from their own view."""

    left: int | None = None
    """Deadwood kept after the move's throw (for a draw: after taking the upcard and the
    best discard then)."""
    joining: int | None = None
    """Unseen cards that would join a meld of the ten cards kept."""
    gin_cards: int | None = None
    """Unseen cards that would give gin with the ten cards kept."""
    joins: bool | None = None
    """For a draw: whether the upcard joins a meld of the hand."""
    undercut: int | None = None
    """For a knock: in how many of ten imagined opponent hands it would be undercut."""
    near: int | None = None
    """For a throw: the unseen cards that can sit in a meld with the card thrown (its rank,
    or within two of it in its suit): the more, the likelier it helps the opponent."""


@dataclass(frozen=True, slots=True)
class Advice:
    """The expert's move for the seat to act, and the facts behind it."""

    action: Action
    facts: Facts
    knock: Facts | None = None
    """When the seat could knock and the expert plays on instead: the best knock's facts."""
    knock_card: int | None = None
    """That knock's card (as a card number), when there is one."""


@dataclass(frozen=True, slots=True)
class Margin:
    """How many expected points one move is worth more than another, and the standard
    error of that figure (the same worlds judged both, so their luck cancels)."""

    points: float
    error: float

    def clear_of(self, threshold: float, z: float) -> bool:
        """Whether the move stays at least ``threshold`` better with ``z`` errors taken off."""
        return self.points - z * self.error >= threshold


def advise(view: PlayerView, rng: random.Random) -> Advice | None:
    """The expert's move from the seat's view, with its facts (None with no choice)."""
    if not view.my_turn or len(view.legal_actions) < 2:
        return None
    action = decide_expert(view, rng)
    facts = facts_of(view, action)
    knocks = [a for a in view.legal_actions if a.kind is ActionKind.KNOCK and a.card is not None]
    if action.kind is ActionKind.KNOCK or not knocks:
        if action.kind is ActionKind.KNOCK:
            facts = facts_of(view, action, sample_worlds(view, rng, RISK_SAMPLES))
        return Advice(action, facts)
    hand = _mask(view)
    knock = min(knocks, key=lambda a: (_left(hand, a), -hm.VALUE[int(a.card or 0)]))
    worlds = sample_worlds(view, rng, RISK_SAMPLES)
    return Advice(action, facts, facts_of(view, knock, worlds), int(knock.card or 0))


def facts_of(view: PlayerView, action: Action, worlds: list[World] | None = None) -> Facts:
    """The checkable facts of ``action`` from the seat's view (``worlds``: imagined opponent
    hands, for a knock's undercut risk)."""
    hand = _mask(view)
    unseen = [int(c) for c in view.unseen]
    if action.kind in (ActionKind.DISCARD, ActionKind.KNOCK) and action.card is not None:
        rest = hand & ~(1 << int(action.card))
        left = hm.deadwood(rest)
        joining = sum(1 for c in unseen if hm.deadwood(rest | 1 << c) < left + hm.VALUE[c])
        gin = sum(1 for c in unseen if hm.best_discard(rest | 1 << c)[0] == 0)
        undercut = None
        if action.kind is ActionKind.KNOCK and worlds and left > 0:
            undercut = _undercut_in_ten(view, rest, worlds)
        near = (hm.NEAR[int(action.card)] & hm.mask_of(unseen)).bit_count()
        return Facts(left=left, joining=joining, gin_cards=gin, undercut=undercut, near=near)
    if view.upcard is None or action.kind is ActionKind.BIG_GIN:
        return Facts()
    up = int(view.upcard)
    joins = wants_upcard(hand, up)
    options = hm.discard_deadwoods(hand | 1 << up)
    options.pop(up, None)
    return Facts(left=min(options.values()) if options else None, joins=joins)


def margin(
    view: PlayerView, better: Action, chosen: Action, rng: random.Random, samples: int
) -> Margin:
    """How much ``better`` is worth more than ``chosen`` by the expert's search over
    ``samples`` worlds, with the standard error of the difference."""
    search = Search(view, rng, samples)
    weights = [w.weight for w in search.worlds]
    total = sum(weights)
    if total <= 0.0:
        return Margin(0.0, 0.0)
    scale = view.score_multiplier
    diffs = [
        scale * (search.value(better, world) - search.value(chosen, world))
        for world in search.worlds
    ]
    mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
    spread = sum(w * w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True))
    return Margin(mean, math.sqrt(spread) / total)


def _undercut_in_ten(view: PlayerView, kept: int, worlds: list[World]) -> int:
    rules = table_of(view)
    total = sum(w.weight for w in worlds)
    if total <= 0.0:
        return 0
    under = sum(w.weight for w in worlds if showdown(kept, w.opponent, rules) < 0)
    return round(10 * under / total)


def _mask(view: PlayerView) -> int:
    return hm.mask_of(int(c) for c in view.hand)


def _left(hand: int, action: Action) -> int:
    return hm.deadwood(hand & ~(1 << int(action.card or 0)))

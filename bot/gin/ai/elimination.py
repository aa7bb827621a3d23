"""The normal and hard opponents at a gin-only table (elimination): the race to go out.

Nothing is scored in elimination: the first to go gin is safe and the last one left loses, so
deadwood points mean nothing and speed is everything. A ten-card hand is judged by how many
turns it should still take to go gin (``bot.gin.ai.ginmath``):

- its *distance*: the useful draws it still needs;
- its *outs*: the live copies (unseen: in the stock or in someone's hand) of the cards that
  would bring it one draw closer. With several decks a set of identical cards counts, so the
  copies of a card held are outs too.

Drawing one card from ``N`` unseen copies finds an out with chance ``outs / N``, so the next
step takes about ``N / outs`` turns, and every later step about ``N / later`` turns, where
``later`` is the outs a typical hand has: the estimate is ``N / outs + (distance - 1) * N /
later``. A discard keeps the ten cards with the fewest turns to go, plus a penalty for handing
the next player (on the left, the only one who can take it) a card that joins the cards they
visibly collect. The top of the pile is taken when the hand with it, after the best discard,
is more than one turn closer to gin than the hand without it; gin is always taken at once.

Hard also weighs each unseen copy by the chance that it is still drawable: copies next to the
cards another player collects are likely in that player's hand, copies next to the cards they
throw away or leave on the pile likely are not. It prices every step after the next one
higher (a hand one card from gin with few outs is slow to go out, and one more step to get
there costs more than a typical hand suggests), and it guards its discards harder.

Past a length no ordinary hand reaches, both start discarding at random now and then, and
take near-equal choices at random, so two careful players never lock each other out for ever
(``bot.gin.ai.stall``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.gin.ai.ginmath import ONE, GinMath, candidates, pack
from bot.gin.ai.stall import random_discard, skip_pile, stall_level
from bot.gin.ai.view import EliminationView
from bot.gin.cards import Card
from bot.gin.hand import Action, ActionKind, Phase
from bot.gin.melds import discard_options


@dataclass(frozen=True, slots=True)
class GinStyle:
    """The knobs that make one gin-only level differ from another."""

    later: float = 6.0
    """Outs per deck of a typical hand, which sets the turns of each step after the next."""
    feed: float = 2.0
    """Turns it costs to hand the next player a card that melds with what they collect, when
    only two are left (fewer players round the table share the harm)."""
    show: float = 0.2
    """Turns it costs to show the table which card was taken."""
    infer: bool = False
    """Weigh unseen copies by the chance that nobody holds them (else every one counts)."""


NORMAL_GIN = GinStyle()
HARD_GIN = GinStyle(later=2.5, feed=3.0, infer=True)

HELD_NEAR = 0.55  # a copy next to a card someone collects: they likely hold it
THROWN_NEAR = 1.15  # next to what they throw away or leave: likelier in the stock


class GinPlanner:
    """One decision's worth of counting for the seat to act."""

    def __init__(self, view: EliminationView, style: GinStyle, rng: random.Random) -> None:
        self.view = view
        self.style = style
        self.rng = rng
        self.me = view.seat
        self.hand = [int(c) for c in view.hand]
        live = list(view.unseen)
        if view.stock_size <= len(view.seats):
            # The pile is about to become the stock: its buried cards come back into play.
            for card, copies in enumerate(view.dead):
                live[card] += copies
        weights = [float(n) for n in live]
        self.total = max(1.0, sum(weights))
        if style.infer:
            weights = self.weigh(weights)
        self.live = live
        self.math = GinMath(live, view.distinct_suits, weights)
        self.later = self.total / (style.later * view.decks)

    def weigh(self, live: list[float]) -> list[float]:
        """Copies near what others collect are likely held; near what they shed, likely not."""
        factor = [1.0] * 52
        view = self.view
        for seat, cards in view.collected.items():
            for c in cards:
                for near in candidates((c,)):
                    factor[near] *= HELD_NEAR
            for c in view.discards.get(seat, ()):
                for near in candidates((c,)):
                    factor[near] *= THROWN_NEAR
            for c in view.declined.get(seat, ()):
                for near in candidates((c,)):
                    factor[near] *= THROWN_NEAR
        return [live[c] * min(1.0, factor[c]) for c in range(52)]

    # --- evaluation -------------------------------------------------------------------------

    def turns(self, packed: int, cards: list[int], spent: int = 0) -> tuple[float, int]:
        """Turns a ten-card hand should still take to go out, counting ``spent`` turns used
        to reach it, and its distance."""
        distance, outs, _ = self.math.outs(packed, candidates(cards))
        if distance <= 0:
            return float(spent), 0
        return spent + self.total / max(outs, 0.5) + (distance - 1) * self.later, distance

    def feed_cost(self, card: int) -> float:
        """What a discard costs by helping the next player, who alone can take it: most when
        it completes a meld with cards they took from the pile, less when it sits next to one.
        """
        view = self.view
        theirs = [int(c) for c in view.collected.get(view.next_seat, ())]
        if not theirs or card not in candidates(theirs):
            return 0.0
        danger = 0.5
        with_it = pack(theirs) + ONE[card]
        field = 5 * card
        math = self.math
        groups = math.suit_groups(with_it, card // 13) + math.rank_groups(with_it, card % 13)
        if any(g[0] >= 3 and g[2] >> field & 31 for g in groups):
            danger = 1.0  # it completes a meld with what they collect
        return self.style.feed * danger * 2 / len(view.seats)

    def choices(
        self, cards: list[int], banned: int | None, spent: int = 0
    ) -> list[tuple[float, float, int]]:
        """(turns to go, feeding cost, card) for each discard worth a look."""
        packed = pack(cards)
        count = len(cards)
        math = self.math
        covers: dict[int, int] = {}
        for card in set(cards):
            if card != banned:
                covers[card] = math.cover(packed - ONE[card], count - 1)
        best = max(covers.values())
        out: list[tuple[float, float, int]] = []
        for card, cover in covers.items():
            if cover < best:
                continue
            rest = list(cards)
            rest.remove(card)
            turns, _ = self.turns(packed - ONE[card], rest, spent)
            out.append((turns, self.feed_cost(card), card))
        return out

    # --- decisions --------------------------------------------------------------------------

    def decide(self) -> Action:
        if self.view.phase is Phase.DISCARD:
            return self.discard()
        return self.draw()

    def draw(self) -> Action:
        view = self.view
        me = self.me
        take = Action(ActionKind.DRAW_DISCARD, me)
        top = view.upcard
        if take not in view.legal_actions or top is None:
            return skip_pile(view)
        skip = skip_pile(view)
        if skip == take:
            return take
        with_top = [*view.hand, top]
        options = discard_options(with_top, distinct_suits=view.distinct_suits)
        options.pop(top, None)
        if options and min(options.values()) == 0:
            return take  # gin at once
        now, _ = self.turns(pack(self.hand), self.hand)
        after = min(t + f for t, f, _ in self.choices([*self.hand, int(top)], int(top), 1))
        if after + self.style.show < now:
            return take
        return skip

    def discard(self) -> Action:
        view = self.view
        me = self.me
        legal = view.legal_actions
        banned = None if view.taken_from_discard is None else int(view.taken_from_discard)
        knocks = [a for a in legal if a.kind is ActionKind.KNOCK]
        if knocks:
            return knocks[0]
        loose = random_discard(view, self.rng)
        if loose is not None:
            return loose
        options = [(t + f, c) for t, f, c in self.choices(self.hand, banned)]
        least = min(t for t, _ in options)
        # Past the stall length, near-equal choices are taken at random too.
        slack = 1e-9 + 4.0 * stall_level(view)
        tied = sorted(c for t, c in options if t <= least + slack)
        card = self.rng.choice(tied)
        return Action(ActionKind.DISCARD, me, Card(card))


def decide_gin_only(view: EliminationView, style: GinStyle, rng: random.Random) -> Action:
    """The move this style makes from the view."""
    return GinPlanner(view, style, rng).decide()

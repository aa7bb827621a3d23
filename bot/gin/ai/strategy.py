"""The normal and hard opponents: card counting, draw values, safe discards and knock timing.

A ten-card hand is scored by its deadwood less what the next stock draw is expected to save
(over the unseen cards, each weighted by the chance it is still in the stock), so a hand with
live draws beats one whose draws are dead. A discard also pays for the chance that it gives
the opponent a meld. Drawing compares the known top of the pile against the expected stock
draw.

Knocking is weighed, not automatic: the expected points of a knock are averaged over opponent
hands sampled to fit the public history, and a knock worth too little is passed up to play on
for gin, or for an undercut when an opponent who knocks as soon as possible knocks into a low
hand. Normal asks little of a knock, hard asks more and samples more hands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.gin.ai.cardmath import NEAR, VALUE, completions
from bot.gin.ai.opponent import (
    consistency,
    hold_probabilities,
    meld_chance,
    sample_opponent_hands,
)
from bot.gin.ai.view import PlayerView
from bot.gin.hand import Action, ActionKind, Phase
from bot.gin.melds import arrange, best_discard, discard_options, lay_off, min_deadwood


@dataclass(frozen=True, slots=True)
class Style:
    """The knobs that make one level differ from another."""

    potential: float = 2.0
    """Weight of what the next draw is expected to save through melds, against deadwood."""
    danger: float = 8.0
    """Cost, in deadwood points, of handing the opponent a meld."""
    show_cost: float = 0.5
    """Cost of showing the opponent which card was taken from the pile."""
    candidates: int = 5
    """How many of the least-deadwood discards are looked at closely."""
    spread: int = 12
    """Discards leaving more than this much deadwood above the least are not looked at."""
    knock_samples: int = 0
    """Opponent hands sampled to judge a knock; 0 uses the plain knock rule."""
    refine: int = 2
    """Most extra cards a sampled opponent hand has chosen from (one per stock draw)."""
    knock_value: float = 0.0
    """Least expected points (over sampled opponent hands) for which a knock is made; a
    higher bar keeps playing for gin, or for an undercut when the opponent knocks."""
    danger_samples: int = 0
    """Opponent hands sampled (and weighted by how well they fit) to judge discards; 0 uses
    the card-by-card estimate."""


class Planner:
    """One decision's worth of counting and evaluation for the seat to act."""

    def __init__(self, view: PlayerView, style: Style, rng: random.Random) -> None:
        self.view = view
        self.style = style
        self.rng = rng
        self.hand = [int(c) for c in view.hand]
        self.hold = hold_probabilities(view)
        self.unseen = [int(c) for c in view.unseen]
        self.weights = [1.0 - self.hold[c] for c in range(52)]
        self.danger_cache: dict[int, float] = {}
        self.sampled: list[tuple[int, float]] | None = None
        left = max(0, view.stock_size - view.settings.void_stock)
        self.beta = 1.0 + (style.potential - 1.0) * min(1.0, left / 12)

    # --- evaluation -------------------------------------------------------------------------

    def draw_gain(self, hand: list[int], base: int) -> tuple[float, float]:
        """Expected deadwood saved by one stock draw (and the best discard after it).

        Split in two: what draws that can meld with the hand save, and what the other draws
        save by replacing a high card with a lower one. Only the first says the hand is
        getting closer to melds; the second would reward keeping high cards around.
        """
        near = 0
        for c in hand:
            near |= NEAR[c]
        by_value: dict[int, int] = {}
        melding = 0.0
        swapping = 0.0
        weight_sum = 0.0
        weights = self.weights
        for c in self.unseen:
            w = weights[c]
            if w <= 0.0:
                continue
            weight_sum += w
            if near >> c & 1:
                after = best_discard([*hand, c])[1]
                if after < base:
                    melding += w * (base - after)
                continue
            # A card that cannot meld with the hand only matters through its value.
            v = VALUE[c]
            cached = by_value.get(v)
            if cached is None:
                cached = best_discard([*hand, c])[1]
                by_value[v] = cached
            if cached < base:
                swapping += w * (base - cached)
        if not weight_sum:
            return 0.0, 0.0
        return melding / weight_sum, swapping / weight_sum

    def hand_score(self, hand: list[int], deadwood: int) -> float:
        """Deadwood less the expected saving of the next draw, meld chances weighted up."""
        melding, swapping = self.draw_gain(hand, deadwood)
        return deadwood - self.beta * melding - swapping

    def throw_cost(self, card: int) -> float:
        """What a discard is expected to cost by handing the opponent a meld."""
        cost = self.danger_cache.get(card)
        if cost is None:
            if self.style.danger_samples > 0:
                chance = self.sampled_meld_chance(card)
            else:
                chance = meld_chance(card, self.hold)
            cost = self.style.danger * chance
            self.danger_cache[card] = cost
        return cost

    def sampled_meld_chance(self, card: int) -> float:
        if self.sampled is None:
            hands = sample_opponent_hands(
                self.view, self.hold, self.style.danger_samples, self.rng, 0
            )
            self.sampled = []
            for cards in hands:
                mask = 0
                for c in cards:
                    mask |= 1 << c
                self.sampled.append((completions(mask), consistency(cards, self.view)))
        total = sum(w for _, w in self.sampled)
        if total <= 0.0:
            return meld_chance(card, self.hold)
        return sum(w for wanted, w in self.sampled if wanted >> card & 1) / total

    def best_throw(self, cards: list[int], banned: int | None) -> tuple[float, int, int]:
        """(score, card, deadwood left) of the best discard from eleven cards."""
        options = discard_options(cards)
        if banned is not None:
            options.pop(banned, None)  # type: ignore[call-overload]
        ranked = sorted(options, key=lambda c: (options[c], -VALUE[c]))
        least = options[ranked[0]]
        best: tuple[float, int, int] | None = None
        for card in ranked[: self.style.candidates]:
            left = options[card]
            if left > least + self.style.spread:
                break  # breaking up melds this far is never worth it
            rest = [c for c in cards if c != card]
            score = self.hand_score(rest, left) + self.throw_cost(card)
            if best is None or score < best[0]:
                best = (score, int(card), left)
        assert best is not None
        return best

    # --- decisions ----------------------------------------------------------------------------

    def decide(self) -> Action:
        if self.view.phase is Phase.DISCARD:
            return self.discard()
        return self.draw()

    def draw(self) -> Action:
        view = self.view
        me = view.seat
        skip = Action(ActionKind.PASS if view.phase is Phase.UPCARD else ActionKind.DRAW_STOCK, me)
        take = Action(ActionKind.DRAW_DISCARD, me)
        if take not in view.legal_actions or view.upcard is None:
            return skip
        if view.upcard in view.my_pickups:
            # Taken once already: taking it again could pass cards back and forth forever.
            return skip
        top = int(view.upcard)
        hand = self.hand
        base = min_deadwood(hand)
        melding, swapping = self.draw_gain(hand, base)
        now = discard_options(hand)
        least = min(now.values())
        typical = min(now[c] - least + self.throw_cost(int(c)) for c in now if now[c] <= least + 3)
        # After a stock draw the hand is expected to be one draw better and to keep its chances.
        stock_value = base - melding - swapping - self.beta * melding - swapping + typical
        take_value, _, left = self.best_throw([*hand, top], top)
        take_value += self.style.show_cost
        if left <= view.knock_limit:
            take_value -= 1.0  # taking it lets us knock at once
        return take if take_value < stock_value else skip

    def discard(self) -> Action:
        view = self.view
        me = view.seat
        legal = view.legal_actions
        big_gin = Action(ActionKind.BIG_GIN, me)
        if big_gin in legal:
            return big_gin
        banned = None if view.taken_from_discard is None else int(view.taken_from_discard)
        options = discard_options(self.hand)
        if banned is not None:
            options.pop(view.taken_from_discard, None)  # type: ignore[arg-type]
        least = min(options.values())
        knock_card = max((c for c in options if options[c] == least), key=lambda c: c.value)
        knock = Action(ActionKind.KNOCK, me, knock_card)
        if knock in legal and self.should_knock(knock_card, least):
            return knock
        _, card, _ = self.best_throw(self.hand, banned)
        return Action(ActionKind.DISCARD, me, view.hand[self.hand.index(card)])

    # --- knocking ---------------------------------------------------------------------------

    def should_knock(self, card: int, deadwood: int) -> bool:
        if deadwood == 0:
            return True
        if self.style.knock_samples <= 0:
            return True
        view = self.view
        value = self.knock_value(card, deadwood)
        if view.stock_size <= view.settings.void_stock:
            return value > 0.0  # a discard now would void the hand
        finish = view.points_to_finish
        if value > 0.0 and finish is not None and value * view.score_multiplier >= finish:
            return True  # the expected points end the match: take them
        return value >= self.style.knock_value

    def knock_value(self, card: int, deadwood: int) -> float:
        """Expected points of knocking now, over sampled opponent hands.

        Each sampled hand has chosen its cards from a few extra unseen cards (a player who
        has drawn keeps their better cards) and counts as much as it fits the opponent's moves.
        """
        kept = [c for c in self.hand if c != card]
        melds = arrange(kept).melds
        view = self.view
        refine = min(self.style.refine, view.opponent_draws - len(view.opponent_known))
        hands = sample_opponent_hands(
            view, self.hold, self.style.knock_samples, self.rng, max(0, refine)
        )
        bonus = view.settings.undercut_bonus
        total = 0.0
        points = 0.0
        for cards in hands:
            weight = consistency(cards, view)
            total += weight
            left = lay_off(melds, cards)
            points += weight * (left - deadwood if left > deadwood else left - deadwood - bonus)
        return points / total if total > 0.0 else 0.0


NORMAL = Style(danger=5.0, knock_samples=16, knock_value=12.0)
HARD = Style(knock_samples=64, danger_samples=48, candidates=6, danger=5.0, knock_value=25.0)


def decide_with(view: PlayerView, style: Style, rng: random.Random) -> Action:
    """The move this style makes from the view."""
    return Planner(view, style, rng).decide()

"""The expert opponent: determinized search over the unseen cards, judged by expected points.

A seat cannot see the opponent's hand or the stock, but it can guess them: each *world* deals
the unseen cards into an opponent hand that fits the public history (weighted to cards near
what the opponent took up, away from what they threw or left down, and improved by one
greedy draw for each draw the opponent made) and a shuffled stock. An action is tried in the
same worlds as its rivals (so their differences are not luck of the deal) and each world is
played out to the end of the hand by a fast greedy policy on card masks (``handmath``): take
the pile's top card when it joins a meld, throw the card leaving the least deadwood; this seat
goes out when it would win the showdown of that world, the opponent as soon as it may in half
the worlds and only with gin in the others. An action's value is its points for this seat
(positive good, the hand's multiplier applied), averaged over the worlds weighted by how well
each opponent hand fits what the opponent did.

``action_values`` gives every legal action's value (what a coach compares). ``decide_expert``
plays: hard's counting picks the draw, a discard is chosen for where the hand can get next
(``GinwardPlanner``), and the search, with many worlds, decides whether to go out now or play
on. Both are pure: the same view and generator state give the same result.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from bot.gin.ai import handmath as hm
from bot.gin.ai.opponent import HiddenSampler, hold_probabilities
from bot.gin.ai.strategy import HARD, Planner
from bot.gin.ai.view import PlayerView
from bot.gin.hand import Action, ActionKind, Phase

FUTURE_WEIGHT = 18.0
FUTURE_DECAY = 0.9
FUTURE_BEST = 7
"""A discard is judged by the deadwood it leaves plus ``FUTURE_WEIGHT * FUTURE_DECAY ** turn``
times the mean of the ``FUTURE_BEST`` least deadwoods one more unseen card could bring: early
on, a hand a few good draws from gin beats one with a little less deadwood now; later, the
deadwood itself counts more. Under the EAAI rules against MARJJ, the same 250 mirrored
pairs: 52.4 % of games this way, 37.9 % with hard's discards (the README has the figures)."""
DEFAULT_SAMPLES = 60
"""Worlds for ``action_values``: every legal action is played out in each."""
KNOCK_SAMPLES = 200
"""Worlds for the expert's own question, go out now or play on: two actions, so many worlds."""
KNOCKER_EVERY = 2
"""Every second world's opponent goes out as soon as it may, the others only with gin.
Measured: against an opponent who always knocks at once, waiting to undercut it looks better
than it is against one who plays for gin (and then goes gin first); a mix hedges both."""
EARLY_DRAWS = 4
LATE_DRAW = 0.5
MAX_STEPS = 120
"""Turns after which a played-out world counts as void (two greedy players swapping cards)."""


@dataclass(frozen=True, slots=True)
class Table:
    """The scoring facts of this hand that a played-out world needs."""

    knock_limit: int
    gin_bonus: int
    undercut_bonus: int
    big_gin_bonus: int | None
    """None when Big Gin is not played."""
    void_stock: int
    knock_at: tuple[int, int]
    """The most deadwood with which each player goes out in a played-out world (index 0:
    this seat, 1: the opponent)."""


@dataclass(frozen=True, slots=True)
class World:
    """One guess at the hidden cards: the opponent's hand and the stock (top card last)."""

    opponent: int
    stock: tuple[int, ...]
    weight: float
    knocker: bool = False
    """Whether the opponent of this world goes out as soon as it may (else only with gin)."""


def table_of(view: PlayerView, opponent_knock: int = 0) -> Table:
    settings = view.settings
    return Table(
        knock_limit=view.knock_limit,
        gin_bonus=settings.gin_bonus,
        undercut_bonus=settings.undercut_bonus,
        big_gin_bonus=settings.big_gin_bonus if settings.big_gin else None,
        void_stock=settings.void_stock,
        knock_at=(view.knock_limit, min(view.knock_limit, opponent_knock)),
    )


def sample_worlds(view: PlayerView, rng: random.Random, samples: int) -> list[World]:
    """Opponent hands that fit the history, each with the rest of the unseen cards as stock.

    A hand is dealt its hidden cards and then one more card for each card the opponent drew
    from the stock, throwing its worst each time as a greedy player would: a player who has
    drawn for a while holds a hand that has improved, and a knock judged against random
    hands walks into undercuts. A card the opponent visibly took up is never thrown.
    """
    hold = hold_probabilities(view)
    known = hm.mask_of(int(c) for c in view.opponent_known)
    unseen = [int(c) for c in view.unseen]
    hidden = view.opponent_hidden
    draws = max(0, view.opponent_draws - len(view.opponent_known))
    # Measured against the opponents' real hands: the first draws improve a hand about as a
    # greedy keep-the-best does, later ones less (a real player cannot keep every good card).
    refine = round(min(draws, EARLY_DRAWS) + LATE_DRAW * max(0, draws - EARLY_DRAWS))
    sampler = HiddenSampler(unseen, hold)
    declined = hm.mask_of(int(c) for c in view.opponent_declined)
    discarded = hm.mask_of(int(c) for c in view.opponent_discards)
    worlds = []
    for index in range(samples):
        drawn = sampler.draw(min(len(unseen), hidden + refine), rng)
        hand = known | hm.mask_of(drawn[:hidden])
        for extra in drawn[hidden:]:
            hand = _keep_best(hand | 1 << extra, known)
        rest = [c for c in unseen if not hand >> c & 1]
        rng.shuffle(rest)
        fit = _fit(hand, declined, discarded)
        knocker = index % KNOCKER_EVERY == 0
        worlds.append(World(hand, tuple(rest[: view.stock_size]), fit, knocker))
    return worlds


def _keep_best(hand: int, keep: int) -> int:
    """Eleven cards less the one a greedy player throws (never one of ``keep``)."""
    _, card = hm.best_discard(hand)
    if keep >> card & 1:
        options = hm.discard_deadwoods(hand)
        card = min((c for c in options if not keep >> c & 1), key=lambda c: (options[c], -c))
    return hand & ~(1 << card)


DECLINED_MELD = 0.3
DISCARDED_MELD = 0.4


def _fit(hand: int, declined: int, discarded: int) -> float:
    """How well a hand fits what the opponent did: a player seldom leaves on the pile, or
    throws, a card that makes a meld with two cards they hold."""
    wanted = hm.completions(hand)
    return (
        DECLINED_MELD ** (wanted & declined).bit_count()
        * DISCARDED_MELD ** (wanted & discarded).bit_count()
    )


# --- the played-out hand ----------------------------------------------------------------------


def showdown(knocker: int, defender: int, table: Table) -> int:
    """Points the knocker scores (negative: the defender's) going out with eleven-less-one."""
    left, runs, sets = hm.meld_cards(knocker)
    if left == 0:
        return table.gin_bonus + hm.deadwood(defender)
    defender_left = hm.defender_deadwood(defender, runs, sets)
    if defender_left > left:
        return defender_left - left
    return -(left - defender_left + table.undercut_bonus)


def wants_upcard(hand: int, card: int) -> bool:
    """The greedy policy's draw: take the top card only when it joins a meld.

    Taking a low card just to throw a high one would spare the stock a draw and hand the
    pile back; people (and the challenge's simple player) draw instead.
    """
    return hm.deadwood(hand | 1 << card) < hm.deadwood(hand) + hm.VALUE[card]


def finish_turn(hand: int, banned: int, limit: int) -> tuple[int, int, bool]:
    """The greedy policy's end of a turn from eleven cards: (hand after, card thrown, out).

    ``out`` is a knock (or gin) with the card thrown face down.
    """
    left, card = hm.best_discard(hand)
    if card == banned:
        options = hm.discard_deadwoods(hand)
        del options[banned]
        card = min(options, key=lambda c: (options[c], -hm.VALUE[c], -c))
        left = options[card]
    return hand & ~(1 << card), card, left <= limit


def play_out(
    hands: list[int], stock: list[int], upcard: int, mover: int, table: Table, steps: int = 0
) -> int:
    """Points for player 0 when ``mover`` is to draw and both play the greedy policy.

    ``hands`` holds ten cards each; ``upcard`` is the pile's top (-1: none).
    """
    void = table.void_stock
    while steps < MAX_STEPS:
        steps += 1
        hand = hands[mover]
        banned = -1
        if upcard >= 0 and (not stock or wants_upcard(hand, upcard)):
            hand |= 1 << upcard
            banned = upcard
        elif stock:
            hand |= 1 << stock.pop()
        else:
            return 0
        points = _end_turn(hands, mover, hand, banned, table)
        if points is not None:
            return points
        upcard = hands[2]
        hands.pop()
        if len(stock) <= void:
            return 0
        mover = 1 - mover
    return 0


def _end_turn(hands: list[int], mover: int, hand: int, banned: int, table: Table) -> int | None:
    """Finish ``mover``'s turn from eleven cards: points for player 0 if they went out, else
    None with the thrown card appended to ``hands`` (the caller pops it as the new upcard).

    Player 0 (this seat) knocks only when it wins the showdown of this world: its own future
    play is judged at its best, so that playing on is not priced as a blind knock.
    """
    if table.big_gin_bonus is not None and hm.deadwood(hand) == 0:
        points = table.big_gin_bonus + hm.deadwood(hands[1 - mover])
        return points if mover == 0 else -points
    kept, card, out = finish_turn(hand, banned, table.knock_at[mover])
    if out:
        points = showdown(kept, hands[1 - mover], table)
        if mover == 1:
            return -points
        if points > 0:
            return points
    hands[mover] = kept
    hands.append(card)
    return None


# --- the root: one legal action in one world --------------------------------------------------


class Search:
    """The worlds of one decision and the value of each action in them."""

    def __init__(self, view: PlayerView, rng: random.Random, samples: int) -> None:
        self.view = view
        self.table = self.gin_table = table_of(view)
        self.knock_table = table_of(view, view.knock_limit)
        self.hand = hm.mask_of(int(c) for c in view.hand)
        self.upcard = -1 if view.upcard is None else int(view.upcard)
        self.worlds = sample_worlds(view, rng, samples)
        self.opponent_passed = any(
            a.kind is ActionKind.PASS and a.seat == view.opponent for a in view.history
        )

    def value(self, action: Action, world: World) -> int:
        """Points for this seat of ``action`` in ``world``, both then playing greedily."""
        table = self.table = self.knock_table if world.knocker else self.gin_table  # for helpers
        hands = [self.hand, world.opponent]
        stock = list(world.stock)
        kind = action.kind
        if kind is ActionKind.PASS:
            return self._after_pass(hands, stock)
        if kind is ActionKind.DRAW_DISCARD:
            return self._after_draw(hands, stock, self.upcard, self.upcard)
        if kind is ActionKind.DRAW_STOCK:
            if not stock:
                return 0
            return self._after_draw(hands, stock, stock.pop(), -1)
        if kind is ActionKind.BIG_GIN:
            return (table.big_gin_bonus or 0) + hm.deadwood(world.opponent)
        assert action.card is not None
        card = int(action.card)
        kept = self.hand & ~(1 << card)
        if kind is ActionKind.KNOCK:
            return showdown(kept, world.opponent, table)
        if len(stock) <= table.void_stock:
            return 0
        return play_out([kept, world.opponent], stock, card, 1, table)

    def _after_draw(self, hands: list[int], stock: list[int], card: int, banned: int) -> int:
        hand = hands[0] | 1 << card
        points = _end_turn(hands, 0, hand, banned, self.table)
        if points is not None:
            return points
        upcard = hands.pop()
        if len(stock) <= self.table.void_stock:
            return 0
        return play_out(hands, stock, upcard, 1, self.table)

    def _after_pass(self, hands: list[int], stock: list[int]) -> int:
        """Passing the first upcard: the opponent may take it if it has not passed already,
        then the first player draws from the stock."""
        table = self.table
        up = self.upcard
        if not self.opponent_passed:
            if up >= 0 and wants_upcard(hands[1], up):
                points = _end_turn(hands, 1, hands[1] | 1 << up, up, table)
                if points is not None:
                    return points
                return play_out(hands[:2], stock, hands[2], 0, table)
            # Both passed: this seat (the first player) draws from the stock.
            return self._after_draw(hands, stock, stock.pop(), -1) if stock else 0
        # The opponent passed first, so it is the first player: it draws from the stock.
        if not stock:
            return 0
        points = _end_turn(hands, 1, hands[1] | 1 << stock.pop(), -1, table)
        if points is not None:
            return points
        return play_out(hands[:2], stock, hands[2], 0, table)

    def values(self, actions: Iterable[Action]) -> dict[Action, float]:
        worlds = self.worlds
        total = sum(w.weight for w in worlds)
        scale = self.view.score_multiplier
        out: dict[Action, float] = {}
        for action in actions:
            if total <= 0.0:
                out[action] = 0.0
                continue
            points = sum(w.weight * self.value(action, w) for w in worlds)
            out[action] = scale * points / total
        return out


def action_values(
    view: PlayerView, rng: random.Random, samples: int = DEFAULT_SAMPLES
) -> dict[Action, float]:
    """Every legal action of the seat to act, with its expected points for this seat.

    Only the view is read, so only what this seat may know is used. Points are the hand's
    (the winner's score, counted against this seat when the opponent wins it), times the
    hand's multiplier; a void hand is worth 0.
    """
    if not view.legal_actions:
        raise ValueError("it is not this seat's turn")
    return Search(view, rng, samples).values(view.legal_actions)


class GinwardPlanner(Planner):
    """hard's counting, with the discard judged by where the hand can get next.

    hard scores a hand by its deadwood less what the next draw saves on average; averaged over
    every unseen card that favours keeping low cards. Here a discard's rest is scored by its
    best few next draws, weighted heavily early and less each turn: the hand is steered
    towards gin, which wins more against players who wait for gin themselves, and the danger
    of feeding the opponent is still paid (``throw_cost``). Draws are judged as hard judges
    them.
    """

    def hand_score(self, hand: list[int], deadwood: int) -> float:
        if self.view.phase is not Phase.DISCARD:
            return super().hand_score(hand, deadwood)
        return deadwood + self.future_weight() * self.future(hm.mask_of(hand))

    def future_weight(self) -> float:
        return FUTURE_WEIGHT * FUTURE_DECAY ** len(self.view.my_discards)

    def future(self, rest: int) -> float:
        """The mean of the least deadwoods that one more unseen card can leave (after the best
        discard from the eleven)."""
        reached = sorted(hm.best_discard(rest | 1 << card)[0] for card in self.unseen)
        best = reached[:FUTURE_BEST]
        return sum(best) / len(best) if best else 0.0


def decide_expert(view: PlayerView, rng: random.Random, samples: int = KNOCK_SAMPLES) -> Action:
    """The expert's move: hard's counting picks the draw, ``GinwardPlanner`` the discard, and
    the search settles whether to go out now or play that discard on.

    Played-out worlds differ by their stock order far more than two discards differ, so a
    search that ranks every discard mostly ranks luck; between going out and playing on the
    gap is wide, and there the search is sharp where a fixed bar for knocking is not.
    """
    legal = view.legal_actions
    if len(legal) == 1:
        return legal[0]
    planner = GinwardPlanner(view, EXPERT_STYLE, rng)
    if view.phase is not Phase.DISCARD:
        return planner.draw()
    big_gin = Action(ActionKind.BIG_GIN, view.seat)
    if big_gin in legal:
        return big_gin
    knocks = [a for a in legal if a.kind is ActionKind.KNOCK]
    if not knocks:
        return planner.discard()
    hand = hm.mask_of(int(c) for c in view.hand)
    thrown = {a: int(a.card) for a in knocks if a.card is not None}
    left = {a: hm.deadwood(hand & ~(1 << card)) for a, card in thrown.items()}
    least = min(left.values())
    # Gin is never bettered; otherwise the knock leaving the least, throwing the highest card.
    knock = max((a for a in left if left[a] == least), key=lambda a: hm.VALUE[thrown[a]])
    if least == 0:
        return knock
    banned = None if view.taken_from_discard is None else int(view.taken_from_discard)
    _, card, _ = planner.best_throw(planner.hand, banned)
    play_on = next(
        a for a in legal if a.kind is ActionKind.DISCARD and a.card is not None and a.card == card
    )
    values = Search(view, rng, samples).values((knock, play_on))
    return knock if values[knock] > values[play_on] else play_on


EXPERT_STYLE = HARD

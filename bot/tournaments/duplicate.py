"""Duplicate rounds: every match of a round is dealt from the same seed, so each deal can be
read against the same seat at the other tables.

The engine already takes a match seed (``Match.start(..., seed=...)``): the cut and every
hand's shuffle derive from it (``bot.gin.shuffle.derive_seed``), so matches started with the
same seed cut the same cards and, hand by hand, shuffle the same decks. The round's seed comes
from the operating system's secure source like any other shuffle and is kept with the round;
nothing about the cards can be known before they are dealt.

Two tables hold the same cards in a hand when its seed and its dealer are the same (the deal
starts at the dealer's left). Hand 1's dealer comes from the cut, the same everywhere; later
dealers follow each table's results, so later hands match where the dealers do. A player's
score against the field adds up, over the deals they played, their result on a deal less the
average result of everyone who held the same seat on the same cards.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.gin.shuffle import new_seed


def new_round_seed() -> str:
    """A duplicate round's seed: 128 bits from the secure source, like any shuffle's."""
    return new_seed()


@dataclass(frozen=True, slots=True)
class HandScore:
    """A finished hand of a two-player match as the store keeps it: the seed of its deal,
    the dealer's seat, the seat that scored (None: void) and the points scored."""

    seed: str
    dealer_seat: int
    winner_seat: int | None
    points: int


@dataclass(frozen=True, slots=True)
class SeatDeal:
    """One player's result on one deal: ``net`` is the points they scored on it, less
    the points scored against them."""

    user_id: str
    seed: str
    dealer_seat: int
    seat: int
    net: int


@dataclass(frozen=True, slots=True)
class FieldScore:
    """A player's score against the field: the sum of their differences from the field's
    average, over ``deals`` deals that someone else also played from the same seat."""

    user_id: str
    score: Fraction
    deals: int


def seat_deals(hands: Iterable[HandScore], seats: Sequence[str]) -> list[SeatDeal]:
    """Both seats' results on each hand of a match (``seats``: the user in seat 0, 1)."""
    deals = []
    for hand in hands:
        for seat, user in enumerate(seats):
            if hand.winner_seat is None:
                net = 0
            elif hand.winner_seat == seat:
                net = hand.points
            else:
                net = -hand.points
            deals.append(SeatDeal(user, hand.seed, hand.dealer_seat, seat, net))
    return deals


def field_scores(deals: Iterable[SeatDeal]) -> dict[str, FieldScore]:
    """Each player's score against the field. A deal counts for a player when at least one
    other player held the same seat on the same cards; the average includes the player."""
    groups: dict[tuple[str, int, int], list[SeatDeal]] = defaultdict(list)
    players: dict[str, None] = {}
    for deal in deals:
        groups[(deal.seed, deal.dealer_seat, deal.seat)].append(deal)
        players.setdefault(deal.user_id)
    score: dict[str, Fraction] = dict.fromkeys(players, Fraction(0))
    counted: dict[str, int] = dict.fromkeys(players, 0)
    for group in groups.values():
        if len(group) < 2:
            continue
        average = Fraction(sum(d.net for d in group), len(group))
        for deal in group:
            score[deal.user_id] += deal.net - average
            counted[deal.user_id] += 1
    return {user: FieldScore(user, score[user], counted[user]) for user in players}

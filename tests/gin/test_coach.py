"""The coach's review: a hand replayed from its record, each of the reviewer's decisions judged
from their own view, the costly ones named with the right cards and points, nothing hidden."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

import pytest

from bot.gin.ai import Level, PlayerView, bot_move, view_for
from bot.gin.ai.advice import Margin, facts_of
from bot.gin.cards import Card
from bot.gin.coach import (
    LIMIT,
    Decision,
    Mistake,
    decisions,
    expert_review,
    first_look,
    imagined_hand,
    review_hand,
    reviewable,
    rollout_values,
    second_look,
    summarize,
)
from bot.gin.hand import Action, ActionKind, Hand, Phase
from bot.gin.match import HandRecord
from bot.gin.settings import Settings, Variant

SEED = "coach-test"


def by_value(view: PlayerView, rng: random.Random) -> Mapping[Action, float]:
    """A plain judge to pin behaviour: discarding (or knocking with) a card is worth its
    deadwood value, and every draw is worth the same."""
    return {a: float(a.card.value) if a.card is not None else 0.0 for a in view.legal_actions}


def lowest_discarder(hand: Hand, seat: int, rng: random.Random) -> Action:
    """Plays the seat badly on purpose: never knocks, always throws its lowest card."""
    legal = hand.legal_actions(seat)
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    if discards:
        return min(discards, key=lambda a: (a.card.value if a.card else 0, int(a.card or 0)))
    draws = [a for a in legal if a.kind in (ActionKind.DRAW_STOCK, ActionKind.PASS)]
    return draws[0] if draws else legal[0]


def played_hand(turns: int) -> tuple[HandRecord, Hand]:
    """A hand where seat 0 throws its lowest card for ``turns`` turns while seat 1 plays
    hard, then seat 0 plays easy to the end; returns its record and the finished hand."""
    hand = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), SEED)
    rng = random.Random(7)
    while not hand.is_over:
        seat = hand.turn
        thrown = sum(1 for a in hand.actions if a.seat == 0 and a.kind is ActionKind.DISCARD)
        if seat == 0 and thrown < turns:
            action = lowest_discarder(hand, seat, rng)
        else:
            action = bot_move(hand, seat, Level.EASY if seat == 0 else Level.HARD, rng)
        hand.apply(action)
    assert hand.result is not None
    record = HandRecord(3, hand.seats, hand.dealer, hand.seed, tuple(hand.actions), hand.result)
    return record, hand


def test_a_discard_of_a_low_card_is_named_with_the_card_kept_and_the_points() -> None:
    record, _ = played_hand(turns=3)
    review = review_hand(record, Settings(), 0, by_value, random.Random(1))

    replay = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), SEED)
    expected: list[tuple[int, Card, Card, float]] = []
    turn = 0  # each of the seat's turns ends with its discard
    for action in record.actions:
        throws = (ActionKind.DISCARD, ActionKind.KNOCK)
        if action.seat == 0 and action.kind in throws and replay.phase is Phase.DISCARD:
            turn += 1
            options = [c for c in replay.hands[0] if c != replay.taken_from_discard]
            top = max(c.value for c in options)
            assert action.card is not None
            if top - action.card.value >= 1:
                expected.append((turn, action.card, top, float(top - action.card.value)))
        replay.apply(action)

    assert review.hand_number == 3 and review.seat == 0
    assert expected, "the bad discards cost points by this judge"
    want = sorted(sorted(expected, key=lambda e: (-e[3], e[0]))[:LIMIT])  # shown in turn order
    got = review.mistakes
    assert [(m.turn, m.chosen.card, m.points) for m in got] == [(t, c, p) for t, c, _, p in want]
    for mistake, (_, _, top, _) in zip(got, want, strict=True):
        assert mistake.better.kind in (ActionKind.DISCARD, ActionKind.KNOCK)
        assert mistake.better.card is not None and mistake.better.card.value == top
        assert mistake.better.card in mistake.held and mistake.chosen.card in mistake.held
        assert mistake.hand_number == 3


def test_the_first_turn_mistake_is_pinned_exactly() -> None:
    record, _ = played_hand(turns=1)
    start = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), SEED)
    # Seat 0 (left of the dealer) speaks first: its first discard is its first mistake.
    first = next(a for a in record.actions if a.seat == 0 and a.kind is ActionKind.DISCARD)
    review = review_hand(record, Settings(), 0, by_value, random.Random(1), limit=20)
    found = [m for m in review.mistakes if m.turn == 1]
    assert len(found) == 1
    mistake = found[0]
    assert mistake.chosen == first
    assert first.card is not None and mistake.better.card is not None
    assert mistake.points == mistake.better.card.value - first.card.value
    assert set(start.hands[0]) <= set(mistake.held) | {first.card}


def test_threshold_limit_and_the_order() -> None:
    """At most three a hand: the costliest, shown in turn order."""
    record, _ = played_hand(turns=6)
    review = review_hand(record, Settings(), 0, by_value, random.Random(1))
    everything = review_hand(record, Settings(), 0, by_value, random.Random(1), limit=50)
    assert len(everything.mistakes) > LIMIT == len(review.mistakes) == 3
    turns = [m.turn for m in review.mistakes]
    assert turns == sorted(turns)
    costliest = sorted(everything.mistakes, key=lambda m: (-m.points, m.turn))[:LIMIT]
    assert set(review.mistakes) == set(costliest)
    assert all(m.points >= 1 for m in everything.mistakes)
    strict = review_hand(record, Settings(), 0, by_value, random.Random(1), limit=50, threshold=100)
    assert strict.mistakes == () and strict.decisions == everything.decisions > 0


def test_a_perfect_player_by_the_judge_has_nothing_to_learn() -> None:
    hand = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), SEED)
    rng = random.Random(3)
    while not hand.is_over:
        seat = hand.turn
        legal = hand.legal_actions(seat)
        if seat == 0 and hand.phase is Phase.DISCARD:
            view_values = {a: (a.card.value if a.card else 0) for a in legal}
            best = max(view_values.values())
            action = next(
                a for a in legal if a.kind is ActionKind.DISCARD and view_values[a] == best
            )
        else:
            action = bot_move(hand, seat, Level.EASY, rng)
        hand.apply(action)
    assert hand.result is not None
    record = HandRecord(1, hand.seats, hand.dealer, hand.seed, tuple(hand.actions), hand.result)
    review = review_hand(record, Settings(), 0, by_value, random.Random(1))
    assert review.mistakes == () and review.decisions > 0


def test_the_judge_sees_only_the_reviewers_view() -> None:
    """Every view handed to the valuer is the reviewer's, at their turn; the opponent's
    hidden cards never reach it, and so never reach the review."""
    record, _ = played_hand(turns=4)
    seen: list[PlayerView] = []

    def spy(view: PlayerView, rng: random.Random) -> Mapping[Action, float]:
        seen.append(view)
        return by_value(view, rng)

    review = review_hand(record, Settings(), 0, spy, random.Random(1))
    assert seen and all(v.seat == 0 and v.my_turn for v in seen)
    replay = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), SEED)
    hidden_ever: set[Card] = set()
    for action in record.actions:
        hidden_ever |= set(replay.hands[1])
        replay.apply(action)
    public = {c for v in seen for c in v.discard_pile} | {c for v in seen for c in v.hand}
    for view in seen:
        assert not (set(view.hand) & (set(view.opponent_known) - public))
    named: set[Card] = set()
    for mistake in review.mistakes:
        named |= set(mistake.held)
        named |= {c for c in (mistake.upcard, mistake.chosen.card, mistake.better.card) if c}
    assert named <= public, "the review names only the reviewer's cards and the pile"
    secret = hidden_ever - public
    assert secret and not (named & secret)


def test_only_the_hands_players_and_two_player_hands() -> None:
    record, _ = played_hand(turns=1)
    with pytest.raises(ValueError):
        review_hand(record, Settings(), 2, by_value, random.Random(1))
    assert reviewable(record)


def test_an_imagined_hand_keeps_what_the_seat_knows_and_deals_the_rest() -> None:
    record, _ = played_hand(turns=2)
    hand = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), SEED)
    for action in record.actions[:9]:
        hand.apply(action)

    seat = hand.turn
    view = view_for(hand, seat)
    world = imagined_hand(view, random.Random(5))
    assert sorted(world.hands[seat]) == sorted(hand.hands[seat])
    assert world.discard_pile == hand.discard_pile and len(world.stock) == len(hand.stock)
    other = 1 - seat
    assert len(world.hands[other]) == len(hand.hands[other])
    assert view.opponent_known <= set(world.hands[other])
    assert world.legal_actions(seat) == hand.legal_actions(seat)
    everything = [*world.hands[0], *world.hands[1], *world.stock, *world.discard_pile]
    assert len(everything) == len(set(everything)) == 52


def test_the_rollout_valuer_values_every_legal_action_and_repeats_itself() -> None:
    hand = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), SEED)
    hand.apply(Action(ActionKind.PASS, 0))
    hand.apply(Action(ActionKind.PASS, 1))
    hand.apply(Action(ActionKind.DRAW_STOCK, 0))

    view = view_for(hand, 0)
    values = rollout_values(view, random.Random(9), samples=3)
    assert set(values) == set(view.legal_actions)
    assert values == rollout_values(view, random.Random(9), samples=3)


def test_a_mistake_says_whether_it_was_a_draw() -> None:
    draw = Mistake(
        1, 1, (), None, Action(ActionKind.DRAW_STOCK, 0), Action(ActionKind.DRAW_DISCARD, 0), 2.0
    )
    assert draw.is_draw


@pytest.mark.parametrize(
    ("seats", "dealer", "settings"),
    [
        ((1, 2), 0, Settings()),  # three players: the dealer sits the hand out
        ((0, 1), 1, Settings(variant=Variant.OKLAHOMA)),
        ((0, 1), 0, Settings(variant=Variant.HOLLYWOOD)),
    ],
)
def test_hands_of_the_other_two_player_ways_are_reviewed(
    seats: tuple[int, int], dealer: int, settings: Settings
) -> None:
    names = ("Ann", "Bob", "Cy")
    hand = Hand.deal(seats, dealer, names, settings, SEED)
    rng = random.Random(11)
    while not hand.is_over:
        hand.apply(bot_move(hand, hand.turn, Level.EASY, rng))
    assert hand.result is not None
    record = HandRecord(4, hand.seats, hand.dealer, hand.seed, tuple(hand.actions), hand.result)
    for seat in seats:
        review = review_hand(record, settings, seat, rollout_values_of(2), random.Random(1))
        assert review.seat == seat and review.decisions > 0
        assert all(m.chosen.seat == seat for m in review.mistakes)


def rollout_values_of(
    samples: int,
) -> Callable[[PlayerView, random.Random], Mapping[Action, float]]:
    return lambda view, rng: rollout_values(view, rng, samples)


# --- the expert's review: two looks, and only what stands clear -------------------------------


def a_candidate(record: HandRecord) -> tuple[Decision, Mistake]:
    """The first decision of seat 0 the expert would play otherwise and finds worse."""
    for index, decision in enumerate(decisions(record, Settings(), 0)):
        found = first_look(decision, random.Random(f"look/{index}"), 30)
        if found is not None:
            return decision, found
    raise AssertionError("the low discards give the expert something to say")


def test_a_candidate_is_the_experts_own_other_move() -> None:
    record, _ = played_hand(turns=4)
    decision, candidate = a_candidate(record)
    assert candidate.better != candidate.chosen == decision.chosen
    assert candidate.better in decision.view.legal_actions
    assert candidate.points > 0.0 and candidate.error >= 0.0


def test_a_candidate_the_second_look_reverses_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    record, _ = played_hand(turns=4)
    decision, candidate = a_candidate(record)
    import bot.gin.coach as coach

    def reversed_margin(*args: object) -> Margin:
        return Margin(-candidate.points, 0.5)

    monkeypatch.setattr(coach, "margin", reversed_margin)
    assert second_look(decision, candidate, random.Random(2), 10) is None

    monkeypatch.setattr(coach, "margin", lambda *args: Margin(0.9, 0.1))
    assert second_look(decision, candidate, random.Random(2), 10) is None  # under a point

    monkeypatch.setattr(coach, "margin", lambda *args: Margin(3.0, 1.1))
    assert second_look(decision, candidate, random.Random(2), 10) is None  # within the noise

    monkeypatch.setattr(coach, "margin", lambda *args: Margin(3.0, 0.5))
    kept = second_look(decision, candidate, random.Random(2), 10)
    assert kept is not None and (kept.points, kept.error) == (3.0, 0.5)
    assert kept.chosen_facts is not None and kept.better_facts is not None


def test_the_expert_review_shows_at_most_three_in_turn_order_with_facts() -> None:
    record, _ = played_hand(turns=8)
    review = expert_review(record, Settings(), 0, "test", first=20, second=40)
    assert review.decisions > 0 and len(review.mistakes) <= LIMIT
    turns = [m.turn for m in review.mistakes]
    assert turns == sorted(turns)
    for mistake in review.mistakes:
        assert mistake.points - 2 * mistake.error >= 1.0
        assert mistake.chosen_facts is not None and mistake.better_facts is not None
    assert review == expert_review(record, Settings(), 0, "test", first=20, second=40)


def test_summarize_keeps_the_costliest_three_in_turn_order() -> None:
    record, _ = played_hand(turns=1)
    draw = Action(ActionKind.DRAW_STOCK, 0)
    take = Action(ActionKind.DRAW_DISCARD, 0)
    costs = {1: 2.0, 2: 9.0, 3: 0.5, 4: 5.0, 5: 7.0, 6: 1.5}
    mistakes = [Mistake(3, t, (), None, draw, take, p) for t, p in costs.items()]
    review = summarize(record, 0, 6, [*mistakes, None])
    assert [m.turn for m in review.mistakes] == [2, 4, 5]


def test_a_throws_facts_count_the_unseen_cards_it_can_meld_with() -> None:
    """``near``: the cards the seat has not seen of the thrown card's rank or within two of
    it in its suit, the cards an opponent could meld it with."""
    hand = Hand.deal((0, 1), 1, ("Ann", "Bob"), Settings(), SEED)
    rng = random.Random(5)
    while hand.phase is not Phase.DISCARD:
        hand.apply(bot_move(hand, hand.turn, Level.HARD, rng))
    view = view_for(hand, hand.turn)
    unseen = {int(c) for c in view.unseen}
    throws = [a for a in view.legal_actions if a.kind is ActionKind.DISCARD]
    assert throws
    for action in throws:
        card = action.card
        assert card is not None
        near = {
            c
            for c in unseen
            if (c % 13 == card.rank and c != card)
            or (c // 13 == card.suit and 0 < abs(c % 13 - card.rank) <= 2)
        }
        assert facts_of(view, action).near == len(near)

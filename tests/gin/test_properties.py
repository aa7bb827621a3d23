"""Properties that hold for any legal play: conservation, valid arrangements, round trips, and
the variants' knock limits and game sheets."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.gin.cards import DECK
from bot.gin.hand import ActionKind, Hand
from bot.gin.hollywood import new_games, score_hand
from bot.gin.match import Match, Player
from bot.gin.melds import arrange, is_meld, min_deadwood
from bot.gin.settings import Settings
from bot.gin.shuffle import shuffled

NAMES = ("Alice", "Bob")


@settings(max_examples=150, deadline=None)
@given(seed=st.text(min_size=1, max_size=12), choices=st.lists(st.integers(0, 10_000), max_size=80))
def test_any_legal_sequence_conserves_cards_and_round_trips(seed: str, choices: list[int]) -> None:
    hand = Hand.deal((0, 1), 1, NAMES, seed=seed)
    for choice in choices:
        if hand.is_over:
            break
        legal = hand.legal_actions()
        hand.apply(legal[choice % len(legal)])
        everything = hand.hands[0] + hand.hands[1] + hand.discard_pile + hand.stock
        if hand.result is not None and hand.result.knock_discard is not None:
            everything.append(hand.result.knock_discard)
        assert sorted(everything) == list(DECK)
    assert Hand.from_dict(json.loads(json.dumps(hand.to_dict()))) == hand
    assert (
        Hand.replay(hand.seats, hand.dealer, hand.names, hand.settings, hand.seed, hand.actions)
        == hand
    )


@settings(max_examples=300, deadline=None)
@given(seed=st.text(max_size=10), size=st.integers(0, 11))
def test_arrangement_is_valid_melds_plus_deadwood(seed: str, size: int) -> None:
    cards = shuffled(DECK, seed or "x")[:size]
    arrangement = arrange(cards)
    placed = [c for meld in arrangement.melds for c in meld] + list(arrangement.deadwood)
    assert sorted(placed) == sorted(cards)
    assert all(is_meld(meld) for meld in arrangement.melds)
    assert arrangement.deadwood_value == sum(c.value for c in arrangement.deadwood)


@settings(max_examples=40, deadline=None)
@given(seed=st.text(min_size=1, max_size=8), choices=st.lists(st.integers(0, 10_000), max_size=120))
def test_match_state_round_trips_through_json(seed: str, choices: list[int]) -> None:
    match = Match.start([Player("1", "Alice"), Player("2", "Bob")], seed=seed)
    for choice in choices:
        if match.is_over:
            break
        legal = match.hand.legal_actions()
        match.apply(legal[choice % len(legal)])
    data = json.loads(json.dumps(match.to_dict()))
    assert Match.from_dict(data) == match


@settings(max_examples=40, deadline=None)
@given(
    seed=st.text(min_size=1, max_size=8),
    choices=st.lists(st.integers(0, 10_000), max_size=160),
    variant=st.sampled_from(["oklahoma", "hollywood"]),
    ace=st.sampled_from(["gin", "one"]),
    spades_double=st.booleans(),
)
def test_variant_matches_round_trip_and_keep_to_the_knock_limit(
    seed: str, choices: list[int], variant: str, ace: str, spades_double: bool
) -> None:
    rules = Settings(variant=variant, ace=ace, spades_double=spades_double)
    match = Match.start([Player("1", "Alice"), Player("2", "Bob")], rules, seed=seed)
    for choice in choices:
        if match.is_over:
            break
        hand = match.hand
        legal = hand.legal_actions()
        for action in legal:
            if action.kind is ActionKind.KNOCK:
                assert action.card is not None
                rest = list(hand.hands[hand.turn])
                rest.remove(action.card)
                assert min_deadwood(rest) <= hand.knock_limit
        match.apply(legal[choice % len(legal)])
    for record in match.history:
        result = record.result
        if variant == "oklahoma" and result.knock_card is not None:
            assert result.points == result.base_points * result.multiplier
            assert result.multiplier == (2 if spades_double and result.knock_card.card < 13 else 1)
    if variant == "hollywood":
        assert match.scores == [sum(g.scores[s] for g in match.games) for s in (0, 1)]
    data = json.loads(json.dumps(match.to_dict()))
    assert Match.from_dict(data) == match


@settings(max_examples=200, deadline=None)
@given(wins=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 60)), max_size=60))
def test_hollywood_games_open_in_order_and_every_win_counts_somewhere(
    wins: list[tuple[int, int]],
) -> None:
    rules = Settings(variant="hollywood")
    games = new_games()
    counted: dict[tuple[int, int], int] = {}
    for number, (seat, points) in enumerate(wins, start=1):
        open_before = [g.number for g in games if not g.is_over]
        if not open_before:
            break
        before = [g.boxes[seat] for g in games]
        scored, ended = score_hand(games, rules, seat, points, number)
        assert scored and set(scored) <= set(open_before) and set(ended) <= set(scored)
        # At most one game is new to the player, and it is the first open one they are not in.
        new = [n for n in scored if before[n - 1] == 0]
        fresh = [n for n in open_before if before[n - 1] == 0]
        assert new == fresh[:1]
        assert all(n in scored for n in open_before if before[n - 1] > 0)
        for n in scored:
            counted[n, seat] = counted.get((n, seat), 0) + points
    for game in games:
        for seat in (0, 1):
            assert game.scores[seat] == counted.get((game.number, seat), 0)
        if game.result is not None:
            assert game.result.points[game.result.reached] >= rules.target
            assert game.result.shutout == (game.boxes[1 - game.result.reached] == 0)

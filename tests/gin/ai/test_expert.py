"""The expert opponent: values for every legal action, from the seat's view alone."""

from __future__ import annotations

import random

import pytest

from bot.gin.ai import Level, decide, view_for
from bot.gin.ai import handmath as hm
from bot.gin.ai.arena import play_game
from bot.gin.ai.expert import action_values, decide_expert, showdown, table_of
from bot.gin.cards import parse_cards
from bot.gin.hand import ActionKind, Hand, Phase
from bot.gin.settings import Settings
from tests.gin.ai.helpers import NAMES, play_hand, scramble


def _mask(text: str) -> int:
    return hm.mask_of(int(c) for c in parse_cards(text.split()))


def _hand_at(seed: str, moves: int) -> Hand:
    """A hand after ``moves`` moves of two hard players."""
    hand = Hand.deal((0, 1), 1, NAMES, Settings(), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        hand.apply(decide(view_for(hand, hand.turn), Level.HARD, rng))
        if hand.is_over:
            break
    return hand


def test_every_legal_action_gets_a_value_and_the_same_rng_gives_the_same_values() -> None:
    for seed, moves in (("a", 0), ("b", 1), ("c", 6), ("d", 9), ("e", 14)):
        hand = _hand_at(seed, moves)
        if hand.is_over:
            continue
        view = view_for(hand, hand.turn)
        values = action_values(view, random.Random(7), samples=12)
        assert set(values) == set(view.legal_actions)
        assert values == action_values(view, random.Random(7), samples=12)
        assert decide_expert(view, random.Random(7), samples=12) in view.legal_actions


def test_values_do_not_depend_on_hidden_cards() -> None:
    hand = next(h for h in (_hand_at(f"hidden{i}", 7) for i in range(20)) if not h.is_over)
    seat = hand.turn
    view = view_for(hand, seat)
    other = scramble(hand, seat, random.Random(3))
    assert view_for(other, seat) == view
    assert action_values(view, random.Random(5), 12) == action_values(
        view_for(other, seat), random.Random(5), 12
    )


def test_showdown_scores_knock_undercut_and_gin() -> None:
    table = table_of(view_for(Hand.deal((0, 1), 1, NAMES, Settings(), "s"), 0))
    knocker = _mask("2C 3C 4C 5D 6D 7D 8H 9H TH AS")  # deadwood 1
    loose = _mask("KS QD JS TD 9C 8S 2D 6C 5S KH")  # no meld, nothing to lay off: 80
    assert showdown(knocker, loose, table) == 79
    low = _mask("AH 2H 3H 4H 5H 6H AD 2D 3D AC")  # AC lays off on 2-4C
    assert showdown(knocker, low, table) == -(1 + 25)  # undercut
    gin = _mask("2C 3C 4C 5D 6D 7D 8H 9H TH JH")
    assert showdown(gin, loose, table) == 25 + 80


def test_gin_in_hand_is_taken_and_a_big_lead_knocks() -> None:
    rng = random.Random(1)
    for seed in range(40):
        hand = _hand_at(f"g{seed}", 3)
        if hand.is_over or hand.phase is not Phase.DISCARD:
            continue
        view = view_for(hand, hand.turn)
        values = action_values(view, rng, samples=8)
        gins = [
            a
            for a in values
            if a.kind is ActionKind.KNOCK
            and hm.deadwood(hm.mask_of(int(c) for c in view.hand if c != a.card)) == 0
        ]
        for gin in gins:
            assert values[gin] >= 25


def test_expert_plays_whole_hands_legally() -> None:
    for seed in range(4):
        hand = play_hand(f"x{seed}", (Level.EXPERT, Level.HARD), random.Random(seed))
        assert hand.is_over


@pytest.mark.parametrize(
    ("mode", "lineup", "settings"),
    [
        ("classic", ["expert", "hard"], Settings(target=50)),
        ("classic", ["expert", "expert"], Settings(variant="oklahoma", target=50)),
        ("classic", ["expert", "normal"], Settings(variant="hollywood", target=50)),
        ("three", ["expert", "hard", "expert"], Settings(target=50)),
        ("teams", ["expert", "easy", "hard", "expert"], Settings(team_target=50)),
        ("elimination", ["expert", "hard", "expert", "easy"], Settings()),
    ],
)
def test_expert_plays_every_mode_legally(mode: str, lineup: list[str], settings: Settings) -> None:
    """``decide`` refuses an illegal move, so whole matches of every mode are the check."""
    for index in range(2):
        outcome = play_game(mode, lineup, settings, "expert-modes", index)
        assert outcome.times["expert"]
        assert sorted(place for _, place in outcome.places)[0] == 1

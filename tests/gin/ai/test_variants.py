"""The computer player in the two-player variants: it knocks only within the hand's limit."""

from __future__ import annotations

import random

import pytest

from bot.gin.ai import Level, bot_move, decide, view_for
from bot.gin.cards import parse_card
from bot.gin.hand import Action, ActionKind, Hand, Outcome, Phase
from bot.gin.match import Match, Player
from bot.gin.settings import Settings
from tests.gin.ai.helpers import play_hand
from tests.gin.helpers import position

LEVELS = (Level.EASY, Level.NORMAL, Level.HARD)
KNOCK_6 = ("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠", "Q♦ 5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣")


def at_discard(upcard: str, settings: Settings) -> Hand:
    return position(*KNOCK_6, discard_pile=upcard, phase=Phase.DISCARD, settings=settings)


@pytest.mark.parametrize("level", LEVELS)
def test_no_level_knocks_above_the_upcards_limit(level: Level) -> None:
    oklahoma = Settings(variant="oklahoma")
    hand = at_discard("4♦", oklahoma)
    view = view_for(hand, 0)
    assert view.knock_limit == 4 and view.settings.knock_limit == 10
    for i in range(5):
        action = decide(view, level, random.Random(i))
        assert action.kind is not ActionKind.KNOCK and action in hand.legal_actions()
    # At the limit the easy player knocks at once, as it does at any table.
    easy = decide(view_for(at_discard("6♦", oklahoma), 0), Level.EASY, random.Random(0))
    assert easy == Action(ActionKind.KNOCK, 0, parse_card("K♠"))


def test_the_view_carries_the_hands_own_limit_and_multiplier() -> None:
    view = view_for(at_discard("8♠", Settings(variant="oklahoma", spades_double=True)), 0)
    assert (view.knock_limit, view.score_multiplier, view.points_to_finish) == (8, 2, 150)
    classic = view_for(at_discard("8♠", Settings(knock_limit=7)), 0)
    assert (classic.knock_limit, classic.score_multiplier) == (7, 1)
    ace = view_for(at_discard("A♦", Settings(variant="oklahoma")), 0)
    assert ace.knock_limit == 0


@pytest.mark.parametrize(
    "settings",
    [
        Settings(variant="oklahoma"),
        Settings(variant="oklahoma", ace="one", spades_double=True),
    ],
    ids=["ace-gin", "ace-one-spades"],
)
def test_every_level_plays_oklahoma_hands_legally(settings: Settings) -> None:
    rng = random.Random(11)
    outcomes: set[Outcome] = set()
    for first in LEVELS:
        for second in LEVELS:
            for i in range(6 if Level.HARD in (first, second) else 25):
                hand = play_hand(f"okla-{first}-{second}-{i}", (first, second), rng, settings)
                result = hand.result
                assert result is not None
                outcomes.add(result.outcome)
                if result.outcome in (Outcome.KNOCK, Outcome.UNDERCUT):
                    assert result.knocker_deadwood <= hand.knock_limit
    assert {Outcome.KNOCK, Outcome.GIN} <= outcomes


@pytest.mark.parametrize("variant", ["oklahoma", "hollywood"])
def test_whole_variant_matches_through_bot_move(variant: str) -> None:
    rng = random.Random(2)
    settings = Settings(variant=variant, target=50, spades_double=True)
    match = Match.start([Player("a", "Ann"), Player("b", "Bot")], settings, seed=variant)
    moves = 0
    while not match.is_over:
        seat = match.hand.turn
        level = Level.HARD if seat == 1 else Level.NORMAL
        match.apply(bot_move(match, seat, level, rng))
        moves += 1
        assert moves < 20_000
    assert match.result is not None
    if variant == "hollywood":
        assert view_for(Match.start(match.players, settings, seed="v"), 0).points_to_finish is None
        assert len(match.result.games) == 3

"""RULES.md sections 3 and 9: the cut, running totals, bonuses, the winner and the next dealer."""

from __future__ import annotations

import json

import pytest

from bot.gin.cards import DECK, parse_card
from bot.gin.errors import IllegalMove
from bot.gin.hand import Action, ActionKind, Outcome, Phase
from bot.gin.match import EndReason, Match, Player
from bot.gin.settings import NextDealer, Settings
from bot.gin.shuffle import derive_seed, shuffled
from tests.gin.helpers import position

ALICE, BOB = Player("1", "Alice"), Player("2", "Bob")
KNOCK_6_WIN_13 = ("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠", "Q♦ 5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣")
UNDERCUT_26 = ("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠", "Q♦ 5♠ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 2♥ 3♥")


def match_at(
    scores: list[int],
    hands_won: list[int],
    hand: tuple[str, str],
    *,
    knocker: int = 0,
    dealer: int = 1,
    settings: Settings | None = None,
) -> Match:
    """A seeded match with the given totals, where ``knocker`` is about to knock with K♠."""
    settings = settings or Settings()
    match = Match.start([ALICE, BOB], settings, seed="match")
    alice, bob = hand if knocker == 0 else (hand[1], hand[0])
    match.hand = position(
        alice,
        bob,
        discard_pile="4♦",
        phase=Phase.DISCARD,
        turn=knocker,
        dealer=dealer,
        settings=settings,
    )
    match.scores, match.hands_won = list(scores), list(hands_won)
    return match


def knock(match: Match, seat: int = 0):  # type: ignore[no-untyped-def]
    return match.apply(Action(ActionKind.KNOCK, seat, parse_card("K♠")))


def test_cut_lower_card_deals_and_ties_cut_again() -> None:
    for i in range(40):
        match = Match.start([ALICE, BOB], seed=f"cut-{i}")
        last = match.cuts[-1]
        assert last[match.dealer].rank < last[1 - match.dealer].rank
        for earlier in match.cuts[:-1]:
            assert earlier[0].rank == earlier[1].rank
    # Find a seed whose first cut ties, to show the cut is repeated.
    seed = next(
        f"tie-{i}"
        for i in range(2000)
        if (lambda c: c[0].rank == c[1].rank)(shuffled(DECK, derive_seed(f"tie-{i}", "cut-0")))
    )
    assert len(Match.start([ALICE, BOB], seed=seed).cuts) >= 2


def test_first_hand_is_dealt_by_the_cut_winner_and_non_dealer_starts() -> None:
    match = Match.start([ALICE, BOB], seed="first")
    assert match.hand_number == 1
    assert match.hand.turn == 1 - match.dealer
    assert match.hand.names == ("Alice", "Bob")


def test_a_hand_win_adds_to_the_total_and_deals_the_next_hand() -> None:
    match = match_at([0, 0], [0, 0], KNOCK_6_WIN_13)
    report = knock(match)
    assert report.finished_hand is not None and report.result is None
    assert report.finished_hand.result.outcome is Outcome.KNOCK
    assert match.scores == [13, 0] and match.hands_won == [1, 0]
    assert match.hand_number == 2 and match.hand.phase is Phase.UPCARD
    assert match.dealer == 1  # loser of the hand deals (default)


@pytest.mark.parametrize(
    ("rule", "expected"), [(NextDealer.LOSER, 1), (NextDealer.WINNER, 0), (NextDealer.ALTERNATE, 0)]
)
def test_next_dealer_setting(rule: NextDealer, expected: int) -> None:
    match = match_at([0, 0], [0, 0], KNOCK_6_WIN_13, dealer=1, settings=Settings(next_dealer=rule))
    knock(match)
    assert match.dealer == expected


def test_undercut_loser_is_the_knocker_who_then_deals() -> None:
    match = match_at([0, 0], [0, 0], UNDERCUT_26, dealer=1)
    knock(match)
    assert match.scores == [0, 26] and match.hands_won == [0, 1]
    assert match.dealer == 0


def test_void_hand_scores_nothing_and_same_dealer_deals() -> None:
    match = Match.start([ALICE, BOB], seed="void")
    match.hand = position(
        "2♠ 3♠ 4♠ 7♥ 8♥ 9♥ K♣ K♦ Q♥ 5♦",
        "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣",
        discard_pile="J♥",
        stock="5♥ 6♥ J♠",
        dealer=1,
    )
    match.apply(Action(ActionKind.DRAW_STOCK, 0))
    report = match.apply(Action(ActionKind.DISCARD, 0, parse_card("J♠")))
    assert report.finished_hand is not None
    assert report.finished_hand.result.outcome is Outcome.VOID
    assert match.scores == [0, 0] and match.hands_won == [0, 0]
    assert match.dealer == 1 and match.hand_number == 2


def test_reaching_the_target_ends_the_match_with_bonuses() -> None:
    match = match_at([90, 40], [3, 2], KNOCK_6_WIN_13)
    report = knock(match)
    result = report.result
    assert result is not None and match.is_over
    assert result.reason is EndReason.TARGET
    assert result.points == (103, 40)
    assert result.game_bonus == (100, 0)
    assert result.box_bonus == (4 * 25, 2 * 25)
    assert not result.shutout
    assert result.final == (303, 90)
    assert result.winner == 0
    with pytest.raises(IllegalMove, match="This match is over"):
        match.apply(Action(ActionKind.DRAW_STOCK, 1))


def test_shutout_doubles_the_game_bonus() -> None:
    match = match_at([95, 0], [4, 0], KNOCK_6_WIN_13)
    result = knock(match).result
    assert result is not None and result.shutout
    assert result.game_bonus == (200, 0)
    assert result.final == (108 + 200 + 125, 0)


def test_higher_final_score_wins_even_if_the_other_reached_the_target() -> None:
    match = match_at([90, 95], [1, 9], KNOCK_6_WIN_13)
    result = knock(match).result
    assert result is not None
    assert result.final == (103 + 100 + 50, 95 + 225)
    assert result.winner == 1


def test_final_tie_goes_to_the_player_who_reached_the_target() -> None:
    # Alice reaches 103: 103 + 100 + 2 boxes = 253. Bob: 78 points + 7 boxes = 253.
    match = match_at([90, 78], [1, 7], KNOCK_6_WIN_13)
    result = knock(match).result
    assert result is not None and result.final == (253, 253)
    assert result.winner == 0


def test_target_and_bonus_settings() -> None:
    settings = Settings(target=50, game_bonus=50, box_bonus=10)
    match = match_at([40, 0], [1, 0], KNOCK_6_WIN_13, settings=settings)
    result = knock(match).result
    assert result is not None and result.final == (53 + 100 + 20, 0)


def test_resign_gives_the_match_to_the_other_player() -> None:
    match = Match.start([ALICE, BOB], seed="resign")
    result = match.resign(0)
    assert result.reason is EndReason.RESIGN and result.winner == 1 and result.loser == 0
    with pytest.raises(IllegalMove):
        match.resign(1)


def test_match_serializes_losslessly_with_a_version() -> None:
    match = match_at([10, 20], [1, 1], KNOCK_6_WIN_13)
    knock(match)
    match.apply(Action(ActionKind.PASS, match.hand.turn))
    data = json.loads(json.dumps(match.to_dict()))
    assert data["version"] == 2 and data["mode"] == "classic"
    again = Match.from_dict(data)
    assert again == match and again.to_dict() == match.to_dict()
    data["version"] = 99
    with pytest.raises(ValueError, match="version"):
        Match.from_dict(data)


def test_finished_hands_can_be_kept_apart_and_given_back() -> None:
    match = match_at([10, 20], [1, 1], KNOCK_6_WIN_13)
    knock(match)
    match.apply(Action(ActionKind.PASS, match.hand.turn))
    assert len(match.history) == 1
    light = json.loads(json.dumps(match.to_dict(history=False)))
    assert "history" not in light
    records = [json.loads(json.dumps(h.to_dict())) for h in match.history]
    assert Match.from_dict({**light, "history": records}) == match
    assert Match.from_dict(light).history == []


def test_unseeded_matches_use_fresh_secure_seeds() -> None:
    seeds = {Match.start([ALICE, BOB]).hand.seed for _ in range(5)}
    assert len(seeds) == 5 and all(len(s) == 32 for s in seeds)


def test_players_must_be_two_different_people() -> None:
    with pytest.raises(ValueError):
        Match.start([ALICE, ALICE])
    with pytest.raises(ValueError):
        Match.start([ALICE])

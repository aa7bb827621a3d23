"""RULES.md 12, Hollywood: three games scored at once from the same hands.

The worked examples here are the ones written down in docs/rule-decisions.md (target 100,
game bonus 100, box bonus 25; Ann is seat 0, Ben seat 1).
"""

from __future__ import annotations

import json
import random

import pytest

from bot.gin.cards import parse_card
from bot.gin.errors import SettingsError, VariantNotAllowed
from bot.gin.hand import Action, ActionKind, Phase
from bot.gin.hollywood import (
    GameResult,
    HollywoodGame,
    games_for,
    match_winner,
    new_games,
    score_hand,
)
from bot.gin.match import EndReason, Match, MatchResult, Player
from bot.gin.settings import Settings
from tests.gin.helpers import position
from tests.gin.players import choose

HOLLYWOOD = Settings(variant="hollywood")
ANN, BEN = 0, 1
PLAYERS = [Player("1", "Ann"), Player("2", "Ben")]
KNOCK_6_WIN_13 = ("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠", "Q♦ 5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣")


class Sheet:
    """The three games and the hands won, fed one winner and their points at a time."""

    def __init__(self, settings: Settings = HOLLYWOOD) -> None:
        self.games = new_games()
        self.settings = settings
        self.hands = 0

    def win(self, seat: int, points: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        self.hands += 1
        return score_hand(self.games, self.settings, seat, points, self.hands)

    def column(self, seat: int) -> list[int]:
        return [game.scores[seat] for game in self.games]

    def result(self, number: int) -> GameResult:
        result = self.games[number - 1].result
        assert result is not None
        return result


# --- which games a hand counts in -----------------------------------------------------------


def test_first_win_game_1_second_games_1_and_2_third_and_later_all_three() -> None:
    sheet = Sheet()
    assert sheet.win(ANN, 20) == ((1,), ())
    assert sheet.win(ANN, 30) == ((1, 2), ())
    assert sheet.win(BEN, 15) == ((1,), ())  # each player counts their own wins
    assert sheet.win(ANN, 10) == ((1, 2, 3), ())
    assert sheet.win(ANN, 5) == ((1, 2, 3), ())
    assert sheet.column(ANN) == [65, 45, 15] and sheet.column(BEN) == [15, 0, 0]
    assert [g.boxes for g in sheet.games] == [[4, 1], [3, 0], [2, 0]]


def test_worked_example_a_game_ends_and_later_scores_go_to_the_open_games() -> None:
    sheet = Sheet()
    sheet.win(ANN, 20)  # G1 20
    sheet.win(ANN, 30)  # G1 50, G2 30
    sheet.win(BEN, 15)  # G1 Ben 15
    assert sheet.win(ANN, 55) == ((1, 2, 3), (1,))  # G1 105: over; G2 85, G3 55
    one = sheet.result(1)
    assert (one.reached, one.winner, one.hand_number, one.shutout) == (ANN, ANN, 4, False)
    assert one.points == (105, 15) and one.game_bonus == (100, 0)
    assert one.box_bonus == (75, 25) and one.final == (280, 40) and one.margin == 240
    assert sheet.win(BEN, 10) == ((2,), ())  # Ben's second: game 1 is over, so game 2 only
    assert sheet.win(ANN, 20) == ((2, 3), (2,))  # G2 105: over; G3 75
    assert sheet.result(2).final == (105 + 100 + 75, 10 + 25)
    assert sheet.win(BEN, 40) == ((3,), ())  # Ben's third: only game 3 is open
    assert sheet.win(ANN, 30) == ((3,), (3,))  # G3 105
    three = sheet.result(3)
    assert three.final == (105 + 100 + 75, 40 + 25) and not three.shutout


def test_worked_example_a_player_shut_out_of_a_game_starts_in_the_next_one() -> None:
    sheet = Sheet()
    sheet.win(ANN, 40)
    sheet.win(ANN, 30)
    assert sheet.win(ANN, 35) == ((1, 2, 3), (1,))  # G1 105, Ben never scored in it
    one = sheet.result(1)
    assert one.shutout and one.game_bonus == (200, 0) and one.final == (105 + 200 + 75, 0)
    # Ben's first hand won: game 1 is over, so it is his first in game 2 (taken word for word
    # it would go to game 1 only, and count nowhere).
    assert sheet.win(BEN, 20) == ((2,), ())
    assert sheet.win(BEN, 25) == ((2, 3), ())  # his second: games 2 and 3
    assert sheet.win(BEN, 5) == ((2, 3), ())
    assert sheet.column(BEN) == [0, 50, 30]


def test_a_player_shut_out_of_two_games_starts_in_the_third() -> None:
    sheet = Sheet()
    sheet.win(BEN, 5)  # Ben in game 1
    sheet.win(ANN, 60)
    sheet.win(ANN, 60)  # G1 120 over; G2 60
    assert sheet.win(ANN, 45) == ((2, 3), (2,))  # G2 105 over, Ben shut out of it
    assert sheet.result(2).shutout and not sheet.result(1).shutout
    assert games_for(sheet.games, BEN) == (3,)
    assert sheet.win(BEN, 10) == ((3,), ())


def test_one_hand_can_end_several_games() -> None:
    sheet = Sheet()
    sheet.win(ANN, 50)
    sheet.win(ANN, 40)  # G1 90, G2 40
    sheet.win(ANN, 40)  # G1 130 over; G2 80, G3 40
    assert sheet.win(ANN, 60) == ((2, 3), (2, 3))
    assert all(game.is_over for game in sheet.games)
    assert [sheet.result(n).hand_number for n in (1, 2, 3)] == [3, 4, 4]


def test_a_game_goes_to_the_higher_final_score_ties_to_who_reached_the_target() -> None:
    settings = HOLLYWOOD.with_changes(target=50, game_bonus=0, box_bonus=25)
    sheet = Sheet(settings)
    for _ in range(3):
        sheet.win(BEN, 1)  # Ben: three hands of 1 in game 1
    sheet.win(ANN, 50)  # Ann 50 with one box: 75; Ben 3 with three boxes: 78
    one = sheet.result(1)
    assert one.reached == ANN and one.final == (75, 78) and one.winner == BEN
    tie = Sheet(settings)
    tie.win(BEN, 25)
    tie.win(BEN, 1)  # Ben 26 + 2 boxes = 76 in game 1
    tie.win(ANN, 51)  # Ann 51 + 1 box = 76
    assert tie.result(1).final == (76, 76) and tie.result(1).winner == ANN


def test_a_hand_won_for_no_points_still_counts_as_a_hand_won_in_its_games() -> None:
    sheet = Sheet(HOLLYWOOD.with_changes(undercut_bonus=0))
    assert sheet.win(BEN, 0) == ((1,), ())
    assert sheet.games[0].boxes == [0, 1]
    assert sheet.win(BEN, 0) == ((1, 2), ())


def test_the_winner_won_two_or_three_games_and_the_margin_is_the_sum_of_differences() -> None:
    def game(number: int, winner: int, final: tuple[int, int]) -> GameResult:
        return GameResult(number, winner, winner, number, final, (0, 0), (0, 0), False, final)

    results = (game(1, ANN, (130, 100)), game(2, ANN, (120, 110)), game(3, BEN, (90, 300)))
    assert match_winner(results) == ANN
    assert sum(r.difference(ANN) for r in results) == 30 + 10 - 210
    assert match_winner((game(1, BEN, (0, 1)), *results[1:])) == BEN


# --- through the match ----------------------------------------------------------------------


def hollywood_match(seed: str = "hw", settings: Settings = HOLLYWOOD) -> Match:
    return Match.start(PLAYERS, settings, seed=seed)


def rig_knock(match: Match, knocker: int) -> None:
    """The knocker about to knock with 6 (discarding K♠) and win 13 points."""
    alice, bob = KNOCK_6_WIN_13 if knocker == 0 else KNOCK_6_WIN_13[::-1]
    match.hand = position(
        alice, bob, discard_pile="4♦", phase=Phase.DISCARD, turn=knocker, settings=HOLLYWOOD
    )


def test_a_match_holds_three_games_and_reports_where_the_points_went() -> None:
    match = hollywood_match()
    assert match.is_hollywood and [g.number for g in match.games] == [1, 2, 3]
    assert match.next_games(ANN) == (1,) and match.next_games(BEN) == (1,)
    for expected in ((1,), (1, 2), (1, 2, 3)):
        rig_knock(match, ANN)
        report = match.apply(Action(ActionKind.KNOCK, ANN, parse_card("K♠")))
        assert report.scored is not None and report.finished_hand is not None
        assert report.scored.side == ANN and report.scored.points == 13
        assert report.scored.games == expected and report.scored.ended == ()
        assert report.finished_hand.games == expected
        assert match.history[-1] is report.finished_hand
    assert [g.scores for g in match.games] == [[39, 0], [26, 0], [13, 0]]
    assert match.scores == [39 + 26 + 13, 0]  # a running total is the sum of the games
    assert match.hands_won == [3, 0]
    assert match.next_games(ANN) == (1, 2, 3) and match.next_games(BEN) == (1,)


def test_the_match_ends_when_all_three_games_have_with_their_sums() -> None:
    match = hollywood_match()
    match.games = [
        HollywoodGame(1, [95, 40], [6, 2]),
        HollywoodGame(2, [90, 30], [5, 1]),
        HollywoodGame(3, [110, 0], [4, 0], None),
    ]
    match.games[2].result = GameResult(3, ANN, ANN, 9, (110, 0), (200, 0), (100, 0), True, (410, 0))
    rig_knock(match, ANN)
    report = match.apply(Action(ActionKind.KNOCK, ANN, parse_card("K♠")))
    assert report.scored is not None and report.scored.games == (1, 2)
    assert report.scored.ended == (1, 2)
    result = report.result
    assert result is not None and match.is_over and result.reason is EndReason.TARGET
    one, two, three = result.games
    assert one.final == (108 + 100 + 7 * 25, 40 + 2 * 25)
    assert two.final == (103 + 100 + 6 * 25, 30 + 25)
    assert result.winner == ANN and result.placings == (1, 2)
    assert result.points == (108 + 103 + 110, 40 + 30)
    assert result.final == tuple(one.final[s] + two.final[s] + three.final[s] for s in (0, 1))
    assert result.margin == one.margin + two.margin + three.margin
    assert result.shutout  # game 3 was one


def test_resigning_ends_the_match_and_lists_the_games_already_over() -> None:
    match = hollywood_match()
    rig_knock(match, BEN)
    match.apply(Action(ActionKind.KNOCK, BEN, parse_card("K♠")))
    match.games[0].result = GameResult(1, BEN, BEN, 1, (0, 13), (0, 200), (0, 25), True, (0, 238))
    result = match.resign(BEN)
    assert result is not None and result.winner == ANN and result.loser == BEN
    assert result.points == result.final == (0, 13) and result.games == (match.games[0].result,)


@pytest.mark.parametrize("mode", ["three", "teams", "elimination"])
@pytest.mark.parametrize("variant", ["oklahoma", "hollywood"])
def test_the_variants_are_for_two_players_only(mode: str, variant: str) -> None:
    players = [Player(str(i), f"P{i}") for i in range(4 if mode == "teams" else 3)]
    with pytest.raises(VariantNotAllowed) as error:
        Match.start(players, Settings(variant=variant), seed="x", mode=mode)
    assert isinstance(error.value, SettingsError) and error.value.code == "variant_mode"
    assert "two-player variant" in error.value.reason and "classic" in error.value.reason
    assert (error.value.variant, error.value.mode) == (variant, mode)
    Match.start(players, Settings(), seed="x", mode=mode)  # classic plays anywhere


# --- records --------------------------------------------------------------------------------


def play_out(match: Match, rng: random.Random) -> None:
    while not match.is_over:
        match.apply(choose(match.hand, "knocker", rng))


def test_whole_matches_add_up_and_round_trip() -> None:
    for i in range(12):
        rng = random.Random(i)
        match = hollywood_match(f"whole-{i}")
        play_out(match, rng)
        result = match.result
        assert result is not None and len(result.games) == 3
        assert all(game.is_over for game in match.games)
        assert tuple(match.scores) == result.points
        wins = [sum(1 for g in result.games if g.winner == s) for s in (0, 1)]
        assert wins[result.winner] >= 2
        for game in result.games:
            assert max(game.points) >= HOLLYWOOD.target
            assert game.points[game.reached] >= HOLLYWOOD.target
        # Where the points went adds up to the games.
        for number in (1, 2, 3):
            for seat in (0, 1):
                counted = [h for h in match.history if h.result.winner == seat]
                total = sum(h.result.points for h in counted if number in h.games)
                assert total == match.games[number - 1].scores[seat]
        data = json.loads(json.dumps(match.to_dict()))
        assert Match.from_dict(data) == match
        assert MatchResult.from_dict(result.to_dict()) == result


def test_a_hollywood_match_replays_from_its_seed_and_moves() -> None:
    rng = random.Random(3)
    match = hollywood_match("replay")
    states = []
    actions = []
    while not match.is_over:
        action = choose(match.hand, "knocker", rng)
        actions.append(action)
        match.apply(action)
        if len(actions) % 25 == 0:
            states.append((len(actions), json.loads(json.dumps(match.to_dict(history=False)))))
    again = hollywood_match("replay")
    done = 0
    for count, state in states:
        while done < count:
            again.apply(actions[done])
            done += 1
        loaded = Match.from_dict(state)
        loaded.history = list(again.history)
        assert loaded == again
    for action in actions[done:]:
        again.apply(action)
    assert again == match


def test_records_of_a_classic_match_carry_no_games() -> None:
    match = Match.start(PLAYERS, Settings(), seed="plain")
    assert not match.is_hollywood and match.next_games(ANN) == ()
    play_out(match, random.Random(1))
    data = match.to_dict()
    assert "games" not in data and data["result"] is not None and "games" not in data["result"]
    assert all("games" not in h.to_dict() for h in match.history)

"""Every level plays every mode: legal moves only, from its own board, to the end."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.gin.ai import EliminationView, Level, PlayerView, bot_move, seat_view, view_for
from bot.gin.match import Match, Player
from bot.gin.modes import decks_for
from bot.gin.settings import SetSuits, Settings
from tests.gin.ai.helpers import play_table

LEVELS = (Level.EASY, Level.NORMAL, Level.HARD)


def test_three_players_whole_matches_with_every_level() -> None:
    hands = 0
    for i in range(6):
        levels = [LEVELS[(i + k) % 3] for k in range(3)]
        match = play_table("three", levels, f"three-{i}", Settings(target=50))
        assert match.result is not None
        hands += len(match.history)
    assert hands >= 12


def test_teams_whole_matches_with_every_level() -> None:
    boards = Counter[int]()
    for i in range(4):
        levels = [LEVELS[(i + k) % 3] for k in range(4)]
        match = play_table("teams", levels, f"teams-{i}", Settings(team_target=60))
        assert match.result is not None
        boards.update(record.board for record in match.history)
    assert boards[0] and boards[1]  # both games of a hand were played by the bots


@pytest.mark.parametrize("players", range(2, 15))
def test_elimination_every_table_size_and_deck_count(players: int) -> None:
    """One round at each size (1 to 4 decks), both set rules; whole matches when small."""
    for suits in (SetSuits.ANY, SetSuits.DIFFERENT):
        levels = [LEVELS[(players + k) % 3] for k in range(players)]
        seed = f"elim-{players}-{suits}"
        rounds = None if players <= 4 else 1
        match = play_table("elimination", levels, seed, Settings(set_suits=suits), rounds=rounds)
        assert match.history, "no round was finished"
        assert match.history[0].rules.decks == decks_for(players)
        if rounds is None:
            assert match.result is not None
            assert sorted(match.result.placings) == list(range(1, players + 1))


def test_elimination_every_level_alone_at_a_table_of_easy_players() -> None:
    for level in LEVELS:
        for i in range(2):
            levels = [level] + [Level.EASY] * 4
            match = play_table("elimination", levels, f"alone-{level}-{i}")
            assert match.result is not None


def test_a_teams_view_is_the_seats_own_game_and_its_teams_score() -> None:
    players = [Player(str(i), f"P{i}") for i in range(4)]
    match = Match.start(players, Settings(), seed="team-view", mode="teams")
    match.scores[:] = [30, 55]
    match.hands_won[:] = [1, 2]
    for seat in range(4):
        view = seat_view(match, seat)
        assert isinstance(view, PlayerView)
        board = match.board_of(seat)
        assert board is not None
        assert view.opponent == match.opponent_of(seat)
        assert view.hand == tuple(board.cards_of(seat))
        assert view.scores == (30, 55, 30, 55) and view.hands_won == (1, 2, 1, 2)
        assert match.partners(seat)[0] not in board.seats  # the partner's cards: elsewhere
    # Both seats to act move on their own boards.
    rng = random.Random(2)
    for seat in match.to_act():
        action = bot_move(match, seat, Level.HARD, rng)
        assert action.seat == seat
        match.apply(action)


def test_a_three_player_view_skips_the_dealer_and_keeps_each_total() -> None:
    players = [Player(str(i), f"P{i}") for i in range(3)]
    match = Match.start(players, Settings(), seed="three-view", mode="three")
    match.scores[:] = [10, 20, 30]
    sitter = match.hand.dealer
    with pytest.raises(ValueError):
        view_for(match, sitter)
    for seat in match.hand.seats:
        view = view_for(match, seat)
        assert view.scores == (10, 20, 30)
        assert view.opponent in match.hand.seats and view.opponent != sitter


def test_an_elimination_hand_gets_the_elimination_view() -> None:
    players = [Player(str(i), f"P{i}") for i in range(6)]
    match = Match.start(players, Settings(), seed="elim-view", mode="elimination")
    seat = match.to_act()[0]
    view = seat_view(match, seat)
    assert isinstance(view, EliminationView)
    assert view.decks == 2 and len(view.seats) == 6 and view.players == 6
    with pytest.raises(ValueError):
        view_for(match, seat)  # the two-player view does not fit this hand

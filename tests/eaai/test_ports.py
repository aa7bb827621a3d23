"""The challenge's players as ported: legal whole games, and the rules that define them."""

from __future__ import annotations

import random

from bot.gin.ai import Level
from bot.gin.cards import parse_cards
from tests.eaai.bench import play_pair
from tests.eaai.marjj import MarjjPlayer
from tests.eaai.players import HostAgent, LevelAgent
from tests.eaai.rules import EAAI_SETTINGS, play_game
from tests.eaai.simple import SimplePlayer
from tests.eaai.stats import pair_interval, sign_test


def _ints(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text.split())]


def test_the_rules_are_the_challenges() -> None:
    s = EAAI_SETTINGS
    assert (s.target, s.gin_bonus, s.undercut_bonus, s.knock_limit) == (100, 25, 25, 10)
    assert not s.big_gin
    assert (s.game_bonus, s.box_bonus, s.void_stock) == (0, 0, 2)
    assert s.next_dealer.value == "alternate"


def test_ports_play_whole_games_against_each_other_and_a_level() -> None:
    for index in range(2):
        pair = play_pair("marjj", "simple", "ports", index)
        assert len(pair.games) == 2
        for game in pair.games:
            assert max(game.scores) >= 100
            assert game.scores[game.winner] >= 100
    game = play_game(
        HostAgent(MarjjPlayer(random.Random(1))),
        LevelAgent(Level.NORMAL, random.Random(2)),
        "ports/level",
        1,
    )
    assert max(game.scores) >= 100


def test_simple_takes_only_a_card_that_melds() -> None:
    player = SimplePlayer(random.Random(0))
    player.start_hand(0, 0, _ints("7♠ 8♠ K♥ K♦ 2♣ 4♣ 9♦ J♠ 3♥ 5♦"))
    assert player.will_draw_face_up(_ints("9♠")[0])
    assert player.will_draw_face_up(_ints("K♣")[0])
    assert not player.will_draw_face_up(_ints("Q♥")[0])


def test_simple_keeps_the_face_up_card_it_took_and_knocks_at_ten() -> None:
    player = SimplePlayer(random.Random(0))
    player.start_hand(0, 0, _ints("7♠ 8♠ K♥ K♦ 2♣ 3♣ 4♣ A♦ 2♦ 3♥"))
    king = _ints("K♣")[0]
    assert player.will_draw_face_up(king)
    player.report_draw(0, king)
    discard = player.get_discard()
    assert discard == _ints("8♠")[0]
    player.report_discard(0, discard)
    assert not player.knocks()  # 13 left
    ace = _ints("A♥")[0]
    player.report_draw(0, ace)
    discard = player.get_discard()
    assert discard == _ints("7♠")[0]
    player.report_discard(0, discard)
    assert player.knocks()  # A♦ 2♦ 3♥ A♥: 7


def test_marjj_knocks_early_and_then_only_for_gin() -> None:
    player = MarjjPlayer(random.Random(0))
    low = _ints("A♠ 2♠ 3♠ 5♥ 6♥ 7♥ 9♦ 9♣ 9♥ A♦")
    player.start_hand(0, 0, low)
    draw = _ints("K♣")[0]
    for _ in range(4):
        player.report_draw(0, draw)
        card = player.get_discard()
        assert card == draw  # the only loose card worth throwing
        player.report_discard(0, card)
        assert player.knocks() == (player.turns <= 3)


def test_marjj_takes_a_face_up_card_only_into_a_meld_that_lowers_deadwood() -> None:
    player = MarjjPlayer(random.Random(0))
    player.start_hand(0, 0, _ints("7♠ 8♠ K♥ K♦ 2♣ 4♣ 9♦ J♠ 3♥ 5♦"))
    assert player.will_draw_face_up(_ints("9♠")[0])
    assert not player.will_draw_face_up(_ints("Q♥")[0])


def test_the_interval_and_the_sign_test() -> None:
    share, low, high = pair_interval([2, 1, 1, 0, 2, 2])
    assert share == 8 / 12
    assert low < share < high
    assert sign_test(5, 0) == 0.0625
    assert sign_test(10, 10) == 1.0

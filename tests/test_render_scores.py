"""One story for the score during play (points and boxes toward the target), and showdowns
that draw their cards with whatever face the screen uses."""

from __future__ import annotations

import random

from bot.gin.cards import Card
from bot.gin.hand import Outcome
from bot.gin.match import Match, Player
from bot.gin.settings import Settings
from bot.render.common import scores_line
from bot.render.result import match_over_panel
from bot.render.showdown import showdown_panel
from tests.gin.players import choose


def played(hands: int, seed: str = "story") -> Match:
    """A match after ``hands`` hands with a winner each (void hands do not count)."""
    match = Match.start([Player("1", "Alice"), Player("2", "Bob")], seed=seed)
    rng = random.Random(seed)
    while sum(1 for r in match.history if r.result.winner is not None) < hands:
        match.apply(choose(match.hand, "knocker", rng))
    return match


def test_before_any_hand_is_won_the_line_shows_points_and_the_target() -> None:
    match = played(0)
    assert scores_line(match) == "Alice 0 · Bob 0 · to 100"


def test_each_side_shows_its_boxes_once_it_has_won_a_hand() -> None:
    match = played(3)
    line = scores_line(match)
    for seat, player in enumerate(match.players):
        boxes = match.hands_won[seat]
        if boxes == 0:
            expected = f"{player.name} {match.scores[seat]} ·"
        else:
            expected = f"{player.name} {match.scores[seat]} ({boxes} box{'es' * (boxes > 1)})"
        assert expected in line, line
    assert line.endswith("· to 100")
    assert sum(match.hands_won) == 3


def test_a_showdown_draws_its_cards_with_the_face_it_is_given() -> None:
    match = played(1)
    record = next(r for r in match.history if r.result.outcome is not Outcome.VOID)

    def face(card: Card) -> str:
        return f"<:gin_{int(card)}:1>"

    text = showdown_panel(match, record.number, record.result).body
    drawn = showdown_panel(match, record.number, record.result, face=face).body
    arrangement = record.result.knocker_arrangement
    assert arrangement is not None
    for card in arrangement.melds[0]:
        assert str(card) in text.split("\n")[0]
        assert face(card) in drawn
    assert "<:gin_" not in text


def test_a_player_shut_out_reads_as_no_hand_won() -> None:
    for n in range(300):
        match = Match.start(
            [Player("1", "Alice"), Player("2", "Bob")], Settings(target=50), seed=f"out{n}"
        )
        rng = random.Random(n)
        while not match.is_over:
            match.apply(choose(match.hand, "knocker", rng))
        result = match.result
        assert result is not None
        if result.shutout:
            loser = match.players[1 - result.winner].name
            body = match_over_panel(match, result).body
            assert f"**{loser}: 0** (no hand won)" in body
            assert "0 for 0 hands won" not in body
            return
    raise AssertionError("no shutout in 300 matches")

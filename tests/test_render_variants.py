"""What players see of Oklahoma and Hollywood: the hand's knock limit and spades double on the
private hand and the table, Hollywood's three games side by side, where a hand's points went,
each game's breakdown at the end, and the variant in the rules and the challenge."""

from __future__ import annotations

import random

from bot.gin.cards import SPADES
from bot.gin.match import Match, Player
from bot.gin.settings import Settings
from bot.render.challenges import challenge_panel, rules_panel
from bot.render.common import scores_line
from bot.render.hand import hand_panel
from bot.render.result import match_over_panel
from bot.render.showdown import showdown_panel
from bot.render.table import table_panel
from bot.server_settings import ServerSettings
from tests.gin.players import choose

PLAYERS = [Player("1", "Alice"), Player("2", "Bob")]


def oklahoma_match(*, spade: bool, ace: bool = False) -> Match:
    """An Oklahoma match whose first upcard is (or is not) a spade, or an ace."""
    settings = Settings(variant="oklahoma", spades_double=True)
    for n in range(2000):
        match = Match.start(PLAYERS, settings, seed=f"ok{n}")
        upcard = match.hand.upcard
        assert upcard is not None
        if (upcard.suit == SPADES) == spade and (upcard.rank == 0) == ace:
            return match
    raise AssertionError("no such deal in 2000 seeds")


def test_oklahoma_hand_and_table_show_the_knock_limit_from_the_upcard() -> None:
    match = oklahoma_match(spade=False)
    upcard = match.hand.upcard
    assert upcard is not None
    line = f"the upcard was {upcard}: knock at {upcard.value} or less"
    for seat in (0, 1):
        body = hand_panel(match, seat).body
        assert line in body and "spades double" not in body
        assert "Knock meter: " not in body or f"knock at {upcard.value} or less" in body
    assert line in table_panel(match).body


def test_a_spade_upcard_says_spades_double() -> None:
    match = oklahoma_match(spade=True)
    assert "**spades double**" in hand_panel(match, 0).body
    assert "**spades double**" in table_panel(match).body


def test_an_ace_upcard_means_gin_only() -> None:
    match = oklahoma_match(spade=False, ace=True)
    assert "gin only this hand" in hand_panel(match, 0).body


def test_a_doubled_showdown_says_why_its_score_is_doubled() -> None:
    match = oklahoma_match(spade=True)
    rng = random.Random(1)
    while not match.history:
        match.apply(choose(match.hand, "knocker", rng))
    record = match.history[0]
    body = showdown_panel(match, record.number, record.result).body
    if record.result.winner is not None:
        assert "doubled by the spade upcard" in body
        assert record.result.points == 2 * record.result.base_points


def hollywood_over(seed: str = "hw") -> Match:
    match = Match.start(PLAYERS, Settings(variant="hollywood", target=50), seed=seed)
    rng = random.Random(seed)
    while not match.is_over:
        match.apply(choose(match.hand, "knocker", rng))
    return match


def test_hollywood_shows_three_games_side_by_side_and_where_points_went() -> None:
    match = Match.start(PLAYERS, Settings(variant="hollywood"), seed="side")
    assert scores_line(match) == ("Alice–Bob: game 1 0–0 · game 2 0–0 · game 3 0–0 · to 100")
    rng = random.Random(2)
    while not any(r.result.winner is not None for r in match.history):
        match.apply(choose(match.hand, "knocker", rng))
    record = next(r for r in match.history if r.result.winner is not None)
    body = showdown_panel(match, record.number, record.result).body
    winner = match.players[record.result.winner].name  # type: ignore[index]
    assert f"{winner} +{record.result.points} in game 1." in body
    game_1 = match.games[0]
    assert f"game 1 {game_1.scores[0]}–{game_1.scores[1]}" in scores_line(match)


def test_hollywood_match_over_breaks_down_each_game() -> None:
    match = hollywood_over()
    result = match.result
    assert result is not None and len(result.games) == 3
    panel = match_over_panel(match, result)
    assert panel.title == "Match over · Hollywood"
    for game in result.games:
        winner = match.players[game.winner].name
        assert f"**Game {game.number}:**" in panel.body
        assert f"— **{winner}** wins it" in panel.body
    won = sum(1 for g in result.games if g.winner == result.winner)
    assert f"wins the match**, {won} games to {3 - won}" in panel.body
    assert "(won by" not in scores_line(match)
    assert scores_line(match).count(" won)") == 3


def test_the_rules_and_the_challenge_name_the_variant() -> None:
    oklahoma = ServerSettings().with_changes(variant="oklahoma", spades_double=True)
    assert "**Oklahoma:**" in rules_panel(oklahoma.rules).body
    text = challenge_panel("Alice", "Bob", oklahoma).body
    assert "Oklahoma (ace: gin only, spades double) Gin Rummy to 150 points" in text
    assert "the upcard sets the knock limit" in text
    hollywood = ServerSettings().with_changes(variant="hollywood")
    assert "**Hollywood:**" in rules_panel(hollywood.rules).body
    assert "**Oklahoma" not in rules_panel(ServerSettings().rules).body

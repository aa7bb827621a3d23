"""The record pages say what each figure counts: final scores or hand points, undercuts made
or suffered, in every mode."""

from __future__ import annotations

import re
from dataclasses import replace

from bot.render.records import history_panel, leaderboard_panel, stats_panel
from bot.store import HistoryRow, LeaderRow, PlayerStats

ANN = LeaderRow("1", "Ann", 2, 2, 0, 1.0, hand_points=119, final_scores=319, rating=12.5)
BEN = LeaderRow("2", "Ben", 2, 0, 2, 0.0, hand_points=34, final_scores=109)

STATS = PlayerStats(
    user_id="1",
    name="Ann",
    played=2,
    won=1,
    lost=1,
    win_rate=0.5,
    hands_played=10,
    hands_won=6,
    knocks=7,
    knock_wins=3,
    gins=2,
    big_gins=1,
    undercuts_made=0,
    undercuts_suffered=3,
    final_scores=428,
    avg_final_score=214.0,
    hand_points=153,
    avg_hand_points=15.3,
    knock_rate=0.7,
    gin_rate=0.2,
    undercut_rate=0.0,
    current_streak=1,
    best_streak=1,
    mu=None,
    sigma=None,
    rating=None,
    rating_matches=0,
)


def test_the_leaderboard_shows_final_scores_and_says_so() -> None:
    panel = leaderboard_panel([ANN, BEN], 0, 1, "points")
    assert panel.title.endswith("· by final scores")
    lines = panel.body.splitlines()
    assert "· final scores 319 ·" in lines[0] and lines[1].endswith("· final scores 109")
    assert "final scores: each match's score with its bonuses" in panel.footer
    # No bare "points" anywhere: the only total shown is the final scores'.
    assert not re.search(r"\bpoints\b", panel.text)
    by_wins = leaderboard_panel([ANN, BEN], 0, 1, "wins")
    assert by_wins.title.endswith("· by matches won") and "final scores 319" in by_wins.body
    against = leaderboard_panel([BEN], 0, 1, "bot", vs_bot=True)
    assert "final scores 109" in against.body and "final scores:" in against.footer


def test_the_leaderboard_names_each_modes_total() -> None:
    teams = leaderboard_panel([ANN], 0, 1, "points", mode="teams")
    assert teams.title.endswith("· teams · by team final scores")
    assert "team final scores 319" in teams.body and "team final scores:" in teams.footer
    three = leaderboard_panel([ANN], 0, 1, "points", mode="three")
    assert three.title.endswith("· by final scores") and "final scores 319" in three.body
    elimination = leaderboard_panel(
        [replace(ANN, final_scores=7)], 0, 1, "points", mode="elimination"
    )
    assert elimination.title.endswith("· by players outlasted")
    assert "players outlasted 7" in elimination.body and "placed below" in elimination.footer
    assert not re.search(r"\bpoints\b", elimination.text)


def test_stats_label_undercuts_and_scores() -> None:
    text = stats_panel("Ann", STATS).text
    assert "**Hands:** 10 played · 6 won" in text
    assert "**Knocks:** 7 (70%) · **gins:** 2 (20%) · **Big Gins:** 1" in text
    assert "**Undercuts made:** 0 (0%) · **undercuts suffered:** 3" in text
    assert "**Final scores:** 428 in all · 214.0 per match (bonuses included)" in text
    assert "**Hand points:** 153 in all · 15.3 per hand (before bonuses)" in text
    assert "**undercuts:**" not in text.lower() and "**Points:**" not in text
    three = stats_panel("Ann", STATS, "three").text
    assert "three players" in three and "**undercuts suffered:** 3" in three


def test_teams_stats_are_the_teams_scores_and_the_players_games() -> None:
    text = stats_panel("Ann", STATS, "teams").text
    assert "**Games:** 10 played · 6 won (your game of each hand)" in text
    assert "**Undercuts made:** 0 (0%) · **undercuts suffered:** 3" in text
    assert "**Team final scores:** 428 in all · 214.0 per match" in text
    assert "**Team hand points:** 153 in all (before bonuses)" in text
    assert "per game played" in text


def test_elimination_stats_have_no_knocks() -> None:
    stats = replace(
        STATS, knocks=2, knock_wins=0, big_gins=0, hands_won=2, final_scores=7, hand_points=0
    )
    text = stats_panel("Ann", stats, "elimination").text
    assert "**Rounds:** 10 played · 2 won by going gin" in text
    assert "**Players outlasted:** 7 in all · 214.0 per match" in text
    for absent in ("Knock", "knock", "ndercut", "points", "Final scores"):
        assert absent not in text, absent


def test_history_names_its_scores() -> None:
    two = HistoryRow(5, "2", "Ben", True, 119, 319, 109, "target", "2025-01-02T00:00:00Z", False)
    panel = history_panel("Ann", [two], 0, 1)
    assert "**won** 319–109" in panel.body and "final scores, bonuses included" in panel.footer
    many = replace(two, opponent_id=None, opponent_name=None, place=2, players=3)
    assert "final score 319" in history_panel("Ann", [many], 0, 1, "three").body
    assert "team final score 319" in history_panel("Ann", [many], 0, 1, "teams").body
    out = history_panel("Ann", [replace(many, final_score=4, players=6)], 0, 1, "elimination")
    assert "**2nd** of 6 · outlasted 4" in out.body and "final" not in out.text

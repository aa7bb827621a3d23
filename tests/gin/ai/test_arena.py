"""The arena plays a handful of seeded matches and prints its table."""

from __future__ import annotations

import pytest

from bot.gin.ai import Level
from bot.gin.ai.arena import (
    format_table,
    main,
    parse_lineup,
    play_game,
    play_match,
    run_pairing,
    run_table,
    wilson,
)
from bot.gin.settings import Settings


def test_matches_are_reproducible_and_alternate_seats() -> None:
    a = play_match(Level.NORMAL, Level.EASY, "smoke", 0)
    b = play_match(Level.NORMAL, Level.EASY, "smoke", 0)
    assert (a.first_won, a.points, a.hands) == (b.first_won, b.points, b.hands)
    assert max(a.points) >= 100
    assert len(a.times[0]) > 0 and len(a.times[1]) > 0


def test_pairing_counts_every_match() -> None:
    stats = run_pairing(Level.HARD, Level.EASY, 4, 1, "smoke")
    assert stats.matches == 4
    assert 0 <= stats.wins <= 4
    assert stats.hands >= 4


def test_wilson_interval() -> None:
    low, high = wilson(60, 100)
    assert low == pytest.approx(0.502, abs=0.001) and high == pytest.approx(0.691, abs=0.001)
    assert wilson(0, 0) == (0.0, 1.0)


def test_command_line_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--matches", "2", "--workers", "2", "--pair", "easy:normal", "--seed", "t"]) == 0
    out = capsys.readouterr().out
    assert "easy:normal" in out and "95% CI" in out and "median ms" in out


@pytest.mark.parametrize(
    ("mode", "lineup"),
    [
        ("three", ["hard", "normal", "easy"]),
        ("teams", ["hard", "hard", "easy", "easy"]),
        ("elimination", ["hard", "normal", "easy", "easy", "easy"]),
    ],
)
def test_tables_of_every_mode_place_every_level(mode: str, lineup: list[str]) -> None:
    settings = Settings(target=50, team_target=50)
    stats = run_table(mode, lineup, 3, 1, "smoke", settings)
    assert stats.games == 3
    for level in set(lineup):
        assert sum(stats.places[level].values()) == 3 * lineup.count(level)
        assert stats.times[level]
    places = {p for counts in stats.places.values() for p in counts}
    assert places <= set(range(1, stats.last_place + 1))
    again = play_game(mode, lineup, settings, "smoke", 1)
    assert again.places == play_game(mode, lineup, settings, "smoke", 1).places
    # Seats are dealt in a new order each game.
    orders = {tuple(play_game(mode, lineup, settings, "order", i).places) for i in range(3)}
    assert len(orders) > 1 or mode == "teams"
    lines = format_table(stats)
    assert any(line.startswith("hard") for line in lines)


def test_command_line_plays_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--mode", "elimination", "--players", "4", "--lineup", "hard,easy*3"]
    assert main([*argv, "--games", "2", "--workers", "1", "--seed", "t"]) == 0
    out = capsys.readouterr().out
    assert "elimination, 4 players, lineup hard,easy,easy,easy" in out
    assert "1st %" in out and "last" in out and "median ms" in out
    with pytest.raises(SystemExit):
        main(["--mode", "elimination", "--players", "3", "--lineup", "hard,easy"])
    assert parse_lineup("hard,easy*2") == ["hard", "easy", "easy"]


def test_pairings_play_the_variants(capsys: pytest.CaptureFixture[str]) -> None:
    oklahoma = Settings(variant="oklahoma", ace="one", spades_double=True, target=50)
    outcome = play_match(Level.HARD, Level.EASY, "okla", 0, oklahoma)
    assert max(outcome.points) >= 50
    argv = ["--pair", "hard:easy", "--matches", "2", "--workers", "1", "--seed", "t"]
    assert main([*argv, "--variant", "oklahoma", "--spades-double", "--target", "50"]) == 0
    out = capsys.readouterr().out
    assert "matches to 50, oklahoma (ace gin, spades double)" in out and "hard:easy" in out
    assert main([*argv, "--variant", "oklahoma"]) == 0
    assert "matches to 150, oklahoma (ace gin)" in capsys.readouterr().out
    assert main([*argv, "--variant", "hollywood", "--target", "50"]) == 0
    assert "matches to 50, hollywood" in capsys.readouterr().out


def test_tables_play_the_variants_and_refuse_them_for_more_players(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--mode", "classic", "--lineup", "hard,easy", "--games", "2", "--workers", "1"]
    assert main([*argv, "--variant", "hollywood", "--target", "50"]) == 0
    out = capsys.readouterr().out
    assert "classic, 2 players, lineup hard,easy" in out and "hollywood" in out
    with pytest.raises(SystemExit):
        main(["--mode", "three", "--lineup", "hard,easy,easy", "--variant", "oklahoma"])
    assert "two-player variant" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--pair", "hard:easy", "--target", "20"])

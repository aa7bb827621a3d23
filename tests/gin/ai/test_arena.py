"""The arena plays a handful of seeded matches and prints its table."""

from __future__ import annotations

import pytest

from bot.gin.ai import Level
from bot.gin.ai.arena import main, play_match, run_pairing, wilson


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

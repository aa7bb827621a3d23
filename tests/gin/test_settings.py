"""RULES.md section 9: settings, their defaults and their bounds."""

import pytest

from bot.gin.errors import SettingsError
from bot.gin.settings import NextDealer, Settings


def test_defaults_are_the_traditional_ones() -> None:
    s = Settings()
    assert (s.target, s.gin_bonus, s.undercut_bonus, s.big_gin, s.big_gin_bonus) == (
        100,
        25,
        25,
        True,
        31,
    )
    assert (s.knock_limit, s.void_stock, s.next_dealer) == (10, 2, NextDealer.LOSER)
    assert (s.game_bonus, s.box_bonus) == (100, 25)


@pytest.mark.parametrize(
    ("name", "low", "high"),
    [
        ("target", 50, 500),
        ("gin_bonus", 0, 50),
        ("undercut_bonus", 0, 50),
        ("big_gin_bonus", 0, 50),
        ("knock_limit", 0, 10),
        ("void_stock", 0, 2),
        ("game_bonus", 0, 200),
        ("box_bonus", 0, 50),
    ],
)
def test_bounds_are_inclusive_and_enforced(name: str, low: int, high: int) -> None:
    assert getattr(Settings(**{name: low}), name) == low
    assert getattr(Settings(**{name: high}), name) == high
    for bad in (low - 1, high + 1):
        with pytest.raises(SettingsError) as error:
            Settings(**{name: bad})
        assert f"from {low} to {high}" in error.value.reason
        assert str(bad) in error.value.reason


def test_wrong_types_and_unknown_names_are_refused() -> None:
    with pytest.raises(SettingsError):
        Settings(target="100")  # type: ignore[arg-type]
    with pytest.raises(SettingsError):
        Settings(target=True)
    with pytest.raises(SettingsError, match="next dealer"):
        Settings(next_dealer="nobody")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="Unknown setting"):
        Settings().with_changes(colour="red")


def test_big_gin_can_be_switched_off_and_next_dealer_chosen() -> None:
    s = Settings().with_changes(big_gin=False, next_dealer="alternate")
    assert s.big_gin is False and s.next_dealer is NextDealer.ALTERNATE


def test_round_trip() -> None:
    s = Settings(target=150, gin_bonus=20, next_dealer=NextDealer.WINNER)
    assert Settings.from_dict(s.to_dict()) == s

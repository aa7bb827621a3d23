"""What each mode says about itself: the data and hooks asked instead of the mode's name.

One case per mode per hook, so a new mode fails here until it says how it plays.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.gin.match import Match, MatchResult, Player
from bot.gin.modes import MODES, Mode, find_mode
from bot.gin.settings import Settings

PEOPLE = [Player(str(i), name) for i, name in enumerate(["Ann", "Ben", "Cal", "Dee"])]

# Each hook's value, by mode.
DECLARED: dict[str, dict[str, Any]] = {
    "team_play": {"classic": False, "three": False, "teams": True, "elimination": False},
    "two_player_game": {"classic": True, "three": False, "teams": False, "elimination": False},
    "opens_a_lobby": {"classic": False, "three": True, "teams": True, "elimination": True},
    "knocking": {"classic": True, "three": True, "teams": True, "elimination": False},
    "has_target": {"classic": True, "three": True, "teams": True, "elimination": False},
    "plays_rounds": {"classic": False, "three": False, "teams": False, "elimination": True},
    "dealer_sits_out": {"classic": False, "three": True, "teams": False, "elimination": False},
    "rematch_allowed": {"classic": True, "three": False, "teams": False, "elimination": False},
    "leaving_ends_match": {"classic": True, "three": False, "teams": True, "elimination": False},
    "target_setting": {
        "classic": "target",
        "three": "target",
        "teams": "team_target",
        "elimination": "target",
    },
    "host_starts_early": {
        "classic": False,
        "three": False,
        "teams": False,
        "elimination": True,
    },
}
# The hooks every mode class sets in its own body (a forgotten one is an AttributeError).
OWN = [
    "two_player_game",
    "opens_a_lobby",
    "knocking",
    "has_target",
    "plays_rounds",
    "dealer_sits_out",
    "rematch_allowed",
    "leaving_ends_match",
]
PLAYERS = {"classic": 2, "three": 3, "teams": 4, "elimination": 3}
SETTINGS = Settings(target=150, team_target=250)
# What a rating counts after seat 0 resigns (three players: then seat 1): each side's seats,
# and its place.
RATED_SIDES = {
    "classic": ([[0], [1]], [2, 1]),
    "three": ([[0], [1], [2]], [3, 2, 1]),
    "teams": ([[0, 2], [1, 3]], [2, 1]),
    "elimination": ([[0], [1]], [2, 1]),
}
TARGETS = {"classic": 150, "three": 150, "teams": 250, "elimination": 150}


def _match(name: str, players: int | None = None) -> Match:
    count = PLAYERS[name] if players is None else players
    return Match.start(PEOPLE[:count], SETTINGS, seed="hooks", mode=name)


def _resigned(name: str) -> tuple[Match, MatchResult]:
    """A match that ended because seat 0 resigned (elimination: of two players; three
    players: and then seat 1)."""
    match = _match(name, 2 if name == "elimination" else None)
    result = match.resign(0)
    if name == "three":
        assert result is None
        result = match.resign(1)
    assert result is not None
    return match, result


@pytest.mark.parametrize("hook", sorted(DECLARED))
def test_every_mode_declares_the_hook(hook: str) -> None:
    assert set(DECLARED[hook]) == set(MODES)


@pytest.mark.parametrize(
    ("hook", "name"), [(hook, name) for hook in sorted(DECLARED) for name in MODES]
)
def test_hook_value(hook: str, name: str) -> None:
    assert getattr(find_mode(name), hook) == DECLARED[hook][name]


@pytest.mark.parametrize(("hook", "name"), [(hook, name) for hook in OWN for name in MODES])
def test_the_mode_class_sets_the_hook_itself(hook: str, name: str) -> None:
    assert hook in vars(type(find_mode(name)))


def test_the_base_mode_decides_none_of_them() -> None:
    """No default to inherit: a mode that forgets one cannot be played by accident."""
    assert not any(hasattr(Mode, hook) for hook in OWN)


@pytest.mark.parametrize("name", list(MODES))
def test_target_is_the_named_setting(name: str) -> None:
    mode = find_mode(name)
    assert mode.target(SETTINGS) == TARGETS[name] == getattr(SETTINGS, mode.target_setting)


@pytest.mark.parametrize("name", list(MODES))
def test_rated_sides(name: str) -> None:
    match, result = _resigned(name)
    assert match.mode.rated_sides(match, result) == RATED_SIDES[name]


@pytest.mark.parametrize("name", list(MODES))
def test_knocking_is_the_hand_rule(name: str) -> None:
    match = _match(name)
    assert all(board.rules.knocking is match.mode.knocking for board in match.boards)


@pytest.mark.parametrize("name", list(MODES))
def test_leaving_ends_the_match_or_puts_the_player_out(name: str) -> None:
    """A resignation ends the match only where the mode says so (three players and
    elimination of three play on)."""
    match = _match(name)
    assert (match.resign(0) is not None) is match.mode.leaving_ends_match

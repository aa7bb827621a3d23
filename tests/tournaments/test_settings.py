"""A tournament's settings: defaults, bounds, and what they store."""

from __future__ import annotations

import pytest

from bot.gin.settings import Settings, Variant
from bot.tournaments import Format, TournamentError, TournamentSettings


def test_defaults_and_what_they_store() -> None:
    chosen = TournamentSettings().checked()
    assert (chosen.format, chosen.rounds, chosen.round_minutes, chosen.max_players) == (
        Format.SWISS,
        None,
        60,
        32,
    )
    oklahoma = TournamentSettings(
        format="knockout",  # type: ignore[arg-type]
        signup_minutes=30,
        duplicate=True,
        rules=Settings(variant=Variant.OKLAHOMA, target=200),
    ).checked()
    assert oklahoma.format is Format.KNOCKOUT
    again = TournamentSettings.from_dict(oklahoma.to_dict())
    assert again == oklahoma and again.rules.target == 200 and again.rules.target_set


def test_swiss_rounds_by_players_and_never_past_a_round_robin() -> None:
    assert TournamentSettings().rounds_for(8) == 3
    assert TournamentSettings().rounds_for(100) == 7
    assert TournamentSettings(rounds=7, max_players=16).checked().rounds_for(4) == 3
    assert TournamentSettings(rounds=2).rounds_for(2) == 1


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"max_players": 1}, "from 2 to 128 players"),
        ({"max_players": True}, "from 2 to 128 players"),
        ({"round_minutes": 20000}, "from 5 to 10080 minutes"),
        ({"rounds": 0}, "from 1 to 15 rounds"),
        ({"rounds": 4, "max_players": 4}, "up to 4 players plays from 1 to 3 rounds"),
        ({"format": Format.KNOCKOUT, "max_players": 1}, "from 2 to 128 players"),
    ],
)
def test_out_of_bounds(settings: dict[str, object], message: str) -> None:
    with pytest.raises(TournamentError, match=message) as refused:
        TournamentSettings(**settings).checked()  # type: ignore[arg-type]
    assert refused.value.code == "tournament" and refused.value.template

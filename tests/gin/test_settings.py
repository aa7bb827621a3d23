"""RULES.md sections 9 and 12: settings, their defaults and their bounds, the variants."""

import json

import pytest

from bot.gin.errors import SettingsError
from bot.gin.settings import VARIANT_TARGET, NextDealer, OklahomaAce, Settings, Variant
from bot.server_settings import ServerSettings


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


# --- the two-player variants (RULES.md 12) --------------------------------------------------


def test_variants_default_to_classic_with_the_printed_oklahoma_options() -> None:
    s = Settings()
    assert (s.variant, s.ace, s.spades_double) == (Variant.CLASSIC, OklahomaAce.GIN, False)
    assert not s.is_two_player_variant
    assert Settings(variant="hollywood").variant is Variant.HOLLYWOOD
    assert Settings(variant="oklahoma", ace="one").ace is OklahomaAce.ONE


def test_bad_variant_values_are_refused_with_the_choices() -> None:
    with pytest.raises(SettingsError, match="variant must be one of: classic, oklahoma, hollywood"):
        Settings(variant="gin-only")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="ace must be one of: gin, one"):
        Settings(variant="oklahoma", ace="eleven")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="Spades double must be on or off"):
        Settings(spades_double="yes")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="Unknown setting"):
        Settings().with_changes(target_set=True)


def test_an_unset_target_is_the_variants_usual_one() -> None:
    assert Settings().target == 100 and not Settings().target_set
    assert Settings(variant="oklahoma").target == 150
    assert Settings(variant="hollywood").target == 100
    chosen = Settings(variant="oklahoma", target=100)
    assert chosen.target == 100 and chosen.target_set
    assert Settings(target=VARIANT_TARGET, variant="oklahoma") == Settings(variant="oklahoma")


def test_a_new_variant_moves_only_a_target_nobody_chose() -> None:
    oklahoma = Settings().with_changes(variant="oklahoma")
    assert oklahoma.target == 150 and not oklahoma.target_set
    assert oklahoma.with_changes(variant="classic").target == 100
    assert oklahoma.with_changes(gin_bonus=20).target == 150
    chosen = Settings(target=120).with_changes(variant="oklahoma")
    assert chosen.target == 120 and chosen.target_set
    assert chosen.with_changes(target=None).target == 150  # back to the usual one
    # A challenge's own target wins over the variant's, whatever the order.
    assert oklahoma.with_changes(target=200).with_changes(variant="hollywood").target == 200


def test_server_and_challenge_choices_resolve_the_target() -> None:
    server = ServerSettings().with_changes(variant="oklahoma")
    assert server.rules.target == 150
    assert server.with_changes(target=100).rules.target == 100  # the challenge sets one
    stored = ServerSettings.from_dict({"rules": Settings(target=250).to_dict()})
    assert stored.with_changes(variant="oklahoma").rules.target == 250  # the server set one


def test_variant_settings_round_trip() -> None:
    for s in (
        Settings(variant="oklahoma", ace="one", spades_double=True),
        Settings(variant="oklahoma", target=100),
        Settings(variant="hollywood", target=250, box_bonus=10),
        Settings(variant="hollywood"),
    ):
        data = json.loads(json.dumps(s.to_dict()))
        assert Settings.from_dict(data) == s
        assert Settings.from_dict(data).with_changes(variant="oklahoma").target == (
            s.target if s.target_set else 150
        )


def test_rule_sets_stored_before_variants_load_as_classic() -> None:
    old = {
        "target": 100,
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "big_gin": True,
        "big_gin_bonus": 31,
        "knock_limit": 10,
        "void_stock": 2,
        "next_dealer": "loser",
        "game_bonus": 100,
        "box_bonus": 25,
    }
    s = Settings.from_dict(old)
    assert s.variant is Variant.CLASSIC and s == Settings()
    # Old rule sets always held a target; the classic default reads as nobody's choice...
    assert s.with_changes(variant="oklahoma").target == 150
    # ...and any other as a choice.
    kept = Settings.from_dict({**old, "target": 150})
    assert kept.target_set and kept.with_changes(variant="oklahoma").target == 150
    assert Settings.from_dict({**old, "target": 250}).with_changes(variant="oklahoma").target == 250

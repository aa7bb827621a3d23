"""Table settings (RULES.md sections 9, 10 and 12): one object with defaults, bounds and clear
errors."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, Final

from bot.gin.errors import SettingsError


class Variant(StrEnum):
    """A two-player way of playing the hands or scoring them (RULES.md 12)."""

    CLASSIC = "classic"
    OKLAHOMA = "oklahoma"  # the first upcard sets each hand's knock limit
    HOLLYWOOD = "hollywood"  # three games scored at once from the same hands

    @property
    def label(self) -> str:
        return {"classic": "Classic", "oklahoma": "Oklahoma", "hollywood": "Hollywood"}[self.value]


class OklahomaAce(StrEnum):
    """Oklahoma: what an ace as the first upcard allows."""

    GIN = "gin"  # gin only (the printed rule)
    ONE = "one"  # a knock with 1 point or less


# The target a variant plays to when neither the server nor the challenge chose one.
USUAL_TARGETS: Final[dict[Variant, int]] = {
    Variant.CLASSIC: 100,
    Variant.OKLAHOMA: 150,
    Variant.HOLLYWOOD: 100,
}
# Passed as the target (the default), it stands for the variant's usual target; the setting
# then reads as that number. Typed Any so that ``target`` itself reads as an int.
VARIANT_TARGET: Final[Any] = None


class SitOut(StrEnum):
    """Three players: who deals the next hand and sits it out (RULES.md 10.1)."""

    ROTATE = "rotate"  # the deal passes to the left every hand
    LOSER = "loser"  # the loser of the hand deals the next one; the winner plays the sitter


class SetSuits(StrEnum):
    """Elimination with several decks: may a set hold identical cards (RULES.md 10.3)?"""

    ANY = "any"
    DIFFERENT = "different"


class NextDealer(StrEnum):
    """Who deals the hand after a scored hand (after a void hand the dealer always stays)."""

    LOSER = "loser"
    WINNER = "winner"
    ALTERNATE = "alternate"


# name -> (low, high, label shown in errors)
BOUNDS: dict[str, tuple[int, int, str]] = {
    "target": (50, 500, "The target"),
    "gin_bonus": (0, 50, "The gin bonus"),
    "undercut_bonus": (0, 50, "The undercut bonus"),
    "big_gin_bonus": (0, 50, "The Big Gin bonus"),
    "knock_limit": (0, 10, "The knock limit"),
    "void_stock": (0, 2, "The stock left when a hand is void"),
    "game_bonus": (0, 200, "The game bonus"),
    "box_bonus": (0, 50, "The box bonus"),
    "team_target": (50, 500, "The team target"),
}


@dataclass(frozen=True, slots=True)
class Settings:
    """How a table plays: traditional defaults, bounds checked on creation.

    ``target`` given as None (``VARIANT_TARGET``, the default) is the variant's usual target
    (100; Oklahoma 150) and reads as that number; ``target_set`` tells a chosen target from
    the usual one, so that changing the variant later moves only a target nobody chose.
    """

    target: int = VARIANT_TARGET
    gin_bonus: int = 25
    undercut_bonus: int = 25
    big_gin: bool = True
    big_gin_bonus: int = 31
    knock_limit: int = 10
    void_stock: int = 2
    next_dealer: NextDealer = NextDealer.LOSER
    game_bonus: int = 100
    box_bonus: int = 25
    # The modes' own settings (RULES.md 10); each mode reads only its own.
    sit_out: SitOut = SitOut.ROTATE
    rotate_opponents: bool = True
    team_target: int = 125
    set_suits: SetSuits = SetSuits.ANY
    # The two-player variants (RULES.md 12); Oklahoma's options are read only by Oklahoma.
    variant: Variant = Variant.CLASSIC
    ace: OklahomaAce = OklahomaAce.GIN
    spades_double: bool = False
    target_set: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "variant", Variant(self.variant))
        except ValueError:
            choices = ", ".join(v.value for v in Variant)
            raise SettingsError(f"The variant must be one of: {choices}.") from None
        object.__setattr__(self, "target_set", self.target is not None)
        if self.target is None:
            object.__setattr__(self, "target", USUAL_TARGETS[self.variant])
        for name, (low, high, label) in BOUNDS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise SettingsError(f"{label} must be a whole number from {low} to {high}.")
            if not low <= value <= high:
                raise SettingsError(
                    f"{label} must be from {low} to {high} (you asked for {value})."
                )
        if not isinstance(self.big_gin, bool):
            raise SettingsError("Big Gin must be on or off.")
        if not isinstance(self.rotate_opponents, bool):
            raise SettingsError("Rotating opponents must be on or off.")
        if not isinstance(self.spades_double, bool):
            raise SettingsError("Spades double must be on or off.")
        choice: type[StrEnum]
        for name, choice, label in (
            ("next_dealer", NextDealer, "The next dealer"),
            ("sit_out", SitOut, "Who sits out"),
            ("set_suits", SetSuits, "The suits of a set"),
            ("ace", OklahomaAce, "Oklahoma's ace"),
        ):
            try:
                object.__setattr__(self, name, choice(getattr(self, name)))
            except ValueError:
                choices = ", ".join(c.value for c in choice)
                raise SettingsError(f"{label} must be one of: {choices}.") from None

    @property
    def is_two_player_variant(self) -> bool:
        """Oklahoma or Hollywood: settings only a two-player match accepts."""
        return self.variant is not Variant.CLASSIC

    def with_changes(self, **changes: Any) -> Settings:
        """A copy with some settings changed, checked like a new one.

        A target nobody chose stays the variant's usual one (a new variant brings its own);
        ``target=None`` goes back to it."""
        unknown = set(changes) - {f.name for f in fields(self) if f.init}
        if unknown:
            raise SettingsError(f"Unknown setting: {', '.join(sorted(unknown))}.")
        if not self.target_set and "target" not in changes:
            changes["target"] = VARIANT_TARGET
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        # Every field is a number, a flag or an enum, so a flat dict is the whole of it
        # (``asdict``'s deep copy costs more than the rest of a move's state together).
        data = {name: getattr(self, name) for name in _FIELD_NAMES}
        for name in ("next_dealer", "sit_out", "set_suits", "variant", "ace"):
            data[name] = getattr(self, name).value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        known = {f.name for f in fields(cls) if f.init}
        values = {k: v for k, v in data.items() if k in known}
        if "variant" not in data:
            # Stored before variants: every rule set held a target, chosen or not. The classic
            # default reads as not chosen (the same 100 for a classic match), so a variant
            # chosen later brings its own usual target.
            chosen = values.get("target", VARIANT_TARGET) != USUAL_TARGETS[Variant.CLASSIC]
        else:
            chosen = bool(data.get("target_set", True))
        if not chosen:
            values["target"] = VARIANT_TARGET
        return cls(**values)


_FIELD_NAMES = tuple(f.name for f in fields(Settings))

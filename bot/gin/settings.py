"""Table settings (RULES.md section 9): one object with defaults, bounds and clear errors."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any

from bot.gin.errors import SettingsError


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
    """How a table plays: traditional defaults, bounds checked on creation."""

    target: int = 100
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

    def __post_init__(self) -> None:
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
        choice: type[StrEnum]
        for name, choice, label in (
            ("next_dealer", NextDealer, "The next dealer"),
            ("sit_out", SitOut, "Who sits out"),
            ("set_suits", SetSuits, "The suits of a set"),
        ):
            try:
                object.__setattr__(self, name, choice(getattr(self, name)))
            except ValueError:
                choices = ", ".join(c.value for c in choice)
                raise SettingsError(f"{label} must be one of: {choices}.") from None

    def with_changes(self, **changes: Any) -> Settings:
        """A copy with some settings changed, checked like a new one."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise SettingsError(f"Unknown setting: {', '.join(sorted(unknown))}.")
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for name in ("next_dealer", "sit_out", "set_suits"):
            data[name] = getattr(self, name).value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

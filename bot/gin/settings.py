"""Table settings (RULES.md section 9): one object with defaults, bounds and clear errors."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any

from bot.gin.errors import SettingsError


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
        try:
            object.__setattr__(self, "next_dealer", NextDealer(self.next_dealer))
        except ValueError:
            choices = ", ".join(d.value for d in NextDealer)
            raise SettingsError(f"The next dealer must be one of: {choices}.") from None

    def with_changes(self, **changes: Any) -> Settings:
        """A copy with some settings changed, checked like a new one."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise SettingsError(f"Unknown setting: {', '.join(sorted(unknown))}.")
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["next_dealer"] = self.next_dealer.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

"""A server's own way of playing: the rules of new matches, timers, hints and ranking."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from bot.gin.errors import SettingsError
from bot.gin.settings import Settings

# name -> (low, high, label); the timer bounds are in seconds.
BOUNDS: dict[str, tuple[int, int, str]] = {
    "turn_seconds": (60, 24 * 3600, "The turn timer"),
    "challenge_seconds": (60, 24 * 3600, "The challenge expiry"),
    "provisional_matches": (0, 50, "The number of matches before a player is ranked"),
}


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Defaults: 10-minute turns, challenges open for 5 minutes, hints on, ranked after 3."""

    rules: Settings = field(default_factory=Settings)
    turn_seconds: int = 600
    challenge_seconds: int = 300
    hints: bool = True
    provisional_matches: int = 3
    images: bool = True  # a picture of each showdown, attached to its message

    def checked(self, names: set[str] | None = None) -> ServerSettings:
        """Raise SettingsError with a clear message when a value (of ``names``) is out of bounds."""
        for name, (low, high, label) in BOUNDS.items():
            if names is not None and name not in names:
                continue
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise SettingsError(
                    f"{label} must be from {_amount(name, low)} to "
                    f"{_amount(name, high)} (you asked for {_amount(name, value)})."
                )
        return self

    def with_changes(self, **changes: Any) -> ServerSettings:
        """A copy with some settings changed (rule settings by their own names), checked."""
        rule_names = {f.name for f in fields(Settings)}
        own_names = {f.name for f in fields(self)} - {"rules"}
        unknown = set(changes) - rule_names - own_names
        if unknown:
            raise SettingsError(f"Unknown setting: {', '.join(sorted(unknown))}.")
        rules = self.rules.with_changes(**{k: v for k, v in changes.items() if k in rule_names})
        own = {k: v for k, v in changes.items() if k in own_names}
        return replace(self, rules=rules, **own).checked(set(own))

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "turn_seconds": self.turn_seconds,
            "challenge_seconds": self.challenge_seconds,
            "hints": self.hints,
            "provisional_matches": self.provisional_matches,
            "images": self.images,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> ServerSettings:
        if not data:
            return cls()
        if "rules" not in data:  # a plain rule set, as tables stored before timers existed
            return cls(rules=Settings.from_dict(data))
        own = {f.name for f in fields(cls)} - {"rules"}
        return cls(
            rules=Settings.from_dict(data.get("rules", {})),
            **{k: v for k, v in data.items() if k in own},
        )


def _amount(name: str, value: int) -> str:
    if name.endswith("_seconds"):
        return duration(value)
    return str(value)


def duration(seconds: int) -> str:
    """A short human duration: 45 seconds, 10 minutes, 1 hour 30 minutes, 24 hours."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if minutes:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    if secs and not hours:
        parts.append(f"{secs} second{'s' if secs != 1 else ''}")
    return " ".join(parts)

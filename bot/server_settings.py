"""A server's own way of playing: the rules of new matches, timers, hints and ranking."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from bot.gin.errors import SettingsError
from bot.gin.settings import Settings
from bot.i18n import LANGUAGES, N_, tr_n

# name -> (low, high, what a player is told of a value outside them, with the values {low},
# {high} and {value}); the timer bounds are in seconds, and read as durations.
BOUNDS: dict[str, tuple[int, int, str]] = {
    "turn_seconds": (
        60,
        24 * 3600,
        N_("The turn timer must be from {low} to {high} (you asked for {value})."),
    ),
    "challenge_seconds": (
        60,
        24 * 3600,
        N_("The challenge expiry must be from {low} to {high} (you asked for {value})."),
    ),
    "provisional_matches": (
        0,
        50,
        N_(
            "The number of matches before a player is ranked must be from {low} to {high} "
            "(you asked for {value})."
        ),
    ),
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
    # What the channel's messages are written in (a catalogue of bot.i18n); "": the language
    # Discord says the server prefers.
    language: str = ""
    # The role whose members may organise tournaments besides Manage Server ("": none).
    tournament_role: str = ""

    def checked(self, names: set[str] | None = None) -> ServerSettings:
        """Raise SettingsError with a clear message when a value (of ``names``) is out of bounds."""
        for name, (low, high, refusal) in BOUNDS.items():
            if names is not None and name not in names:
                continue
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise SettingsError(
                    refusal,
                    low=_amount(name, low),
                    high=_amount(name, high),
                    value=_amount(name, value),
                )
        if (names is None or "language" in names) and self.language not in ("", *LANGUAGES):
            raise SettingsError(
                "The language must be one of: {choices}.", choices=", ".join(LANGUAGES)
            )
        return self

    def with_changes(self, **changes: Any) -> ServerSettings:
        """A copy with some settings changed (rule settings by their own names), checked."""
        rule_names = {f.name for f in fields(Settings)}
        own_names = {f.name for f in fields(self)} - {"rules"}
        unknown = set(changes) - rule_names - own_names
        if unknown:
            raise SettingsError("Unknown setting: {names}.", names=", ".join(sorted(unknown)))
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
            "language": self.language,
            "tournament_role": self.tournament_role,
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


def _amount(name: str, value: object) -> object:
    """A bound or a value as the refusal shows it: a timer's as a duration (in the language
    in force), any other as it is."""
    if name.endswith("_seconds") and isinstance(value, int) and not isinstance(value, bool):
        return duration(value)
    return value


def duration(seconds: int) -> str:
    """A short human duration in the language in force: 45 seconds, 10 minutes, 1 hour 30
    minutes, 24 hours."""
    if seconds < 60:
        return tr_n("{n} second", "{n} seconds", seconds)
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(tr_n("{n} hour", "{n} hours", hours))
    if minutes:
        parts.append(tr_n("{n} minute", "{n} minutes", minutes))
    if secs and not hours:
        parts.append(tr_n("{n} second", "{n} seconds", secs))
    return " ".join(parts)

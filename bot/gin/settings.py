"""Table settings (RULES.md sections 9, 10 and 12): one object with defaults, bounds and clear
errors."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, Final

from bot.gin.errors import SettingsError
from bot.gin.phrase import Phrase


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


@dataclass(frozen=True, slots=True)
class Bound:
    """A number setting's range, and what a player is told of a value outside it: whole
    sentences per setting (``not_whole`` with the values {low} and {high}; ``outside`` with
    {low}, {high} and {value}, the number asked for)."""

    low: int
    high: int
    not_whole: Phrase
    outside: Phrase


BOUNDS: dict[str, Bound] = {
    "target": Bound(
        50,
        500,
        Phrase("The target must be a whole number from {low} to {high}."),
        Phrase("The target must be from {low} to {high} (you asked for {value})."),
    ),
    "gin_bonus": Bound(
        0,
        50,
        Phrase("The gin bonus must be a whole number from {low} to {high}."),
        Phrase("The gin bonus must be from {low} to {high} (you asked for {value})."),
    ),
    "undercut_bonus": Bound(
        0,
        50,
        Phrase("The undercut bonus must be a whole number from {low} to {high}."),
        Phrase("The undercut bonus must be from {low} to {high} (you asked for {value})."),
    ),
    "big_gin_bonus": Bound(
        0,
        50,
        Phrase("The Big Gin bonus must be a whole number from {low} to {high}."),
        Phrase("The Big Gin bonus must be from {low} to {high} (you asked for {value})."),
    ),
    "knock_limit": Bound(
        0,
        10,
        Phrase("The knock limit must be a whole number from {low} to {high}."),
        Phrase("The knock limit must be from {low} to {high} (you asked for {value})."),
    ),
    "void_stock": Bound(
        0,
        2,
        Phrase("The stock left when a hand is void must be a whole number from {low} to {high}."),
        Phrase(
            "The stock left when a hand is void must be from {low} to {high} "
            "(you asked for {value})."
        ),
    ),
    "game_bonus": Bound(
        0,
        200,
        Phrase("The game bonus must be a whole number from {low} to {high}."),
        Phrase("The game bonus must be from {low} to {high} (you asked for {value})."),
    ),
    "box_bonus": Bound(
        0,
        50,
        Phrase("The box bonus must be a whole number from {low} to {high}."),
        Phrase("The box bonus must be from {low} to {high} (you asked for {value})."),
    ),
    "team_target": Bound(
        50,
        500,
        Phrase("The team target must be a whole number from {low} to {high}."),
        Phrase("The team target must be from {low} to {high} (you asked for {value})."),
    ),
}

# The settings chosen from a few values: name, the values, and what a player is told of any
# other (the values {choices}).
CHOICES: tuple[tuple[str, type[StrEnum], Phrase], ...] = (
    ("next_dealer", NextDealer, Phrase("The next dealer must be one of: {choices}.")),
    ("sit_out", SitOut, Phrase("Who sits out must be one of: {choices}.")),
    ("set_suits", SetSuits, Phrase("The suits of a set must be one of: {choices}.")),
    ("ace", OklahomaAce, Phrase("Oklahoma's ace must be one of: {choices}.")),
)


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
            raise SettingsError("The variant must be one of: {choices}.", choices=choices) from None
        object.__setattr__(self, "target_set", self.target is not None)
        if self.target is None:
            object.__setattr__(self, "target", USUAL_TARGETS[self.variant])
        for name, bound in BOUNDS.items():
            value = getattr(self, name)
            low, high = bound.low, bound.high
            if isinstance(value, bool) or not isinstance(value, int):
                raise SettingsError(bound.not_whole.template, low=low, high=high)
            if not low <= value <= high:
                raise SettingsError(bound.outside.template, low=low, high=high, value=value)
        if not isinstance(self.big_gin, bool):
            raise SettingsError("Big Gin must be on or off.")
        if not isinstance(self.rotate_opponents, bool):
            raise SettingsError("Rotating opponents must be on or off.")
        if not isinstance(self.spades_double, bool):
            raise SettingsError("Spades double must be on or off.")
        for name, choice, refusal in CHOICES:
            try:
                object.__setattr__(self, name, choice(getattr(self, name)))
            except ValueError:
                choices = ", ".join(c.value for c in choice)
                raise SettingsError(refusal.template, choices=choices) from None

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
            raise SettingsError("Unknown setting: {names}.", names=", ".join(sorted(unknown)))
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

"""A tournament's own settings, with their bounds, checked when it opens.

The matches' rules are the two-player game's (``bot.gin.settings.Settings``: target, bonuses,
the Oklahoma and Hollywood variants), the server's unless the organiser says otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from bot.gin.settings import Settings
from bot.i18n import N_
from bot.tournaments import swiss
from bot.tournaments.errors import TournamentError


class Format(StrEnum):
    SWISS = "swiss"
    KNOCKOUT = "knockout"


# name -> (low, high); minutes for the time limits.
ROUND_MINUTES = (5, 7 * 24 * 60)
SIGNUP_MINUTES = (1, 7 * 24 * 60)
MAX_PLAYERS = (2, 128)
ROUNDS = (1, swiss.MAX_ROUNDS)
# The fewest entrants that make a tournament of each format.
MIN_PLAYERS = {Format.SWISS: 3, Format.KNOCKOUT: 2}


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """Defaults: Swiss, rounds by player count, an hour a round, sign-up until the organiser
    starts it, up to 32 players, ordinary (not duplicate) deals.

    ``rounds`` is a Swiss tournament's (None: ``swiss.default_rounds`` of the players at the
    start; either way no more than they can play without a rematch); a knockout plays as many
    as its bracket needs. ``signup_minutes`` None: no sign-up deadline.
    """

    format: Format = Format.SWISS
    rounds: int | None = None
    round_minutes: int = 60
    signup_minutes: int | None = None
    max_players: int = 32
    duplicate: bool = False
    rules: Settings = field(default_factory=Settings)

    def checked(self) -> TournamentSettings:
        """These settings, or a ``TournamentError`` naming the first one out of bounds."""
        try:
            chosen = Format(self.format)
        except ValueError:
            raise TournamentError(
                "The format must be swiss or knockout, not {value}.", value=self.format
            ) from None
        _bounded(
            self.max_players,
            MAX_PLAYERS,
            N_("A tournament takes from {low} to {high} players (you asked for {value})."),
        )
        if self.max_players < MIN_PLAYERS[chosen]:
            raise TournamentError(
                "A {format} tournament needs room for at least {low} players (you asked for "
                "{value}).",
                format=chosen.value,
                low=MIN_PLAYERS[chosen],
                value=self.max_players,
            )
        _bounded(
            self.round_minutes,
            ROUND_MINUTES,
            N_(
                "A round's time limit must be from {low} to {high} minutes (you asked for {value})."
            ),
        )
        if self.signup_minutes is not None:
            _bounded(
                self.signup_minutes,
                SIGNUP_MINUTES,
                N_("Sign-up must stay open from {low} to {high} minutes (you asked for {value})."),
            )
        if self.rounds is not None:
            if chosen is Format.KNOCKOUT:
                raise TournamentError(
                    "A knockout plays as many rounds as its bracket needs: leave the rounds out."
                )
            most = min(ROUNDS[1], swiss.most_rounds(self.max_players))
            _bounded(
                self.rounds,
                (ROUNDS[0], most),
                N_(
                    "A Swiss tournament of up to {players} players plays from {low} to {high} "
                    "rounds (you asked for {value})."
                ),
                players=self.max_players,
            )
        return replace(self, format=chosen)

    def rounds_for(self, players: int) -> int:
        """The Swiss rounds ``players`` play: as asked, or by count; never more than they can
        play without a rematch."""
        wanted = swiss.default_rounds(players) if self.rounds is None else self.rounds
        return max(1, min(wanted, swiss.most_rounds(players)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format.value,
            "rounds": self.rounds,
            "round_minutes": self.round_minutes,
            "signup_minutes": self.signup_minutes,
            "max_players": self.max_players,
            "duplicate": self.duplicate,
            "rules": self.rules.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentSettings:
        return cls(
            format=Format(data.get("format", Format.SWISS.value)),
            rounds=data.get("rounds"),
            round_minutes=int(data.get("round_minutes", 60)),
            signup_minutes=data.get("signup_minutes"),
            max_players=int(data.get("max_players", 32)),
            duplicate=bool(data.get("duplicate", False)),
            rules=Settings.from_dict(data.get("rules") or {}),
        )


def _bounded(value: object, bounds: tuple[int, int], template: str, **values: Any) -> None:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise TournamentError(template, low=low, high=high, value=value, **values)

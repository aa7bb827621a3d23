"""The plain values the tournament logic reads and returns: entrants, pairings, decided games."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of a started tournament: ``seed`` 1 is the top seed; a dropped player is
    never paired again, though their games stand."""

    user_id: str
    seed: int
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class Pair:
    """Two players to meet, the higher-ranked (or better seed) first: that player takes
    seat 0 of the match. ``b`` None is a bye for ``a``."""

    a: str
    b: str | None

    @property
    def is_bye(self) -> bool:
        return self.b is None


@dataclass(frozen=True, slots=True)
class Game:
    """A decided pairing as standings read it: ``opponent`` None is a bye (a win), ``winner``
    None a pairing nobody won (both players withdrew before it was played)."""

    round: int
    player: str
    opponent: str | None
    winner: str | None

    def players(self) -> tuple[str, ...]:
        return (self.player,) if self.opponent is None else (self.player, self.opponent)

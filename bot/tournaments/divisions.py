"""Divisions of a season: who goes up and who goes down by final place.

Division 0 is the top one. From each division's final table (best first), the top
``promote`` players go up a division and the bottom ``relegate`` go down; the top division
promotes nobody and the bottom one relegates nobody. In a division too small for both,
promotion comes first and only the players left can go down. Newcomers (who played in the
season without a division) start in the bottom division.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Movement:
    """A player's division in the season ended and in the next one."""

    user_id: str
    was: int | None  # None: a newcomer
    now: int

    @property
    def promoted(self) -> bool:
        return self.was is not None and self.now < self.was

    @property
    def relegated(self) -> bool:
        return self.was is not None and self.now > self.was


def initial(ranked: Sequence[str], divisions: int) -> list[list[str]]:
    """Players (best first) shared into ``divisions`` divisions as evenly as they go, the
    higher divisions taking one more where they cannot all be equal."""
    if divisions < 1:
        raise ValueError("there is at least one division")
    size, extra = divmod(len(ranked), divisions)
    out: list[list[str]] = []
    start = 0
    for d in range(divisions):
        end = start + size + (1 if d < extra else 0)
        out.append(list(ranked[start:end]))
        start = end
    return out


def next_season(
    tables: Sequence[Sequence[str]],
    promote: int,
    relegate: int,
    newcomers: Sequence[str] = (),
) -> list[Movement]:
    """Every player's move from their division's final table (top division first, each
    best first), and the newcomers' into the bottom division."""
    if promote < 0 or relegate < 0:
        raise ValueError("promotion and relegation counts are not negative")
    last = len(tables) - 1
    moves: list[Movement] = []
    seen: set[str] = set()
    for d, table in enumerate(tables):
        up = set(table[:promote]) if d > 0 else set()
        staying = [u for u in table if u not in up]
        down = set(staying[max(0, len(staying) - relegate) :]) if d < last and relegate else set()
        for user in table:
            target = d - 1 if user in up else d + 1 if user in down else d
            moves.append(Movement(user, d, target))
            seen.add(user)
    for user in newcomers:
        if user not in seen:
            moves.append(Movement(user, None, max(last, 0)))
            seen.add(user)
    return moves


def members(moves: Sequence[Movement]) -> dict[str, int]:
    """The next season's divisions: user -> division."""
    return {m.user_id: m.now for m in moves}

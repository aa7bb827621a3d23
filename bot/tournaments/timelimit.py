"""Who wins a tournament match still being played when its round's time runs out.

The leader on points at that moment wins; on equal points, the player who was not on the
clock (whose turn it was not: the other player was holding the game up); with no turn
under way either, the player in seat 0, the higher-placed of the pairing. See
docs/rule-decisions.md, "Tournaments".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.gin.hand import Phase
from bot.gin.match import Match


class DecidedBy(StrEnum):
    POINTS = "points"  # the leader on points
    CLOCK = "clock"  # equal points: the player not on the clock
    SEAT = "seat"  # equal points, no turn under way: seat 0


@dataclass(frozen=True, slots=True)
class AtDeadline:
    """A two-player match as it stands at the deadline: each seat's running total (in
    Hollywood the sum of its three games) and the seat whose turn it is (None: no hand
    under way)."""

    scores: tuple[int, int]
    on_clock: int | None


@dataclass(frozen=True, slots=True)
class Decision:
    winner: int
    decided_by: DecidedBy

    @property
    def loser(self) -> int:
        return 1 - self.winner


def decide(at: AtDeadline) -> Decision:
    """The winning seat of a match stopped by the round's time limit, and why."""
    first, second = at.scores
    if first != second:
        return Decision(0 if first > second else 1, DecidedBy.POINTS)
    if at.on_clock in (0, 1):
        return Decision(1 - at.on_clock, DecidedBy.CLOCK)
    return Decision(0, DecidedBy.SEAT)


def at_deadline(state: dict[str, Any] | None) -> AtDeadline:
    """A stored match state (``Match.to_dict``) read for ``decide``; a match that never
    started (no state) stands at 0 to 0 with no turn under way."""
    if state is None:
        return AtDeadline((0, 0), None)
    match = Match.from_dict(state)
    if len(match.scores) != 2:
        raise ValueError("a tournament match has two players")
    on_clock = None
    if not match.is_over and match.boards and match.hand.phase is not Phase.OVER:
        on_clock = match.hand.turn
    return AtDeadline((int(match.scores[0]), int(match.scores[1])), on_clock)

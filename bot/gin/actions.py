"""What a seat may do in a hand, and where a hand stands: the phases and the moves."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.gin.cards import DECK, Card


class Phase(StrEnum):
    """Where a hand stands; each phase has its own legal actions."""

    UPCARD = "upcard"  # first turn: the player to act may take the upcard or pass
    DRAW = "draw"  # the player to act draws from the stock or the discard pile
    DISCARD = "discard"  # the player to act holds 11 cards: discard, knock or Big Gin
    OVER = "over"  # the hand is finished; see Hand.result


class ActionKind(StrEnum):
    PASS = "pass"
    DRAW_STOCK = "draw_stock"
    DRAW_DISCARD = "draw_discard"
    DISCARD = "discard"
    KNOCK = "knock"
    BIG_GIN = "big_gin"
    LEAVE = "leave"  # a player left the hand (resigned or out of time); recorded, not played


@dataclass(frozen=True, slots=True)
class Action:
    """One move by one seat. ``card`` is set for discard and knock."""

    kind: ActionKind
    seat: int
    card: Card | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value, "seat": self.seat}
        if self.card is not None:
            data["card"] = int(self.card)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        card = data.get("card")
        return cls(
            ActionKind(data["kind"]), int(data["seat"]), None if card is None else DECK[card]
        )

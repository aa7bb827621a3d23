"""The agents: the bot's levels, and the challenge's players behind the host's callbacks.

The EAAI host told each player what happened through callbacks (``startGame``,
``willDrawFaceUpCard``, ``reportDraw``, ``getDiscard``, ``reportDiscard``, ``getFinalMelds``)
and never showed it a hidden card. ``HostPlayer`` is that interface in Python, with cards as
ints 0-51 (the engine's numbering; the challenge's own order of suits matters nowhere here);
``HostAgent`` drives one from the referee, calling back in the host's order: the draw is
reported to both players, then the discard, and only then is the player asked whether it goes
out.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from bot.gin.ai import Level, decide, view_for
from bot.gin.cards import DECK, Card
from bot.gin.hand import Action, ActionKind, Phase
from bot.gin.match import Match


class LevelAgent:
    """One of the bot's levels, deciding from its seat's view."""

    def __init__(self, level: Level, rng: random.Random) -> None:
        self.level = level
        self.name = level.value
        self.rng = rng

    def new_hand(self, match: Match, seat: int) -> None:
        pass

    def act(self, match: Match, seat: int) -> Action:
        return decide(view_for(match, seat), self.level, self.rng)

    def observe(self, match: Match, seat: int, action: Action, drawn: Card | None) -> None:
        pass


class HostPlayer(ABC):
    """The challenge's ``GinRummyPlayer`` interface."""

    name = "host"

    @abstractmethod
    def start_hand(self, seat: int, first: int, cards: list[int]) -> None:
        """``startGame``: a new hand, this player's ten cards; ``first`` plays first."""

    @abstractmethod
    def will_draw_face_up(self, card: int) -> bool:
        """``willDrawFaceUpCard``: take the face-up card, or not."""

    @abstractmethod
    def report_draw(self, seat: int, card: int | None) -> None:
        """``reportDraw``: ``card`` is None when another player drew face down."""

    @abstractmethod
    def get_discard(self) -> int:
        """``getDiscard``: the card to discard."""

    @abstractmethod
    def report_discard(self, seat: int, card: int) -> None:
        """``reportDiscard``."""

    @abstractmethod
    def knocks(self) -> bool:
        """``getFinalMelds`` is not null: go out now (the melds are the referee's)."""

    def report_knock(self, seat: int) -> None:  # noqa: B027 - optional, as in the host
        """``reportFinalMelds`` of the player who went out."""


class HostAgent:
    """A ``HostPlayer`` at the referee's table."""

    def __init__(self, player: HostPlayer) -> None:
        self.player = player
        self.name = player.name

    def new_hand(self, match: Match, seat: int) -> None:
        board = match.hand
        self.player.start_hand(seat, board.seats[0], [int(c) for c in board.hands[seat]])

    def act(self, match: Match, seat: int) -> Action:
        board = match.hand
        player = self.player
        if board.phase in (Phase.UPCARD, Phase.DRAW):
            skip = ActionKind.PASS if board.phase is Phase.UPCARD else ActionKind.DRAW_STOCK
            if board.stock_only or board.upcard is None:
                return Action(ActionKind.DRAW_STOCK, seat)  # not offered, as in the host
            take = player.will_draw_face_up(int(board.upcard))
            return Action(ActionKind.DRAW_DISCARD if take else skip, seat)
        card = DECK[player.get_discard()]
        if card not in board.hands[seat] or card == board.taken_from_discard:
            raise RuntimeError(f"{self.name} discarded {card}, which it may not")
        player.report_discard(seat, int(card))
        if player.knocks():
            return Action(ActionKind.KNOCK, seat, card)
        return Action(ActionKind.DISCARD, seat, card)

    def observe(self, match: Match, seat: int, action: Action, drawn: Card | None) -> None:
        player = self.player
        kind = action.kind
        if kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
            player.report_draw(action.seat, None if drawn is None else int(drawn))
        elif action.seat != seat and action.card is not None:
            player.report_discard(action.seat, int(action.card))
            if kind is ActionKind.KNOCK:
                player.report_knock(action.seat)

"""What one player can know at a real table, and nothing more.

The computer opponent decides from a ``PlayerView`` alone, never from the ``Hand``: that is what
keeps it honest. Everything here is the player's own cards or public: the discard pile is
rebuilt from the public history (cards taken from the pile are named, stock draws are not), so a
change to the opponent's hidden cards or to the stock order cannot change the view.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.gin.cards import DECK, Card, sort_cards
from bot.gin.hand import Action, ActionKind, Hand, Phase
from bot.gin.match import Match
from bot.gin.settings import Settings


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge of a two-player hand, frozen at the moment of a decision.

    Cards are ``Card`` values; piles keep their top card last.
    """

    seat: int
    opponent: int
    dealer: int
    hand: tuple[Card, ...]
    phase: Phase
    turn: int
    upcard: Card | None
    discard_pile: tuple[Card, ...]
    stock_size: int
    history: tuple[Action, ...]
    opponent_known: frozenset[Card]
    """Cards the opponent took from the discard pile and has not discarded since."""
    opponent_declined: frozenset[Card]
    """Cards the opponent could have taken from the discard pile and left there."""
    opponent_discards: tuple[Card, ...]
    """Every card the opponent discarded face up this hand, oldest first."""
    my_discards: tuple[Card, ...]
    opponent_draws: int
    """How many cards the opponent has drawn this hand (from either pile)."""
    my_draws: int
    taken_from_discard: Card | None
    """The card this seat just took from the discard pile (it may not be discarded now)."""
    scores: tuple[int, ...]
    hands_won: tuple[int, ...]
    settings: Settings
    legal_actions: tuple[Action, ...]

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and bool(self.legal_actions)

    @property
    def my_pickups(self) -> frozenset[Card]:
        """Cards this seat has taken from the discard pile this hand."""
        return frozenset(
            a.card
            for a in self.history
            if a.seat == self.seat and a.kind is ActionKind.DRAW_DISCARD and a.card is not None
        )

    @property
    def dead(self) -> frozenset[Card]:
        """Cards no one can draw any more: the discard pile below its top card."""
        return frozenset(self.discard_pile[:-1])

    @property
    def unseen(self) -> tuple[Card, ...]:
        """Cards this seat has not seen: each is in the stock or hidden in the opponent's hand."""
        seen = set(self.hand) | set(self.discard_pile) | self.opponent_known
        return tuple(c for c in DECK if c not in seen)

    @property
    def opponent_hidden(self) -> int:
        """How many of the opponent's cards this seat cannot name."""
        return 10 - len(self.opponent_known)


def view_for(game: Hand | Match, seat: int) -> PlayerView:
    """The view of ``seat`` in the current hand of a match, or in a bare hand.

    A bare hand has no running score, so its scores read as zero.
    """
    if isinstance(game, Match):
        hand = game.hand
        scores = tuple(game.scores)
        won = tuple(game.hands_won)
    else:
        hand = game
        scores = (0,) * len(hand.names)
        won = (0,) * len(hand.names)
    if seat not in hand.seats:
        raise ValueError(f"seat {seat} is not playing this hand")
    others = [s for s in hand.seats if s != seat]
    if len(others) != 1:
        raise ValueError("a player view is for a two-player hand")
    opponent = others[0]

    history = tuple(hand.public_actions())
    pile: list[Card] = [] if hand.first_upcard is None else [hand.first_upcard]
    known: set[Card] = set()
    declined: set[Card] = set()
    opp_discards: list[Card] = []
    my_discards: list[Card] = []
    draws = {seat: 0, opponent: 0}
    for action in history:
        mine = action.seat == seat
        kind = action.kind
        if kind is ActionKind.PASS:
            if not mine and pile:
                declined.add(pile[-1])
        elif kind is ActionKind.DRAW_STOCK:
            draws[action.seat] += 1
            if not mine and pile:
                declined.add(pile[-1])
        elif kind is ActionKind.DRAW_DISCARD:
            draws[action.seat] += 1
            card = pile.pop() if pile else action.card
            if not mine and card is not None:
                known.add(card)
                declined.discard(card)
        elif kind is ActionKind.DISCARD and action.card is not None:
            pile.append(action.card)
            if mine:
                my_discards.append(action.card)
            else:
                known.discard(action.card)
                opp_discards.append(action.card)
    if hand.first_upcard is None:
        pile = list(hand.discard_pile)  # an old record without its first upcard: still public

    taken = hand.taken_from_discard if hand.turn == seat else None
    return PlayerView(
        seat=seat,
        opponent=opponent,
        dealer=hand.dealer,
        hand=tuple(sort_cards(hand.hands[seat])),
        phase=hand.phase,
        turn=hand.turn,
        upcard=pile[-1] if pile else None,
        discard_pile=tuple(pile),
        stock_size=len(hand.stock),
        history=history,
        opponent_known=frozenset(known),
        opponent_declined=frozenset(declined),
        opponent_discards=tuple(opp_discards),
        my_discards=tuple(my_discards),
        opponent_draws=draws[opponent],
        my_draws=draws[seat],
        taken_from_discard=taken,
        scores=scores,
        hands_won=won,
        settings=hand.settings,
        legal_actions=tuple(hand.legal_actions(seat)),
    )

"""What one player can know at a real table, and nothing more.

The computer opponent decides from a view alone, never from the ``Hand``: that is what keeps it
honest. Everything in a view is the player's own cards or public: the discard pile and what each
player took from it come from the public history (cards taken from the pile are named, stock
draws are not), so a change to another player's hidden cards or to the stock order cannot
change the view.

Two kinds of view, because two kinds of hand are played:

- ``PlayerView``: a two-player hand with knocking, one deck (classic, three players, teams).
  In teams it is the seat's own game only: the partner's cards are as hidden as anyone's.
- ``EliminationView``: a gin-only hand of two or more players, possibly from several decks
  (elimination), where each card may be held more than once and the pile is reshuffled into
  the stock when the stock runs out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
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
    knock_limit: int
    """This hand's knock limit: the table's, or in Oklahoma the first upcard's (0: gin only).
    Read it here, never from ``settings``."""
    score_multiplier: int
    """2 when every score of this hand counts double (Oklahoma, spades double), else 1."""
    points_to_finish: int | None
    """Points that, scored by this seat in this hand, reach the target (None in Hollywood,
    where no one number ends the match)."""

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


def _board(game: Hand | Match, seat: int) -> tuple[Hand, tuple[int, ...], tuple[int, ...]]:
    """The hand the seat plays, and every seat's side total and hands won (zero for a bare
    hand, which has no running score)."""
    if isinstance(game, Match):
        hand = game.board_of(seat)
        if hand is None:
            raise ValueError(f"seat {seat} is not playing this hand")
        seats = range(len(game.players))
        scores = tuple(game.scores[game.side_of(s)] for s in seats)
        won = tuple(game.hands_won[game.side_of(s)] for s in seats)
        return hand, scores, won
    if seat not in game.seats:
        raise ValueError(f"seat {seat} is not playing this hand")
    zeros = (0,) * len(game.names)
    return game, zeros, zeros


def is_two_player_hand(hand: Hand) -> bool:
    """Whether the hand is the knocking game of two with one deck, which ``PlayerView`` models."""
    return len(hand.seats) == 2 and hand.rules.knocking and hand.rules.decks == 1


def view_for(game: Hand | Match, seat: int) -> PlayerView:
    """The view of ``seat`` in its own two-player hand of a match (any mode), or in a bare hand.

    ``scores`` and ``hands_won`` are indexed by seat and give the seat's side total: in teams,
    the team's. A bare hand has no running score, so its scores read as zero. For a gin-only or
    several-deck hand use ``elimination_view_for`` (``seat_view`` picks).
    """
    hand, scores, won = _board(game, seat)
    if not is_two_player_hand(hand):
        raise ValueError("a player view is for a two-player hand with knocking and one deck")
    opponent = next(s for s in hand.seats if s != seat)

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
    hollywood = isinstance(game, Match) and game.is_hollywood
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
        knock_limit=hand.knock_limit,
        score_multiplier=hand.score_multiplier,
        points_to_finish=None if hollywood else hand.settings.target - scores[seat],
    )


@dataclass(frozen=True, slots=True)
class EliminationView:
    """One seat's knowledge of a gin-only hand of two or more players, at a decision.

    Cards are ``Card`` values and may repeat (several decks); piles keep their top card last.
    Per-card counts are 52-long tuples indexed by the card's int. Per-seat facts are mappings
    keyed by the seats of this hand other than this one (and, for ``collected``, players who
    left it, whose known cards left with them).
    """

    seat: int
    seats: tuple[int, ...]
    """The players of this hand in turn order; the next one after this seat takes its discard."""
    dealer: int
    hand: tuple[Card, ...]
    phase: Phase
    turn: int
    upcard: Card | None
    discard_pile: tuple[Card, ...]
    """The pile as it lies now: the top is takeable, the cards below are dead until the stock
    runs out and they are shuffled into a new stock."""
    stock_size: int
    history: tuple[Action, ...]
    decks: int
    distinct_suits: bool
    """A set's suits must all differ (so identical cards never share a set)."""
    collected: Mapping[int, tuple[Card, ...]]
    """For each other seat, the cards it took from the pile and has not discarded since."""
    pickups: tuple[tuple[int, Card], ...]
    """Every card taken from the pile this hand, by whom, oldest first (this seat included)."""
    discards: Mapping[int, tuple[Card, ...]]
    """For each other seat, every card it discarded this hand, oldest first."""
    declined: Mapping[int, frozenset[Card]]
    """For each other seat, the pile tops it left there to draw from the stock (since the last
    time that card was taken)."""
    card_counts: Mapping[int, int]
    """How many cards each other seat holds."""
    unseen: tuple[int, ...]
    """For each card, the copies this seat has not seen: in the stock or hidden in a hand."""
    reshuffles: int
    out: tuple[int, ...]
    """Seats that went out of the match (safe), in order."""
    dropped: tuple[int, ...]
    """Seats that resigned or ran out of time."""
    players: int
    """Seats at the table, in or out."""
    taken_from_discard: Card | None
    settings: Settings
    legal_actions: tuple[Action, ...]

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and bool(self.legal_actions)

    @property
    def next_seat(self) -> int:
        """The player after this seat, who may take its discard."""
        return self.seats[(self.seats.index(self.seat) + 1) % len(self.seats)]

    @property
    def my_pickups(self) -> frozenset[Card]:
        """Cards this seat has taken from the pile this hand."""
        return frozenset(card for s, card in self.pickups if s == self.seat)

    @property
    def dead(self) -> tuple[int, ...]:
        """For each card, the copies in the pile below its top."""
        counts = [0] * 52
        for card in self.discard_pile[:-1]:
            counts[card] += 1
        return tuple(counts)

    @property
    def draws(self) -> int:
        """Cards drawn this hand by everyone, a measure of how long the hand has run."""
        return sum(1 for a in self.history if a.kind in _DRAWS)

    @property
    def unseen_total(self) -> int:
        return sum(self.unseen)


_DRAWS = (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD)


def elimination_view_for(game: Hand | Match, seat: int) -> EliminationView:
    """The view of ``seat`` in a hand of any number of players (the elimination mode)."""
    hand, _, _ = _board(game, seat)
    history = tuple(hand.public_actions())
    held: dict[int, Counter[Card]] = {}
    gone: Counter[Card] = Counter()  # known cards of players who left, set aside unseen
    pickups: list[tuple[int, Card]] = []
    discards: dict[int, list[Card]] = {}
    declined: dict[int, set[Card]] = {}
    top: Card | None = hand.first_upcard
    for action in history:
        who = action.seat
        kind = action.kind
        if kind is ActionKind.DRAW_DISCARD and action.card is not None:
            pickups.append((who, action.card))
            held.setdefault(who, Counter())[action.card] += 1
            for left in declined.values():
                left.discard(action.card)
            top = None
        elif kind is ActionKind.DRAW_STOCK:
            if top is not None:
                declined.setdefault(who, set()).add(top)
        elif kind is ActionKind.DISCARD and action.card is not None:
            discards.setdefault(who, []).append(action.card)
            mine = held.get(who)
            if mine is not None and mine[action.card] > 0:
                mine[action.card] -= 1
            top = action.card
        elif kind is ActionKind.LEAVE:
            gone.update(held.pop(who, Counter()))
    others = [s for s in hand.seats if s != seat]
    seen: Counter[Card] = Counter(hand.hands[seat])
    seen.update(hand.discard_pile)
    seen.update(gone)
    for s, counts in held.items():
        if s != seat:
            seen.update(counts)
    decks = hand.rules.decks
    unseen = tuple(max(0, decks - seen[c]) for c in DECK)
    if isinstance(game, Match):
        out, dropped, players = tuple(game.out), tuple(game.dropped), len(game.players)
    else:
        out, dropped, players = (), (), len(hand.names)
    return EliminationView(
        seat=seat,
        seats=hand.seats,
        dealer=hand.dealer,
        hand=tuple(sort_cards(hand.hands[seat])),
        phase=hand.phase,
        turn=hand.turn,
        upcard=hand.upcard,
        discard_pile=tuple(hand.discard_pile),
        stock_size=len(hand.stock),
        history=history,
        decks=decks,
        distinct_suits=hand.rules.distinct_suits,
        collected={s: tuple(sort_cards(held.get(s, Counter()).elements())) for s in others},
        pickups=tuple(pickups),
        discards={s: tuple(discards.get(s, ())) for s in others},
        declined={s: frozenset(declined.get(s, ())) for s in others},
        card_counts={s: len(hand.hands[s]) for s in others},
        unseen=unseen,
        reshuffles=hand.reshuffles,
        out=out,
        dropped=dropped,
        players=players,
        taken_from_discard=hand.taken_from_discard if hand.turn == seat else None,
        settings=hand.settings,
        legal_actions=tuple(hand.legal_actions(seat)),
    )


AnyView = PlayerView | EliminationView


def seat_view(game: Hand | Match, seat: int) -> AnyView:
    """The seat's view of the hand it plays, of the kind that hand needs."""
    hand, _, _ = _board(game, seat)
    if is_two_player_hand(hand):
        return view_for(game, seat)
    return elimination_view_for(game, seat)

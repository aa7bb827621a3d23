"""One hand of Gin Rummy as an explicit state machine: deal, upcard offer, turns, showdown.

Turn order and dealing work on a tuple of seats, so hands with more than two players (the
elimination mode) use the same machine; the showdown itself is between two players, as in
every mode that knocks. ``HandRules`` holds the switches the modes turn: several decks, no
pass round on the first upcard, gin only, and a reshuffled stock instead of a void hand.
Oklahoma (a two-player variant of the settings) reads the first upcard: its ``KnockCard``
sets the hand's knock limit and, with spades double, doubles every score of the hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from bot.gin.actions import Action, ActionKind, Phase
from bot.gin.cards import DECK, SPADES, Card, format_cards, sort_cards
from bot.gin.errors import IllegalMove
from bot.gin.melds import (
    Arrangement,
    arrange,
    best_lay_off,
    discard_options,
    is_big_gin,
    knocker_arrangement,
    min_deadwood,
)
from bot.gin.refusals import check
from bot.gin.settings import OklahomaAce, Settings, Variant
from bot.gin.shuffle import derive_seed, new_seed, shuffled

HAND_SIZE = 10
MAX_DECKS = 4


__all__ = [
    "CLASSIC_RULES",
    "HAND_SIZE",
    "MAX_DECKS",
    "Action",
    "ActionKind",
    "Hand",
    "HandResult",
    "HandRules",
    "KnockCard",
    "Outcome",
    "Phase",
]


@dataclass(frozen=True, slots=True)
class HandRules:
    """What a mode changes in a hand; the defaults are the two-player game of RULES.md 3-8."""

    decks: int = 1
    upcard_offer: bool = True  # the first upcard is offered round before anyone draws
    knocking: bool = True  # False: gin only, ten melded cards after the discard
    reshuffle: bool = False  # an empty stock is refilled from the pile, never a void hand
    distinct_suits: bool = False  # with several decks, a set's suits must all differ

    def __post_init__(self) -> None:
        if not 1 <= self.decks <= MAX_DECKS:
            raise ValueError(f"a hand is played with 1 to {MAX_DECKS} decks")

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> HandRules:
        if not data:
            return cls()
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


CLASSIC_RULES = HandRules()


@dataclass(frozen=True, slots=True)
class KnockCard:
    """Oklahoma (RULES.md 12): the first upcard of a hand and what it makes of that hand.

    ``limit`` is the most deadwood a player may knock with (the card's value, face cards 10;
    an ace 0, gin only, or 1 with ``ace: one``); ``doubled`` is set when the card is a spade
    and spades double: every score of the hand then counts twice.
    """

    card: Card
    limit: int
    doubled: bool = False

    @classmethod
    def of(cls, card: Card, settings: Settings) -> KnockCard:
        limit = card.value
        if card.rank == 0 and settings.ace is OklahomaAce.GIN:
            limit = 0
        return cls(card, limit, settings.spades_double and card.suit == SPADES)

    @property
    def multiplier(self) -> int:
        return 2 if self.doubled else 1

    def to_dict(self) -> dict[str, Any]:
        return {"card": int(self.card), "limit": self.limit, "doubled": self.doubled}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> KnockCard | None:
        if data is None:
            return None
        return cls(DECK[data["card"]], int(data["limit"]), bool(data.get("doubled", False)))


class Outcome(StrEnum):
    """How a hand ended, which decides its score."""

    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"
    VOID = "void"


@dataclass(frozen=True, slots=True)
class HandResult:
    """The showdown: both arrangements, the lay-offs and who scored what, and why."""

    outcome: Outcome
    knocker: int | None = None
    defender: int | None = None
    winner: int | None = None
    points: int = 0
    knock_discard: Card | None = None
    knocker_arrangement: Arrangement | None = None
    defender_arrangement: Arrangement | None = None
    layoffs: tuple[tuple[Card, int], ...] = ()
    knocker_deadwood: int = 0
    defender_deadwood: int = 0
    knock_card: KnockCard | None = None  # Oklahoma: the upcard that set this hand's rules
    left: int | None = None  # a void hand left unplayed: the seat that left it (three players)

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        return self.defender if self.winner == self.knocker else self.knocker

    @property
    def multiplier(self) -> int:
        """2 when spades doubled this hand's score (Oklahoma), else 1."""
        return 1 if self.knock_card is None else self.knock_card.multiplier

    @property
    def base_points(self) -> int:
        """The points before spades doubled them: deadwood difference and bonuses."""
        return self.points // self.multiplier

    def to_dict(self) -> dict[str, Any]:
        def arrangement(a: Arrangement | None) -> Any:
            if a is None:
                return None
            return {
                "melds": [[int(c) for c in m] for m in a.melds],
                "deadwood": [int(c) for c in a.deadwood],
            }

        data: dict[str, Any] = {
            "outcome": self.outcome.value,
            "knocker": self.knocker,
            "defender": self.defender,
            "winner": self.winner,
            "points": self.points,
            "knock_discard": None if self.knock_discard is None else int(self.knock_discard),
            "knocker_arrangement": arrangement(self.knocker_arrangement),
            "defender_arrangement": arrangement(self.defender_arrangement),
            "layoffs": [[int(c), i] for c, i in self.layoffs],
            "knocker_deadwood": self.knocker_deadwood,
            "defender_deadwood": self.defender_deadwood,
        }
        if self.knock_card is not None:  # a classic result reads as it always did
            data["knock_card"] = self.knock_card.to_dict()
        if self.left is not None:
            data["left"] = self.left
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandResult:
        def arrangement(raw: Any) -> Arrangement | None:
            if raw is None:
                return None
            melds = tuple(tuple(DECK[c] for c in m) for m in raw["melds"])
            return Arrangement(melds=melds, deadwood=tuple(DECK[c] for c in raw["deadwood"]))

        discard = data.get("knock_discard")
        return cls(
            outcome=Outcome(data["outcome"]),
            knocker=data.get("knocker"),
            defender=data.get("defender"),
            winner=data.get("winner"),
            points=data.get("points", 0),
            knock_discard=None if discard is None else DECK[discard],
            knocker_arrangement=arrangement(data.get("knocker_arrangement")),
            defender_arrangement=arrangement(data.get("defender_arrangement")),
            layoffs=tuple((DECK[c], i) for c, i in data.get("layoffs", [])),
            knocker_deadwood=data.get("knocker_deadwood", 0),
            defender_deadwood=data.get("defender_deadwood", 0),
            knock_card=KnockCard.from_dict(data.get("knock_card")),
            left=data.get("left"),
        )


@dataclass(eq=True)
class Hand:
    """The whole state of one hand. Change it only through ``apply``; read it freely.

    ``seats`` are the players of this hand in turn order, starting left of the dealer; ``names``
    maps every seat of the match to a display name, used in the reasons of illegal moves.
    The stock and the discard pile keep their top card last.
    """

    seats: tuple[int, ...]
    dealer: int
    names: tuple[str, ...]
    settings: Settings
    seed: str
    hands: dict[int, list[Card]]
    stock: list[Card]
    discard_pile: list[Card]
    phase: Phase
    turn: int
    passed: list[int] = field(default_factory=list)
    stock_only: bool = False
    taken_from_discard: Card | None = None
    last_drawn: Card | None = None
    actions: list[Action] = field(default_factory=list)
    result: HandResult | None = None
    first_upcard: Card | None = None
    rules: HandRules = CLASSIC_RULES
    reshuffles: int = 0  # times the pile became the stock (reshuffle rule)
    set_aside: list[Card] = field(default_factory=list)  # cards of players who left the hand
    dealt_seats: tuple[int, ...] = ()  # the seats dealt in, before any left (when any did)

    # --- creation -------------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        seats: tuple[int, ...],
        dealer: int,
        names: tuple[str, ...],
        settings: Settings | None = None,
        seed: str | None = None,
        rules: HandRules = CLASSIC_RULES,
    ) -> Hand:
        """Shuffle and deal: ten cards each, one at a time from the dealer's left, then the upcard.

        The dealer may sit the hand out (three-player mode) and so need not be in ``seats``.
        """
        if len(seats) < 2 or len(set(seats)) != len(seats):
            raise ValueError("a hand needs at least two distinct seats")
        cards = DECK * rules.decks
        if HAND_SIZE * len(seats) + 1 >= len(cards):
            raise ValueError(f"too many players for {rules.decks} deck(s)")
        seed = seed or new_seed()
        deck = shuffled(cards, seed)  # deck[0] is the top card
        hands: dict[int, list[Card]] = {seat: [] for seat in seats}
        position = 0
        for _ in range(HAND_SIZE):
            for seat in seats:
                hands[seat].append(deck[position])
                position += 1
        upcard = deck[position]
        stock = list(reversed(deck[position + 1 :]))
        return cls(
            seats=seats,
            dealer=dealer,
            names=names,
            settings=settings or Settings(),
            seed=seed,
            hands=hands,
            stock=stock,
            discard_pile=[upcard],
            phase=Phase.UPCARD if rules.upcard_offer else Phase.DRAW,
            turn=seats[0],
            first_upcard=upcard,
            rules=rules,
        )

    @classmethod
    def replay(
        cls,
        seats: tuple[int, ...],
        dealer: int,
        names: tuple[str, ...],
        settings: Settings,
        seed: str,
        actions: list[Action],
        rules: HandRules = CLASSIC_RULES,
    ) -> Hand:
        """The state reached by dealing from ``seed`` and applying ``actions`` in order."""
        hand = cls.deal(seats, dealer, names, settings, seed, rules)
        for action in actions:
            if action.kind is ActionKind.LEAVE:
                hand.remove_seat(action.seat)
            else:
                hand.apply(action)
        return hand

    # --- reading --------------------------------------------------------------------------

    @property
    def upcard(self) -> Card | None:
        """Top of the discard pile (None only if the pile is empty)."""
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def move_number(self) -> int:
        return len(self.actions)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def cards_of(self, seat: int) -> list[Card]:
        """The seat's cards, sorted by suit and rank."""
        return sort_cards(self.hands[seat])

    def next_seat(self, seat: int) -> int:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action the player to act may take now (none for anybody else)."""
        if self.phase is Phase.OVER or (seat is not None and seat != self.turn):
            return []
        me = self.turn
        if self.phase is Phase.UPCARD:
            return [Action(ActionKind.DRAW_DISCARD, me), Action(ActionKind.PASS, me)]
        if self.phase is Phase.DRAW:
            actions = [Action(ActionKind.DRAW_STOCK, me)] if self.stock else []
            if not self.stock_only and self.discard_pile:
                actions.append(Action(ActionKind.DRAW_DISCARD, me))
            return actions
        cards = self.hands[me]
        distinct = sort_cards(set(cards))
        actions = [
            Action(ActionKind.DISCARD, me, c) for c in distinct if c != self.taken_from_discard
        ]
        limit = self.knock_limit
        left = self.discard_options(cards)  # one solve for every discard at once
        for card in distinct:
            if card != self.taken_from_discard and left[card] <= limit:
                actions.append(Action(ActionKind.KNOCK, me, card))
        if self.big_gin_allowed and is_big_gin(cards):
            actions.append(Action(ActionKind.BIG_GIN, me))
        return actions

    @property
    def knock_limit(self) -> int:
        """The most deadwood a player may knock with this hand: 0 (gin only) when knocking is
        off; in Oklahoma, what the first upcard allows (it replaces the table's limit)."""
        if not self.rules.knocking:
            return 0
        knock_card = self.knock_card
        if knock_card is not None:
            return knock_card.limit
        return self.settings.knock_limit

    @property
    def knock_card(self) -> KnockCard | None:
        """Oklahoma: the first upcard, this hand's knock limit and whether spades double it
        (None in any other variant, or for a hand recorded without its first upcard)."""
        if self.settings.variant is not Variant.OKLAHOMA or self.first_upcard is None:
            return None
        return KnockCard.of(self.first_upcard, self.settings)

    @property
    def spades_double(self) -> bool:
        """Whether every score of this hand counts double (Oklahoma, a spade upcard)."""
        knock_card = self.knock_card
        return knock_card is not None and knock_card.doubled

    @property
    def score_multiplier(self) -> int:
        return 2 if self.spades_double else 1

    @property
    def big_gin_allowed(self) -> bool:
        return self.settings.big_gin and self.rules.knocking and self.rules.decks == 1

    def deadwood(self, cards: list[Card]) -> int:
        """The least deadwood of these cards under this hand's rules."""
        if self.rules.decks == 1:
            return min_deadwood(cards)
        return min_deadwood(cards, distinct_suits=self.rules.distinct_suits)

    def discard_options(self, cards: list[Card]) -> dict[Card, int]:
        """For each different card, the least deadwood left after discarding one of it."""
        if self.rules.decks == 1:
            return discard_options(cards)
        return discard_options(cards, distinct_suits=self.rules.distinct_suits)

    def arrangement(self, cards: list[Card]) -> Arrangement:
        """The best arrangement of these cards under this hand's rules."""
        if self.rules.decks == 1:
            return arrange(cards)
        return arrange(cards, distinct_suits=self.rules.distinct_suits)

    def public_actions(self) -> list[Action]:
        """The actions as a spectator saw them: a card taken from the discard pile is named, a
        card drawn from the stock is not, and the knock discard stays face down.

        Worked out once per action: the screens of a long round read it at every move, so
        the answer is kept (outside the hand's fields) and extended as actions are added."""
        # (the public actions, the discard pile they leave, the last action they come from)
        cache: tuple[list[Action], list[Card], Action | None] | None
        cache = self.__dict__.get("_public")
        actions = self.actions
        if cache is None or not _extends(cache[0], cache[2], actions):
            start: list[Card] = [] if self.first_upcard is None else [self.first_upcard]
            cache = ([], start, None)
        seen, pile, last = cache
        for action in actions[len(seen) :]:
            card: Card | None = None
            if action.kind is ActionKind.DRAW_DISCARD and pile:
                card = pile.pop()
            elif action.kind is ActionKind.DISCARD:
                card = action.card
                if card is not None:
                    pile.append(card)
            # The action itself where the spectator sees all of it (a table keeps one copy).
            seen.append(action if card is action.card else Action(action.kind, action.seat, card))
            last = action
        self.__dict__["_public"] = (seen, pile, last)
        return list(seen)

    # --- moves ----------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Carry out one move, or raise IllegalMove with a reason and change nothing."""
        self._check(action)
        handler = {
            ActionKind.PASS: self._pass,
            ActionKind.DRAW_STOCK: self._draw_stock,
            ActionKind.DRAW_DISCARD: self._draw_discard,
            ActionKind.DISCARD: self._discard,
            ActionKind.KNOCK: self._knock,
            ActionKind.BIG_GIN: self._big_gin,
        }[action.kind]
        handler(action)
        self.actions.append(action)

    def seat_name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat}"

    def _check(self, action: Action) -> None:
        check(self, action)

    # --- move handlers (called only after _check) ---------------------------------------

    def _pass(self, action: Action) -> None:
        self.passed.append(action.seat)
        if len(self.passed) < len(self.seats):
            self.turn = self.next_seat(action.seat)
            return
        # Everyone passed: the first player draws from the stock and play goes on normally.
        self.phase = Phase.DRAW
        self.turn = self.seats[0]
        self.stock_only = True

    def _draw_stock(self, action: Action) -> None:
        card = self.stock.pop()
        self.hands[action.seat].append(card)
        self.last_drawn = card
        self.taken_from_discard = None
        self.stock_only = False
        self.phase = Phase.DISCARD

    def _draw_discard(self, action: Action) -> None:
        card = self.discard_pile.pop()
        self.hands[action.seat].append(card)
        self.last_drawn = card
        self.taken_from_discard = card
        self.phase = Phase.DISCARD

    def _discard(self, action: Action) -> None:
        assert action.card is not None
        self.hands[action.seat].remove(action.card)
        self.discard_pile.append(action.card)
        self.taken_from_discard = None
        self.last_drawn = None
        if self.rules.reshuffle:
            if not self.stock:
                self._reshuffle()
        elif len(self.stock) <= self.settings.void_stock:
            self.phase = Phase.OVER
            self.result = HandResult(outcome=Outcome.VOID, knock_card=self.knock_card)
            return
        self.phase = Phase.DRAW
        self.turn = self.next_seat(action.seat)

    def _reshuffle(self) -> None:
        """The stock ran out: the discard pile but its top card, shuffled, is the new stock."""
        under = self.discard_pile[:-1]
        if not under:
            return
        self.reshuffles += 1
        seed = derive_seed(self.seed, f"reshuffle-{self.reshuffles}")
        self.stock = list(reversed(shuffled(under, seed)))
        self.discard_pile = self.discard_pile[-1:]

    def remove_seat(self, seat: int) -> None:
        """A player leaves the hand (resigned or out of time), recorded as a LEAVE action.
        A round of more (elimination) goes on: their cards are set aside, and the turn
        passes on if it was theirs. A hand of two cannot go on without one of them: it ends
        there, unplayed and void (three players, where the two others play on)."""
        if seat not in self.seats:
            raise IllegalMove("You are not playing this hand.")
        if self.is_over:
            raise IllegalMove("This hand is over.")
        if len(self.seats) <= 2:
            self.result = HandResult(outcome=Outcome.VOID, knock_card=self.knock_card, left=seat)
            self.phase = Phase.OVER
            self.actions.append(Action(ActionKind.LEAVE, seat))
            return
        after = self.next_seat(seat)
        if not self.dealt_seats:
            self.dealt_seats = self.seats
        self.set_aside.extend(self.hands.pop(seat))
        self.seats = tuple(s for s in self.seats if s != seat)
        self.passed = [s for s in self.passed if s != seat]
        if self.turn == seat and not self.is_over:
            self.turn = after
            self.taken_from_discard = None
            self.last_drawn = None
            if self.phase is Phase.DISCARD:
                self.phase = Phase.DRAW
        self.actions.append(Action(ActionKind.LEAVE, seat))

    def _knock(self, action: Action) -> None:
        assert action.card is not None
        self.hands[action.seat].remove(action.card)
        self.taken_from_discard = None
        self.last_drawn = None
        self._showdown(action.seat, action.card, big_gin=False)

    def _big_gin(self, action: Action) -> None:
        self.taken_from_discard = None
        self.last_drawn = None
        self._showdown(action.seat, None, big_gin=True)

    def _showdown(self, knocker: int, discard: Card | None, *, big_gin: bool) -> None:
        if len(self.seats) > 2 or not self.rules.knocking:
            self._goes_out(knocker, discard)
            return
        defender = self._opponent_of(knocker)
        knocker_cards = self.hands[knocker]
        defender_cards = self.hands[defender]
        settings = self.settings
        knock_card = self.knock_card
        times = 1 if knock_card is None else knock_card.multiplier
        self.phase = Phase.OVER
        if big_gin or min_deadwood(knocker_cards) == 0:
            knocker_arr = arrange(knocker_cards)
            defender_arr = arrange(defender_cards)
            bonus = settings.big_gin_bonus if big_gin else settings.gin_bonus
            self.result = HandResult(
                outcome=Outcome.BIG_GIN if big_gin else Outcome.GIN,
                knocker=knocker,
                defender=defender,
                winner=knocker,
                points=(defender_arr.deadwood_value + bonus) * times,
                knock_discard=discard,
                knocker_arrangement=knocker_arr,
                defender_arrangement=defender_arr,
                knocker_deadwood=0,
                defender_deadwood=defender_arr.deadwood_value,
                knock_card=knock_card,
            )
            return
        knocker_arr = knocker_arrangement(knocker_cards, defender_cards)
        lay_off = best_lay_off(knocker_arr.melds, defender_cards)
        knocker_dw = knocker_arr.deadwood_value
        defender_dw = lay_off.deadwood_value
        if defender_dw > knocker_dw:
            outcome, winner, points = Outcome.KNOCK, knocker, defender_dw - knocker_dw
        else:
            outcome, winner = Outcome.UNDERCUT, defender
            points = knocker_dw - defender_dw + settings.undercut_bonus
        self.result = HandResult(
            outcome=outcome,
            knocker=knocker,
            defender=defender,
            winner=winner,
            points=points * times,
            knock_discard=discard,
            knocker_arrangement=knocker_arr,
            defender_arrangement=lay_off.arrangement,
            layoffs=lay_off.layoffs,
            knocker_deadwood=knocker_dw,
            defender_deadwood=defender_dw,
            knock_card=knock_card,
        )

    def _goes_out(self, seat: int, discard: Card | None) -> None:
        """Gin where there is no showdown (elimination): the player goes out, nobody scores."""
        self.phase = Phase.OVER
        self.result = HandResult(
            outcome=Outcome.GIN,
            knocker=seat,
            winner=seat,
            knock_discard=discard,
            knocker_arrangement=self.arrangement(self.hands[seat]),
        )

    def _opponent_of(self, knocker: int) -> int:
        others = [s for s in self.seats if s != knocker]
        if len(others) != 1:
            raise IllegalMove("Knocking is played between two players.")
        return others[0]

    # --- serialization --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data holding the whole state (cards as ints 0-51)."""
        data: dict[str, Any] = {
            "seats": list(self.seats),
            "dealer": self.dealer,
            "names": list(self.names),
            "settings": self.settings.to_dict(),
            "seed": self.seed,
            "hands": {str(s): [int(c) for c in cards] for s, cards in self.hands.items()},
            "stock": [int(c) for c in self.stock],
            "discard_pile": [int(c) for c in self.discard_pile],
            "phase": self.phase.value,
            "turn": self.turn,
            "passed": list(self.passed),
            "stock_only": self.stock_only,
            "taken_from_discard": _card_or_none(self.taken_from_discard),
            "last_drawn": _card_or_none(self.last_drawn),
            "actions": [a.to_dict() for a in self.actions],
            "result": None if self.result is None else self.result.to_dict(),
            "first_upcard": _card_or_none(self.first_upcard),
        }
        if self.rules != CLASSIC_RULES:  # the two-player game's state reads as it always did
            data["rules"] = self.rules.to_dict()
            data["reshuffles"] = self.reshuffles
            data["set_aside"] = [int(c) for c in self.set_aside]
            data["dealt_seats"] = list(self.dealt_seats)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hand:
        result = data.get("result")
        return cls(
            seats=tuple(data["seats"]),
            dealer=data["dealer"],
            names=tuple(data["names"]),
            settings=Settings.from_dict(data["settings"]),
            seed=data["seed"],
            hands={int(s): [DECK[c] for c in cards] for s, cards in data["hands"].items()},
            stock=[DECK[c] for c in data["stock"]],
            discard_pile=[DECK[c] for c in data["discard_pile"]],
            phase=Phase(data["phase"]),
            turn=data["turn"],
            passed=list(data.get("passed", [])),
            stock_only=bool(data.get("stock_only", False)),
            taken_from_discard=_deck_or_none(data.get("taken_from_discard")),
            last_drawn=_deck_or_none(data.get("last_drawn")),
            actions=[Action.from_dict(a) for a in data.get("actions", [])],
            result=None if result is None else HandResult.from_dict(result),
            first_upcard=_deck_or_none(data.get("first_upcard")),
            rules=HandRules.from_dict(data.get("rules")),
            reshuffles=int(data.get("reshuffles", 0)),
            set_aside=[DECK[c] for c in data.get("set_aside", [])],
            dealt_seats=tuple(data.get("dealt_seats", ())),
        )

    def __str__(self) -> str:
        parts = [f"{self.seat_name(s)}: {format_cards(self.cards_of(s))}" for s in self.seats]
        return (
            f"Hand({self.phase}, turn {self.seat_name(self.turn)}, stock {len(self.stock)}, "
            f"upcard {self.upcard}; " + "; ".join(parts) + ")"
        )


def _card_or_none(card: Card | None) -> int | None:
    return None if card is None else int(card)


def _deck_or_none(value: int | None) -> Card | None:
    return None if value is None else DECK[value]


def _extends(done: list[Action], last: Action | None, actions: list[Action]) -> bool:
    """Whether ``actions`` begins with exactly the actions ``done`` was worked out from
    (``last``: the last of those)."""
    return len(done) <= len(actions) and (not done or actions[len(done) - 1] is last)

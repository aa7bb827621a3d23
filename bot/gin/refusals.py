"""Why a move is refused: every rule a move must keep, checked before the hand changes, each
refusal a sentence a player can act on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.gin.actions import ActionKind, Phase
from bot.gin.cards import Card
from bot.gin.errors import CardError, IllegalMove, KnockLimitError
from bot.gin.melds import is_big_gin

if TYPE_CHECKING:
    from bot.gin.actions import Action
    from bot.gin.hand import Hand


def check(hand: Hand, action: Action) -> None:
    """Raise the reason a move is refused (``IllegalMove`` and its kinds), if it is."""
    if hand.phase is Phase.OVER:
        raise IllegalMove("This hand is over.")
    if action.seat not in hand.seats:
        raise IllegalMove("You are not playing this hand.")
    if action.seat != hand.turn:
        raise IllegalMove(
            "It is {name}'s turn. Please wait for yours; you'll be told when it comes.",
            name=hand.seat_name(hand.turn),
        )
    kind = action.kind
    if hand.phase is Phase.UPCARD:
        if kind not in (ActionKind.DRAW_DISCARD, ActionKind.PASS):
            raise IllegalMove(
                "First decide on the upcard {upcard}: take it from the discard pile or pass.",
                upcard=hand.upcard,
            )
        return
    if kind is ActionKind.LEAVE:
        raise IllegalMove("Leaving a hand is not a move.")
    if kind is ActionKind.PASS:
        if not hand.rules.upcard_offer:
            raise IllegalMove(
                "There is no passing at this table: take the upcard or draw from the stock."
            )
        if hand.phase is Phase.DRAW:
            raise IllegalMove(
                "You can pass only on the upcard at the start of the hand: draw a card "
                "instead, from the stock or the discard pile."
            )
        raise IllegalMove(
            "You can pass only on the upcard at the start of the hand: discard a card "
            "instead, or knock."
        )
    if hand.phase is Phase.DRAW:
        if kind not in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
            raise IllegalMove("Draw a card first, from the stock or the discard pile.")
        if kind is ActionKind.DRAW_DISCARD and hand.stock_only:
            raise IllegalMove("Everyone passed on the upcard: draw from the stock.")
        if kind is ActionKind.DRAW_DISCARD and not hand.discard_pile:
            raise IllegalMove("The discard pile is empty: draw from the stock.")
        if kind is ActionKind.DRAW_STOCK and not hand.stock:
            raise IllegalMove("The stock is empty.")
        return
    # Phase.DISCARD
    if kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
        if not hand.rules.knocking:
            raise IllegalMove("You already drew this turn: now discard a card, or go gin.")
        raise IllegalMove("You already drew this turn: now discard a card, or knock.")
    if kind is ActionKind.BIG_GIN:
        _check_big_gin(hand)
        return
    card = action.card
    if card is None:
        raise CardError("Say which card to discard.")
    if card not in hand.hands[action.seat]:
        raise CardError("You don't hold {card}: pick a card from your hand.", card=card)
    if card == hand.taken_from_discard:
        raise CardError(
            "You can't discard {card}, the card you just took from the discard pile: "
            "discard a different card.",
            card=card,
        )
    if kind is ActionKind.KNOCK:
        _check_knock(hand, card)


def _check_knock(hand: Hand, card: Card) -> None:
    limit = hand.knock_limit
    deadwood = _deadwood_without(hand, card)
    if deadwood <= limit:
        return
    knock_card = hand.knock_card if hand.rules.knocking else None
    upcard = None if knock_card is None else knock_card.card
    # The error's fields, and its sentence's values (named apart from the fields).
    facts: dict[str, Any] = {
        "limit": limit,
        "deadwood": deadwood,
        "card": card,
        "upcard": upcard,
        "discarded": card,
        "left": deadwood,
    }
    if not hand.rules.knocking:
        raise KnockLimitError(
            "There is no knocking at this table, only gin: after discarding {discarded} your "
            "deadwood would be {left}, and you can go out only when all ten cards left "
            "meld. Discard instead.",
            **facts,
        )
    if upcard is not None and limit == 0:
        raise KnockLimitError(
            "The upcard was {first_upcard}: this hand is gin only. After discarding "
            "{discarded} your deadwood would be {left}; you can go out only with none.",
            first_upcard=upcard,
            **facts,
        )
    if upcard is not None:
        raise KnockLimitError(
            "The upcard was {first_upcard}: knock at {most} or less this hand. After "
            "discarding {discarded} your deadwood would be {left}.",
            first_upcard=upcard,
            most=limit,
            **facts,
        )
    if limit == 0:
        raise KnockLimitError(
            "This table plays gin only: after discarding {discarded} your deadwood would be "
            "{left}, and you can go out only with none.",
            **facts,
        )
    raise KnockLimitError(
        "Your deadwood would be {left} after discarding {discarded}; "
        "you can knock at {most} or less.",
        most=limit,
        **facts,
    )


def _check_big_gin(hand: Hand) -> None:
    if not hand.big_gin_allowed:
        raise IllegalMove("Big Gin is off at this table: discard a card to go gin instead.")
    cards = hand.hands[hand.turn]
    if not is_big_gin(cards):
        deadwood = hand.arrangement(cards).deadwood_value
        raise IllegalMove(
            "Not all of your 11 cards form melds (deadwood {deadwood}), so this isn't "
            "Big Gin. To knock, name the card to discard face down.",
            deadwood=deadwood,
        )


def _deadwood_without(hand: Hand, card: Card) -> int:
    cards = list(hand.hands[hand.turn])
    cards.remove(card)  # one copy: with several decks the hand may hold two
    return hand.deadwood(cards)

"""Playing AI hands for tests, and rearranging what a seat cannot see."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable

from bot.gin.ai import Level, bot_move, decide, view_for
from bot.gin.ai.view import elimination_view_for
from bot.gin.cards import DECK, Card
from bot.gin.hand import Hand
from bot.gin.match import Match, Player
from bot.gin.settings import Settings

NAMES = ("Alice", "Bob")
MAX_HAND_MOVES = 2 * (32 + 2 * 52) + 2


def all_cards(hand: Hand) -> list[int]:
    cards = [int(c) for s in hand.seats for c in hand.hands[s]]
    cards += [int(c) for c in hand.discard_pile] + [int(c) for c in hand.stock]
    if hand.result is not None and hand.result.knock_discard is not None:
        cards.append(int(hand.result.knock_discard))
    return sorted(cards)


def play_hand(
    seed: str,
    levels: tuple[Level, Level],
    rng: random.Random,
    settings: Settings | None = None,
    on_decision: Callable[[Hand, int], None] | None = None,
) -> Hand:
    """One hand between two levels; every move is checked legal and every card kept."""
    hand = Hand.deal((0, 1), 1, NAMES, settings or Settings(), seed)
    while not hand.is_over:
        seat = hand.turn
        if on_decision is not None:
            on_decision(hand, seat)
        action = decide(view_for(hand, seat), levels[seat], rng)
        assert action in hand.legal_actions(seat), (action, str(hand))
        hand.apply(action)
        assert all_cards(hand) == list(range(len(DECK)))
        # No card is taken from the pile twice by one player, so a hand cannot go round forever.
        assert len(hand.actions) <= MAX_HAND_MOVES
    return hand


def scramble(hand: Hand, seat: int, rng: random.Random) -> Hand:
    """The same hand with the opponent's unnamed cards and the stock dealt anew among them."""
    opponent = next(s for s in hand.seats if s != seat)
    known = view_for(hand, seat).opponent_known
    kept = [c for c in hand.hands[opponent] if c in known]
    hidden = [c for c in hand.hands[opponent] if c not in known]
    pool = hidden + list(hand.stock)
    rng.shuffle(pool)
    hands = {seat: list(hand.hands[seat]), opponent: kept + pool[: len(hidden)]}
    return dataclasses.replace(
        hand,
        hands=hands,
        stock=pool[len(hidden) :],
        discard_pile=list(hand.discard_pile),
        actions=list(hand.actions),
        passed=list(hand.passed),
    )


def all_copies(hand: Hand) -> Counter[Card]:
    """Every card of a hand of any mode: hands, stock, pile, set aside and a gin discard."""
    cards: Counter[Card] = Counter()
    for held in hand.hands.values():
        cards.update(held)
    cards.update(hand.stock)
    cards.update(hand.discard_pile)
    cards.update(hand.set_aside)
    if hand.result is not None and hand.result.knock_discard is not None:
        cards[hand.result.knock_discard] += 1
    return cards


def play_table(
    mode: str,
    levels: list[Level],
    seed: str,
    settings: Settings | None = None,
    rng: random.Random | None = None,
    rounds: int | None = None,
    on_decision: Callable[[Match, int], None] | None = None,
) -> Match:
    """A match of any mode between bots (``levels`` per seat), stopped after ``rounds`` hands
    when given. Every move is checked legal and every card of every deck kept."""
    rng = rng or random.Random(seed)
    players = [Player(str(i), f"P{i}") for i in range(len(levels))]
    match = Match.start(players, settings or Settings(), seed=seed, mode=mode)
    level_of = {p.id: level for p, level in zip(players, levels, strict=True)}
    moves = 0
    while not match.is_over and (rounds is None or match.hand_number <= rounds):
        seat = rng.choice(match.to_act())
        board = match.board_of(seat)
        assert board is not None
        if on_decision is not None:
            on_decision(match, seat)
        action = bot_move(match, seat, level_of[match.players[seat].id], rng)
        assert action in board.legal_actions(seat), (action, str(board))
        match.apply(action)
        assert all_copies(board) == Counter(DECK * board.rules.decks)
        moves += 1
        assert moves < MAX_TABLE_MOVES, "the bots never finished"
    return match


MAX_TABLE_MOVES = 60_000


def scramble_table(hand: Hand, seat: int, rng: random.Random) -> Hand:
    """The same hand with every other player's unnamed cards and the stock dealt anew among
    them: only what ``seat`` cannot see changes."""
    view = elimination_view_for(hand, seat)
    kept: dict[int, list[Card]] = {}
    pool: list[Card] = list(hand.stock)
    for other in hand.seats:
        if other == seat:
            continue
        known = Counter(view.collected.get(other, ()))
        keep: list[Card] = []
        for card in hand.hands[other]:
            if known[card] > 0:
                known[card] -= 1
                keep.append(card)
            else:
                pool.append(card)
        kept[other] = keep
    rng.shuffle(pool)
    hands = {seat: list(hand.hands[seat])}
    for other, keep in kept.items():
        hidden = len(hand.hands[other]) - len(keep)
        hands[other] = keep + pool[:hidden]
        pool = pool[hidden:]
    return dataclasses.replace(
        hand,
        hands=hands,
        stock=pool,
        discard_pile=list(hand.discard_pile),
        actions=list(hand.actions),
        passed=list(hand.passed),
        set_aside=list(hand.set_aside),
    )

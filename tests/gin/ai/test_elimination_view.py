"""The elimination view holds what a seat could know at the table, and the levels see nothing
else: other players' hidden cards and the stock order never change a decision."""

from __future__ import annotations

import random
from collections import Counter

from bot.gin.ai import Level, decide, elimination_view_for
from bot.gin.cards import DECK, Card, parse_card
from bot.gin.hand import Action, ActionKind, Hand, HandRules, Phase
from bot.gin.match import Match
from bot.gin.settings import Settings
from tests.gin.ai.helpers import play_table, scramble_table
from tests.gin.helpers import cards

LEVELS = (Level.EASY, Level.NORMAL, Level.HARD)
NAMES = ("Alice", "Bob", "Cat")


def table(
    hands: list[str],
    pile: str,
    *,
    decks: int = 2,
    stock: str | None = None,
    distinct: bool = False,
    phase: Phase = Phase.DRAW,
    taken: str | None = None,
) -> Hand:
    """A gin-only hand of three from ``decks`` decks; the stock is the given cards (top last)
    or every copy not used elsewhere."""
    held = {seat: cards(text) for seat, text in enumerate(hands)}
    pile_cards = cards(pile)
    used = Counter(pile_cards)
    for h in held.values():
        used.update(h)
    rest = Counter(DECK * decks) - used
    assert not used - Counter(DECK * decks), "more copies than the decks hold"
    stock_cards = cards(stock) if stock is not None else sorted(rest.elements())
    rules = HandRules(
        decks=decks, upcard_offer=False, knocking=False, reshuffle=True, distinct_suits=distinct
    )
    return Hand(
        seats=(0, 1, 2),
        dealer=2,
        names=NAMES,
        settings=Settings(),
        seed="test",
        hands=held,
        stock=stock_cards,
        discard_pile=pile_cards,
        phase=phase,
        turn=0,
        taken_from_discard=None if taken is None else parse_card(taken),
        first_upcard=pile_cards[0] if pile_cards else None,
        rules=rules,
    )


def move(hand: Hand, seat: int, kind: ActionKind, card: str | None = None) -> None:
    hand.apply(Action(kind, seat, None if card is None else parse_card(card)))


def put_on_stock(hand: Hand, *names: str) -> None:
    """Make these the next stock draws, the first named drawn first."""
    for name in reversed(names):
        card = parse_card(name)
        hand.stock.remove(card)
        hand.stock.append(card)


ALICE = "7♥ 7♥ 7♠ 2♦ 3♦ 4♦ 9♣ J♣ K♥ 5♠"
BOB = "8♦ 8♠ 2♥ 3♥ 4♥ K♣ 5♣ 6♣ 10♦ J♦"
CAT = "A♠ A♥ Q♠ Q♥ 6♦ 9♦ 3♣ 4♣ 10♠ 2♠"


def test_the_view_names_what_was_taken_left_and_thrown() -> None:
    hand = table([ALICE, BOB, CAT], "8♥")
    put_on_stock(hand, "A♦", "5♥")
    move(hand, 0, ActionKind.DRAW_STOCK)  # Alice leaves 8♥ and draws A♦
    move(hand, 0, ActionKind.DISCARD, "K♥")
    move(hand, 1, ActionKind.DRAW_DISCARD)  # Bob takes K♥
    move(hand, 1, ActionKind.DISCARD, "8♦")
    move(hand, 2, ActionKind.DRAW_STOCK)  # Cat leaves 8♦ and draws 5♥
    move(hand, 2, ActionKind.DISCARD, "Q♠")
    view = elimination_view_for(hand, 0)
    king, eight, queen = parse_card("K♥"), parse_card("8♦"), parse_card("Q♠")
    assert view.hand == tuple(sorted(cards("7♠ 7♥ 7♥ A♦ 2♦ 3♦ 4♦ 9♣ J♣ 5♠")))
    assert view.hand.count(parse_card("7♥")) == 2
    assert view.decks == 2 and view.seats == (0, 1, 2) and view.next_seat == 1
    assert view.discard_pile == (parse_card("8♥"), eight, queen) and view.upcard == queen
    assert view.collected == {1: (king,), 2: ()}
    assert view.pickups == ((1, king),)
    assert view.discards == {1: (eight,), 2: (queen,)}
    assert view.declined == {1: frozenset(), 2: frozenset({eight})}
    assert view.card_counts == {1: 10, 2: 10}
    assert view.stock_size == len(hand.stock) and view.draws == 3
    unseen = view.unseen
    assert unseen[parse_card("7♥")] == 0  # both copies are Alice's
    assert unseen[king] == 1  # one copy named in Bob's hand
    assert unseen[eight] == 1 and unseen[queen] == 1 and unseen[parse_card("8♥")] == 1
    assert unseen[parse_card("5♥")] == 2  # Cat's draw is not named
    assert view.dead[parse_card("8♥")] == 1 and view.dead[eight] == 1 and view.dead[queen] == 0
    assert sum(unseen) == 2 * 52 - 10 - 3 - 1  # her hand, the pile and the named K♥
    assert set(view.legal_actions) == set(hand.legal_actions(0))
    assert all(a.card is None for a in view.history if a.kind is ActionKind.DRAW_STOCK)
    # What Bob sees: his own pickup, and nothing named in Alice's hand.
    bob = elimination_view_for(hand, 1)
    assert bob.my_pickups == {king} and bob.collected == {0: (), 2: ()}


def test_a_player_who_leaves_takes_their_known_cards_with_them() -> None:
    hand = table([ALICE, BOB, CAT], "8♥")
    move(hand, 0, ActionKind.DRAW_STOCK)
    move(hand, 0, ActionKind.DISCARD, "K♥")
    move(hand, 1, ActionKind.DRAW_DISCARD)
    move(hand, 1, ActionKind.DISCARD, "8♦")
    hand.remove_seat(1)
    view = elimination_view_for(hand, 0)
    assert view.seats == (0, 2) and view.next_seat == 2 and 1 not in view.collected
    assert view.unseen[parse_card("K♥")] == 1  # set aside, not back in play


def test_the_reshuffled_pile_is_unseen_again() -> None:
    hand = table([ALICE, BOB, CAT], "8♥ 9♥ 10♥", stock="A♦")
    move(hand, 0, ActionKind.DRAW_STOCK)  # the last stock card
    move(hand, 0, ActionKind.DISCARD, "K♥")  # the stock is empty: the pile under K♥ is turned
    view = elimination_view_for(hand, 1)
    assert view.reshuffles == 1 and view.discard_pile == (parse_card("K♥"),)
    assert view.stock_size == 3 and view.dead == (0,) * 52
    assert all(view.unseen[parse_card(c)] == 2 for c in ("8♥", "9♥", "10♥"))


def test_hidden_cards_and_stock_order_cannot_change_any_decision() -> None:
    rng = random.Random(13)
    checked = Counter[str]()

    def check(match: Match, seat: int) -> None:
        board = match.board_of(seat)
        assert board is not None
        view = elimination_view_for(match, seat)
        other = scramble_table(board, seat, rng)
        assert other.hands != board.hands or other.stock != board.stock
        assert elimination_view_for(other, seat) == elimination_view_for(board, seat)
        for level in LEVELS:
            key = rng.random()
            mine = decide(view, level, random.Random(key))
            theirs = decide(elimination_view_for(other, seat), level, random.Random(key))
            assert mine == theirs, (level, view)
        checked["decisions"] += 1
        checked["reshuffled"] += board.reshuffles > 0
        checked["collected"] += any(view.collected.values())

    for i, players in enumerate((3, 5, 6)):
        levels = [LEVELS[(i + k) % 3] for k in range(players)]
        play_table("elimination", levels, f"hidden-{i}", rng=rng, rounds=1, on_decision=check)
    assert checked["decisions"] > 100 and checked["collected"] > 20, checked


def test_identical_cards_count_in_the_unseen_copies() -> None:
    hand = table(["7♥ 7♥ 7♥ 2♦ 3♦ 4♦ 9♣ J♣ K♥ 5♠", BOB, CAT], "7♥", decks=4, phase=Phase.DRAW)
    view = elimination_view_for(hand, 0)
    assert view.unseen[parse_card("7♥")] == 0
    assert view.unseen[parse_card("7♠")] == 4
    assert Card(parse_card("7♥")) in view.hand

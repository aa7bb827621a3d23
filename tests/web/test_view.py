"""The Activity's views of a table, in every mode: a seat sees its own cards and no one else's,
a spectator no hidden card at all, and every frame keeps its schema."""

from __future__ import annotations

import random

import orjson
import pytest

from bot.gin import Card, Match, Player, Settings, Variant
from bot.gin.cards import RANKS, SUITS
from bot.gin.hand import ActionKind
from bot.server_settings import ServerSettings
from bot.tables import Seat, Status, Table
from bot.web.protocol import check_server_frame
from bot.web.view import code, public_view, seat_view
from tests.gin.players import choose

MODES = [
    ("classic", 2, Variant.CLASSIC),
    ("classic", 2, Variant.OKLAHOMA),
    ("classic", 2, Variant.HOLLYWOOD),
    ("three", 3, Variant.CLASSIC),
    ("teams", 4, Variant.CLASSIC),
    ("elimination", 4, Variant.CLASSIC),
    ("elimination", 14, Variant.CLASSIC),  # four decks: identical cards, so no hidden check
]


def table_of(mode: str, players: int, variant: Variant, seed: str) -> Table:
    people = [Player(str(100 + i), f"P{i}") for i in range(players)]
    rules = Settings(variant=variant)
    teams = [i % 2 for i in range(players)] if mode == "teams" else None
    match = Match.start(people, rules, seed, mode=mode, teams=teams)
    server = ServerSettings().with_changes(variant=variant)
    seats = [Seat(p) for p in match.players]
    return Table(
        id=1,
        guild_id="9",
        channel_id="10",
        status=Status.PLAYING,
        seats=seats,
        server=server,
        mode_name=mode,
        size=players,
        match=match,
    )


def named(card: Card) -> str:
    return RANKS[card.rank] + SUITS[card.suit]


def public_cards(match: Match) -> set[Card]:
    """Every card anyone at the table has seen face up (or at a showdown)."""
    seen: set[Card] = set()
    for board in match.boards:
        seen.update(board.discard_pile)
        if board.first_upcard is not None:
            seen.add(board.first_upcard)
        for action in board.public_actions():
            if action.card is not None:
                seen.add(action.card)
    for record in match.history:
        if record.number != match.hand_number:
            continue  # another deal's cards: shown at its showdown, not told of this one
        result = record.result
        seen.update(card for card, _ in result.layoffs)
        for arrangement in (result.knocker_arrangement, result.defender_arrangement):
            if arrangement is not None:
                seen.update(c for meld in arrangement.melds for c in meld)
                seen.update(arrangement.deadwood)
        if result.knock_discard is not None:
            seen.add(result.knock_discard)
    return seen


def hidden_from(match: Match, seat: int | None) -> set[Card]:
    """The cards held by others that this seat has never seen face up."""
    held: set[Card] = set()
    own: set[Card] = set()
    for board in match.boards:
        if board.is_over:
            continue
        for holder, cards in board.hands.items():
            (own if holder == seat else held).update(cards)
    return held - public_cards(match) - own


def assert_shows_nothing_hidden(view: dict[str, object], hand: int, hidden: set[Card]) -> None:
    shown = dict(view)
    showdown = shown.get("showdown")
    if isinstance(showdown, dict) and showdown["hand"] != hand:
        del shown["showdown"]  # an earlier deal's showdown: its cards were dealt again since
    frame = orjson.dumps(shown).decode()
    for card in hidden:
        assert f'"{code(card)}"' not in frame, (code(card), frame)
        assert named(card) not in frame, (named(card), frame)


@pytest.mark.parametrize(("mode", "players", "variant"), MODES)
def test_no_view_shows_a_card_its_reader_may_not_see(
    mode: str, players: int, variant: Variant
) -> None:
    rng = random.Random(7)
    for game in range(3 if players <= 4 else 1):
        table = table_of(mode, players, variant, f"view-{mode}-{variant}-{game}")
        match = table.match
        assert match is not None
        steps = 0
        while not match.is_over and steps < 400:
            public = public_view(table)
            number = match.hand_number
            single_deck = all(board.rules.decks == 1 for board in match.boards)
            if single_deck:
                assert_shows_nothing_hidden(public, number, hidden_from(match, None))
            assert not check_server_frame({"type": "table", "table": public})
            for seat in range(players):
                view = seat_view(table, public, seat)
                frame = {"type": "table", "table": view}
                assert not check_server_frame(frame), check_server_frame(frame)
                if single_deck:
                    assert_shows_nothing_hidden(view, number, hidden_from(match, seat))
                board = match.board_of(seat)
                if board is not None and seat in board.hands:
                    mine = view["mine"]
                    shown = [c for meld in mine["melds"] for c in meld] + mine["deadwood"]
                    assert sorted(shown) == sorted(code(c) for c in board.hands[seat])
                else:
                    assert view["mine"] is None
            spectator = seat_view(table, public, None)
            assert spectator["mine"] is None and spectator["you"] is None
            seat = rng.choice(match.to_act())
            board = match.board_of(seat)
            assert board is not None
            action = choose(board, "knocker", rng)
            legal = {
                (m["kind"], m["card"]) for m in seat_view(table, public, seat)["mine"]["moves"]
            }
            wanted = (action.kind.value, None if action.card is None else code(action.card))
            if action.kind is not ActionKind.LEAVE:
                assert wanted in legal, (wanted, legal)
            match.apply(action)
            table.move_count += 1
            steps += 1


def test_a_practice_with_the_coachs_hints_shows_no_other_suggestion() -> None:
    """The plain hint's ★ (the discard that leaves the least deadwood) marks a discard on the
    page as it does on Discord; at a practice with the coach's hints on, Discord shows the
    coach's move instead, and the page shows no other suggestion beside it."""
    table = table_of("classic", 2, Variant.CLASSIC, "coached-page")
    match = table.match
    assert match is not None and table.server.hints
    rng = random.Random(3)
    while not any(m["kind"] == "discard" for m in _mine(table)):
        board = match.board_of(match.to_act()[0])
        assert board is not None
        match.apply(choose(board, "knocker", rng))
        table.move_count += 1

    def starred() -> list[str]:
        return [m["card"] for m in _mine(table) if m["kind"] == "discard" and m["best"]]

    assert len(starred()) == 1
    table.vs_bot = True
    assert len(starred()) == 1  # a practice without the coach: the plain hint as before
    table.meta.coach = True
    assert starred() == []


def _mine(table: Table) -> list[dict[str, object]]:
    """The moves the seat to act is offered on its page."""
    assert table.match is not None
    seat = table.match.to_act()[0]
    moves: list[dict[str, object]] = seat_view(table, public_view(table), seat)["mine"]["moves"]
    return moves

"""Small things players read: elimination's table names no score it does not keep, a lobby
that started lists no free seat, and a chained lay-off is said as the cards land."""

from __future__ import annotations

from bot.gin import parse_card
from bot.gin.match import Match, Player
from bot.gin.settings import Settings
from bot.render.lobby import LobbySeat, lobby_panel
from bot.render.showdown import laid_off
from bot.render.table import table_panel
from bot.server_settings import ServerSettings

PLAYERS = [Player(str(n), name) for n, name in enumerate(("Ann", "Bob", "Cal", "Dan"), 1)]


def cards(text: str) -> list[object]:
    return [parse_card(c) for c in text.split()]


def test_elimination_table_shows_who_is_in_not_a_score() -> None:
    match = Match.start(PLAYERS, Settings(), seed="elim", mode="elimination")
    text = table_panel(match).body
    assert "Score:" not in text and "In play: Ann, Bob, Cal, Dan" in text, text
    classic = Match.start(PLAYERS[:2], Settings(), seed="classic")
    assert "**Score:** Ann 0 · Bob 0" in table_panel(classic).body


def test_a_started_lobby_lists_only_the_seats_taken() -> None:
    seats = [LobbySeat("Ann", host=True), LobbySeat("Bob"), LobbySeat("Cal")]
    server = ServerSettings()
    open_lobby = lobby_panel("elimination", 7, seats, server).body
    assert "7. *free*" in open_lobby
    for state in ("started", "closed"):
        text = lobby_panel("elimination", 7, seats, server, state=state).body
        assert "*free*" not in text and "3. " in text and "4. " not in text, text


def test_a_card_laid_off_on_a_card_laid_off_goes_on_the_meld_it_made() -> None:
    run = cards("5♥ 6♥ 7♥")
    steps = laid_off([run, cards("9♠ 9♣ 9♦")], [(parse_card("4♥"), 0), (parse_card("3♥"), 0)])
    assert [(str(card), " ".join(map(str, meld))) for card, meld in steps] == [
        ("4♥", "5♥ 6♥ 7♥"),
        ("3♥", "4♥ 5♥ 6♥ 7♥"),
    ]
    ends = laid_off([run], [(parse_card("8♥"), 0), (parse_card("4♥"), 0)])
    assert " ".join(map(str, ends[1][1])) == "5♥ 6♥ 7♥ 8♥"

"""One story for the score during play (points and boxes toward the target), and showdowns
that draw their cards with whatever face the screen uses."""

from __future__ import annotations

import random

from bot.gin.cards import DECK, Card, parse_card, parse_cards
from bot.gin.hand import Action, ActionKind, Outcome, Phase
from bot.gin.match import Match, Player
from bot.gin.settings import Settings
from bot.render.common import scores_line
from bot.render.result import match_over_panel
from bot.render.showdown import showdown_panel
from tests.gin.players import choose


def played(hands: int, seed: str = "story") -> Match:
    """A match after ``hands`` hands with a winner each (void hands do not count)."""
    match = Match.start([Player("1", "Alice"), Player("2", "Bob")], seed=seed)
    rng = random.Random(seed)
    while sum(1 for r in match.history if r.result.winner is not None) < hands:
        match.apply(choose(match.hand, "knocker", rng))
    return match


def test_before_any_hand_is_won_the_line_shows_points_and_the_target() -> None:
    match = played(0)
    assert scores_line(match) == "Alice 0 · Bob 0 · to 100"


def test_each_side_shows_its_boxes_once_it_has_won_a_hand() -> None:
    match = played(3)
    line = scores_line(match)
    for seat, player in enumerate(match.players):
        boxes = match.hands_won[seat]
        if boxes == 0:
            expected = f"{player.name} {match.scores[seat]} ·"
        else:
            expected = f"{player.name} {match.scores[seat]} ({boxes} box{'es' * (boxes > 1)})"
        assert expected in line, line
    assert line.endswith("· to 100")
    assert sum(match.hands_won) == 3


def test_a_showdown_draws_its_cards_with_the_face_it_is_given() -> None:
    match = played(1)
    record = next(r for r in match.history if r.result.outcome is not Outcome.VOID)

    def face(card: Card) -> str:
        return f"<:gin_{int(card)}:1>"

    text = showdown_panel(match, record.number, record.result).body
    drawn = showdown_panel(match, record.number, record.result, face=face).body
    arrangement = record.result.knocker_arrangement
    assert arrangement is not None
    for card in arrangement.melds[0]:
        assert str(card) in text.split("\n")[0]
        assert face(card) in drawn
    assert "<:gin_" not in text


def test_a_player_shut_out_reads_as_no_hand_won() -> None:
    for n in range(300):
        match = Match.start(
            [Player("1", "Alice"), Player("2", "Bob")], Settings(target=50), seed=f"out{n}"
        )
        rng = random.Random(n)
        while not match.is_over:
            match.apply(choose(match.hand, "knocker", rng))
        result = match.result
        assert result is not None
        if result.shutout:
            loser = match.players[1 - result.winner].name
            body = match_over_panel(match, result).body
            assert f"**{loser}: 0** (no hand won)" in body
            assert "0 for 0 hands won" not in body
            return
    raise AssertionError("no shutout in 300 matches")


THREE = [Player(str(i), name) for i, name in enumerate(["Alice", "Bob", "Carol"], 1)]


def knock_for_13(match: Match) -> None:
    """The first player of the hand knocks and wins 13 (6 against 19), which may end it."""
    board = match.hand
    knocker, other = board.seats
    board.hands = {
        knocker: parse_cards("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠"),
        other: parse_cards("Q♦ 5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣"),
    }
    used = {c for cards in board.hands.values() for c in cards} | {parse_card("4♦")}
    board.discard_pile, board.stock = [parse_card("4♦")], [c for c in DECK if c not in used]
    board.phase, board.turn, board.taken_from_discard = Phase.DISCARD, knocker, None
    match.apply(Action(ActionKind.KNOCK, knocker, parse_card("K♠")))


def three_at_the_end(scores: dict[str, int], hands: dict[str, int], settings: Settings) -> Match:
    """A three-player match ended by the knocker's 13, the totals and hands won before it
    given by role: the ``knocker``, the ``other`` player of the hand, the ``sitter``."""
    match = Match.start(THREE, settings, seed="tie", mode="three")
    knocker, other = match.hand.seats
    roles = {"knocker": knocker, "other": other, "sitter": match.hand.dealer}
    for role, seat in roles.items():
        match.scores[seat], match.hands_won[seat] = scores[role], hands[role]
    knock_for_13(match)
    return match


def test_the_result_says_which_rule_placed_players_level_on_final_score() -> None:
    flat = Settings(target=100, game_bonus=0, box_bonus=0)
    scores = {"knocker": 90, "other": 103, "sitter": 103}  # all three end on 103
    match = three_at_the_end(scores, {"knocker": 3, "other": 2, "sitter": 4}, flat)
    assert match.result is not None
    body = match_over_panel(match, match.result).body
    knocker, other = (match.players[s].name for s in match.history[-1].seats)
    sitter = match.players[match.history[-1].dealer].name
    assert (
        f"⚖️ {knocker} and {sitter} tie on 103: {knocker} reached the target, so places "
        "higher." in body
    ), body
    assert (
        f"⚖️ {sitter} and {other} tie on 103: {sitter} won more hands (4 to 2), so places "
        "higher." in body
    ), body
    assert body.index("⚖️") < body.index("🏆") and f"🏆 **{knocker} wins" in body
    # Level on hands won too: they share the place, and the result says so.
    match = three_at_the_end(scores, {"knocker": 3, "other": 2, "sitter": 2}, flat)
    assert match.result is not None
    body = match_over_panel(match, match.result).body
    first, second = sorted((other, sitter), key=lambda n: [p.name for p in THREE].index(n))
    assert f"⚖️ {first} and {second} tie on 103 and on hands won: they share 2nd place." in body
    assert body.count("2nd.") == 2 and "3rd." not in body, body


def test_a_player_who_left_is_listed_last_with_their_points() -> None:
    match = Match.start(THREE, Settings(), seed="tie", mode="three")
    sitter = match.hand.dealer
    match.scores, match.hands_won = [90, 90, 90], [1, 1, 1]
    match.scores[sitter] = 95
    match.leave(sitter)
    knock_for_13(match)
    assert match.result is not None
    body = match_over_panel(match, match.result).body
    name = match.players[sitter].name
    assert f"3rd. **{name}: 95** = 95 hand points — left the match" in body, body
    assert f"~~{name}~~ left" in scores_line(match)


def test_two_players_level_at_the_end_read_who_reached_the_target() -> None:
    match = Match.start(THREE[:2], Settings(target=100, game_bonus=0, box_bonus=0), seed="2")
    knocker, other = match.hand.seats
    match.scores[knocker], match.scores[other] = 90, 103
    knock_for_13(match)
    assert match.result is not None and match.result.winner == knocker
    body = match_over_panel(match, match.result).body
    k, o = match.players[knocker].name, match.players[other].name
    assert f"⚖️ {k} and {o} tie on 103: {k} reached the target, so places higher." in body

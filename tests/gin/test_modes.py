"""RULES.md section 10: three players, two teams of two, elimination for up to 14."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bot.gin.cards import DECK, parse_card, parse_cards
from bot.gin.errors import IllegalMove
from bot.gin.hand import Action, ActionKind, Hand, Outcome, Phase
from bot.gin.match import EndReason, Match, MatchResult, Player, TieBreak, TieRule
from bot.gin.modes import cut_for_teams, decks_for, find_mode
from bot.gin.settings import SetSuits, Settings, SitOut

NAMES = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]
PEOPLE = [Player(str(i), name) for i, name in enumerate(NAMES)]
KNOCK_6_WIN_13 = ("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠", "Q♦ 5♠ K♥ 9♣ 7♥ 8♥ 9♥ A♣ 2♣ 3♣")
UNDERCUT_26 = ("2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠", "Q♦ 5♠ 7♥ 8♥ 9♥ A♣ 2♣ 3♣ 2♥ 3♥")
K = parse_card("K♠")


def rig(board: Hand, knocker: int, cards: tuple[str, str]) -> None:
    """Give the board's two players these cards, the knocker to discard K♠ and knock."""
    other = next(s for s in board.seats if s != knocker)
    board.hands = {knocker: parse_cards(cards[0]), other: parse_cards(cards[1])}
    used = set(board.hands[knocker]) | set(board.hands[other]) | {parse_card("4♦")}
    board.discard_pile = [parse_card("4♦")]
    board.stock = [c for c in DECK if c not in used]
    board.phase, board.turn, board.taken_from_discard = Phase.DISCARD, knocker, None


def knock(match: Match, seat: int):  # type: ignore[no-untyped-def]
    return match.apply(Action(ActionKind.KNOCK, seat, K))


def conserved(match: Match) -> None:
    """Every card of every deck is somewhere, once, on every board."""
    for board in match.boards:
        cards = [c for hand in board.hands.values() for c in hand]
        cards += board.stock + board.discard_pile + board.set_aside
        if board.result is not None and board.result.knock_discard is not None:
            cards.append(board.result.knock_discard)
        assert Counter(cards) == Counter(DECK * board.rules.decks)


# --- finding modes, bounds --------------------------------------------------------------------


def test_modes_are_found_by_name_and_alias() -> None:
    assert find_mode("classic").name == "classic"
    assert find_mode("Elim").name == "elimination"
    with pytest.raises(ValueError, match="unknown mode"):
        find_mode("poker")


@pytest.mark.parametrize(
    ("mode", "bad"), [("classic", 3), ("three", 2), ("three", 4), ("teams", 3), ("teams", 5)]
)
def test_each_mode_has_its_player_count(mode: str, bad: int) -> None:
    with pytest.raises(ValueError, match="played by"):
        Match.start(PEOPLE[:bad], mode=mode)


def test_elimination_takes_2_to_14_players() -> None:
    many = [Player(str(i), f"P{i}") for i in range(15)]
    for n in (2, 14):
        assert len(Match.start(many[:n], seed="n", mode="elimination").players) == n
    with pytest.raises(ValueError):
        Match.start(many[:1], mode="elimination")
    with pytest.raises(ValueError):
        Match.start(many, mode="elimination")


def test_mode_settings_have_bounds() -> None:
    from bot.gin.errors import SettingsError

    with pytest.raises(SettingsError, match="team target"):
        Settings(team_target=40)
    with pytest.raises(SettingsError, match="sits out"):
        Settings(sit_out="dealer")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="suits"):
        Settings(set_suits="same")  # type: ignore[arg-type]
    assert Settings(sit_out="loser").sit_out is SitOut.LOSER  # type: ignore[arg-type]
    assert Settings().team_target == 125


# --- three players ------------------------------------------------------------------------------


def test_three_the_dealer_sits_out_and_the_left_player_starts() -> None:
    match = Match.start(PEOPLE[:3], seed="three", mode="three")
    dealer = match.hand.dealer
    assert dealer not in match.hand.seats
    assert match.hand.seats == ((dealer + 1) % 3, (dealer + 2) % 3)
    assert match.hand.turn == (dealer + 1) % 3
    assert match.cuts[-1][dealer].rank == min(c.rank for c in match.cuts[-1])
    with pytest.raises(IllegalMove, match="sit this hand out"):
        match.apply(Action(ActionKind.PASS, dealer))


def test_three_rotate_passes_the_deal_left_and_void_keeps_it() -> None:
    match = Match.start(PEOPLE[:3], seed="rot", mode="three")
    dealer = match.hand.dealer
    knocker = match.hand.seats[0]
    rig(match.hand, knocker, KNOCK_6_WIN_13)
    knock(match, knocker)
    assert match.hand.dealer == (dealer + 1) % 3 and match.scores[knocker] == 13
    # A void hand: the same dealer deals again.
    board = match.hand
    board.stock = board.stock[:3]
    seat = board.turn
    match.apply(Action(ActionKind.PASS, seat))
    match.apply(Action(ActionKind.PASS, board.next_seat(seat)))
    match.apply(Action(ActionKind.DRAW_STOCK, seat))
    report = match.apply(Action(ActionKind.DISCARD, seat, match.hand.hands[seat][0]))
    assert report.finished_hand is not None
    assert report.finished_hand.result.outcome is Outcome.VOID
    assert match.hand.dealer == (dealer + 1) % 3


def test_three_loser_deals_and_the_winner_plays_the_sitter() -> None:
    match = Match.start(PEOPLE[:3], Settings(sit_out=SitOut.LOSER), seed="loser", mode="three")
    sitter = match.hand.dealer
    knocker, loser = match.hand.seats
    rig(match.hand, knocker, KNOCK_6_WIN_13)
    knock(match, knocker)
    assert match.hand.dealer == loser
    assert set(match.hand.seats) == {knocker, sitter}


def test_three_reaching_the_target_ends_with_bonuses_and_places() -> None:
    match = Match.start(PEOPLE[:3], seed="end", mode="three")
    knocker = match.hand.seats[0]
    sitter = match.hand.dealer
    defender = match.hand.seats[1]
    match.scores = [0, 0, 0]
    match.scores[knocker] = 90
    match.hands_won[knocker] = 3
    rig(match.hand, knocker, KNOCK_6_WIN_13)
    result = knock(match, knocker).result
    assert result is not None and result.reason is EndReason.TARGET
    # Neither other player won a hand: the game bonus is doubled (a shutout).
    assert result.shutout and result.game_bonus[knocker] == 200
    assert result.final[knocker] == 103 + 200 + 4 * 25
    assert result.placings[knocker] == 1
    # The two others are level on everything (0, no hand won): they share second place,
    # and the result says so.
    assert result.placings[defender] == result.placings[sitter] == 2
    low, high = sorted((defender, sitter))
    assert result.tie_breaks == (TieBreak(low, high, TieRule.SHARED),)


def test_three_level_final_scores_are_placed_by_the_target_then_hands_won() -> None:
    match = Match.start(PEOPLE[:3], Settings(game_bonus=0, box_bonus=0), seed="tie", mode="three")
    knocker, defender = match.hand.seats
    sitter = match.hand.dealer
    match.scores[knocker], match.scores[defender], match.scores[sitter] = 90, 103, 103
    match.hands_won[knocker], match.hands_won[defender], match.hands_won[sitter] = 3, 2, 4
    rig(match.hand, knocker, KNOCK_6_WIN_13)
    result = knock(match, knocker).result
    assert result is not None and result.final == tuple(103 for _ in range(3))  # all level on 103
    # The knocker reached the target: first; of the other two, more hands won places higher.
    assert result.placings[knocker] == 1
    assert result.placings[sitter] == 2 and result.placings[defender] == 3
    assert result.tie_breaks == (
        TieBreak(knocker, sitter, TieRule.TARGET),
        TieBreak(sitter, defender, TieRule.HANDS),
    )
    assert MatchResult.from_dict(result.to_dict()) == result


def test_three_leaving_while_sitting_out_the_hand_goes_on_then_two_play() -> None:
    """A player who leaves is out; the two others play on as two players: the hand being
    played goes on, and the next one is dealt to the two (the loser of the hand deals)."""
    match = Match.start(PEOPLE[:3], seed="sat", mode="three")
    sitter = match.hand.dealer
    knocker, loser = match.hand.seats
    report = match.leave(sitter, EndReason.FORFEIT)
    assert report.result is None and report.finished_hand is None
    assert report.action == Action(ActionKind.LEAVE, sitter) and report.went_out == sitter
    assert match.dropped == [sitter] and match.in_play == sorted((knocker, loser))
    assert match.hand.seats == (knocker, loser) and not match.hand.is_over
    with pytest.raises(IllegalMove, match="You left this match; the others play on"):
        match.apply(Action(ActionKind.PASS, sitter))
    rig(match.hand, knocker, KNOCK_6_WIN_13)
    knock(match, knocker)
    # Two players now: the loser deals (the two-player game's next dealer), and plays.
    assert match.hand.dealer == loser and match.hand.seats == (knocker, loser)
    assert match.hand.turn == knocker
    with pytest.raises(IllegalMove, match="not playing this match"):
        match.leave(sitter)


def test_three_leaving_mid_hand_leaves_it_unplayed_and_the_sitter_deals_the_two() -> None:
    match = Match.start(PEOPLE[:3], seed="mid", mode="three")
    sitter = match.hand.dealer
    stays, leaves = match.hand.seats
    match.scores = [10, 20, 30]
    match.apply(Action(ActionKind.PASS, stays))
    report = match.leave(leaves)
    assert report.result is None and report.went_out == leaves
    record = report.finished_hand
    assert record is not None and record.number == 1
    assert record.result.outcome is Outcome.VOID and record.result.left == leaves
    assert record.actions[-1] == Action(ActionKind.LEAVE, leaves)
    assert report.scored is not None and report.scored.side is None
    assert match.scores == [10, 20, 30]  # nobody scores the hand left unplayed
    # The hand's dealer, who sat it out, deals the next to the other player and themself.
    assert match.hand_number == 2
    assert match.hand.dealer == sitter and match.hand.seats == (stays, sitter)
    conserved(match)
    # Replayed from its moves (replays, the coach), the hand ends the same way.
    replayed = Hand.replay(
        record.seats,
        record.dealer,
        tuple(p.name for p in PEOPLE[:3]),
        match.settings,
        record.seed,
        list(record.actions),
    )
    assert replayed.result == record.result
    assert Match.from_dict(json.loads(json.dumps(match.to_dict()))) == match


def test_three_after_a_leave_the_two_play_to_the_target_and_the_leaver_is_last() -> None:
    match = Match.start(PEOPLE[:3], seed="two", mode="three")
    sitter = match.hand.dealer
    knocker, defender = match.hand.seats
    match.scores[sitter], match.hands_won[sitter] = 95, 4  # ahead, and leaves
    match.scores[knocker], match.hands_won[knocker] = 90, 1
    match.leave(sitter)
    rig(match.hand, knocker, KNOCK_6_WIN_13)
    result = knock(match, knocker).result
    assert result is not None and result.reason is EndReason.TARGET and result.loser is None
    # The leaver keeps their points, with no bonus, and is placed last whatever they scored;
    # their hands won still count against a shutout.
    assert not result.shutout
    assert result.final[sitter] == 95 and result.box_bonus[sitter] == 0
    assert result.final[knocker] == 103 + 100 + 2 * 25
    assert result.placings[knocker] == 1 and result.placings[defender] == 2
    assert result.placings[sitter] == 3
    assert result.tie_breaks == ()


def test_three_the_second_to_leave_ends_the_match_for_the_one_left() -> None:
    match = Match.start(PEOPLE[:3], seed="ff", mode="three")
    match.scores = [30, 50, 10]
    assert match.resign(1, EndReason.FORFEIT) is None  # the two others play on
    last = next(s for s in match.in_play if s in match.hand.seats)
    report = match.leave(last)
    result = report.result
    assert result is not None and result.reason is EndReason.RESIGN and result.loser == last
    alone = match.in_play[0]
    # The one left wins; those who left below, the first to leave last; points stand.
    assert result.winner == alone and result.placings[alone] == 1
    assert result.placings[last] == 2 and result.placings[1] == 3
    assert result.final == (30, 50, 10) and result.box_bonus == (0, 0, 0)
    assert report.finished_hand is None  # the hand was not played out: nothing to record


# --- teams -------------------------------------------------------------------------------------


def test_teams_by_cut_two_lowest_against_two_highest_partners_across() -> None:
    for i in range(30):
        cuts, sides, low = cut_for_teams(f"t{i}", None)
        cut = cuts[-1]
        ranks = sorted(c.rank for c in cut)
        assert all((cut[p].rank <= ranks[1]) == (sides[p] == 0) for p in range(4))
        assert cut[low].rank == ranks[0] and sides[low] == 0
        match = Match.start(PEOPLE[:4], seed=f"t{i}", mode="teams")
        assert match.sides == (0, 1, 0, 1) and match.dealing_side == 0
        assert {p.id for p in match.players} == {p.id for p in PEOPLE[:4]}


def test_teams_picked_sides_are_kept() -> None:
    picks: list[int | None] = [1, 0, None, 1]
    match = Match.start(PEOPLE[:4], seed="picks", mode="teams", teams=picks)
    side_of = {p.id: match.side_of(seat) for seat, p in enumerate(match.players)}
    together = {side_of[PEOPLE[0].id], side_of[PEOPLE[3].id]}
    assert len(together) == 1 and side_of[PEOPLE[1].id] != side_of[PEOPLE[0].id]
    assert side_of[PEOPLE[2].id] == side_of[PEOPLE[1].id]
    with pytest.raises(ValueError):
        Match.start(PEOPLE[:4], seed="bad", mode="teams", teams=[0, 0, 0, None])


def test_teams_two_games_each_hand_and_partners_switch_opponents() -> None:
    match = Match.start(PEOPLE[:4], seed="boards", mode="teams")
    assert len(match.boards) == 2
    assert [set(b.seats) for b in match.boards] == [{0, 1}, {2, 3}]
    for board in match.boards:
        assert match.side_of(board.dealer) == match.dealing_side
        assert board.turn != board.dealer
    rig(match.boards[0], 0, KNOCK_6_WIN_13)
    report = knock(match, 0)
    assert report.finished_hand is not None and report.scored is None
    assert match.scores == [0, 0] and match.hand_number == 1  # the other game goes on
    with pytest.raises(IllegalMove, match="other game"):
        match.apply(Action(ActionKind.DRAW_STOCK, 1))
    rig(match.boards[1], 2, KNOCK_6_WIN_13)
    report = knock(match, 2)
    assert report.scored is not None and report.scored.side == 0 and report.scored.points == 26
    assert match.scores == [26, 0] and match.hands_won == [1, 0]
    assert match.hand_number == 2
    assert [set(b.seats) for b in match.boards] == [{0, 3}, {2, 1}]
    assert match.dealing_side == 1  # the team that lost the hand deals both games


def test_teams_rotate_off_keeps_the_pairs() -> None:
    settings = Settings(rotate_opponents=False)
    match = Match.start(PEOPLE[:4], settings, seed="same", mode="teams")
    rig(match.boards[0], 0, KNOCK_6_WIN_13)
    knock(match, 0)
    rig(match.boards[1], 2, KNOCK_6_WIN_13)
    knock(match, 2)
    assert [set(b.seats) for b in match.boards] == [{0, 1}, {2, 3}]


def test_teams_a_split_hand_scores_the_difference() -> None:
    """Ann (seat 0) wins her game by 13; her partner Cal (seat 2) knocks and is undercut for
    26: their opponents' team scores 26 - 13 = 13 and wins the box."""
    match = Match.start(PEOPLE[:4], seed="split", mode="teams")
    rig(match.boards[0], 0, KNOCK_6_WIN_13)
    knock(match, 0)
    rig(match.boards[1], 2, UNDERCUT_26)
    report = knock(match, 2)
    assert report.scored is not None
    assert report.scored.board_points == ((0, 13), (1, 26))
    assert (report.scored.side, report.scored.points) == (1, 13)
    assert match.scores == [0, 13] and match.hands_won == [0, 1]


def test_teams_one_void_game_leaves_the_other_and_two_void_games_redeal() -> None:
    match = Match.start(PEOPLE[:4], seed="void", mode="teams")

    def void(board: Hand) -> None:
        board.stock = board.stock[:3]
        seat = board.turn
        match.apply(Action(ActionKind.PASS, seat))
        match.apply(Action(ActionKind.PASS, board.next_seat(seat)))
        match.apply(Action(ActionKind.DRAW_STOCK, seat))
        match.apply(Action(ActionKind.DISCARD, seat, board.hands[seat][0]))

    dealing, pairing = match.dealing_side, match.pairing
    void(match.boards[0])
    void(match.boards[1])
    assert match.scores == [0, 0] and match.hand_number == 2
    assert (match.dealing_side, match.pairing) == (dealing, pairing)  # the same deal again
    void(match.boards[0])
    rig(match.boards[1], match.boards[1].seats[0], KNOCK_6_WIN_13)
    knocker = match.boards[1].turn
    knock(match, knocker)
    assert match.scores[match.side_of(knocker)] == 13


def test_teams_play_to_the_team_target_with_team_bonuses() -> None:
    match = Match.start(PEOPLE[:4], seed="tt", mode="teams")
    match.scores, match.hands_won = [100, 40], [4, 2]
    rig(match.boards[0], 0, KNOCK_6_WIN_13)
    knock(match, 0)
    rig(match.boards[1], 2, KNOCK_6_WIN_13)
    result = knock(match, 2).result
    assert result is not None and not result.shutout
    assert result.points == (126, 40) and result.game_bonus == (100, 0)
    assert result.box_bonus == (125, 50) and result.final == (351, 90)
    assert result.placings == (1, 2, 1, 2)


def test_teams_resigning_loses_for_the_team() -> None:
    match = Match.start(PEOPLE[:4], seed="tr", mode="teams")
    result = match.resign(3)
    assert result is not None and result.placings == (1, 2, 1, 2)


# --- elimination ---------------------------------------------------------------------------------


def test_decks_by_player_count() -> None:
    assert [decks_for(n) for n in range(2, 15)] == [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4]


def test_elimination_deals_everyone_with_no_pass_round() -> None:
    match = Match.start(PEOPLE[:6], seed="e6", mode="elimination")
    board = match.hand
    assert board.rules.decks == 2 and not board.rules.knocking and board.rules.reshuffle
    assert len(board.seats) == 6 and board.seats[-1] == board.dealer
    assert all(len(cards) == 10 for cards in board.hands.values())
    assert board.phase is Phase.DRAW and board.turn == board.seats[0]
    kinds = {a.kind for a in board.legal_actions()}
    assert kinds == {ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD}
    with pytest.raises(IllegalMove, match="no passing"):
        match.apply(Action(ActionKind.PASS, board.turn))
    conserved(match)


def gin_position(match: Match, seat: int, cards: str, discard: str) -> None:
    """The seat to act holds these 11 cards (discarding ``discard`` goes gin)."""
    board = match.hand
    held = parse_cards(cards)
    pool = Counter(DECK * board.rules.decks)
    others = [s for s in board.seats if s != seat]
    for card in held:
        pool[card] -= 1
    rest = [c for c, n in sorted(pool.items()) for _ in range(n)]
    board.hands = {seat: held}
    for other in others:
        board.hands[other], rest = rest[:10], rest[10:]
    board.discard_pile, board.stock = rest[:1], rest[1:]
    board.phase, board.turn, board.taken_from_discard = Phase.DISCARD, seat, None
    assert parse_card(discard) in held


def test_elimination_knocking_is_refused_unless_gin() -> None:
    match = Match.start(PEOPLE[:3], seed="knock", mode="elimination")
    seat = match.hand.turn
    gin_position(match, seat, "2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ 6♣ K♠", "K♠")
    with pytest.raises(IllegalMove, match="only gin"):
        match.apply(Action(ActionKind.KNOCK, seat, K))
    assert not any(a.kind is ActionKind.KNOCK for a in match.hand.legal_actions())


def test_elimination_gin_with_identical_cards_goes_out_and_places_in_order() -> None:
    match = Match.start(PEOPLE[:5], seed="ident", mode="elimination")
    assert match.hand.rules.decks == 2
    seat = match.hand.turn
    gin_position(match, seat, "7♥ 7♥ 7♠ 2♣ 3♣ 4♣ 9♦ 10♦ J♦ Q♦ K♠", "K♠")
    report = knock(match, seat)
    assert report.went_out == seat and report.result is None
    assert report.finished_hand is not None
    assert report.finished_hand.result.outcome is Outcome.GIN
    melds = report.finished_hand.result.knocker_arrangement
    assert melds is not None and melds.deadwood == ()
    assert match.out == [seat] and seat not in match.hand.seats
    assert len(match.hand.seats) == 4 and match.hand.rules.decks == 1
    with pytest.raises(IllegalMove, match="1st place"):
        match.apply(Action(ActionKind.DRAW_STOCK, seat))


def test_elimination_different_suits_refuses_identical_cards_in_a_set() -> None:
    settings = Settings(set_suits=SetSuits.DIFFERENT)
    match = Match.start(PEOPLE[:5], settings, seed="diff", mode="elimination")
    seat = match.hand.turn
    gin_position(match, seat, "7♥ 7♥ 7♠ 2♣ 3♣ 4♣ 9♦ 10♦ J♦ Q♦ K♠", "K♠")
    with pytest.raises(IllegalMove, match="only gin"):
        knock(match, seat)


def test_elimination_reshuffles_the_pile_when_the_stock_runs_out() -> None:
    match = Match.start(PEOPLE[:3], seed="reshuffle", mode="elimination")
    board = match.hand
    board.discard_pile = board.discard_pile + board.stock[1:]
    board.stock = board.stock[:1]
    top = board.discard_pile[-1]
    seat = board.turn
    match.apply(Action(ActionKind.DRAW_STOCK, seat))
    discard = next(c for c in board.hands[seat])
    match.apply(Action(ActionKind.DISCARD, seat, discard))
    assert board.reshuffles == 1 and board.discard_pile == [discard]
    assert len(board.stock) > 10 and top in board.stock
    conserved(match)


def test_elimination_a_player_who_leaves_is_out_below_everyone_still_in() -> None:
    match = Match.start(PEOPLE[:4], seed="leave", mode="elimination")
    board = match.hand
    first = board.turn
    assert match.resign(first, EndReason.FORFEIT) is None  # the table plays on
    assert first not in board.seats and board.turn != first and len(board.seats) == 3
    conserved(match)
    winner = board.turn
    gin_position(match, winner, "2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ Q♦ K♠", "K♠")
    match.apply(Action(ActionKind.KNOCK, winner, K))
    left = match.in_play
    assert len(left) == 2
    result = match.resign(left[0])
    assert result is not None and result.loser == left[0]
    assert result.placings[winner] == 1 and result.placings[left[1]] == 2
    assert result.placings[left[0]] == 3 and result.placings[first] == 4


def test_elimination_resign_and_serialisation_round_trip() -> None:
    match = Match.start(PEOPLE[:7], seed="rt", mode="elimination")
    match.resign(match.hand.seats[2])
    data = json.loads(json.dumps(match.to_dict()))
    again = Match.from_dict(data)
    assert again == match and again.to_dict() == match.to_dict()
    replayed = Hand.replay(
        tuple(again.hand.seats) + tuple(again.dropped),  # dealt with everyone, then one left
        again.hand.dealer,
        again.hand.names,
        again.settings,
        again.hand.seed,
        [],
        again.hand.rules,
    )
    assert len(replayed.seats) == 7


def test_fourteen_players_play_with_four_decks() -> None:
    many = [Player(str(i), f"P{i}") for i in range(14)]
    match = Match.start(many, seed="14", mode="elimination")
    assert match.hand.rules.decks == 4 and len(match.hand.stock) == 4 * 52 - 141
    conserved(match)

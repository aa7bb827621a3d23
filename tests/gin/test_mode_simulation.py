"""Thousands of random legal hands in every mode, played by scripted players to the end of
their matches: cards are conserved (per deck), every hand holds the right number of cards,
every match ends, every way a hand or round can end occurs, and seeds plus moves replay it all.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import Phase as HPhase
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.gin.cards import DECK
from bot.gin.hand import Hand, Outcome, Phase
from bot.gin.match import EndReason, Match, MoveReport, Player
from bot.gin.settings import Settings, SitOut
from tests.gin.players import choose

# mixed: a random move half the time, else a hunter's
STYLES = ("mixed", "knocker", "hunter")
STALL = 120  # moves in one round after which every player plays "mixed"


def people(n: int) -> list[Player]:
    return [Player(str(i), f"P{i}") for i in range(n)]


def check_board(board: Hand, *, cards_too: bool = True) -> None:
    """Every hand holds the right number of cards and (``cards_too``) every card of every
    deck is somewhere, once."""
    if cards_too:
        cards = [c for hand in board.hands.values() for c in hand]
        cards += board.stock + board.discard_pile + board.set_aside
        if board.result is not None and board.result.knock_discard is not None:
            cards.append(board.result.knock_discard)
        assert Counter(cards) == Counter(DECK * board.rules.decks), "a card appeared or vanished"
    for seat, hand in board.hands.items():
        to_discard = board.phase is Phase.DISCARD and seat == board.turn
        expected = 11 if to_discard else 10
        if board.is_over and seat == (board.result.knocker if board.result else None):
            expected = 10 if board.result and board.result.knock_discard is not None else 11
        assert len(hand) == expected, f"seat {seat} holds {len(hand)} cards"


def play(
    mode: str, n: int, seed: str, rng: random.Random, match_settings: Settings, leave: float = 0
) -> tuple[Match, list[MoveReport], list[tuple[int, object]]]:
    """Play a match to its end with mixed styles; ``leave``: chance per move that a player
    resigns (three players, elimination) while more than two are in. Returns the match,
    every report and the log to replay it."""
    match = Match.start(people(n), match_settings, seed=seed, mode=mode)
    styles = [STYLES[(i + len(seed)) % 3] for i in range(n)]
    reports: list[MoveReport] = []
    log: list[tuple[int, object]] = []
    round_number, round_moves = match.hand_number, 0
    for _ in range(50_000):
        if match.is_over:
            break
        if leave and rng.random() < leave and len(match.in_play) > 2:
            seat = rng.choice(match.in_play)
            assert match.resign(seat, EndReason.FORFEIT) is None
            log.append((seat, "resign"))
            continue
        seat = rng.choice(match.to_act())
        board = match.board_of(seat)
        assert board is not None and board.turn == seat
        style = styles[seat]
        if match.hand_number != round_number:
            round_number, round_moves = match.hand_number, 0
        round_moves += 1
        if round_moves > STALL:
            style = "mixed"  # two careful players can lock each other's cards for ever
        if style == "mixed":
            style = "random" if rng.random() < 0.5 else "hunter"
        action = choose(board, style, rng)
        finished = board
        reports.append(match.apply(action))
        log.append((seat, action))
        check_board(finished, cards_too=finished.is_over or len(log) % 5 == 0)
        for current in match.boards:
            check_board(current, cards_too=current is not finished)
    else:
        raise AssertionError("the match never ended")
    assert match.result is not None and sorted(match.result.placings)[0] == 1
    return match, reports, log


def replay(mode: str, n: int, seed: str, match_settings: Settings, log: list) -> Match:  # type: ignore[type-arg]
    match = Match.start(people(n), match_settings, seed=seed, mode=mode)
    for seat, action in log:
        if action == "resign":
            match.resign(seat, EndReason.FORFEIT)
        else:
            match.apply(action)  # type: ignore[arg-type]
    return match


def test_three_players_thousands_of_hands() -> None:
    rng = random.Random(3)
    outcomes: Counter[Outcome] = Counter()
    sitters: Counter[str] = Counter()
    hands = 0
    for i in range(400):
        rule = SitOut.LOSER if i % 2 else SitOut.ROTATE
        match_settings = Settings(target=rng.choice([50, 100]), sit_out=rule)
        match, reports, log = play("three", 3, f"three-{i}", rng, match_settings)
        for report in reports:
            if report.finished_hand is not None:
                hands += 1
                outcomes[report.finished_hand.result.outcome] += 1
                sitters[rule] += 1
        if i < 5:
            assert replay("three", 3, f"three-{i}", match_settings, log) == match
    assert hands >= 1000, f"only {hands} hands"
    assert all(outcomes[o] for o in Outcome if o is not Outcome.BIG_GIN), outcomes
    assert sitters[SitOut.LOSER] and sitters[SitOut.ROTATE]


def test_three_players_play_on_as_two_after_one_leaves() -> None:
    rng = random.Random(33)
    left = unplayed = 0
    for i in range(150):
        match_settings = Settings(target=rng.choice([50, 100]), sit_out=SitOut.ROTATE)
        match, _, log = play("three", 3, f"leave-{i}", rng, match_settings, leave=0.01)
        result = match.result
        assert result is not None
        unplayed += sum(1 for h in match.history if h.result.left is not None)
        if not match.dropped:
            continue
        left += 1
        [gone] = match.dropped
        # Out, placed last with no bonus; the two others played on to the target.
        assert result.reason is EndReason.TARGET and result.placings[gone] == 3
        assert result.final[gone] == match.scores[gone]
        # A hand without them: they dealt and sat it out, or it was dealt after they left,
        # to the two others, its dealer playing.
        without = [h for h in match.history if gone not in h.seats]
        assert all(h.dealer == gone or h.dealer in h.seats for h in without)
        if left <= 5:
            assert replay("three", 3, f"leave-{i}", match_settings, log) == match
    assert left >= 30, left
    assert unplayed, "no hand was left unplayed"


def test_teams_thousands_of_games_with_split_and_void_hands() -> None:
    rng = random.Random(4)
    split = void_game = void_hand = games = 0
    for i in range(170):
        match_settings = Settings(
            team_target=rng.choice([50, 125]), knock_limit=rng.choice([0, 10])
        )
        match, reports, log = play("teams", 4, f"teams-{i}", rng, match_settings)
        for report in reports:
            if report.finished_hand is not None:
                games += 1
            scored = report.scored
            if scored is None:
                continue
            sides = [side for side, _ in scored.board_points]
            if None in sides:
                void_game += 1
            if sides == [None, None]:
                void_hand += 1
            if None not in sides and sides[0] != sides[1]:
                split += 1  # one partner won, the other lost
        assert match.result is not None and match.result.placings.count(1) == 2
        if i < 5:
            assert replay("teams", 4, f"teams-{i}", match_settings, log) == match
    assert games >= 1000, f"only {games} games"
    assert split and void_game and void_hand, (split, void_game, void_hand)


def test_elimination_thousands_of_rounds_with_reshuffles_and_players_going_out() -> None:
    rng = random.Random(5)
    rounds = reshuffled = outs = left = 0
    for i in range(240):
        n = rng.choice([3, 4, 5, 6, 7, 8, 9]) if i % 40 else 14
        match, reports, log = play(
            "elimination", n, f"elim-{i}", rng, Settings(), leave=0.002 if i % 3 == 0 else 0
        )
        seen_boards = set()
        for report in reports:
            record = report.finished_hand
            if record is not None:
                rounds += 1
                assert report.went_out == record.result.winner
                outs += 1
        for board in match.boards:
            seen_boards.add(id(board))
            reshuffled += board.reshuffles
        reshuffled += sum(
            Hand.replay(
                h.seats,
                h.dealer,
                match.hand.names,
                match.settings,
                h.seed,
                list(h.actions),
                h.rules,
            ).reshuffles
            for h in match.history
        )
        left += len(match.dropped)
        placings = match.result.placings if match.result else ()
        assert sorted(placings) == list(range(1, n + 1))
        order = [
            *match.out,
            *[s for s in range(n) if s not in match.out and s not in match.dropped],
        ]
        assert [placings[s] for s in order] == list(range(1, len(order) + 1))
        if i < 5:
            assert replay("elimination", n, f"elim-{i}", Settings(), log) == match
    assert rounds >= 1000, f"only {rounds} rounds"
    assert reshuffled and outs and left, (reshuffled, outs, left)


@settings(max_examples=15, deadline=None, phases=[HPhase.explicit, HPhase.generate])
@given(
    mode=st.sampled_from(["classic", "three", "teams", "elimination"]),
    seed=st.text(min_size=1, max_size=8),
    players=st.integers(min_value=2, max_value=14),
)
def test_every_mode_conserves_cards_and_ends(mode: str, seed: str, players: int) -> None:
    n = {"classic": 2, "three": 3, "teams": 4}.get(mode, players)
    rng = random.Random(seed)
    match, _, log = play(mode, n, seed, rng, Settings(target=50, team_target=50))
    again = Match.from_dict(match.to_dict())
    assert again == match
    assert replay(mode, n, seed, Settings(target=50, team_target=50), log) == match

"""A match stopped by the round's time limit: the leader wins; on equal points, the player
not on the clock."""

from __future__ import annotations

from bot.gin.hand import Action, ActionKind
from bot.gin.match import Match, Player
from bot.tournaments.timelimit import AtDeadline, DecidedBy, Decision, at_deadline, decide


def test_the_leader_on_points_wins() -> None:
    assert decide(AtDeadline((40, 25), on_clock=0)) == Decision(0, DecidedBy.POINTS)
    assert decide(AtDeadline((0, 31), on_clock=1)) == Decision(1, DecidedBy.POINTS)


def test_equal_points_go_to_the_player_not_on_the_clock() -> None:
    assert decide(AtDeadline((30, 30), on_clock=0)) == Decision(1, DecidedBy.CLOCK)
    assert decide(AtDeadline((30, 30), on_clock=1)) == Decision(0, DecidedBy.CLOCK)
    assert decide(AtDeadline((0, 0), on_clock=None)) == Decision(0, DecidedBy.SEAT)
    assert Decision(0, DecidedBy.SEAT).loser == 1


def test_a_stored_match_is_read_as_it_stands() -> None:
    match = Match.start([Player("ann", "Ann"), Player("ben", "Ben")], seed="deadline-test")
    turn = match.hand.turn
    assert at_deadline(match.to_dict(history=False)) == AtDeadline((0, 0), turn)
    match.apply(Action(ActionKind.PASS, turn))
    after = at_deadline(match.to_dict(history=False))
    assert after.on_clock == match.hand.turn != turn
    match.scores = [12, 30]
    assert decide(at_deadline(match.to_dict(history=False))).winner == 1
    assert at_deadline(None) == AtDeadline((0, 0), None)

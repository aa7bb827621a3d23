"""The hand-off policy, case by case: which message carries a seat's turn after a change."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from bot.gin.hand import Action, ActionKind, Hand
from bot.gin.match import Match, Player
from bot.gin.settings import Settings
from cogs.gin.screens import handoff
from cogs.gin.screens.handoff import FALLBACK, Delivery, Handoff, SeatState, decide

# A waiting player whose DM hand is there and up to date, with nothing pending.
QUIET = SeatState(
    committing=False,
    turn_begun=False,
    looking=True,
    dm_closed=False,
    dm_hand=True,
    dm_current=True,
    dm_dormant=False,
    carrier=False,
)
# A player who plays from the channel: their reply carries their hand, their DM says so.
IN_CHANNEL = replace(QUIET, carrier=True, dm_current=False, dm_dormant=True)


def test_a_screen_that_shows_what_it_should_is_left_alone() -> None:
    assert decide(QUIET) == Handoff()


def test_nothing_is_done_while_a_move_is_being_committed() -> None:
    """Its own sync follows and shows it, with its buttons."""
    busy = replace(QUIET, committing=True, turn_begun=True, looking=False, dm_current=False)
    assert decide(busy) == Handoff()


def test_a_hand_without_its_dm_gets_one() -> None:
    no_dm = replace(QUIET, dm_hand=False, dm_current=False)
    assert decide(no_dm) == Handoff((Delivery.SEND_DM,))


def test_a_dm_hand_behind_the_game_is_edited() -> None:
    assert decide(replace(QUIET, dm_current=False)) == Handoff((Delivery.EDIT_DM,))


def test_a_watching_players_turn_is_a_silent_edit() -> None:
    """A player who moved moments ago sees the new buttons: no notification now (one
    follows if they do not take the turn up: see the looking tests)."""
    turn = replace(QUIET, turn_begun=True, dm_current=False)
    assert decide(turn) == Handoff((Delivery.EDIT_DM,), silent=True)


def test_a_player_who_looked_away_gets_their_turn_as_a_fresh_dm() -> None:
    turn = replace(QUIET, turn_begun=True, looking=False, dm_current=False)
    assert decide(turn) == Handoff((Delivery.ALERT_DM,))


def test_a_channel_player_who_looked_away_is_alerted_by_dm_too() -> None:
    """The alert is their live hand from then on (the reply says where it went)."""
    turn = replace(IN_CHANNEL, turn_begun=True, looking=False)
    assert decide(turn) == Handoff((Delivery.ALERT_DM,))


def test_a_move_from_the_channel_makes_the_dm_hand_say_where_the_hand_is() -> None:
    """The reply shows the move and carries the hand; the DM hand loses its buttons."""
    moved = replace(QUIET, carrier=True, dm_current=False)
    assert decide(moved) == Handoff((Delivery.EDIT_CARRIER, Delivery.DORMANT_DM))


def test_a_new_hand_played_from_the_channel_gets_its_dm_as_that_line() -> None:
    new_hand = replace(QUIET, carrier=True, dm_hand=False, dm_current=False)
    assert decide(new_hand) == Handoff((Delivery.EDIT_CARRIER, Delivery.SEND_DORMANT))


def test_the_turn_of_a_channel_player_still_watching_goes_on_their_reply_silently() -> None:
    turn = replace(IN_CHANNEL, turn_begun=True)
    assert decide(turn) == Handoff((Delivery.EDIT_CARRIER,), silent=True)


def test_a_channel_players_dm_line_is_not_edited_again() -> None:
    assert decide(IN_CHANNEL) == Handoff((Delivery.EDIT_CARRIER,))


def test_without_a_carrier_the_dm_hand_carries_the_hand_again() -> None:
    """The reply's token ran out (or it is gone): the DM line becomes the hand."""
    back = replace(IN_CHANNEL, carrier=False)
    assert decide(back) == Handoff((Delivery.EDIT_DM,))
    turn = replace(back, turn_begun=True)
    assert decide(turn) == Handoff((Delivery.EDIT_DM,), silent=True)


def test_closed_dms_keep_the_private_reply_up_to_date() -> None:
    closed = replace(QUIET, dm_closed=True, dm_hand=False, dm_current=False)
    assert decide(closed) == Handoff((Delivery.EDIT_REPLY,))
    turn = replace(closed, turn_begun=True, looking=False)
    assert decide(turn) == Handoff((Delivery.EDIT_REPLY,))  # the mention comes from ping_due
    assert decide(replace(closed, carrier=True)) == Handoff((Delivery.EDIT_REPLY,))


def test_closed_dms_get_a_mention_for_their_turn() -> None:
    closed = replace(QUIET, dm_closed=True, dm_hand=False)
    assert handoff.ping_due(closed, turn_begun_at_first_move=True)
    assert not handoff.ping_due(closed, turn_begun_at_first_move=False)
    assert not handoff.ping_due(replace(closed, committing=True), turn_begun_at_first_move=True)
    assert not handoff.ping_due(QUIET, turn_begun_at_first_move=True)


def test_every_fallback_leads_to_a_delivery_that_reaches_the_player() -> None:
    assert FALLBACK[Delivery.EDIT_DM] is Delivery.SEND_DM
    assert FALLBACK[Delivery.SEND_DM] is Delivery.EDIT_REPLY
    assert Delivery.EDIT_REPLY not in FALLBACK  # the last resort: `/gin hand`


def test_every_delivery_is_chosen_in_some_state() -> None:
    """Each delivery the policy knows is reachable: a state of each, case by case above."""
    chosen = set()
    for state in (
        replace(QUIET, dm_hand=False, dm_current=False),
        replace(QUIET, dm_current=False),
        replace(QUIET, turn_begun=True, looking=False),
        replace(QUIET, carrier=True, dm_current=False),
        replace(QUIET, carrier=True, dm_hand=False),
        replace(QUIET, dm_closed=True),
    ):
        chosen.update(decide(state).deliveries)
    assert chosen == set(Delivery)


@pytest.mark.parametrize(
    ("others", "since", "watching"),
    [(1, 29.0, True), (1, 31.0, False), (3, 89.0, True), (3, 91.0, False), (13, 179.0, True)],
)
def test_looking_lasts_the_looking_time_for_each_other_player(
    others: int, since: float, watching: bool
) -> None:
    seen = handoff.looking(
        100.0 + since, 100.0, others, alone_with_bots=False, looking_seconds=30.0
    )
    assert seen is watching


def test_a_player_alone_with_the_bot_is_always_watching_and_one_never_seen_is_not() -> None:
    assert handoff.looking(1e9, -math.inf, 1, alone_with_bots=True, looking_seconds=30.0)
    assert not handoff.looking(5.0, -math.inf, 1, alone_with_bots=False, looking_seconds=30.0)


def test_a_turn_shown_silently_and_not_taken_up_means_they_looked_away() -> None:
    """They moved 10 s before their turn began (watching), then walked away: 30 s after
    the turn was shown to them they count as not watching, and are alerted."""
    acted, shown = 100.0, 110.0
    watching = handoff.looking(
        shown + 29.0, acted, 3, alone_with_bots=False, looking_seconds=30.0, shown_silently=shown
    )
    away = handoff.looking(
        shown + 30.0, acted, 3, alone_with_bots=False, looking_seconds=30.0, shown_silently=shown
    )
    assert watching and not away
    practice = handoff.looking(
        shown + 99.0, acted, 1, alone_with_bots=True, looking_seconds=30.0, shown_silently=shown
    )
    assert practice  # the bot answers at once: nobody walks away from that


def test_a_turn_shown_silently_gets_the_whole_looking_time_from_when_it_was_shown() -> None:
    """The opponent took 25 s, so the turn was shown 25 s after the player's own move: they
    still have 30 s from then to take it up, not the 5 s left of the window of their move."""
    acted, shown = 100.0, 125.0
    for later, watching in ((5.0, True), (29.0, True), (30.0, False)):
        seen = handoff.looking(
            shown + later,
            acted,
            1,
            alone_with_bots=False,
            looking_seconds=30.0,
            shown_silently=shown,
        )
        assert seen is watching, later


def two_player_match() -> Match:
    return Match.start((Player("a", "Ann"), Player("b", "Bob")), Settings(), seed="handoff")


def test_a_turn_begins_once_the_other_player_moved_and_is_told_once() -> None:
    match = two_player_match()
    hand: Hand = match.hand
    first = hand.turn
    # A hand's first turn is announced by its DM, not by an alert.
    assert handoff.turn_begun(match, first, {}) is None
    assert handoff.turn_begun(match, first, {}, first_too=True) == (0, f"{match.hand_number}:0")
    match.apply(Action(ActionKind.PASS, first))
    second = match.hand.turn
    assert second != first
    turn = handoff.turn_begun(match, second, {})
    assert turn == (0, f"{match.hand_number}:1")
    assert handoff.turn_begun(match, second, {0: turn[1]}) is None  # told already
    assert handoff.turn_begun(match, second, {}, is_bot=True) is None

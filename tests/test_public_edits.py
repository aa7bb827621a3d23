"""When a table's public message may be edited (at once when shown long enough ago, else
once the interval since its last edit has passed), and how long after a move a player still
counts as watching the game."""

from __future__ import annotations

import pytest

from cogs.gin.screens.channel import PUBLIC_EDIT_INTERVAL, next_public_edit
from cogs.gin.screens.handoff import LOOKING_MOST, LOOKING_SECONDS, watching_window


def test_a_table_never_shown_is_edited_at_once() -> None:
    assert next_public_edit(None, 50.0, PUBLIC_EDIT_INTERVAL) == 50.0


@pytest.mark.parametrize("last", [0.0, 3.3, 1000.71])
def test_a_busy_table_waits_the_interval_since_its_last_edit(last: float) -> None:
    assert next_public_edit(last, last + 0.1, PUBLIC_EDIT_INTERVAL) == last + PUBLIC_EDIT_INTERVAL
    quiet = last + PUBLIC_EDIT_INTERVAL + 2.0
    assert next_public_edit(last, quiet, PUBLIC_EDIT_INTERVAL) == quiet


def test_spectators_see_a_move_or_two_at_a_time_within_ten_seconds() -> None:
    """At a person's pace (a move every 4 s) an edit per move would cost the budget more than
    the players' own messages: the interval keeps spectators to about one edit in two moves,
    and leaves room in the 10 s they may be behind for the edit's wait in the budget."""
    assert 4.0 / PUBLIC_EDIT_INTERVAL <= 0.6
    assert PUBLIC_EDIT_INTERVAL <= 8.0


def test_a_player_waiting_for_several_others_still_counts_as_watching() -> None:
    """Each other player has a turn before theirs comes again: a six-player table's players
    are not pinged every turn for the time the other five took."""
    assert watching_window(LOOKING_SECONDS, 1) == LOOKING_SECONDS  # two players
    assert watching_window(LOOKING_SECONDS, 5) == 5 * LOOKING_SECONDS
    assert watching_window(LOOKING_SECONDS, 13) == LOOKING_MOST  # fourteen: not for ever
    assert watching_window(0.0, 5) == 0.0  # a player who looked away is pinged

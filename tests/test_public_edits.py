"""When a table's public message may be edited: at once when quiet, else in its own slot."""

from __future__ import annotations

import itertools

import pytest

from cogs.gin.display import PUBLIC_EDIT_INTERVAL, next_public_edit


def test_first_edit_and_edit_after_a_quiet_interval_happen_at_once() -> None:
    assert next_public_edit(None, 50.0, table_id=7) == 50.0
    assert next_public_edit(10.0, 10.0 + PUBLIC_EDIT_INTERVAL, table_id=7) == 11.0
    assert next_public_edit(10.0, 25.0, table_id=7) == 25.0


@pytest.mark.parametrize("table_id", [1, 2, 3, 50, 99, 12345])
@pytest.mark.parametrize("last", [0.0, 3.3, 1000.71])
def test_a_busy_table_waits_a_whole_interval_and_at_most_two(table_id: int, last: float) -> None:
    now = last + 0.1
    at = next_public_edit(last, now, table_id)
    assert last + PUBLIC_EDIT_INTERVAL <= at < last + 2 * PUBLIC_EDIT_INTERVAL
    # the next busy edit after that one falls exactly one interval later: a steady slot
    again = next_public_edit(at, at + 0.1, table_id)
    assert again == pytest.approx(at + PUBLIC_EDIT_INTERVAL)


def test_tables_started_together_spread_their_edits_over_the_interval() -> None:
    last, now = 100.0, 100.05
    slots = sorted(next_public_edit(last, now, t) % PUBLIC_EDIT_INTERVAL for t in range(1, 101))
    gaps = [b - a for a, b in itertools.pairwise(slots)]
    # 100 tables in one interval: no slot holds more than a few of them
    assert max(gaps) < 5 * PUBLIC_EDIT_INTERVAL / 100
    assert len({round(s, 6) for s in slots}) == 100

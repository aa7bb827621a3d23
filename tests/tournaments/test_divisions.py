"""Divisions: promotion and relegation by final place, newcomers at the bottom."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments.divisions import Movement, initial, members, next_season


def test_the_top_go_up_and_the_bottom_go_down() -> None:
    tables = [["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"], ["c1", "c2", "c3"]]
    moves = next_season(tables, promote=1, relegate=2, newcomers=["new", "a1"])
    after = members(moves)
    assert after == {
        "a1": 0, "a2": 0, "a3": 1, "a4": 1,
        "b1": 0, "b2": 1, "b3": 2, "b4": 2,
        "c1": 1, "c2": 2, "c3": 2,
        "new": 2,
    }  # fmt: skip
    by = {m.user_id: m for m in moves}
    assert by["b1"].promoted and by["a4"].relegated and not by["a1"].promoted
    assert by["new"] == Movement("new", None, 2) and not by["new"].promoted


def test_a_small_division_promotes_first() -> None:
    moves = members(next_season([["a1", "a2"], ["b1", "b2"], ["c1"]], promote=2, relegate=2))
    # b1 and b2 both go up; nobody is left in division 1 to go down.
    assert moves == {"a1": 1, "a2": 1, "b1": 0, "b2": 0, "c1": 1}


def test_initial_divisions_share_the_ranking_out() -> None:
    assert initial(["p1", "p2", "p3", "p4", "p5"], 2) == [["p1", "p2", "p3"], ["p4", "p5"]]
    assert initial(["p1"], 3) == [["p1"], [], []]


@given(
    st.lists(st.integers(0, 6), min_size=1, max_size=5),
    st.integers(0, 3),
    st.integers(0, 3),
)
def test_everyone_moves_at_most_one_division(sizes: list[int], promote: int, relegate: int) -> None:
    tables = [[f"d{d}p{i}" for i in range(size)] for d, size in enumerate(sizes)]
    moves = next_season(tables, promote, relegate)
    assert len(moves) == sum(sizes)
    assert all(m.was is not None and abs(m.now - m.was) <= 1 for m in moves)
    assert all(0 <= m.now < len(tables) for m in moves)
    ups = sum(m.promoted for m in moves)
    downs = sum(m.relegated for m in moves)
    assert ups <= promote * (len(tables) - 1) and downs <= relegate * (len(tables) - 1)

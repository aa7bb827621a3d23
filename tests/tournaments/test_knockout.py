"""Single elimination: bracket size, standard seeding, byes to the top seeds, walkovers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments.knockout import (
    bracket_size,
    first_round,
    next_round,
    placings,
    rounds_for,
    seed_order,
)
from bot.tournaments.records import Pair


def test_brackets_are_the_next_power_of_two() -> None:
    assert [bracket_size(n) for n in (2, 3, 4, 5, 6, 8, 9, 33)] == [2, 4, 4, 8, 8, 8, 16, 64]
    assert [rounds_for(n) for n in (2, 3, 6, 8, 9)] == [1, 2, 3, 3, 4]


def test_standard_seeding() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(16)[:4] == [1, 16, 8, 9]
    with pytest.raises(ValueError):
        seed_order(6)


def test_six_players_give_the_top_two_seeds_byes() -> None:
    boards = first_round(["s1", "s2", "s3", "s4", "s5", "s6"])
    assert boards == {
        0: Pair("s1", None),
        1: Pair("s4", "s5"),
        2: Pair("s2", None),
        3: Pair("s3", "s6"),
    }
    seeds = {f"s{n}": n for n in range(1, 7)}
    second = next_round({0: "s1", 1: "s5", 2: "s2", 3: "s3"}, 4, seeds)
    assert second == {0: Pair("s1", "s5"), 1: Pair("s2", "s3")}
    assert next_round({0: "s5", 1: "s2"}, 2, seeds) == {0: Pair("s2", "s5")}


def test_a_withdrawn_players_opponent_goes_through() -> None:
    seeds = {f"s{n}": n for n in range(1, 9)}
    # Board 1's players both withdrew: nobody went through there; board 3's winner withdrew
    # after winning (the caller leaves them out).
    second = next_round({0: "s1", 1: None, 2: "s2", 3: "s3"}, 4, seeds)
    assert second == {0: Pair("s1", None), 1: Pair("s2", "s3")}
    assert next_round({0: None, 1: None}, 2, seeds) == {}


@given(st.integers(min_value=2, max_value=64))
def test_every_player_is_placed_once_and_the_byes_go_to_the_top(n: int) -> None:
    players = [f"s{i}" for i in range(1, n + 1)]
    boards = first_round(players)
    size = bracket_size(n)
    assert len(boards) == size // 2
    seen = [p for pair in boards.values() for p in (pair.a, pair.b) if p is not None]
    assert sorted(seen) == sorted(players)
    byes = sorted(int(pair.a[1:]) for pair in boards.values() if pair.b is None)
    assert byes == list(range(1, size - n + 1))
    # 1 and 2 are in different halves, so they can only meet in the final.
    half = size // 4
    where = {p: b for b, pair in boards.items() for p in (pair.a, pair.b) if p}
    assert (where["s1"] < half) != (where["s2"] < half) or n == 2
    assert all(int(pair.a[1:]) < int(pair.b[1:]) for pair in boards.values() if pair.b)


def test_places_by_the_round_a_player_went_out() -> None:
    seeds = {f"s{n}": n for n in range(1, 7)}
    out = {"s6": 1, "s4": 1, "s5": 2, "s3": 2, "s2": 3}
    table = placings(seeds, 3, out)
    assert [(p.user_id, p.place) for p in table] == [
        ("s1", 1), ("s2", 2), ("s3", 3), ("s5", 3), ("s4", 5), ("s6", 5),
    ]  # fmt: skip

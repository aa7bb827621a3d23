"""Skill ratings: who moves which way after a match, and what the display rating rewards."""

from __future__ import annotations

import pytest

from bot.store import RatingRow
from bot.tables.ratings import DEFAULT_MU, DEFAULT_SIGMA, display_rating, rated, updated_ratings

G = "guild"


def test_defaults_are_the_model_defaults() -> None:
    assert pytest.approx(25.0) == DEFAULT_MU
    assert pytest.approx(25.0 / 3) == DEFAULT_SIGMA
    assert display_rating(DEFAULT_MU, DEFAULT_SIGMA) == pytest.approx(0.0)
    assert display_rating(30.0, 2.0) == 24.0


def test_first_match_between_new_players() -> None:
    winner, loser = updated_ratings(G, None, None, "ann", "bob")
    assert (winner.guild_id, winner.user_id, winner.matches) == (G, "ann", 1)
    assert (loser.guild_id, loser.user_id, loser.matches) == (G, "bob", 1)
    assert winner.mu > DEFAULT_MU > loser.mu
    assert winner.sigma < DEFAULT_SIGMA and loser.sigma < DEFAULT_SIGMA
    assert display_rating(winner.mu, winner.sigma) > display_rating(loser.mu, loser.sigma)


def test_established_players_move_and_count_matches() -> None:
    ann = RatingRow(G, "ann", 27.0, 4.0, 12)
    bob = RatingRow(G, "bob", 26.0, 4.5, 7)
    bob_after, ann_after = updated_ratings(G, bob, ann, "bob", "ann")
    assert bob_after.mu > bob.mu and ann_after.mu < ann.mu
    assert bob_after.sigma < bob.sigma and ann_after.sigma < ann.sigma
    assert (bob_after.matches, ann_after.matches) == (8, 13)


def test_new_player_against_an_established_one() -> None:
    veteran = RatingRow(G, "vet", 32.0, 2.0, 80)
    new_w, vet_l = updated_ratings(G, None, veteran, "new", "vet")
    # The unsure newcomer moves a lot; the well-known veteran barely moves.
    assert new_w.mu - DEFAULT_MU > 3 * (veteran.mu - vet_l.mu) > 0
    vet_w, new_l = updated_ratings(G, veteran, None, "vet", "new")
    # Beating a newcomer tells little about the veteran.
    assert 0 < vet_w.mu - veteran.mu < DEFAULT_MU - new_l.mu


def test_repeated_wins_converge() -> None:
    ann: RatingRow | None = None
    bob: RatingRow | None = None
    gains, sigmas = [], [DEFAULT_SIGMA]
    for _ in range(40):
        before = DEFAULT_MU if ann is None else ann.mu
        ann, bob = updated_ratings(G, ann, bob, "ann", "bob")
        gains.append(ann.mu - before)
        sigmas.append(ann.sigma)
    assert ann is not None and bob is not None
    assert all(g > 0 for g in gains)
    assert gains[-1] < gains[0] / 5  # each further win adds less and less
    assert sigmas == sorted(sigmas, reverse=True) and ann.sigma < 0.75 * DEFAULT_SIGMA
    assert ann.matches == 40
    assert ann.mu > bob.mu


def test_one_lucky_win_does_not_outrank_a_long_record() -> None:
    lucky, _ = updated_ratings(G, None, None, "lucky", "someone")
    steady: RatingRow | None = None
    for n in range(12):
        steady, _ = updated_ratings(G, steady, None, "steady", f"rival{n}")
    assert steady is not None
    assert display_rating(steady.mu, steady.sigma) > display_rating(lucky.mu, lucky.sigma)


def test_mismatched_rows_are_refused() -> None:
    ann = RatingRow(G, "ann", 25.0, 8.0, 1)
    with pytest.raises(ValueError):
        updated_ratings(G, ann, None, "bob", "carl")
    with pytest.raises(ValueError):
        updated_ratings("other", ann, None, "ann", "bob")
    with pytest.raises(ValueError):
        updated_ratings(G, None, None, "ann", "ann")


def test_rated_matches_updated_ratings_for_two() -> None:
    ann = RatingRow(G, "ann", 27.0, 4.0, 12)
    pair = updated_ratings(G, ann, None, "ann", "bob")
    assert rated(G, "classic", {"ann": ann}, [["ann"], ["bob"]], [1, 2]) == pair
    assert {r.mode for r in pair} == {"classic"}


def test_three_players_move_by_place() -> None:
    first, second, third = rated(G, "three", {}, [["cat"], ["ann"], ["ben"]], [1, 2, 3])
    assert [r.user_id for r in (first, second, third)] == ["cat", "ann", "ben"]
    assert first.mu > DEFAULT_MU > third.mu and first.mu > second.mu > third.mu
    assert {(r.guild_id, r.mode, r.matches) for r in (first, second, third)} == {(G, "three", 1)}
    # A tie for second moves both the same way.
    _, tied_a, tied_b = rated(G, "three", {}, [["cat"], ["ann"], ["ben"]], [1, 2, 2])
    assert (tied_a.mu, tied_a.sigma) == (tied_b.mu, tied_b.sigma) < (DEFAULT_MU, DEFAULT_SIGMA)


def test_partners_are_rated_as_a_team() -> None:
    ann = RatingRow(G, "ann", 30.0, 3.0, 20, "teams")
    rows = rated(G, "teams", {"ann": ann}, [["ann", "cat"], ["ben", "dan"]], [1, 2])
    by_user = {r.user_id: r for r in rows}
    assert [r.user_id for r in rows] == ["ann", "cat", "ben", "dan"]
    assert by_user["ann"].mu > ann.mu and by_user["cat"].mu > DEFAULT_MU
    assert by_user["ben"].mu < DEFAULT_MU and by_user["dan"].mu < DEFAULT_MU
    # The well-known partner moves less than the newcomer beside them.
    assert by_user["ann"].mu - ann.mu < by_user["cat"].mu - DEFAULT_MU
    assert (by_user["ann"].matches, by_user["cat"].matches) == (21, 1)


def test_elimination_rates_six_places() -> None:
    players = ["p1", "p2", "p3", "p4", "p5", "p6"]
    rows = rated(G, "elimination", {}, [[p] for p in players], [1, 2, 3, 4, 5, 6])
    mus = [r.mu for r in rows]
    assert mus == sorted(mus, reverse=True) and mus[0] > DEFAULT_MU > mus[-1]


@pytest.mark.parametrize(
    ("current", "sides", "ranks"),
    [
        ({}, [["ann"]], [1]),  # one side
        ({}, [["ann"], ["bob"]], [1]),  # a place missing
        ({}, [["ann"], []], [1, 2]),  # an empty side
        ({}, [["ann"], ["ann"]], [1, 2]),  # twice
        ({}, [["ann"], ["bob"]], [0, 1]),  # places start at 1
        ({"ann": RatingRow(G, "ann", 25.0, 8.0, 1)}, [["ann"], ["bob"]], [1, 2]),  # classic row
        ({"ann": RatingRow(G, "bob", 25.0, 8.0, 1, "three")}, [["ann"], ["bob"]], [1, 2]),
        ({"ann": RatingRow("other", "ann", 25.0, 8.0, 1, "three")}, [["ann"], ["bob"]], [1, 2]),
    ],
)
def test_rated_refuses_what_cannot_be_a_match(
    current: dict[str, RatingRow], sides: list[list[str]], ranks: list[int]
) -> None:
    with pytest.raises(ValueError):
        rated(G, "three", current, sides, ranks)

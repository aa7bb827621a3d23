"""Swiss pairings (score groups, no rematch, byes, backtracking) and standings with their
tie-breaks, worked by hand."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.errors import NoPairing
from bot.tournaments.records import Entrant, Game, Pair
from bot.tournaments.swiss import (
    default_rounds,
    most_rounds,
    pair_round,
    points,
    standings,
)


def field(*names: str) -> list[Entrant]:
    return [Entrant(name, seed) for seed, name in enumerate(names, start=1)]


def play(round_number: int, pairs: list[Pair], winners: dict[str, str]) -> list[Game]:
    """Games of a round; ``winners`` maps a pair's first player to who won (default: them)."""
    return [
        Game(round_number, p.a, p.b, p.a if p.b is None else winners.get(p.a, p.a)) for p in pairs
    ]


def test_rounds_by_player_count() -> None:
    assert [default_rounds(n) for n in (1, 2, 3, 4, 5, 8, 9, 16, 17, 64)] == [
        0, 1, 2, 2, 3, 3, 4, 4, 5, 6,
    ]  # fmt: skip
    assert default_rounds(5000) == 9  # bounded
    assert [most_rounds(n) for n in (2, 3, 4, 7, 8, 40)] == [1, 3, 3, 7, 7, 15]


def test_round_one_is_the_top_half_against_the_bottom_half() -> None:
    players = field("a", "b", "c", "d", "e", "f", "g", "h")
    assert pair_round(players, []) == [
        Pair("a", "e"),
        Pair("b", "f"),
        Pair("c", "g"),
        Pair("d", "h"),
    ]


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_without_one() -> None:
    players = field("a", "b", "c", "d", "e")
    first = pair_round(players, [])
    assert first == [Pair("a", "c"), Pair("b", "d"), Pair("e", None)]
    games = play(1, first, {"b": "d"})
    second = pair_round(players, games)
    # e has had the bye: c, the lowest ranked, gets it now.
    assert second[-1] == Pair("c", None)
    assert second[:-1] == [Pair("a", "d"), Pair("e", "b")]


def test_score_groups_pair_among_themselves() -> None:
    players = field("a", "b", "c", "d", "e", "f")
    games = play(1, pair_round(players, []), {})  # a, b, c win
    second = pair_round(players, games)
    assert second == [Pair("a", "b"), Pair("c", "d"), Pair("e", "f")]
    # The floater: c (alone at the bottom of the winners) meets d, the best of the losers.


def test_backtracking_when_the_greedy_choice_leaves_a_dead_end() -> None:
    players = field("p1", "p2", "p3", "p4", "p5", "p6")
    # Games nobody won (both players withdrew), so the points stay level: only the
    # rematches matter. p2 has met p3, p5 and p6.
    games = [Game(1, "p2", "p3", None), Game(2, "p2", "p5", None), Game(3, "p2", "p6", None)]
    # p1 would rather meet p4, but then p2 has nobody left to meet.
    assert pair_round(players, games) == [Pair("p1", "p5"), Pair("p2", "p4"), Pair("p3", "p6")]


def test_dropped_players_are_never_paired_again() -> None:
    players = field("a", "b", "c", "d", "e")
    players[1] = Entrant("b", 2, dropped=True)
    pairs = pair_round(players, [])
    assert pairs == [Pair("a", "d"), Pair("c", "e")]


def test_no_pairing_when_everyone_has_met() -> None:
    players = field("a", "b", "c", "d")
    games = [
        Game(1, "a", "b", "a"), Game(1, "c", "d", "c"),
        Game(2, "a", "c", "a"), Game(2, "b", "d", "b"),
        Game(3, "a", "d", "a"), Game(3, "b", "c", "b"),
    ]  # fmt: skip
    with pytest.raises(NoPairing):
        pair_round(players, games)
    with pytest.raises(NoPairing):
        pair_round([Entrant("a", 1)], [])


def pairable(players: list[str], met: set[frozenset[str]]) -> bool:
    """Whether any pairing without a rematch exists (one player may sit out), by brute
    force."""
    if len(players) % 2:
        return any(pairable(players[:i] + players[i + 1 :], met) for i in range(len(players)))
    if not players:
        return True
    top, rest = players[0], players[1:]
    return any(
        frozenset((top, other)) not in met and pairable([p for p in rest if p != other], met)
        for other in rest
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=24), st.integers(min_value=0, max_value=2**32))
def test_every_round_pairs_everyone_once_and_never_repeats(n: int, seed: int) -> None:
    rng = random.Random(seed)
    players = field(*[f"p{i}" for i in range(n)])
    games: list[Game] = []
    byes: Counter[str] = Counter()
    for round_number in range(1, default_rounds(n) + 1):
        if rng.random() < 0.15:  # someone drops out now and then
            index = rng.randrange(n)
            players[index] = Entrant(players[index].user_id, players[index].seed, dropped=True)
        active = {p.user_id for p in players if not p.dropped}
        if len(active) < 2:
            break
        met = {frozenset(g.players()) for g in games if g.opponent}
        try:
            pairs = pair_round(players, games)
        except NoPairing:
            # Drop-outs can leave players who have all met; then so be it.
            assert not pairable(sorted(active), met)
            break
        seen = [x for p in pairs for x in (p.a, p.b) if x is not None]
        assert sorted(seen) == sorted(active)
        assert all(frozenset((p.a, p.b)) not in met for p in pairs if p.b)
        bye = [p.a for p in pairs if p.b is None]
        assert len(bye) == len(active) % 2
        if bye and any(byes[u] == 0 for u in active):
            assert byes[bye[0]] == 0
        byes.update(bye)
        games += [
            Game(round_number, p.a, p.b, p.a if p.b is None else rng.choice([p.a, p.b]))
            for p in pairs
        ]


def test_standings_and_their_tie_breaks_worked_by_hand() -> None:
    """Five players, two rounds, as ``test_an_odd_field...`` pairs them: a beats c and d; d
    beats b; b beats e; e and c have a bye each.

    a: 2 points. d, e, b and c: 1 each. Buchholz (the bye's virtual opponent had the
    player's points before the round and drew every later round):
    d: b 1 + a 2 = 3; b: d 1 + e 1 = 2; c: a 2 + virtual 0 = 2, cut 1: 2; b's cut 1: 1;
    e: virtual (0 + 1/2) + b 1 = 3/2.
    """
    players = field("a", "b", "c", "d", "e")
    games = [
        Game(1, "a", "c", "a"), Game(1, "b", "d", "d"), Game(1, "e", None, "e"),
        Game(2, "a", "d", "a"), Game(2, "e", "b", "b"), Game(2, "c", None, "c"),
    ]  # fmt: skip
    table = standings(players, games)
    assert [s.user_id for s in table] == ["a", "d", "c", "b", "e"]
    by = {s.user_id: s for s in table}
    assert (by["a"].points, by["a"].buchholz, by["a"].buchholz_cut1) == (2, 2, 1)
    assert by["a"].sonneborn_berger == 2
    assert (by["d"].buchholz, by["d"].buchholz_cut1, by["d"].sonneborn_berger) == (3, 2, 1)
    assert (by["c"].buchholz, by["c"].buchholz_cut1, by["c"].sonneborn_berger) == (2, 2, 0)
    assert (by["b"].buchholz, by["b"].buchholz_cut1, by["b"].sonneborn_berger) == (2, 1, 1)
    e = by["e"]
    assert (e.buchholz, e.buchholz_cut1, e.sonneborn_berger) == (
        Fraction(3, 2),
        Fraction(1),
        Fraction(1, 2),
    )
    assert (e.played, e.wins, e.byes) == (2, 0, 1)
    assert [s.rank for s in table] == [1, 2, 3, 4, 5]


def test_direct_encounter_then_seed() -> None:
    """d and a end level on points and every Buchholz figure; d beat a, so d is above
    though a is the better seed. f beat c the same way. e, b: more points."""
    players = field("a", "b", "c", "d", "e", "f")
    games = [
        Game(1, "a", "d", "d"), Game(1, "b", "e", "e"), Game(1, "c", "f", "f"),
        Game(2, "d", "e", "e"), Game(2, "f", "a", "a"), Game(2, "b", "c", "b"),
        Game(3, "e", "a", "e"), Game(3, "b", "f", "b"), Game(3, "d", "c", "c"),
    ]  # fmt: skip
    table = standings(players, games)
    assert [s.user_id for s in table] == ["e", "b", "d", "a", "f", "c"]
    by = {s.user_id: s for s in table}
    assert (by["d"].direct, by["a"].direct) == (1, 0)
    level = ("points", "buchholz", "buchholz_cut1", "sonneborn_berger")
    assert [getattr(by["d"], f) for f in level] == [getattr(by["a"], f) for f in level]
    # Four players level with two pairs never met: seed decides.
    cycle = [
        Game(1, "a", "b", "a"), Game(1, "c", "d", "c"),
        Game(2, "b", "c", "b"), Game(2, "d", "a", "d"),
    ]  # fmt: skip
    assert [s.user_id for s in standings(field("a", "b", "c", "d"), cycle)] == ["a", "b", "c", "d"]


def test_points_count_wins_and_byes_and_nobody_scores_a_double_withdrawal() -> None:
    games = [Game(1, "a", "b", "a"), Game(1, "c", None, "c"), Game(2, "a", "c", None)]
    assert points(games) == Counter({"a": 1, "c": 1})

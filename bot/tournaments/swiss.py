"""Swiss pairings and standings: score groups, no pair meeting twice, byes and tie-breaks.

Pairing follows the Dutch idea within each score group (the top half meets the bottom half,
in seed order) and backtracks whenever the greedy choice leaves players who have all met:
the first pairing found in that preference order is the round's. Standings rank by points,
then Buchholz, Buchholz cut 1, Sonneborn-Berger, direct encounter and seed (see
docs/rule-decisions.md, "Tournaments").
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from bot.tournaments.errors import NoPairing
from bot.tournaments.records import Entrant, Game, Pair

# Rounds an organiser may ask for, at most; fewer when the players cannot all meet new
# opponents that often (``most_rounds``).
MAX_ROUNDS = 15
# The default by player count is ceil(log2 n) (enough to leave one player unbeaten) kept
# within these bounds.
DEFAULT_ROUNDS = (1, 9)
# Positions the pairing search may visit before it gives up; a real pairing is found in a
# few dozen, and an impossible round among many players could otherwise take for ever.
SEARCH_BUDGET = 200_000


def default_rounds(players: int) -> int:
    """ceil(log2 n) rounds, within ``DEFAULT_ROUNDS`` and never more than ``most_rounds``."""
    if players < 2:
        return 0
    low, high = DEFAULT_ROUNDS
    wanted = max(low, min(high, math.ceil(math.log2(players))))
    return min(wanted, most_rounds(players))


def most_rounds(players: int) -> int:
    """The most rounds n players can play without a repeat: n - 1 (a round robin), or n
    when n is odd (everyone sits out once); and never more than ``MAX_ROUNDS``."""
    if players < 2:
        return 0
    return min(MAX_ROUNDS, players if players % 2 else players - 1)


def points(games: Iterable[Game]) -> Counter[str]:
    """A point per win; a bye is a win."""
    won: Counter[str] = Counter()
    for game in games:
        if game.winner is not None:
            won[game.winner] += 1
    return won


def pair_round(
    entrants: Sequence[Entrant], games: Sequence[Game], *, budget: int = SEARCH_BUDGET
) -> list[Pair]:
    """The next round's pairs among the players not dropped, best-ranked pair first, the
    bye (if any) last. ``NoPairing`` when no pairing avoids a rematch."""
    scored = points(games)
    active = sorted(
        (e for e in entrants if not e.dropped), key=lambda e: (-scored[e.user_id], e.seed)
    )
    ranked = tuple(e.user_id for e in active)
    if len(ranked) < 2:
        raise NoPairing("fewer than two players are left")
    met = {frozenset(g.players()) for g in games if g.opponent is not None}
    search = _Search(scored, met, budget)
    if len(ranked) % 2 == 0:
        pairs = search.pair(ranked)
        if pairs is None:
            raise NoPairing("every pairing repeats a game")
        return pairs
    byes = Counter(g.player for g in games if g.opponent is None)
    # Lowest-ranked first among those with the fewest byes (none, while anyone has had none).
    order = sorted(range(len(ranked)), key=lambda i: (byes[ranked[i]], -i))
    for index in order:
        bye = ranked[index]
        pairs = search.pair(ranked[:index] + ranked[index + 1 :])
        if pairs is not None:
            return [*pairs, Pair(bye, None)]
    raise NoPairing("every pairing repeats a game")


class _Search:
    """A depth-first search over pairings in preference order, remembering the sets of
    players already known to have no pairing."""

    def __init__(self, scored: Counter[str], met: set[frozenset[str]], budget: int) -> None:
        self._scored = scored
        self._met = met
        self._left = budget

    def pair(self, ranked: tuple[str, ...]) -> list[Pair] | None:
        return self._search(ranked, set())

    def _search(self, remaining: tuple[str, ...], failed: set[frozenset[str]]) -> list[Pair] | None:
        if not remaining:
            return []
        key = frozenset(remaining)
        if key in failed:
            return None
        self._left -= 1
        if self._left < 0:
            raise NoPairing("the pairing search gave up")
        top, rest = remaining[0], remaining[1:]
        for opponent in self._candidates(top, rest):
            if frozenset((top, opponent)) in self._met:
                continue
            found = self._search(tuple(p for p in rest if p != opponent), failed)
            if found is not None:
                return [Pair(top, opponent), *found]
        failed.add(key)
        return None

    def _candidates(self, top: str, rest: tuple[str, ...]) -> list[str]:
        """The top player's opponents, most wanted first: in their score group the player
        half a group below (the Dutch pairing), then the rest of the group further down,
        then the group above that one; then the lower groups in rank order."""
        score = self._scored[top]
        group = [p for p in rest if self._scored[p] == score]
        lower = [p for p in rest if self._scored[p] != score]
        ideal = (len(group) + 1) // 2 - 1  # the index in ``group`` of half a group below
        if ideal < 0:
            return lower
        return group[ideal:] + group[:ideal][::-1] + lower


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the Swiss standings. The tie-breaks are exact fractions (a bye's virtual
    opponent can bring halves); ``direct`` is the points won against the other players
    tied on everything before it, when they have all met (else 0). ``wins`` are the games
    won at a table (byes left out); ``played`` counts byes."""

    rank: int
    user_id: str
    seed: int
    points: int
    played: int
    wins: int
    byes: int
    buchholz: Fraction
    buchholz_cut1: Fraction
    sonneborn_berger: Fraction
    direct: Fraction
    dropped: bool


def standings(entrants: Sequence[Entrant], games: Sequence[Game]) -> list[Standing]:
    """Everyone entered, best first: points, Buchholz, Buchholz cut 1, Sonneborn-Berger,
    direct encounter, seed.

    A bye counts, for the tie-breaks, as a game won against a virtual opponent who had the
    player's points before that round and drew every round after it (up to the last round
    played).
    """
    scored = points(games)
    last_round = max((g.round for g in games), default=0)
    opponents: dict[str, list[Fraction]] = {e.user_id: [] for e in entrants}
    beaten: dict[str, list[Fraction]] = {e.user_id: [] for e in entrants}
    played: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    for game in games:
        for player in game.players():
            if player not in opponents:
                continue
            played[player] += 1
            if game.opponent is None:
                byes[player] += 1
                before = sum(1 for g in games if g.winner == player and g.round < game.round)
                faced = Fraction(before) + Fraction(last_round - game.round, 2)
            else:
                other = game.opponent if player == game.player else game.player
                faced = Fraction(scored[other])
            opponents[player].append(faced)
            if game.winner == player:
                beaten[player].append(faced)
    lines = []
    for e in entrants:
        faced_all = opponents[e.user_id]
        buchholz = sum(faced_all, Fraction(0))
        cut1 = buchholz - min(faced_all) if faced_all else Fraction(0)
        lines.append(
            Standing(
                rank=0,
                user_id=e.user_id,
                seed=e.seed,
                points=scored[e.user_id],
                played=played[e.user_id],
                wins=scored[e.user_id] - byes[e.user_id],
                byes=byes[e.user_id],
                buchholz=buchholz,
                buchholz_cut1=cut1,
                sonneborn_berger=sum(beaten[e.user_id], Fraction(0)),
                direct=Fraction(0),
                dropped=e.dropped,
            )
        )
    lines.sort(key=_before_direct)
    ordered: list[Standing] = []
    start = 0
    while start < len(lines):
        end = start
        tie = _before_direct(lines[start])[:4]
        while end < len(lines) and _before_direct(lines[end])[:4] == tie:
            end += 1
        ordered.extend(_direct_encounter(lines[start:end], games))
        start = end
    return [replace(line, rank=rank) for rank, line in enumerate(ordered, start=1)]


def _before_direct(line: Standing) -> tuple[int, Fraction, Fraction, Fraction, int]:
    return (-line.points, -line.buchholz, -line.buchholz_cut1, -line.sonneborn_berger, line.seed)


def _direct_encounter(tied: list[Standing], games: Sequence[Game]) -> list[Standing]:
    """Players tied on every earlier criterion, ordered by their points against each other
    when every two of them have met; by seed otherwise."""
    if len(tied) < 2:
        return tied
    users = {line.user_id for line in tied}
    among = [g for g in games if g.opponent is not None and set(g.players()) <= users]
    met = {frozenset(g.players()) for g in among}
    if len(met) < len(users) * (len(users) - 1) // 2:
        return tied
    won = points(among)
    scored = [replace(line, direct=Fraction(won[line.user_id])) for line in tied]
    return sorted(scored, key=lambda line: (-line.direct, line.seed))

"""Single elimination: a bracket of the next power of two, byes to the top seeds, standard
seeding (1 meets the lowest seed, and 1 and 2 can only meet in the final); a withdrawn
player's opponent goes through.

A round is a list of boards in bracket order; the winners of boards 2k and 2k + 1 meet on
board k of the next round. A board whose two places are both empty (both players withdrew)
is left out, and its place in the next round is empty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.tournaments.records import Pair


def bracket_size(players: int) -> int:
    """The next power of two at or above the player count (at least 2)."""
    size = 2
    while size < players:
        size *= 2
    return size


def rounds_for(players: int) -> int:
    """Rounds to a champion: log2 of the bracket."""
    return bracket_size(players).bit_length() - 1


def seed_order(size: int) -> list[int]:
    """The seeds (from 1) in bracket order: for 8, 1 8 4 5 2 7 3 6, so each board's two
    seeds add up to size + 1 and the top seeds are as far apart as they can be."""
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two places, not {size}")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def first_round(by_seed: Sequence[str]) -> dict[int, Pair]:
    """Board number to pair for the players given best seed first; a seed whose opponent
    would be past the last player has a bye."""
    if len(by_seed) < 2:
        raise ValueError("a knockout needs two players")
    order = seed_order(bracket_size(len(by_seed)))
    boards: dict[int, Pair] = {}
    for board in range(len(order) // 2):
        high, low = sorted((order[2 * board], order[2 * board + 1]))
        a = by_seed[high - 1]
        b = by_seed[low - 1] if low <= len(by_seed) else None
        boards[board] = Pair(a, b)
    return boards


def next_round(
    winners: Mapping[int, str | None], boards: int, seeds: Mapping[str, int]
) -> dict[int, Pair]:
    """The next round from the winners of a round of ``boards`` boards (board -> winner;
    missing or None where nobody went through): a place left empty gives the other player
    a bye; the better seed sits first."""
    if boards < 2 or boards % 2:
        raise ValueError(f"a round of {boards} boards has no next round")
    paired: dict[int, Pair] = {}
    for board in range(boards // 2):
        players = [p for p in (winners.get(2 * board), winners.get(2 * board + 1)) if p]
        if not players:
            continue
        players.sort(key=lambda p: seeds[p])
        paired[board] = Pair(players[0], players[1] if len(players) == 2 else None)
    return paired


@dataclass(frozen=True, slots=True)
class Placing:
    """Where a knockout left a player: ``place`` is shared by everyone out in the same round
    (the champion 1, the finalist 2, the semi-finalists 3, the quarter-finalists 5...);
    ``out_in`` is the round they lost or withdrew in. While the knockout goes on, everyone
    still in shares place 1 with ``out_in`` None."""

    user_id: str
    seed: int
    place: int
    out_in: int | None


def placings(
    seeds: Mapping[str, int],
    total_rounds: int,
    eliminated: Mapping[str, int],
) -> list[Placing]:
    """Everyone, best first: the later a player went out the better, seed breaking ties for
    the order (not the place). ``eliminated``: player -> the round they went out in."""
    lines = []
    for user, seed in seeds.items():
        out = eliminated.get(user)
        # Out in round r of R: 2^(R - r) players went further, so the place is one more.
        place = 1 if out is None else 2 ** (total_rounds - out) + 1
        lines.append(Placing(user, seed, place, out))
    return sorted(lines, key=lambda p: (p.place, p.seed))

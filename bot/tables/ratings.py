"""Skill ratings from match results, with OpenSkill's Plackett-Luce model. Pure: no I/O.

A rating is (mu, sigma): the estimated skill and how unsure that estimate is. Rankings use
the conservative mu - 3·sigma, so a newcomer's lucky win cannot outrank a long record.
Every mode is rated apart, with one call: ``rated`` takes the sides of a match (one player
each, or two teams of two) and their places. The caller reads the players' ratings, calls it
(or ``updated_ratings`` for a winner and a loser) and hands the result to the store with the
finished match, so ratings and results are written together. Finishing moves of one guild
should go through that read-update-write one at a time, or a player who ends two matches at
once keeps only one of the updates.
"""

from __future__ import annotations

from openskill.models import PlackettLuce

from bot.store.rows import CLASSIC, RatingRow

# One model with the library's defaults; it holds parameters only, so sharing it is safe.
_MODEL = PlackettLuce()

DEFAULT_MU: float = float(_MODEL.mu)
DEFAULT_SIGMA: float = float(_MODEL.sigma)
# How many sigmas below mu the display rating sits (OpenSkill's "ordinal").
DISPLAY_SIGMAS = 3.0


def display_rating(mu: float, sigma: float) -> float:
    """The rating shown and ranked on: skill we are fairly sure the player has at least."""
    return mu - DISPLAY_SIGMAS * sigma


def rated(
    guild_id: str,
    mode: str,
    current: dict[str, RatingRow],
    sides: list[list[str]],
    ranks: list[int],
) -> tuple[RatingRow, ...]:
    """Everyone's ratings after one match, in the order of ``sides`` (and of each side).

    ``sides`` are OpenSkill's teams: two teams of two partners in teams matches, one player
    each in every other mode. ``ranks`` gives each side's place (1 is best; equal places are
    a tie). ``current`` holds the ratings read before the match, by user id, of this guild
    and mode; a player missing from it starts from the model's default. Each returned row
    counts one more rated match.
    """
    if len(sides) < 2 or len(ranks) != len(sides):
        raise ValueError("a match is rated with a place for each of two or more sides")
    if any(not side for side in sides) or any(rank < 1 for rank in ranks):
        raise ValueError("every side needs a player and a place from 1")
    users = [user for side in sides for user in side]
    if len(set(users)) != len(users):
        raise ValueError("a player can sit on one side only, once")
    for user_id, row in current.items():
        if (row.user_id, row.guild_id, row.mode) != (user_id, guild_id, mode):
            raise ValueError(
                f"rating row {row.user_id}@{row.guild_id}/{row.mode} is not "
                f"{user_id}@{guild_id}/{mode}"
            )
    before = [[_MODEL.rating(*_mu_sigma(current.get(u))) for u in side] for side in sides]
    after = _MODEL.rate(before, ranks=list(ranks))
    return tuple(
        RatingRow(
            guild_id,
            user_id,
            float(rating.mu),
            float(rating.sigma),
            _played(current.get(user_id)),
            mode,
        )
        for side, ratings in zip(sides, after, strict=True)
        for user_id, rating in zip(side, ratings, strict=True)
    )


def updated_ratings(
    guild_id: str,
    winner: RatingRow | None,
    loser: RatingRow | None,
    winner_id: str,
    loser_id: str,
    *,
    mode: str = CLASSIC,
) -> tuple[RatingRow, RatingRow]:
    """The winner's and the loser's ratings after one match between them: ``rated`` for two
    one-player sides.

    None stands for a player without a rating yet, who starts from the model's default.
    Each returned row counts one more rated match.
    """
    if winner_id == loser_id:
        raise ValueError("a player cannot beat themselves")
    current: dict[str, RatingRow] = {}
    for row, user_id in ((winner, winner_id), (loser, loser_id)):
        if row is not None:
            if row.user_id != user_id:
                raise ValueError(f"rating row {row.user_id}@{row.guild_id} is not {user_id}")
            current[user_id] = row
    after_w, after_l = rated(guild_id, mode, current, [[winner_id], [loser_id]], [1, 2])
    return after_w, after_l


def _mu_sigma(row: RatingRow | None) -> tuple[float, float]:
    return (DEFAULT_MU, DEFAULT_SIGMA) if row is None else (row.mu, row.sigma)


def _played(row: RatingRow | None) -> int:
    return 1 if row is None else row.matches + 1

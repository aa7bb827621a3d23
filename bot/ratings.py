"""Skill ratings from match results, with OpenSkill's Plackett-Luce model. Pure: no I/O.

A rating is (mu, sigma): the estimated skill and how unsure that estimate is. Rankings use
the conservative mu - 3·sigma, so a newcomer's lucky win cannot outrank a long record.
The caller reads the players' ratings, calls ``updated_ratings`` and hands the result to
the store with the finished match, so ratings and results are written together. Finishing
moves of one guild should go through that read-update-write one at a time, or a player who
ends two matches at once keeps only one of the updates.
"""

from __future__ import annotations

from openskill.models import PlackettLuce

from bot.store.rows import RatingRow

# One model with the library's defaults; it holds parameters only, so sharing it is safe.
_MODEL = PlackettLuce()

DEFAULT_MU: float = float(_MODEL.mu)
DEFAULT_SIGMA: float = float(_MODEL.sigma)
# How many sigmas below mu the display rating sits (OpenSkill's "ordinal").
DISPLAY_SIGMAS = 3.0


def display_rating(mu: float, sigma: float) -> float:
    """The rating shown and ranked on: skill we are fairly sure the player has at least."""
    return mu - DISPLAY_SIGMAS * sigma


def updated_ratings(
    guild_id: str,
    winner: RatingRow | None,
    loser: RatingRow | None,
    winner_id: str,
    loser_id: str,
) -> tuple[RatingRow, RatingRow]:
    """The winner's and the loser's ratings after one match between them.

    None stands for a player without a rating yet, who starts from the model's default.
    Each returned row counts one more rated match.
    """
    if winner_id == loser_id:
        raise ValueError("a player cannot beat themselves")
    for row, user_id in ((winner, winner_id), (loser, loser_id)):
        if row is not None and (row.user_id != user_id or row.guild_id != guild_id):
            raise ValueError(f"rating row {row.user_id}@{row.guild_id} is not {user_id}")
    before_w = _MODEL.rating(*_mu_sigma(winner))
    before_l = _MODEL.rating(*_mu_sigma(loser))
    # Ranks: lower is better; one-player teams since Gin Rummy is one against one.
    [[after_w], [after_l]] = _MODEL.rate([[before_w], [before_l]], ranks=[1, 2])
    return (
        RatingRow(guild_id, winner_id, float(after_w.mu), float(after_w.sigma), _played(winner)),
        RatingRow(guild_id, loser_id, float(after_l.mu), float(after_l.sigma), _played(loser)),
    )


def _mu_sigma(row: RatingRow | None) -> tuple[float, float]:
    return (DEFAULT_MU, DEFAULT_SIGMA) if row is None else (row.mu, row.sigma)


def _played(row: RatingRow | None) -> int:
    return 1 if row is None else row.matches + 1

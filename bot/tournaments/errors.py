"""Refusals of a tournament or season request, shown privately to whoever asked.

``TournamentError`` is a ``GinError``, so the Discord layer's one error handler shows it
like any other refusal: an English template with named values, translated at the edge
(``bot.i18n.translate``) once the catalogue extractor lists ``TournamentError`` among the
errors a player reads.
"""

from __future__ import annotations

from typing import ClassVar

from bot.gin.errors import GinError


class TournamentError(GinError):
    """Something asked of a tournament or a season that cannot be done; nothing changed."""

    code: ClassVar[str] = "tournament"


class NoPairing(Exception):
    """No pairing of a round satisfies the rules (every pair would meet again): the
    tournament ends after the rounds already played."""

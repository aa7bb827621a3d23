"""What the tournament service tells the application: a change it made on hearing a table's
news (a match's result recorded), for the front ends to show."""

from __future__ import annotations

from dataclasses import dataclass

from bot.tournaments.model import Update


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentUpdated:
    """A tournament changed by itself (not through a front end's call, whose caller shows
    the answer): a finished match's result was recorded, and what followed."""

    update: Update

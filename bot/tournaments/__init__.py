"""Tournaments (Swiss and knockout, duplicate deals optional) and seasons of a server's
leaderboard: the pure logic of pairings, standings, time limits, seasons and divisions, and
the services the Discord layer calls. Nothing here imports discord."""

from bot.store.tournament_rows import PairingRow, TournamentEntry
from bot.tournaments.errors import NoPairing, TournamentError
from bot.tournaments.model import (
    MatchOutcome,
    MatchToStart,
    StandingLine,
    Standings,
    TableToEnd,
    Tournament,
    Update,
)
from bot.tournaments.season_service import DivisionTable, DuePost, SeasonConfig, SeasonService
from bot.tournaments.seasons import Cadence, Season, SeasonSchedule, WeeklyPost
from bot.tournaments.service import TournamentService
from bot.tournaments.settings import Format, TournamentSettings

__all__ = [
    "Cadence",
    "DivisionTable",
    "DuePost",
    "Format",
    "MatchOutcome",
    "MatchToStart",
    "NoPairing",
    "PairingRow",
    "Season",
    "SeasonConfig",
    "SeasonSchedule",
    "SeasonService",
    "StandingLine",
    "Standings",
    "TableToEnd",
    "Tournament",
    "TournamentEntry",
    "TournamentError",
    "TournamentService",
    "TournamentSettings",
    "Update",
    "WeeklyPost",
]

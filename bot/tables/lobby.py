"""The rules of a lobby: who may take, leave or start a table of more than two players.

Pure checks on a table, each raising ``TableError`` with the sentence to show; the service
takes the lock, runs them, then changes the table and stores it.
"""

from __future__ import annotations

from bot.gin.match import Player
from bot.gin.modes import Mode
from bot.tables.model import Seat, Status, Table, TableError

TEAM_SIZE = 2


def table_size(mode: Mode, wanted: int | None) -> int:
    """Seats of a new table: fixed for three and teams; elimination takes 2 to 14."""
    if mode.min_players == mode.max_players:
        if wanted is not None and wanted != mode.min_players:
            raise TableError(
                f"{mode.label} is played by exactly {mode.min_players}: leave `players` out."
            )
        return mode.min_players
    size = mode.default_players if wanted is None else wanted
    if not mode.min_players <= size <= mode.max_players:
        raise TableError(
            f"{mode.label} takes {mode.min_players} to {mode.max_players} players "
            f"(you asked for {size})."
        )
    return size


def check_teams(mode: Mode, seats: list[Seat]) -> None:
    """Sides are only for teams, and each holds two."""
    picked = [seat.team for seat in seats if seat.team is not None]
    if picked and not mode.team_play:
        raise TableError("Teams are only picked at a teams table: leave `team` out.")
    for side in (0, 1):
        if picked.count(side) > TEAM_SIZE:
            raise TableError(
                f"Team {side + 1} is full: join team {2 - side}, or leave the choice to the cut."
            )


def _open_lobby(table: Table, open_here: bool) -> None:
    if not open_here or table.status is not Status.CHALLENGE:
        raise TableError("This table is no longer taking seats. Open a new one with `/gin open`.")
    if not table.is_lobby:
        raise TableError(
            "This channel has a two-player challenge, not a lobby: it is answered with "
            "`/gin accept` or `/gin decline`."
        )


def check_join(table: Table, player: Player, team: int | None, *, open_here: bool) -> None:
    _open_lobby(table, open_here)
    if table.seat_of(player.id) is not None:
        raise TableError(
            "You already have a seat at this table. The host starts it with `/gin start`; "
            "to give up your seat, use `/gin leave`."
        )
    if len(table.seats) >= table.size:
        raise TableError(
            f"This table is full ({table.size} seats). Watch it, or open your own in another "
            "channel with `/gin open`."
        )
    if team is not None:
        if table.mode_name != "teams":
            raise TableError("Teams are only picked at a teams table: join without `team`.")
        taken = sum(1 for seat in table.seats if seat.team == team)
        if taken >= TEAM_SIZE:
            raise TableError(
                f"Team {team + 1} is full: join team {2 - team}, or leave the choice to the cut."
            )


def check_leave(table: Table, user_id: str, *, open_here: bool) -> int:
    """The seat to give up; refused once the match started (resign instead)."""
    if open_here and table.status is Status.PLAYING and table.seat_of(user_id) is not None:
        raise TableError(
            "The match has started: to leave it, use `/gin resign` (you lose, or are placed "
            "below everyone still in)."
        )
    _open_lobby(table, open_here)
    seat = table.seat_of(user_id)
    if seat is None:
        raise TableError("You don't have a seat at this table, so there is nothing to leave.")
    return seat


def check_start(table: Table, user_id: str, *, open_here: bool) -> None:
    _open_lobby(table, open_here)
    if user_id != table.host:
        host = next((s.player.name for s in table.seats if s.player.id == table.host), "the host")
        raise TableError(f"Only the host, {host}, can start this table.")
    mode = table.mode
    have = len(table.seats)
    if have < mode.min_players or (mode.min_players == mode.max_players and have < table.size):
        need = mode.min_players
        raise TableError(
            f"{mode.label} needs {need} players to start; {have} seated so far. Wait for "
            "more to join, or fill seats with the bot (`/gin open ... bots:`)."
        )

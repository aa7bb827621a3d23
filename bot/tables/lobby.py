"""The rules of a lobby: who may take, leave or start a table of more than two players.

Pure checks on a table, each raising ``TableError`` with the sentence to show; the service
takes the lock, runs them, then changes the table and stores it.
"""

from __future__ import annotations

from bot.gin.match import Player
from bot.gin.modes import Mode
from bot.i18n import N_
from bot.tables.model import Seat, Status, Table, TableError

TEAM_SIZE = 2

# The refusals that name the mode, one whole sentence per mode (by its name) since other
# languages bend the mode's name to the sentence. A mode of a fixed player count asked for
# another, with the value {players}:
_EXACTLY: dict[str, str] = {
    "classic": N_("The two-player game is played by exactly {players}: leave `players` out."),
    "three": N_("Three players is played by exactly {players}: leave `players` out."),
    "teams": N_("Two teams of two is played by exactly {players}: leave `players` out."),
}
# A mode of a range of player counts asked for one outside it ({low}, {high}, {asked}):
_OUTSIDE: dict[str, str] = {
    "elimination": N_("Elimination takes {low} to {high} players (you asked for {asked})."),
}
# A lobby started with too few players ({need}, {have}):
_TOO_FEW: dict[str, str] = {
    "three": N_(
        "Three players needs {need} players to start; {have} seated so far. Wait for more to "
        "join, or fill seats with the bot (`/gin open ... bots:`)."
    ),
    "teams": N_(
        "Two teams of two needs {need} players to start; {have} seated so far. Wait for more "
        "to join, or fill seats with the bot (`/gin open ... bots:`)."
    ),
    "elimination": N_(
        "Elimination needs {need} players to start; {have} seated so far. Wait for more to "
        "join, or fill seats with the bot (`/gin open ... bots:`)."
    ),
}


def table_size(mode: Mode, wanted: int | None) -> int:
    """Seats of a new table: fixed for three and teams; elimination takes 2 to 14."""
    if mode.min_players == mode.max_players:
        if wanted is not None and wanted != mode.min_players:
            raise TableError(_EXACTLY[mode.name], players=mode.min_players)
        return mode.min_players
    size = mode.default_players if wanted is None else wanted
    if not mode.min_players <= size <= mode.max_players:
        raise TableError(
            _OUTSIDE[mode.name], low=mode.min_players, high=mode.max_players, asked=size
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
                "Team {full} is full: join team {other}, or leave the choice to the cut.",
                full=side + 1,
                other=2 - side,
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
            "This table is full ({seats} seats). Watch it, or open your own in another "
            "channel with `/gin open`.",
            seats=table.size,
        )
    if team is not None:
        if not table.mode.team_play:
            raise TableError("Teams are only picked at a teams table: join without `team`.")
        taken = sum(1 for seat in table.seats if seat.team == team)
        if taken >= TEAM_SIZE:
            raise TableError(
                "Team {full} is full: join team {other}, or leave the choice to the cut.",
                full=team + 1,
                other=2 - team,
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
        host = next((s.player.name for s in table.seats if s.player.id == table.host), None)
        if host is None:
            # TRANSLATORS: the host's name is not known here; "the host" stands for it.
            raise TableError("Only the host, the host, can start this table.")
        raise TableError("Only the host, {host}, can start this table.", host=host)
    mode = table.mode
    have = len(table.seats)
    if have < mode.min_players or (mode.min_players == mode.max_players and have < table.size):
        raise TableError(_TOO_FEW[mode.name], need=mode.min_players, have=have)
